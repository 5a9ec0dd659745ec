// Pure logic of the puzzle and study pages (no DOM): one attempt at a puzzle played against its
// forced replies, the streak, the puzzles not to repeat, and what a study line shows at a ply.
// What is legal comes from the server (the puzzle's `choices`); nothing here knows the rules.

import type { Puzzle } from "./learn_api.js";
import type { MoveRec, Side } from "../protocol/types.js";

export type TrialState = "playing" | "solved" | "missed";

/** One attempt: `ply` moves of the line are on the board; `wrong` is the move that missed. */
export interface Trial {
  puzzle: Puzzle;
  ply: number;
  state: TrialState;
  wrong: MoveRec | null;
}

export type Verdict = "right" | "solved" | "wrong" | "ignored";

export function new_trial(puzzle: Puzzle): Trial {
  return { puzzle, ply: 0, state: "playing", wrong: null };
}

/** Whether the solver is to move now (else the forced reply is due, or the attempt is over). */
export function solver_to_move(tr: Trial): boolean {
  return tr.state === "playing" && tr.ply % 2 === 0 && tr.ply < tr.puzzle.line.length;
}

/** The holes the solver may play now: every legal move of the position (the server's list). */
export function legal_now(tr: Trial): number[] {
  if (!solver_to_move(tr)) return [];
  const c = tr.puzzle.choices.find((x) => x.ply === tr.ply);
  return c ? c.moves.map((m) => m.hole) : [];
}

/** The solver plays `hole`: the solution's move ("right", or "solved" when it ends the line),
 * another legal move ("wrong": the attempt is missed), or nothing when it is not his turn or
 * the hole is not legal. */
export function try_move(tr: Trial, hole: number): { trial: Trial; verdict: Verdict } {
  if (!legal_now(tr).includes(hole)) return { trial: tr, verdict: "ignored" };
  const want = tr.puzzle.line[tr.ply];
  if (hole === want.hole) {
    const ply = tr.ply + 1;
    const solved = ply >= tr.puzzle.line.length;
    return { trial: { ...tr, ply, state: solved ? "solved" : "playing" }, verdict: solved ? "solved" : "right" };
  }
  const c = tr.puzzle.choices.find((x) => x.ply === tr.ply)!;
  const wrong = c.moves.find((m) => m.hole === hole) ?? null;
  return { trial: { ...tr, state: "missed", wrong }, verdict: "wrong" };
}

/** The holes played on the board in this attempt, the forced replies included: the line's
 * first `ply` moves, then the wrong move when it missed (what the server judges). */
export function played_holes(tr: Trial): number[] {
  const holes = tr.puzzle.line.slice(0, tr.ply).map((m) => m.hole);
  if (tr.wrong) holes.push(tr.wrong.hole);
  return holes;
}

/** The opponent's forced reply, when it is due: the next move of the line. */
export function play_reply(tr: Trial): Trial {
  if (tr.state !== "playing" || tr.ply % 2 === 0 || tr.ply >= tr.puzzle.line.length) return tr;
  return { ...tr, ply: tr.ply + 1 };
}

/** The move last shown on the board (the wrong one after a miss), null at the start. */
export function shown_move(tr: Trial): MoveRec | null {
  return tr.wrong ?? (tr.ply > 0 ? tr.puzzle.line[tr.ply - 1] : null);
}

/** The position on the board. */
export function shown_position(tr: Trial): string {
  return shown_move(tr)?.position ?? tr.puzzle.position;
}

/** The side to move in the position shown. */
export function shown_to_move(tr: Trial): Side {
  const m = shown_move(tr);
  if (!m) return tr.puzzle.side;
  return m.side === "white" ? "black" : "white";
}

export interface Streak {
  current: number;
  best: number;
  over: boolean; // the last attempt missed: a new streak starts from 0
}

/** The streak after an attempt: a solve adds one, a miss ends it (the best is kept). */
export function streak_after(s: Streak, solved: boolean): Streak {
  if (!solved) return { current: s.current, best: s.best, over: true };
  const current = (s.over ? 0 : s.current) + 1;
  return { current, best: Math.max(s.best, current), over: false };
}

/** The ids not to repeat: the newest `keep`, the newest last, each once. */
export function remember(recent: string[], id: string, keep = 60): string[] {
  const out = recent.filter((x) => x !== id);
  out.push(id);
  return out.slice(Math.max(0, out.length - keep));
}

/** A study's line shown at ply (0 = the study position), clamped to the line. */
export function line_ply(ply: number, length: number): number {
  return Math.max(0, Math.min(length, Math.trunc(ply)));
}

/** The position of a line at ply: the start, or the position after its ply-th move. */
export function line_position(start: string, line: MoveRec[], ply: number): string {
  const p = line_ply(ply, line.length);
  return p === 0 ? start : line[p - 1].position;
}

/** A share of a move's games as a whole percent ("52%"), "–" without games. */
export function share(n: number, of: number): string {
  return of > 0 ? `${Math.round((100 * n) / of)}%` : "–";
}
