// The games' HTTP calls (docs/web-protocol.md, "HTTP": create, join, import, list, PGN, whether
// a game exists) and this browser's seats: the tokens and invites of its games, so a reload or
// the games page can reopen them.

import { call } from "../protocol/api.js";

export interface Created {
  id: string;
  token: string;
  side: "white" | "black" | "both";
  invite: string | null;
}

export interface NewGame {
  mode: "engine" | "local" | "online";
  variant: string;
  tuz: boolean;
  play_out: boolean;
  position: string | null;
  color: "white" | "black" | "random";
  level: number;
  clock: null | { initial_ms: number; increment_ms: number };
  name: string;
  rated?: boolean; // online games between two logged-in players with a clock
  days_per_move?: number; // correspondence: an online game without a clock
}

export interface GameRow {
  id: string;
  mode: string;
  white: string;
  black: string;
  result: string | null;
  reason: string | null;
  score: string | null;
  moves: number;
  created: string;
  updated: string;
  // added by the server: which names are its own defaults (translated here), the engine's level
  white_default?: string | null;
  black_default?: string | null;
  level?: number | null;
}

export const api = {
  create: (g: NewGame) => call<Created>("POST", "/api/games", g),
  join: (id: string, invite: string, name: string) =>
    call<{ token: string; side: "white" | "black" }>("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite, name }),
  import_record: (record: string) => call<Created>("POST", "/api/import", { record }),
  import_position: (position: string) => call<Created>("POST", "/api/import", { position }),
  list: (q: { player?: string; result?: string; limit?: number; offset?: number }) => {
    const p = new URLSearchParams();
    if (q.player) p.set("player", q.player);
    if (q.result) p.set("result", q.result);
    p.set("limit", String(q.limit ?? 50));
    p.set("offset", String(q.offset ?? 0));
    return call<{ games: GameRow[]; total: number }>("GET", `/api/games?${p}`);
  },
  pgn_url: (id: string) => `/api/games/${encodeURIComponent(id)}/pgn`,
  /** Whether the server says there is no such game (404); any other answer is not a no. */
  missing: (id: string) => fetch(`/api/games/${encodeURIComponent(id)}`).then((r) => r.status === 404),
};

const TOKENS = "toguz.tokens";
const INVITES = "toguz.invites";
const NAME = "toguz.name";

function read_map(key: string): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(key) || "{}") || {};
  } catch {
    return {};
  }
}
function write_entry(key: string, id: string, value: string) {
  const m = read_map(key);
  m[id] = value;
  try {
    localStorage.setItem(key, JSON.stringify(m));
  } catch {
    /* ignore */
  }
}

/** A stored setting of this browser (of this tab with `session`), null when none or when
 * storage is unavailable. */
function get_item(key: string, session = false): string | null {
  try {
    return (session ? sessionStorage : localStorage).getItem(key);
  } catch {
    return null;
  }
}
/** Stores a setting (for this tab with `session`); a browser that refuses storage keeps it for
 * this page only. */
function set_item(key: string, value: string, session = false) {
  try {
    (session ? sessionStorage : localStorage).setItem(key, value);
  } catch {
    /* ignore */
  }
}

export const store = {
  token: (id: string): string | undefined => read_map(TOKENS)[id],
  set_token: (id: string, token: string) => write_entry(TOKENS, id, token),
  invite: (id: string): string | undefined => read_map(INVITES)[id],
  set_invite: (id: string, code: string) => write_entry(INVITES, id, code),
  name: (): string => get_item(NAME) || "",
  set_name: (name: string) => set_item(NAME, name),
  /** A game's move tree as PGN movetext (variations.ts), kept for this tab across reloads. */
  tree: (id: string): string | null => get_item(`toguz.tree.${id}`, true),
  set_tree: (id: string, movetext: string) => set_item(`toguz.tree.${id}`, movetext, true),
  /** An imported record's text, kept for this tab so that its variations come back on the
   * board of the game it made (the server keeps its main line only). */
  imported: (id: string): string | null => get_item(`toguz.imported.${id}`, true),
  set_imported: (id: string, record: string) => set_item(`toguz.imported.${id}`, record, true),
};
