// The game page's pure part (games/game.ts draws it): which state comes next from the server's
// messages, what position is on screen, whether the reader may move, the sowing animation's
// frames and what the keys do. No DOM access here (unit-tested in test/unit/game_state.test.mjs).

import { other, parse_position, type Cell } from "../board/logic.js";
import { apply_delta } from "../protocol/messages.js";
import type { Board, DeltaMessage, GameState, MoveRec, Side } from "../protocol/types.js";

/** What a delta does: the state it makes (queued after the others), or "sync" when it does not
 * follow the last state the page has (a gap) and the page must ask for the whole state. */
export function after_delta(last: GameState | null, d: DeltaMessage): GameState | "sync" {
  return apply_delta(last, d) ?? "sync";
}

/** The state the next delta applies over: the last one queued, else the one shown. */
export function last_state(queue: GameState[], shown: GameState | null): GameState | null {
  return queue.length > 0 ? queue[queue.length - 1] : shown;
}

/** Whether going from `old` to `g` is worth a sowing animation: one move more, the live position
 * on screen, no pile of states behind it, and the reader does not ask for reduced motion. */
export function animates(old: GameState | null, g: GameState, view_ply: number | null, queued: number, reduced_motion: boolean): boolean {
  return (
    old !== null &&
    g.ply === old.ply + 1 &&
    g.moves.length === old.moves.length + 1 &&
    view_ply === null &&
    queued < 2 &&
    !reduced_motion
  );
}

/** The boards of the sowing animation of `mv` over `start`, one per stone dropped along `path`
 * (board/logic.ts sowing_path), each with the hole it reached. The moved hole is emptied
 * first; a stone reaching a tuz goes to its owner's kazna. `start` is not changed. */
export function sowing_frames(start: Board, mv: MoveRec, path: Cell[]): { board: Board; trail: Cell }[] {
  const b = lifted(start, mv);
  return path.map((c) => {
    const owner = other(c.side);
    if (b.tuz[owner] === c.hole) b.kazna[owner]++;
    else b[c.side][c.hole - 1]++;
    return { board: JSON.parse(JSON.stringify(b)) as Board, trail: c };
  });
}

/** The board with the moved hole emptied: the animation's first frame. */
export function lifted(start: Board, mv: MoveRec): Board {
  const b: Board = JSON.parse(JSON.stringify(start));
  b[mv.from.side][mv.from.hole - 1] = 0;
  return b;
}

/** The milliseconds between two frames of a sowing of `stones`: about 0.56 s in all, 18 to 70
 * ms a stone. */
export function frame_ms(stones: number): number {
  return Math.max(18, Math.min(70, 560 / stones));
}

/** Whether our standing draw offer was declined between two states of the same game: it is
 * gone while the game goes on. */
export function offer_declined(prev: GameState | null, g: GameState): boolean {
  const mine = (x: GameState | null) => !!x && (x.you === "white" || x.you === "black") && x.draw_offer === x.you;
  return !!prev && prev.id === g.id && mine(prev) && !g.draw_offer && g.status === "playing";
}

/** Whether the game is over (finished or called off). */
export function is_over(g: GameState): boolean {
  return g.status === "over" || g.status === "aborted";
}

/** Whether the reader may play a hole now: the live position shown, no animation, the game
 * going on with legal moves, and no move of his for this ply on its way. */
export function can_move(g: GameState | null, view_ply: number | null, animating: boolean, sent_ply: number): boolean {
  return !!g && view_ply === null && !animating && !is_over(g) && g.legal.length > 0 && sent_ply !== g.ply;
}

/** The ply to show when the reader asks for `ply`: within 0..g.ply, null for the live one. */
export function view_at(g: GameState, ply: number | null): number | null {
  if (ply === null) return null;
  const p = Math.max(0, Math.min(g.ply, ply));
  return p === g.ply ? null : p;
}

/** The position text after `ply` moves (0: the start). */
export function position_at(g: GameState, ply: number): string {
  return ply === 0 ? g.start_position : g.moves[ply - 1].position;
}

/** The position on screen: an earlier one the reader went back to, else the animation's
 * board, else the live one. */
export function shown_position(g: GameState, view_ply: number | null, anim_board: Board | null): { board: Board; to_move: Side; ply: number } {
  if (view_ply !== null) {
    const p = parse_position(position_at(g, view_ply));
    return { board: p.board, to_move: p.to_move, ply: view_ply };
  }
  return { board: anim_board ?? g.board, to_move: g.to_move, ply: g.ply };
}

/** The side drawn at the bottom: the reader's (White for a spectator or both), turned over by
 * the flip button. */
export function bottom_side(you: GameState["you"], flipped: boolean): Side {
  const base: Side = you === "black" ? "black" : "white";
  return flipped ? other(base) : base;
}

/** What a key does on the game page: play a hole (1-9), go to a ply, or nothing. */
export type KeyCommand = { play: number } | { go: "first" | "prev" | "next" | "last" } | null;

export function key_command(key: string): KeyCommand {
  if (/^[1-9]$/.test(key)) return { play: Number(key) };
  if (key === "ArrowLeft") return { go: "prev" };
  if (key === "ArrowRight") return { go: "next" };
  if (key === "Home" || key === "ArrowUp") return { go: "first" };
  if (key === "End" || key === "ArrowDown") return { go: "last" };
  return null;
}

/** The ply a navigation asks for from the ply shown (null: the live position). */
export function go_target(go: "first" | "prev" | "next" | "last", shown: number): number | null {
  return go === "first" ? 0 : go === "prev" ? shown - 1 : go === "next" ? shown + 1 : null;
}
