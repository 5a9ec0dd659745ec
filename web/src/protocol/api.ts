// HTTP calls of docs/web-protocol.md. Errors become ApiError with the server's message.

import type { HttpError } from "./types.js";

export class ApiError extends Error {
  constructor(
    public status: number,
    message: string,
    // the server's code and parameters of the refusal, which the page translates (i18n.ts)
    public code: string | null = null,
    public params: Record<string, string> = {},
  ) {
    super(message);
  }
}

export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!res.ok) {
    // the server's refusal (types.ts HttpError); a proxy's page or an empty body has none
    const e = (data !== null && typeof data === "object" ? data : {}) as Partial<HttpError>;
    throw new ApiError(res.status, e.error || `${res.status} ${res.statusText}`, e.code ?? null, e.params ?? {});
  }
  return data as T;
}

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
};

// Tokens and invites of this browser's games, so a reload or the games page can reopen them.
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

export const store = {
  token: (id: string): string | undefined => read_map(TOKENS)[id],
  set_token: (id: string, token: string) => write_entry(TOKENS, id, token),
  invite: (id: string): string | undefined => read_map(INVITES)[id],
  set_invite: (id: string, code: string) => write_entry(INVITES, id, code),
  name: (): string => {
    try {
      return localStorage.getItem(NAME) || "";
    } catch {
      return "";
    }
  },
  set_name: (name: string) => {
    try {
      localStorage.setItem(NAME, name);
    } catch {
      /* ignore */
    }
  },
};
