// The online tournaments' HTTP calls and answers (docs/web-protocol.md "Online tournaments"),
// and the games this browser opened from a tournament page (sessionStorage), so that the page
// opens each game once and the game's end offers the way back.

import { call } from "../protocol/api.js";

export interface TournamentSummary {
  id: string;
  name: string;
  system: "arena" | "swiss" | "round-robin" | "double-round-robin";
  initial_ms: number;
  increment_ms: number;
  rated: boolean;
  starts_ms: number;
  ends_ms?: number;
  first_move_seconds?: number; // each player's first move is due within this
  duration_ms?: number;
  rounds?: number;
  round?: number;
  status: "upcoming" | "running" | "finished" | "cancelled";
  players: number;
  max_players: number;
  entry: "open" | "code";
  creator: string;
}
export interface Standing {
  rank: number;
  player: number;
  name: string;
  rating: number;
  points: string;
  games?: number;
  streak?: number;
  paused?: boolean;
  withdrawn?: boolean;
  tie_breaks?: number[];
}
export interface TGame {
  id: string | null;
  round: number;
  board: number;
  white: number;
  black: number;
  white_name: string;
  black_name: string;
  result: string;
  called_off?: boolean; // ended without a result at the arena's end (not counted)
}
export interface Tournament extends TournamentSummary {
  now_ms: number;
  entrants: { name: string; rating: number; withdrawn: boolean }[];
  standings: Standing[];
  tie_breaks?: string[];
  games: TGame[];
  me: null | { player: number; paused: boolean; withdrawn: boolean; game: string | null };
}

/** The URL of a tournament, or of one of its files (rest: "/pgn", "/tgk"). */
export const tournament_path = (id: string, rest = "") => `/api/tournaments/${encodeURIComponent(id)}${rest}`;
export const tournaments_api = {
  list: () => call<{ tournaments: TournamentSummary[] }>("GET", "/api/tournaments"),
  create: (body: Record<string, unknown>) => call<{ id: string; tournament: Tournament }>("POST", "/api/tournaments", body),
  get: (id: string) => call<{ tournament: Tournament }>("GET", tournament_path(id)),
  post: (id: string, action: "join" | "withdraw" | "start" | "edit" | "cancel", body: Record<string, unknown> = {}) =>
    call<{ tournament: Tournament }>("POST", tournament_path(id, `/${action}`), body),
};

const K_OPENED = "toguz.tournament_games"; // game ids this browser opened from a tournament page

/** Whether the page opened this game already (it opens each game once, not again on return). */
export function opened_before(game: string, tournament: string): boolean {
  try {
    const all = JSON.parse(sessionStorage.getItem(K_OPENED) ?? "{}") as Record<string, string>;
    if (all[game]) return true;
    all[game] = tournament;
    sessionStorage.setItem(K_OPENED, JSON.stringify(all));
  } catch {
    /* no storage: open it, as the first time */
  }
  return false;
}

/** The tournament a game was opened from on this browser, or null. */
export function tournament_of_game(game: string): string | null {
  try {
    const all = JSON.parse(sessionStorage.getItem(K_OPENED) ?? "{}") as Record<string, string>;
    return all[game] ?? null;
  } catch {
    return null;
  }
}
