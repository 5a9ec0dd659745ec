// Premoves (the game page): in a live game a player may pick his next hole while it is the
// opponent's turn; it is kept and shown, and played as soon as his turn comes if it is legal
// then (else dropped without a word). Page-only: the server sees an ordinary move, charged to
// his clock as any other.

import type { GameState } from "../protocol/types.js";

/** Whether the reader may pick a premove now: he plays a side of a live game (online or
 * against the engine) that is being played, and it is the other side's turn. */
export function may_premove(g: GameState | null): boolean {
  if (!g || g.status !== "playing" || (g.mode !== "online" && g.mode !== "engine")) return false;
  const me = g.you;
  return (me === "white" || me === "black") && g.to_move !== me;
}

/** The premove after a click on hole `hole` of side `side` (null: a click elsewhere): a
 * non-empty hole of his own row picks it, the same hole again or anything else cancels. */
export function premove_after_click(g: GameState | null, current: number | null, side: string | null, hole: number | null): number | null {
  if (!g || !may_premove(g) || side !== g.you || hole === null || hole === current) return null;
  const row = g.board[g.you as "white" | "black"];
  return row && row[hole - 1] > 0 ? hole : null;
}

/** What to do with `premove` once state `g` comes: play it (his turn and it is legal), keep it
 * (still the opponent's turn), or drop it (anything else). */
export function premove_on_state(g: GameState, premove: number | null): { play: number | null; keep: number | null } {
  if (premove === null) return { play: null, keep: null };
  if (may_premove(g)) return { play: null, keep: premove };
  const mine = g.status === "playing" && g.to_move === g.you && g.legal.includes(premove);
  return { play: mine ? premove : null, keep: null };
}
