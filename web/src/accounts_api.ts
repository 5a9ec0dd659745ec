// HTTP calls of the accounts API (docs/web-protocol.md, "Accounts, ratings and the lobby"). The
// session is the server's HttpOnly cookie: same-origin fetches carry it, and no script reads it.

import { call, type GameRow } from "./api.js";
import type { LeaderRow, Speed, User } from "./accounts_logic.js";

export interface AccountGameRow extends GameRow {
  rated?: boolean;
  speed?: Speed | null;
  white_account?: string | null;
  black_account?: string | null;
  white_rating?: number | null;
  black_rating?: number | null;
  white_diff?: number | null;
  black_diff?: number | null;
}

/** One game of GET /api/account/games: a game the logged-in account plays, with its own seat. */
export interface MyGame {
  id: string;
  token: string; // the account's own seat
  side: "white" | "black";
  opponent: string;
  your_turn: boolean;
  moves: number;
  variant: string;
  rated: boolean;
  speed: Speed | null;
  days_per_move: number | null;
  deadline_ms: number | null; // correspondence: when the side to move must have moved
}

const user_path = (name: string) => `/api/users/${encodeURIComponent(name)}`;

export const accounts = {
  signup: (username: string, password: string) =>
    call<{ username: string }>("POST", "/api/signup", { username, password }),
  login: (username: string, password: string) =>
    call<{ username: string }>("POST", "/api/login", { username, password }),
  logout: () => call<{ ok: boolean }>("POST", "/api/logout", {}),
  me: () => call<{ username: string | null }>("GET", "/api/me"),
  change_password: (password: string, new_password: string) =>
    call<{ ok: boolean }>("POST", "/api/password", { password, new_password }),
  user: (name: string) => call<User>("GET", user_path(name)),
  history: (name: string) => call<Partial<Record<Speed, [number, number][]>>>("GET", `${user_path(name)}/history`),
  pgn_url: (name: string) => `${user_path(name)}/pgn`,
  leaderboard: (category: Speed, limit = 50) =>
    call<{ category: Speed; players: LeaderRow[] }>("GET", `/api/leaderboard/${category}?limit=${limit}`),
  my_games: () => call<{ games: MyGame[]; your_turn: number }>("GET", "/api/account/games"),
  games: (account: string, limit = 50, offset = 0) => {
    const p = new URLSearchParams({ account, limit: String(limit), offset: String(offset) });
    return call<{ games: AccountGameRow[]; total: number }>("GET", `/api/games?${p}`);
  },
};

/** The logged-in name, kept for the header; null when anonymous or the server has no accounts. */
let me_cache: string | null | undefined;
export async function who_am_i(refresh = false): Promise<string | null> {
  if (me_cache !== undefined && !refresh) return me_cache;
  try {
    me_cache = (await accounts.me()).username ?? null;
  } catch {
    me_cache = null;
  }
  return me_cache;
}
export function set_me(name: string | null): void {
  me_cache = name;
}
