// Whether the game socket still reaches the server (docs/web-protocol.md "Liveness"): the page
// pings every PING_EVERY_MS and expects the pong within PONG_WITHIN_MS. A pong that does not
// come means the connection stalled (a network gone without the socket closing): the page shows
// "reconnecting" and opens a new socket. The server, for its part, closes a socket silent for
// --silent-socket-seconds (15 s) and shows the player away to his opponent. Pure: the socket
// (conn.ts) asks step() every LIVENESS_TICK_MS.

export const PING_EVERY_MS = 5000;
export const PONG_WITHIN_MS = 4000;
export const LIVENESS_TICK_MS = 250;

/** What the socket does now: send a ping, give the connection up as stalled, or nothing. */
export type PingStep = "ping" | "stalled" | null;

export class PingClock {
  private sent: number | null = null; // when the unanswered ping went out
  private last: number; // when the last ping went out (or the socket opened)

  constructor(now: number) {
    this.last = now;
  }

  step(now: number): PingStep {
    if (this.sent !== null) return now - this.sent >= PONG_WITHIN_MS ? "stalled" : null;
    if (now - this.last < PING_EVERY_MS) return null;
    this.sent = this.last = now;
    return "ping";
  }

  /** The pong came. */
  answered() {
    this.sent = null;
  }
}

export type ConnStatus = "connecting" | "open" | "closed";

/** Why a move cannot be sent now (an i18n key), or null when it can: only an open socket takes
 * one, and a move refused is never kept to be sent later (the clock would run meanwhile). */
export function move_refusal(conn: ConnStatus): "move_offline" | null {
  return conn === "open" ? null : "move_offline";
}
