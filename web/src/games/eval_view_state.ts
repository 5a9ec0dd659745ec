// How the game page shows the engine's evaluation: as a side's chance of a win, in whole
// percent, from the score's `wdl` (docs/web-protocol.md "Scores and lines"), or as the
// expected margin in stones. The reader's choice ("chance" unless he picked the margin) is the
// setting "eval_view" (shell/prefs.ts; games/game.ts reads and writes it). A result the solver
// or the endgame tables know is shown as that result in both views. Pure (unit-tested in
// test/unit/eval_view.test.mjs).

import { bar_percent, graph_value } from "../board/logic.js";
import type { Score, Side } from "../protocol/types.js";

export type EvalView = "chance" | "margin";
/** The other view (what the toggle switches to). */
export function other_view(v: EvalView): EvalView {
  return v === "chance" ? "margin" : "chance";
}

/** White's chances [win, draw, loss] in permille from a score of the side to move; null when
 * the score has none (a server or a stored review from before `wdl`). White is to move when
 * cp and white_cp agree; at 0 they agree either way and the chances are symmetric. */
export function white_wdl(score: Score | null | undefined): [number, number, number] | null {
  const w = score?.wdl;
  if (!score || !Array.isArray(w) || w.length !== 3) return null;
  return score.cp === score.white_cp ? [w[0], w[1], w[2]] : [w[2], w[1], w[0]];
}

/** Whether the score's result is known to the end (proven or in the endgame tables). */
function known(score: Score): boolean {
  return !!(score.proven ?? score.table);
}

/** The side more likely to win and its chance in whole percent (White on a tie), for the win
 * chance view; null in the margin view, for a known result or without chances. */
export function favoured_chance(score: Score | null | undefined, view: EvalView): { side: Side; pct: number } | null {
  if (view !== "chance" || !score || known(score)) return null;
  const w = white_wdl(score);
  if (!w) return null;
  return w[0] >= w[2] ? { side: "white", pct: Math.round(w[0] / 10) } : { side: "black", pct: Math.round(w[2] / 10) };
}

/** The side to move's chance of a win in whole percent (a hint's score), as favoured_chance. */
export function mover_chance(score: Score | null | undefined, view: EvalView): number | null {
  if (view !== "chance" || !score || known(score)) return null;
  const w = score.wdl;
  return Array.isArray(w) && w.length === 3 ? Math.round(w[0] / 10) : null;
}

/** White's share of the evaluation bar, 0..100: White's expected score (a win plus half a
 * draw) in the win chance view, else the margin's smooth share (board/logic.ts bar_percent). */
export function bar_share(score: Score, view: EvalView): number {
  const w = view === "chance" && !known(score) ? white_wdl(score) : null;
  return w ? (w[0] + w[1] / 2) / 10 : bar_percent(score.white_cp);
}

/** A reviewed position's place on the graph, -1..1 from White's view: in the win chance view
 * White's expected score stretched over the inner band (|v| <= 0.85), else (and for a known
 * result or a review without chances) board/logic.ts graph_value. */
export function view_graph_value(white: Score | null | undefined, white_cp_value: number, view: EvalView): number {
  const w = view === "chance" && white && !known(white) ? white_wdl(white) : null;
  if (!w) return graph_value(white, white_cp_value);
  return 0.85 * ((w[0] + w[1] / 2) / 500 - 1);
}
