// The learning pages' HTTP calls (docs/web-protocol.md "Puzzles, studies and the opening
// explorer"): GETs, and the POST of a puzzle attempt; a refusal becomes ApiError with the
// server's code. And what this browser keeps of the puzzle page (localStorage): the theme, the
// mode, the puzzles seen lately and the streak.

import { call } from "../protocol/api.js";
import type { PuzzleMode, Streak } from "./learn_state.js";
import type { MoveRec, Score, Side } from "../protocol/types.js";

/** A puzzle rating as the server shows it (docs/ratings.md "Puzzle ratings"). */
export interface PuzzleRating {
  rating: number; // rounded
  rd: number;
  provisional: boolean;
  attempts: number; // rated attempts so far
}

export interface PuzzleSummary {
  count: number;
  themes: Record<string, number>;
  rated: boolean; // the viewer has an account: the first attempt at each puzzle is rated
  player: PuzzleRating | null; // the viewer's puzzle rating (null without an account)
}

/** The answer to POST /api/puzzles/<id>/attempt: both ratings after it, with their changes. */
export interface AttemptAnswer {
  id: string;
  solved: boolean;
  rated: boolean; // this attempt changed the ratings
  reason: null | "anonymous" | "attempted" | "not_served";
  player: (PuzzleRating & { diff: number }) | null;
  puzzle: PuzzleRating & { diff: number };
}

export interface Puzzle {
  id: string;
  position: string;
  side: Side; // the solver's side, to move
  themes: string[];
  difficulty: number;
  best_cp: number;
  second_cp: number;
  proven: { result: "win" | "draw" | "loss"; margin: number | null } | null;
  line: MoveRec[]; // the solution with the forced replies
  // every legal move at each of the solver's turns (ply = index into line)
  choices: { ply: number; moves: MoveRec[] }[];
  source: { game: number; ply: number };
  rating: PuzzleRating; // the puzzle's own rating
  rated: boolean; // an attempt now is rated (the viewer has an account and never tried it)
  // why an attempt now is not rated: no account, tried before, or not picked by the server for
  // this account (opened by its link)
  unrated_reason?: null | "anonymous" | "attempted" | "not_served";
}

export interface Study {
  study: number;
  position: string;
  side: Side;
  task: "win" | "draw"; // the book's claim for White
  proven: { result: "win" | "draw" | "loss"; margin: number | null; nodes: number } | null;
  engine: { cp: number; depth: number } | null; // the engine's line when not proven
  line: MoveRec[];
}

export interface ExplorerMove {
  hole: number;
  move: string;
  games: number;
  white_wins: number;
  draws: number;
  black_wins: number;
  average_rating: number | null;
  after: string; // the position after the move
}
export interface ExplorerAnswer {
  position: string;
  games: number;
  indexed_games: number;
  moves: ExplorerMove[];
}

/** GET /api/explorer/eval: the engine's score of every legal move (side to move's view, with
 * white_cp), best first; depth 0 when the game is over there. */
export interface MoveEval {
  hole: number;
  move: string;
  after: string;
  score: Score;
  pv_notation: string[];
}
export interface MoveEvals {
  position: string;
  depth: number;
  moves: MoveEval[];
}

/** The query of /api/puzzles/next: the theme ("" = any) and the ids not to repeat. */
export function next_query(theme: string, exclude: string[]): string {
  const p = new URLSearchParams();
  if (theme) p.set("theme", theme);
  if (exclude.length) p.set("exclude", exclude.join(","));
  const q = p.toString();
  return q ? `?${q}` : "";
}

/** The explorer's filters; unset ones do not filter (docs/explorer.md "Filters"). */
export interface ExplorerFilter {
  min_rating?: number;
  max_rating?: number;
  from_year?: number;
  to_year?: number;
}

/** The query of /api/explorer for a position and filters. */
export function explorer_query(position: string, f: ExplorerFilter = {}): string {
  const p = new URLSearchParams();
  p.set("position", position);
  for (const k of ["min_rating", "max_rating", "from_year", "to_year"] as const) {
    const v = f[k];
    if (typeof v === "number" && Number.isFinite(v)) p.set(k, String(v));
  }
  return `?${p.toString().replace(/\+/g, "%20")}`;
}

export const learn_api = {
  summary: () => call<PuzzleSummary>("GET", "/api/puzzles"),
  next: (theme: string, exclude: string[]) => call<Puzzle>("GET", `/api/puzzles/next${next_query(theme, exclude)}`),
  puzzle: (id: string) => call<Puzzle>("GET", `/api/puzzles/${encodeURIComponent(id)}`),
  // the server judges the attempt from the plies played (the forced replies included)
  attempt: (id: string, moves: number[]) => call<AttemptAnswer>("POST", `/api/puzzles/${encodeURIComponent(id)}/attempt`, { moves }),
  studies: () => call<{ studies: Study[] }>("GET", "/api/studies"),
  explorer: (position: string, f: ExplorerFilter = {}) => call<ExplorerAnswer>("GET", `/api/explorer${explorer_query(position, f)}`),
  explorer_eval: (position: string) => call<MoveEvals>("GET", `/api/explorer/eval${explorer_query(position)}`),
};

const K_THEME = "toguz.puzzle_theme";
const K_MODE = "toguz.puzzle_mode";
const K_RECENT = "toguz.puzzle_recent";
const K_STREAK = "toguz.puzzle_streak";

function load<T>(key: string, fallback: T): T {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : (JSON.parse(v) as T);
  } catch {
    return fallback;
  }
}
function save(key: string, value: unknown) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    /* storage may be unavailable */
  }
}

export const puzzle_store = {
  theme: (): string => load(K_THEME, ""),
  set_theme: (theme: string) => save(K_THEME, theme),
  mode: (): PuzzleMode => (load<string>(K_MODE, "practice") === "streak" ? "streak" : "practice"),
  set_mode: (mode: PuzzleMode) => save(K_MODE, mode),
  recent: (): string[] => load<string[]>(K_RECENT, []),
  set_recent: (ids: string[]) => save(K_RECENT, ids),
  streak: (): Streak => load(K_STREAK, { current: 0, best: 0, over: false }),
  set_streak: (s: Streak) => save(K_STREAK, s),
};
