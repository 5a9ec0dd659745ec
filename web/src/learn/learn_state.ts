// The learning pages' pure part (learn/puzzles.ts, studies.ts and explorer.ts draw it): one
// attempt at a puzzle played against its forced replies, the streak, the puzzles not to repeat,
// when an attempt is sent to be rated and what its answer changes; what a study line shows at a
// ply and what the solver says of it; the explorer's filters and evaluation cells. What is legal
// comes from the server (the puzzle's `choices`); nothing here knows the rules. No DOM access and
// no fetch here (unit-tested in test/unit/learn.test.mjs).

import { eval_label } from "../board/learn_board.js";
import { t, type Key } from "../i18n/index.js";
import type { AttemptAnswer, ExplorerFilter, MoveEvals, Puzzle, PuzzleSummary, Study } from "./learn_api.js";
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

/** The puzzle page's modes: practice (rated with an account) and streak (one miss ends it). */
export type PuzzleMode = "practice" | "streak";

/** The themes the page offers to choose. */
export const PUZZLE_THEMES = ["capture", "tuz", "starving", "defence", "endgame", "sacrifice"];

/** The theme choices: those with puzzles on the server and the one chosen, with their counts. */
export function theme_choices(counts: Record<string, number>, chosen: string): { theme: string; count: number; selected: boolean }[] {
  return PUZZLE_THEMES.filter((x) => counts[x] || x === chosen).map((x) => ({ theme: x, count: counts[x] ?? 0, selected: x === chosen }));
}

/** The attempt given up: missed, the solution shown (an attempt over is left as it is). */
export function give_up(tr: Trial): Trial {
  return tr.state === "playing" ? { ...tr, state: "missed" } : tr;
}

/** The streak's count shown: 0 once a miss ended it. */
export function streak_shown(s: Streak): number {
  return s.over ? 0 : s.current;
}

/** The position on the board: a solution move the reader looks at (`view_ply`), else the
 * attempt's. */
export function viewed_position(tr: Trial, view_ply: number | null): string {
  if (view_ply !== null) return view_ply === 0 ? tr.puzzle.position : tr.puzzle.line[view_ply - 1].position;
  return shown_position(tr);
}

/** The move marked on the board: the solution's move looked at, else the attempt's last. */
export function viewed_move(tr: Trial, view_ply: number | null): MoveRec | null {
  if (view_ply !== null) return view_ply > 0 ? tr.puzzle.line[view_ply - 1] : null;
  return shown_move(tr);
}

/** Whether an attempt over is sent to be rated: in practice mode, for a reader with an account,
 * once per puzzle shown (`reported`: the puzzle last sent). */
export function should_report(mode: PuzzleMode, summary: PuzzleSummary | null, tr: Trial | null, reported: string): boolean {
  return mode === "practice" && !!tr && !!summary?.rated && reported !== tr.puzzle.id;
}

/** The summary and the attempt after the server rated it: the reader's new rating, the
 * puzzle's, and the puzzle no longer rated for him. */
export function after_answer(summary: PuzzleSummary | null, tr: Trial, a: AttemptAnswer): { summary: PuzzleSummary | null; trial: Trial } {
  return {
    summary: summary && a.player ? { ...summary, player: a.player } : summary,
    trial: { ...tr, puzzle: { ...tr.puzzle, rating: a.puzzle, rated: false } },
  };
}

/** Why this attempt will not change the reader's rating, for a reader with an account in
 * practice mode (null when it will, or did). */
export function unrated_note(summary: PuzzleSummary | null, tr: Trial, a: AttemptAnswer | null, mode: PuzzleMode): Key | null {
  if (!summary?.rated || tr.puzzle.rated || (a && a.rated) || mode !== "practice") return null;
  return tr.puzzle.unrated_reason === "not_served" ? "puzzle_not_served" : "puzzle_attempted";
}

/** The study numbered `n` of the list. */
export function study_of(studies: Study[] | null, n: number | null): Study | undefined {
  return studies?.find((s) => s.study === n);
}

/** What the solver says of a study, in words (or that it has not proven it). */
export function study_status_text(s: Study): string {
  if (!s.proven) return t("study_not_proven");
  const r = s.proven.result;
  if (r === "draw") return t("study_proven_draw");
  const side = t(r === "win" ? "white" : "black");
  return s.proven.margin !== null ? t("study_proven_win_by", { side, n: Math.abs(s.proven.margin) }) : t("study_proven_win", { side });
}

/** The book's task when the solver proves something else under the rules played here. */
export function study_differs_text(s: Study): string {
  if (!s.proven || s.proven.result === s.task) return "";
  return s.task === "draw" && s.proven.result === "win" ? t("study_draw_but_win") : t("study_differs");
}

/** A count of positions with a space between thousands: "1 234 567". */
export function nodes_text(n: number): string {
  return n.toLocaleString("en").replace(/,/g, " ");
}

/** The explorer's filters after one is typed: a whole number 0 or more sets it, anything else
 * (an empty field included) unsets it. */
export function with_filter(f: ExplorerFilter, key: keyof ExplorerFilter, text: string): ExplorerFilter {
  const v = text.trim() === "" ? undefined : Number(text);
  return { ...f, [key]: v !== undefined && Number.isInteger(v) && v >= 0 ? v : undefined };
}

/** The explorer's engine cell of a hole: its evaluation and line, "…" while the search runs,
 * "–" when it failed or has no word on that move. */
export function eval_cell_of(evals: MoveEvals | null, failed: boolean, hole: number): { text: string; line: string } {
  const e = evals?.moves.find((m) => m.hole === hole);
  const text = e ? eval_label(e.score) : evals || failed ? "–" : "…";
  return { text, line: e?.pv_notation.slice(0, 6).join(" ") ?? "" };
}
