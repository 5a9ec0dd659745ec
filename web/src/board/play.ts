// The rules of a move and of the end (docs/rules.md "A move", "End of the game"), for the
// analysis board's variations (games/move_tree.ts): a move made off the game's own line is
// played here, in the page, since the server knows only the game's line. The game's own moves
// and legal holes still come from the server. Checked against the server's vectors (the
// master game ply by ply, perft, the random games' ends) in test/unit/move_tree.test.mjs.

import type { Board, MoveRec, Side } from "../protocol/types.js";
import { format_position, other, parse_position, sowing_path } from "./logic.js";

/** The rule options a game is played under (GameState's `tuz` and `play_out`). */
export interface PlayRules {
  tuz: boolean;
  play_out: boolean;
}

/** How a game ended on the board: who won (or a draw), why, and the final kaznas (after the
 * no-move transfer). */
export interface BoardEnd {
  winner: Side | "draw";
  reason: "decided" | "no-move" | "repetition";
  score: { white: number; black: number };
}

/** The holes the side to move may play: his non-empty holes (a tuz on his row is empty). */
export function legal_holes(board: Board, to_move: Side): number[] {
  const out: number[] = [];
  board[to_move].forEach((c, i) => {
    if (c > 0) out.push(i + 1);
  });
  return out;
}

/** The board after sowing `hole` of `mover` (a hole with stones), with what the move did: its
 * landing cell, the stones of an even capture and whether it made a tuz. `b0` is not changed.
 * The one sowing of the page: the blind mode's preview (text_board_state.ts) asks it too. */
export function sow(b0: Board, mover: Side, hole: number, rules: { tuz: boolean }) {
  const b: Board = JSON.parse(JSON.stringify(b0));
  const n = b.white.length;
  const k = b[mover][hole - 1];
  b[mover][hole - 1] = 0;
  const path = sowing_path(n, { side: mover, hole }, k);
  for (const c of path) {
    const owner = other(c.side);
    if (b.tuz[owner] === c.hole) b.kazna[owner]++;
    else b[c.side][c.hole - 1]++;
  }
  const last = path[path.length - 1];
  const opp = other(mover);
  let captured = 0;
  let tuz = false;
  const on_tuz = b.tuz[mover] === last.hole && last.side === opp;
  if (last.side === opp && !on_tuz) {
    const count = b[opp][last.hole - 1];
    if (count % 2 === 0) {
      captured = count;
    } else if (count === 3 && rules.tuz && b.tuz[mover] === 0 && last.hole !== n && b.tuz[opp] !== last.hole) {
      tuz = true;
      b.tuz[mover] = last.hole;
    }
    if (captured || tuz) {
      b.kazna[mover] += count;
      b[opp][last.hole - 1] = 0;
    }
  }
  return { board: b, last, captured, tuz };
}

/** The move of `hole` over the position text `position` as the server writes it (MoveRec, the
 * notation in PlayOK's style: `65(10)`, `27X`), or null when the hole holds no stones of the
 * side to move. */
export function play_hole(position: string, hole: number, rules: PlayRules): MoveRec | null {
  const p = parse_position(position);
  const mover = p.to_move;
  if (!legal_holes(p.board, mover).includes(hole)) return null;
  const s = sow(p.board, mover, hole, rules);
  const notation = `${hole}${s.last.hole}${s.tuz ? "X" : ""}${s.captured ? `(${s.board.kazna[mover]})` : ""}`;
  const number = mover === "black" ? p.move_number + 1 : p.move_number;
  return {
    hole,
    side: mover,
    notation,
    captured: s.captured,
    tuz: s.tuz,
    from: { side: mover, hole },
    to: { side: s.last.side, hole: s.last.hole },
    position: format_position(s.board, other(mover), number),
  };
}

/** A position without its move number: what a repetition compares. */
function position_key(position: string): string {
  return position.trim().split(/ +/).slice(0, 4).join(" ");
}

/** How the game stands after the position `position` (reached by a move), the positions before
 * it in `earlier` (for a repetition): decided (a kazna past N·N, unless played out), no move
 * for the side to move (the stones left go to the other side), the third repetition; null while
 * it goes on. In this order, as the server's referee asks. */
export function board_end(position: string, earlier: string[], rules: PlayRules): BoardEnd | null {
  const p = parse_position(position);
  const b = p.board;
  const n = b.white.length;
  const result = (white: number, black: number, reason: BoardEnd["reason"]): BoardEnd => ({
    winner: white > black ? "white" : black > white ? "black" : "draw",
    reason,
    score: { white, black },
  });
  if (!rules.play_out && (b.kazna.white > n * n || b.kazna.black > n * n)) return result(b.kazna.white, b.kazna.black, "decided");
  if (legal_holes(b, p.to_move).length === 0) {
    const rest = b[other(p.to_move)].reduce((s, c) => s + c, 0);
    const k = { ...b.kazna, [other(p.to_move)]: b.kazna[other(p.to_move)] + rest };
    return result(k.white, k.black, "no-move");
  }
  // kaznas never shrink: a position can repeat only those since they last changed
  const key = position_key(position);
  const kaznas = (k: string) => k.split(" ").slice(1, 3).join(" ");
  let seen = 0;
  for (let i = earlier.length - 1; i >= 0; i--) {
    const e = position_key(earlier[i]);
    if (kaznas(e) !== kaznas(key)) break;
    if (e === key) seen++;
  }
  return seen >= 2 ? { ...result(b.kazna.white, b.kazna.black, "repetition"), winner: "draw" } : null;
}
