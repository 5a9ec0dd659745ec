// HTTP calls of the accounts API (docs/web-protocol.md, "Accounts, ratings and the lobby"). The
// session is the server's HttpOnly cookie: same-origin fetches carry it, and no script reads it.

import { call } from "../protocol/api.js";
import type { GameRow } from "../games/games_api.js";
import type { LeaderRow, Speed, User } from "./accounts_state.js";

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
  me: () => call<{ username: string | null; moderator?: boolean }>("GET", "/api/me"),
  change_password: (password: string, new_password: string) =>
    call<{ ok: boolean }>("POST", "/api/password", { password, new_password }),
  user: (name: string) => call<User>("GET", user_path(name)),
  history: (name: string) => call<Partial<Record<Speed, [number, number][]>>>("GET", `${user_path(name)}/history`),
  pgn_url: (name: string) => `${user_path(name)}/pgn`,
  leaderboard: (category: Speed, limit = 50) =>
    call<{ category: Speed; players: LeaderRow[] }>("GET", `/api/leaderboard/${category}?limit=${limit}`),
  /** The account's settings (docs/web-protocol.md; shell/prefs_state.ts merges them). */
  settings: () => call<{ settings: unknown }>("GET", "/api/me/settings"),
  save_settings: (settings: object) => call<{ settings: unknown }>("PUT", "/api/me/settings", settings),
  my_games: () => call<{ games: MyGame[]; your_turn: number }>("GET", "/api/account/games"),
  games: (account: string, limit = 50, offset = 0) => {
    const p = new URLSearchParams({ account, limit: String(limit), offset: String(offset) });
    return call<{ games: AccountGameRow[]; total: number }>("GET", `/api/games?${p}`);
  },
};

/** One flag (raised by the server) or report (by a player) of GET /api/moderation. */
export interface ReportItem {
  id: number;
  kind: "flag" | "report";
  target: string | null;
  reporter: string | null;
  about: string | null;
  game: string | null;
  reason: string;
  chat?: string | null; // the reported chat message's text
  created: string;
  resolved: boolean;
  target_marked: boolean;
  target_closed: boolean;
}

/** A player's blocks and reports, and the moderators' API (docs/web-protocol.md "Moderation"). */
export const moderation = {
  blocks: () => call<{ blocks: string[] }>("GET", "/api/account/blocks"),
  block: (username: string, block: boolean) => call<{ blocks: string[] }>("POST", "/api/account/blocks", { username, block }),
  report: (username: string, reason: string, game?: string) =>
    call<{ ok: boolean }>("POST", "/api/account/reports", game ? { username, reason, game } : { username, reason }),
  /** Reports a player's chat message `chat` (its id): the moderators get its text. */
  report_chat: (username: string, chat: number, game: string) =>
    call<{ ok: boolean }>("POST", "/api/account/reports", { username, chat, game }),
  list: (resolved = false) => call<{ reports: ReportItem[] }>("GET", `/api/moderation${resolved ? "?resolved=1" : ""}`),
  mark: (username: string, marked: boolean) => call<{ ok: boolean }>("POST", "/api/moderation/mark", { username, marked }),
  close: (username: string, closed: boolean) => call<{ ok: boolean }>("POST", "/api/moderation/close", { username, closed }),
  void_game: (game: string) => call<{ ok: boolean }>("POST", "/api/moderation/void", { game }),
  resolve: (id: number) => call<{ ok: boolean }>("POST", "/api/moderation/resolve", { id }),
  /** One of a moderation item's actions (accounts_state.ts report_actions) on its account
   * `user`, its `game` or the item `id`; null for an action there is not. */
  act: (action: string, user: string, game: string, id: number): Promise<unknown> | null =>
    action === "mark" || action === "unmark"
      ? moderation.mark(user, action === "mark")
      : action === "close" || action === "reopen"
        ? moderation.close(user, action === "close")
        : action === "void"
          ? moderation.void_game(game)
          : action === "resolve"
            ? moderation.resolve(id)
            : null,
};

/** Whether the logged-in account is a moderator (false when anonymous or unknown). */
export async function am_moderator(): Promise<boolean> {
  try {
    return (await accounts.me()).moderator === true;
  } catch {
    return false;
  }
}

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
