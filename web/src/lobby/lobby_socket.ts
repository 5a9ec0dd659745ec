// The lobby's WebSocket (/ws/lobby, docs/web-protocol.md): keeps the lobby's state from the
// server's messages, reconnects after a drop (0.5 s doubling to 8 s, reset once a `lobby`
// message arrives, whose full state then replaces the page's), and hands a `start` to the page.
// The socket is made by `make`, so tests can give a fake one.

import type { LobbyClientMessage } from "../protocol/client.js";
import { empty_lobby, lobby_reduce, type LobbyState } from "./lobby_state.js";

export interface SocketLike {
  readyState: number;
  send(data: string): void;
  close(): void;
  onopen: ((ev: any) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: any) => void) | null;
  onerror: ((ev: any) => void) | null;
}

export interface LobbyEvents {
  change(state: LobbyState): void;
  start(game: { game: string; token: string; side: "white" | "black" }): void;
  error(msg: { message?: string; code?: string | null; params?: Record<string, string> }): void;
  status?(status: "connecting" | "open" | "closed"): void;
  /** Answers that change no lobby state: seek_created, challenge_created, challenge_gone, ... */
  notice?(msg: any): void;
}

const OPEN = 1;

/** A server message, or undefined for one that is not JSON (ignored). */
function parse_message(data: unknown): any {
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}

export function lobby_url(): string {
  const proto = location.protocol === "https:" ? "wss:" : "ws:";
  return `${proto}//${location.host}/ws/lobby`;
}

export class LobbySocket {
  state: LobbyState = empty_lobby();
  private ws: SocketLike | null = null;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed_by_us = false;

  constructor(
    private events: LobbyEvents,
    private make: () => SocketLike = () => new WebSocket(lobby_url()) as unknown as SocketLike,
  ) {
    this.connect();
  }

  private connect() {
    if (this.closed_by_us) return;
    this.events.status?.("connecting");
    const ws = this.make();
    this.ws = ws;
    ws.onopen = () => this.events.status?.("open");
    ws.onmessage = (ev) => {
      const msg = parse_message(ev.data);
      if (msg !== undefined) this.on_message(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      this.events.status?.("closed");
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private on_message(msg: any) {
    if (msg?.type === "lobby") this.attempts = 0;
    if (msg?.type === "error") {
      this.events.error(msg);
      return;
    }
    if (msg?.type === "start" && msg.game && msg.token) {
      this.state = lobby_reduce(this.state, msg);
      this.events.start({ game: String(msg.game), token: String(msg.token), side: msg.side });
      return;
    }
    const next = lobby_reduce(this.state, msg);
    if (next !== this.state) {
      this.state = next;
      this.events.change(next);
    }
    if (msg?.type === "seek_created" || msg?.type === "challenge_created" || msg?.type === "challenge_gone") this.events.notice?.(msg);
  }

  private schedule() {
    if (this.closed_by_us) return;
    const base = Math.min(8000, 500 * 2 ** this.attempts);
    this.attempts++;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
  }

  /** Sends a message; false when the socket is not open. */
  send(msg: LobbyClientMessage): boolean {
    if (!this.ws || this.ws.readyState !== OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Joins a quick-pairing pool (leaving any other), or leaves it when `pool` is the one joined. */
  toggle_pool(pool: string): boolean {
    const leave = this.state.pool === pool;
    const ok = this.send(leave ? { type: "pool_leave" } : { type: "pool_join", pool, range: null });
    if (ok) {
      this.state = { ...this.state, pool: leave ? null : pool };
      this.events.change(this.state);
    }
    return ok;
  }

  accept(id: string): boolean {
    return this.send({ type: "accept", id });
  }
  cancel(id: string): boolean {
    return this.send({ type: "cancel", id });
  }
  answer_challenge(id: string, yes: boolean): boolean {
    return this.send({ type: yes ? "challenge_accept" : "challenge_decline", id });
  }

  /** Closes for good (leaving the page): the server drops this page's seeks and pool place. */
  close() {
    this.closed_by_us = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
