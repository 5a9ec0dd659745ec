// The game's WebSocket: connects, says hello with the seat's token (never in the URL, so that
// proxies do not log it) and asks for deltas (after the first state, only what changed),
// reconnects after a drop with exponential backoff (0.5 s doubling to
// 8 s, with jitter; reset only once a `state` arrives, so a server that accepts and then drops
// the socket is not hammered) and lets the server's first `state` resync everything.

import type { GameClientMessage } from "./client.js";
import { parse_message } from "./messages.js";
import type { ServerMessage } from "./types.js";

export type Listener = (msg: ServerMessage) => void;
export type StatusListener = (status: "connecting" | "open" | "closed") => void;

export class GameSocket {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private timer: number | undefined;
  private pinger: number | undefined;
  private closed_by_us = false;
  private held = false;

  constructor(
    private id: string,
    private token: string | undefined,
    private on_message: Listener,
    private on_status: StatusListener,
  ) {
    this.connect();
  }

  private url(): string {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/${encodeURIComponent(this.id)}`;
  }

  private connect() {
    if (this.closed_by_us || this.held) return;
    this.on_status("connecting");
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      ws.send(JSON.stringify({ type: "hello", token: this.token ?? null, deltas: true }));
      this.on_status("open");
      window.clearInterval(this.pinger);
      this.pinger = window.setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (ev) => {
      const msg = parse_message(String(ev.data));
      if (!msg) return;
      if (msg.type === "state") this.attempts = 0;
      this.on_message(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.ws = null;
      window.clearInterval(this.pinger);
      this.on_status("closed");
      this.schedule();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  private schedule() {
    if (this.closed_by_us || this.held) return;
    const base = Math.min(8000, 500 * 2 ** this.attempts);
    this.attempts++;
    window.clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.connect(), base * (0.75 + Math.random() * 0.5));
  }

  /** Sends a message; false when the socket is not open (the UI shows the reconnect banner). */
  send(msg: GameClientMessage): boolean {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Closes for good (leaving the page). */
  close() {
    this.closed_by_us = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.pinger);
    this.ws?.close();
  }

  /** Test hook: drops the connection as a network failure would and holds reconnecting until
   * resume() (so a test can make moves happen while this client is away). */
  drop_and_hold() {
    this.held = true;
    window.clearTimeout(this.timer);
    this.ws?.close();
  }

  resume() {
    this.held = false;
    this.attempts = 0;
    if (!this.ws) this.connect();
  }
}
