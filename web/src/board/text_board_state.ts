// The blind mode's pure part (no DOM): what a hole would do if played, what the player typed, and every sentence the mode says (a move, the kaznas, the clocks, the legal
// holes, a hole's preview, the board row by row) in the reader's language. text_board.ts shows
// and speaks them; the setting is shell/prefs.ts's "blind".

import type { Board, MoveRec, Side } from "../protocol/types.js";
import { t } from "../i18n/index.js";
import { clock_text, other, parse_position, type Cell } from "./logic.js";
import { sow } from "./play.js";

/** What playing a hole would do: nothing (an empty hole or a tuz), or where the last stone
 * lands, how many the hole then holds, what the move takes and the mover's kazna after it. */
export type Preview =
  | { kind: "empty" | "tuz" }
  | { kind: "move"; stones: number; to: Cell; count: number; captures: number; tuz: boolean; kazna: number };

/** The tuz owner of a cell: a tuz on White's row is Black's and vice versa; null for none. */
function tuz_owner(board: Board, c: Cell): Side | null {
  const owner = other(c.side);
  return board.tuz[owner] === c.hole ? owner : null;
}

/** What `side` playing `hole` would do on `board` (rules.md "A move"); `tuz_rule` is false in a
 * game played without tuzes. */
export function preview_move(board: Board, side: Side, hole: number, tuz_rule = true): Preview {
  if (tuz_owner(board, { side, hole })) return { kind: "tuz" };
  const k = board[side][hole - 1];
  if (!k) return { kind: "empty" };
  const s = sow(board, side, hole, { tuz: tuz_rule });
  const to = s.last;
  // the landing hole's stones before a capture took them (none on a tuz: they went to a kazna)
  const count = s.tuz ? 3 : s.captured ? s.captured : tuz_owner(board, to) ? 0 : s.board[to.side][to.hole - 1];
  return { kind: "move", stones: k, to, count, captures: s.tuz ? 3 : s.captured, tuz: s.tuz, kazna: s.board.kazna[side] };
}

/** What the player typed into the blind mode's input. */
export type Command = "last" | "kaznas" | "clocks" | "legal" | "rows" | "status" | "help";
export type Typed =
  | { kind: "play"; hole: number; to: number | null; tuz: boolean; kazna: number | null }
  | { kind: "preview"; side: Side | null; hole: number }
  | { kind: "command"; command: Command }
  | { kind: "bad" };

const COMMANDS: Record<string, Command> = { l: "last", k: "kaznas", c: "clocks", m: "legal", r: "rows", s: "status", h: "help", "?": "help" };

/** The command of a single key typed into the empty input, or null. */
export function key_command_of(key: string): Command | null {
  return Object.prototype.hasOwnProperty.call(COMMANDS, key.toLowerCase()) ? COMMANDS[key.toLowerCase()] : null;
}

/** Reads a line typed into the input: a hole ("6"), a move in notation ("65", "27x (57)"), a
 * preview ("/7" for the side to move's hole 7, "w 7", "b 7") or a command letter. */
export function parse_typed(text: string, n: number): Typed {
  const s = text.trim().toLowerCase();
  const hole_ok = (h: number) => h >= 1 && h <= n;
  const mv = /^([1-9])([1-9])?\s*(x)?\s*(?:\((\d+)\))?$/.exec(s);
  if (mv && hole_ok(Number(mv[1])) && (!mv[2] || hole_ok(Number(mv[2]))))
    return { kind: "play", hole: Number(mv[1]), to: mv[2] ? Number(mv[2]) : null, tuz: !!mv[3], kazna: mv[4] ? Number(mv[4]) : null };
  const pv = /^([/wb])\s*([1-9])$/.exec(s);
  if (pv && hole_ok(Number(pv[2]))) {
    const side = pv[1] === "w" ? "white" : pv[1] === "b" ? "black" : null;
    return { kind: "preview", side, hole: Number(pv[2]) };
  }
  const cmd = key_command_of(s);
  return cmd ? { kind: "command", command: cmd } : { kind: "bad" };
}

/** Why a move typed in notation does not match what the hole does, or null when it does. */
export function typed_mismatch(typed: Typed & { kind: "play" }, p: Preview): string | null {
  if (p.kind !== "move") return null; // refused as not legal by the caller
  const wrong = (typed.to !== null && typed.to !== p.to.hole) || (typed.tuz && !p.tuz) || (typed.kazna !== null && typed.kazna !== p.kazna);
  if (!wrong) return null;
  const expected = `${typed.hole}${p.to.hole}${p.tuz ? "x" : ""}${p.captures || p.tuz ? ` (${p.kazna})` : ""}`;
  return t("bl_expected", { move: expected });
}

/** "on Black's row" for a hole of side's row. */
function row_words(side: Side): string {
  return t(side === "white" ? "bl_on_white" : "bl_on_black");
}

/** What a move did and the mover's kazna after it: "White 6 to 5 on Black's row, captures 10,
 * kazna 10". */
export function move_words(mv: MoveRec): string {
  const parts = [t("bl_move", { side: t(mv.side), from: mv.from.hole, to: mv.to.hole, row: row_words(mv.to.side) })];
  if (mv.tuz) parts.push(t("bl_makes_tuz"));
  else if (mv.captured > 0) parts.push(t("bl_captures", { n: mv.captured }));
  try {
    parts.push(t("bl_kazna", { n: parse_position(mv.position).board.kazna[mv.side] }));
  } catch {
    /* a position the page cannot read: the move without its kazna */
  }
  return parts.join(", ");
}

/** What a hole would do, in words: "White 6: 9 stones, the last lands in 5 on Black's row,
 * captures 10, kazna 10". */
export function preview_words(board: Board, side: Side, hole: number, tuz_rule = true): string {
  const p = preview_move(board, side, hole, tuz_rule);
  const who = t("bl_hole", { side: t(side), hole });
  if (p.kind !== "move") return t(p.kind === "empty" ? "bl_hole_empty" : "bl_hole_tuz", { hole: who });
  const parts = [t("bl_lands", { hole: who, n: p.stones, to: p.to.hole, row: row_words(p.to.side) })];
  if (p.tuz) parts.push(t("bl_makes_tuz"));
  else if (p.captures) parts.push(t("bl_captures", { n: p.captures }));
  else parts.push(t("bl_takes_nothing"));
  parts.push(t("bl_kazna", { n: p.kazna }));
  return parts.join(", ");
}

/** Both kaznas and what each needs to reach more than half of the stones (82 of 162). */
export function kaznas_words(board: Board): string {
  const n = board.white.length;
  const goal = n * n + 1;
  return (["white", "black"] as const)
    .map((s) => {
      const k = board.kazna[s];
      return k >= goal ? t("bl_kazna_won", { side: t(s), k }) : t("bl_kazna_needs", { side: t(s), k, need: goal - k, goal });
    })
    .join("; ");
}

/** Both clocks now ("White 4:53; Black 5:00"), or that the game has none. */
export function clocks_words(ms: { white: number; black: number } | null): string {
  if (!ms) return t("bl_no_clock");
  return (["white", "black"] as const).map((s) => `${t(s)} ${clock_text(ms[s])}`).join("; ");
}

/** The holes the reader may play now, or that it is not his move. */
export function legal_words(legal: number[], may_move: boolean, to_move: Side): string {
  if (!may_move) return t("bl_not_your_move", { side: t(to_move) });
  return t("bl_legal", { holes: legal.join(", ") });
}

/** One row of the board as read aloud, from its player's hole 1: "White: 9, 9, tuz, ...;
 * kazna 10". */
export function row_text(board: Board, side: Side): string {
  const tuz_here = board.tuz[other(side)];
  const cells = board[side].map((c, i) => (i + 1 === tuz_here ? t("tuz").toLowerCase() : String(c)));
  const own = board.tuz[side] ? `; ${t("bl_tuz_at", { hole: board.tuz[side], row: row_words(other(side)) })}` : "";
  return `${t(side)}: ${cells.join(", ")}; ${t("bl_kazna", { n: board.kazna[side] })}${own}`;
}

/** The whole board, White's row then Black's, each from its hole 1. */
export function rows_words(board: Board): string {
  return `${row_text(board, "white")}. ${row_text(board, "black")}.`;
}
