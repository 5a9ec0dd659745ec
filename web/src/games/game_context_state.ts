// The game page's context as text (pure, unit-tested): the time-control line ("Rated · Blitz
// 3+2", "Casual · Correspondence · 2 days a move"), a seat's rating and its change, and the
// spectators' count. game_context.ts draws them.

import { t, t_any } from "../i18n/index.js";
import type { GameState, Player } from "../protocol/types.js";
import { clock_label, diff_text } from "../accounts/accounts_state.js";

/** The game's time control and standing in one line, in the reader's language: rated or casual
 * (online games), the speed category with the clock or the days per move; "" when there is
 * nothing to say (an analysis board, a game without a clock played at home). */
export function context_line(g: Pick<GameState, "mode" | "rated" | "speed" | "time_control">): string {
  const parts: string[] = [];
  if (g.mode === "online") parts.push(t(g.rated ? "rated" : "casual"));
  const tc = g.time_control;
  const speed = g.speed ? t_any(`speed_${g.speed}`) : "";
  if (tc?.kind === "clock") parts.push(`${speed} ${clock_label(tc)}`.trim());
  else if (tc?.kind === "correspondence") parts.push(speed, t("days_per_move", { n: tc.days }));
  else if (g.mode === "online" || g.mode === "engine") parts.push(t("no_clock"));
  return parts.filter((p) => p).join(" · ");
}

/** A seat's rating in a rated game ("1500", "1500?" while provisional), "" otherwise. */
export function seat_rating(g: Pick<GameState, "rated">, p: Player | null | undefined): string {
  if (!g.rated || !p || p.rating === null || p.rating === undefined) return "";
  return `${Math.round(p.rating)}${p.provisional ? "?" : ""}`;
}

/** A seat's rating change once the game is over ("+8", "−8", "0"), "" before. */
export function seat_diff(p: Player | null | undefined): string {
  return diff_text(p?.rating_diff);
}

/** "3 watching", "" when nobody watches. */
export function watching_text(n: number | undefined): string {
  return n ? t("watching", { n }) : "";
}
