// Which chunk of the front end draws a route, and the guard that keeps a late chunk off the page.
// The first visit (home, a game, the games list, the lobby) needs only the main chunk; the other
// pages come in a few chunks by feature (main.ts imports each with import(), so vite splits it
// off), fetched when the reader first opens one of their routes.

/** The chunk that holds a route's view: "main" is loaded with the page, the others on demand. */
export type PageChunk = "main" | "accounts" | "learn" | "arbiter" | "ratings" | "tournaments";

const CHUNK_OF_ROUTE: Record<string, PageChunk> = {
  login: "accounts", signup: "accounts", account: "accounts", forgot: "accounts", reset: "accounts",
  verify: "accounts", moderation: "accounts", leaderboard: "accounts", "@": "accounts",
  puzzles: "learn", studies: "learn", explorer: "learn", editor: "learn",
  arbiter: "arbiter", broadcast: "arbiter", keeper: "arbiter",
  ratings: "ratings",
  tournaments: "tournaments",
};

/** The chunk of the route `parts` (route_parts of the hash); an unknown route is main's (its
 * "not found" needs no chunk). */
export function chunk_of(parts: string[]): PageChunk {
  const head = parts[0];
  return head !== undefined && Object.prototype.hasOwnProperty.call(CHUNK_OF_ROUTE, head) ? CHUNK_OF_ROUTE[head] : "main";
}

/** Numbers the routes the reader has gone to: a view whose chunk arrives once the reader has
 * gone on (a later ticket was taken) is not shown. */
export class RouteGuard {
  private last = 0;
  /** A new route begins: its ticket. */
  begin(): number {
    return ++this.last;
  }
  /** Whether `ticket` is still the route being shown. */
  is_current(ticket: number): boolean {
    return ticket === this.last;
  }
}
