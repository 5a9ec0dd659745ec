// The game's WebSocket: connects, says hello with the seat's token (never in the URL, so that
// proxies do not log it) and asks for deltas (after the first state, only what changed),
// reconnects after a drop with exponential backoff (0.5 s doubling to
// 8 s, with jitter; reset only once a `state` arrives, so a server that accepts and then drops
// the socket is not hammered) and lets the server's first `state` resync everything. It pings
// every 5 s and gives a socket whose pong is 4 s late up as stalled (liveness.ts): "reconnecting"
// shows and a new socket opens.

import type { GameClientMessage } from "./client.js";
import { parse_message } from "./messages.js";
import type { ServerMessage } from "./types.js";
import { type ConnStatus, LIVENESS_TICK_MS, PingClock } from "./liveness.js";

export type Listener = (msg: ServerMessage) => void;
export type StatusListener = (status: ConnStatus) => void;

export class GameSocket {
  private ws: WebSocket | null = null;
  private attempts = 0;
  private timer: number | undefined;
  private pinger: number | undefined;
  private closed_by_us = false;
  private held = false;
  private pings: PingClock | null = null;
  // test hook: the network stalls (nothing goes out or comes in; the socket stays open to the
  // server, which must notice the silence itself)
  private stalled = false;
  private stalled_ws: WebSocket | null = null;

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
      this.pings = new PingClock(Date.now());
      window.clearInterval(this.pinger);
      this.pinger = window.setInterval(() => this.check_liveness(ws), LIVENESS_TICK_MS);
    };
    ws.onmessage = (ev) => {
      // a socket given up (stalled) may still deliver late: what it says is old
      if (this.stalled || this.ws !== ws) return;
      const msg = parse_message(String(ev.data));
      if (!msg) return;
      if (msg.type === "state") this.attempts = 0;
      if (msg.type === "pong") this.pings?.answered();
      this.on_message(msg);
    };
    ws.onclose = () => {
      if (this.ws !== ws) return;
      this.lost();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  /** The socket is gone (closed, or given up as stalled): "closed" now, a new one later. */
  private lost() {
    this.ws = null;
    this.pings = null;
    window.clearInterval(this.pinger);
    this.on_status("closed");
    this.schedule();
  }

  private check_liveness(ws: WebSocket) {
    if (this.ws !== ws || !this.pings) return;
    const step = this.pings.step(Date.now());
    if (step === "ping") this.send({ type: "ping" });
    else if (step === "stalled") {
      // a stalled network does not carry the close either; the server closes its end when
      // the socket has been silent long enough
      if (this.stalled) this.stalled_ws = ws;
      else ws.close();
      this.lost();
    }
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
    if (!this.stalled) this.ws.send(JSON.stringify(msg));
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

  /** Test hook: the network stalls: the socket stays open, but nothing goes out or comes in,
   * and no new socket opens until resume(). */
  stall() {
    this.stalled = this.held = true;
    window.clearTimeout(this.timer);
  }

  resume() {
    this.stalled = this.held = false;
    this.stalled_ws?.close();
    this.stalled_ws = null;
    this.attempts = 0;
    if (!this.ws) this.connect();
  }
}
