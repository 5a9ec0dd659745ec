// The game page's context (game.ts draws it): a seat's name linked to the player's page with
// his rating and its change, and the line under the board with the time control, the
// tournament and the spectators' count. The words are game_context_state.ts's.

import { context_line, seat_diff, seat_rating, watching_text } from "./game_context_state.js";
import type { GameState, Side } from "../protocol/types.js";
import { esc } from "../shell/util.js";

/** A seat's name (an account's linked to its page), then its rating and change in a rated game. */
export function seat_html(g: GameState, side: Side, name: string): string {
  const p = g.players?.[side];
  const label = p?.account
    ? `<a class="pname" href="#/@/${encodeURIComponent(p.account)}">${esc(name)}</a>`
    : `<span class="pname">${esc(name)}</span>`;
  const rating = seat_rating(g, p);
  const diff = g.status === "over" || g.status === "aborted" ? seat_diff(p) : "";
  const cls = diff.startsWith("+") ? "up" : diff.startsWith("−") ? "down" : "";
  return `${label}${rating ? ` <span class="prating" data-side="${side}">${esc(rating)}</span>` : ""}${diff ? ` <span class="pdiff ${cls}" data-side="${side}">${esc(diff)}</span>` : ""}`;
}

/** The line under the board: "Rated · Blitz 3+2 · <tournament> · 3 watching". */
export function context_html(g: GameState): string {
  const parts: string[] = [];
  const line = context_line(g);
  if (line) parts.push(`<span id="tc-line">${esc(line)}</span>`);
  if (g.tournament)
    parts.push(`<a id="game-tournament" href="#/tournaments/${encodeURIComponent(g.tournament.id)}">${esc(g.tournament.name)}</a>`);
  parts.push(`<span id="watching">${esc(watching_text(g.spectators))}</span>`);
  return `<p class="game-context muted" id="game-context">${parts.join(" · ")}</p>`;
}

/** A presence message's count, shown without a redraw of the page. */
export function show_watching(root: HTMLElement, n: number): void {
  const el = root.querySelector<HTMLElement>("#watching");
  if (el) el.textContent = watching_text(n);
}
