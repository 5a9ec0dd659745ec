// The game screen: board, players and clocks, move list, controls of the mode, analysis
// (evaluation bar, best lines), review graph and the game-over panel. Everything shown comes
// from the server's `state` messages and the deltas after them (each applied over the last state
// the page has; at a gap the page asks for the whole state); after a reconnect the first state
// replaces everything. What it shows is derived in game_state.ts; its HTTP calls are
// games_api.ts's.

import { GameSounds } from "./sounds.js";
import { board_svg } from "../board/board.js";
import { TextBoard } from "../board/text_board.js";
import { GameSocket } from "../protocol/conn.js";
import { type ConnStatus, move_refusal } from "../protocol/liveness.js";
import {
  after_delta, animates, away_ms, bottom_side, can_move as may_move, clock_ms, controls_of, deadline_passed, first_move_left,
  frame_ms, go_target, is_over, key_command, last_state, lifted, mark_class, may_rematch, move_cells, offer_declined,
  result_title_of, review_graph, running_clock, share_links, shown_position, shown_text, sowing_frames, sowing_of,
  status_kind, view_at, type Control,
} from "./game_state.js";
import { error_text, player_name, t, t_any, type Key } from "../i18n/index.js";
import { api, store } from "./games_api.js";
import { eval_label } from "../board/learn_board.js";
import { bar_share, favoured_chance, mover_chance, other_view } from "./eval_view_state.js";
import { clock_text, cp_text, known_result, move_label, other, parse_position, score_text, type Cell } from "../board/logic.js";
import type { GameClientMessage } from "../protocol/client.js";
import type { Board, GameState, Line, Review, ReviewSummary, Score, ServerMessage, Side } from "../protocol/types.js";
import { copy_text, esc, toast, type View } from "../shell/util.js";
import { diff_text, time_left_text } from "../accounts/accounts_state.js";
import { watch_next_game } from "../tournaments/next_game.js";
import { tournament_of_game } from "../tournaments/tournaments_api.js";
import { context_html, seat_html, show_watching } from "./game_context.js";
import { premove_after_click, premove_on_state } from "./premove_state.js";
import { plays_side } from "./game_state.js";
import { pref, set_pref } from "../shell/prefs.js";
import { confirm_tap } from "./touch_confirm_state.js";
import { Variations } from "./variations.js";
import { learn_api } from "../learn/learn_api.js";
import { ChatPanel } from "./chat.js";

/** Whether the main pointer is a finger (a touch screen). */
function coarse_pointer(): boolean {
  return !!window.matchMedia?.("(pointer: coarse)").matches;
}

interface Anim {
  board: Board;
  trail: Cell | null;
}

export class GameView implements View {
  el: HTMLElement;
  private body: HTMLElement; // redrawn by render(); the blind mode's text board stays beside it
  private blind: TextBoard;
  private sock: GameSocket;
  private state: GameState | null = null;
  private queue: GameState[] = [];
  private anim: Anim | null = null;
  private animating = false;
  private view_ply: number | null = null; // null: the live position
  private received_at = 0;
  private conn: ConnStatus = "connecting";
  private ever_open = false;
  private flipped = false;
  private hint: { hole: number; score: Score | null; ply: number } | null = null;
  private analysing = false;
  private eval_view = pref("eval_view"); // win chance or stone margin (eval_view_state.ts)
  private lines: { ply: number; depth: number; lines: Line[] } | null = null;
  // the engine's lines of a position shown other than the live one (GET /api/explorer/eval)
  private shown_lines: { position: string; depth: number; lines: Line[] } | null = null;
  private asked_lines = ""; // the position those were last asked for
  private review: {
    done: boolean;
    progress: number;
    moves: Review[];
    players: { white: ReviewSummary; black: ReviewSummary } | null;
  } | null = null;
  private confirm_resign = false;
  private declined_ply = -1; // our draw offer was declined at this ply (shown until we move)
  private panel_closed = false;
  private sent_ply = -1;
  private ticker: number;
  private sounds = new GameSounds();
  private stop_next: (() => void) | null = null; // the watch for the next tournament game
  private deadline_passed = false; // the correspondence deadline was past at the last render
  private keyh: (e: KeyboardEvent) => void;
  private board_focused = false; // the keyboard was on the board before a redraw: it stays there

  private checked = false;
  private syncing = false; // a gap in the deltas: the whole state was asked for
  private syncs = 0; // how many times (the browser tests read it)
  private lose_delta = false; // test hook: the next delta is dropped as if it never came
  private premove: number | null = null; // a hole picked during the opponent's turn (premove_state.ts)
  private hold_turn = false; // test hook: a state giving us the turn waits until released
  private confirm_touch = pref("confirm_touch"); // touch_confirm_state.ts
  private pending: number | null = null; // a hole tapped once, waiting for the confirming tap
  private vars: Variations; // the analysis board's move tree (analysis and finished games)
  private chat = new ChatPanel((m) => this.sock.send(m)); // kept across redraws (chat.ts)

  constructor(
    private id: string,
    token: string | undefined,
  ) {
    this.vars = new Variations(id);
    this.el = document.createElement("div");
    this.el.className = "game-view";
    this.body = document.createElement("div");
    this.body.innerHTML = `<p class="loading">…</p>`;
    this.blind = new TextBoard({
      play: (hole) => this.play(hole),
      status: () => this.el.querySelector("#status")?.textContent ?? "",
      clocks: () => this.clocks_now(),
    });
    this.el.append(this.blind.el, this.body);
    this.sock = new GameSocket(
      id,
      token,
      (m) => this.on_message(m),
      (s) => this.on_status(s),
    );
    this.el.addEventListener("click", (e) => this.on_click(e));
    this.keyh = (e) => this.on_key(e);
    document.addEventListener("keydown", this.keyh);
    this.ticker = window.setInterval(() => this.tick(), 100);
    // test hooks of the browser tests' build only (vite --mode e2e; none in `npm run build`):
    // drop the socket as a network failure would, then let it reconnect; send a message the
    // buttons would not
    if (__TOGUZ_TEST_HOOKS__)
      (window as any).__toguz = {
        send: (m: GameClientMessage) => this.sock.send(m),
        drop: () => this.sock.drop_and_hold(),
        stall: () => this.sock.stall(),
        resume: () => this.sock.resume(),
        state: () => this.state,
        lose_delta: () => (this.lose_delta = true),
        syncs: () => this.syncs,
        hold_turn: (on: boolean) => {
          this.hold_turn = on;
          if (!on && !this.animating) this.next_state();
        },
      };
  }

  destroy() {
    this.stop_next?.();
    this.sock.close();
    window.clearInterval(this.ticker);
    document.removeEventListener("keydown", this.keyh);
  }

  // ---- messages -------------------------------------------------------------------------

  private on_status(s: ConnStatus) {
    this.conn = s;
    if (s === "open") {
      this.ever_open = true;
      this.chat.on_open();
    }
    if (s === "closed" && !this.ever_open && !this.checked) {
      // never connected: say so if the game does not exist instead of retrying for ever
      this.checked = true;
      void api.missing(this.id).then((missing) => {
        if (missing) {
          this.sock.close();
          this.el.innerHTML = `<p class="not-found" id="not-found">${esc(t("not_found"))}</p>`;
        }
      });
    }
    const banner = this.el.querySelector<HTMLElement>("#conn-banner");
    if (banner) banner.hidden = !(this.ever_open && s !== "open");
    const root = this.el.querySelector<HTMLElement>(".game");
    if (root) root.dataset.conn = s;
  }

  private on_message(m: ServerMessage) {
    switch (m.type) {
      case "state":
        this.syncing = false;
        this.queue.push(m.game);
        if (!this.animating) this.next_state();
        break;
      case "delta": {
        if (__TOGUZ_TEST_HOOKS__ && this.lose_delta) {
          this.lose_delta = false;
          break;
        }
        if (this.syncing) break; // the whole state is on its way
        const g = after_delta(last_state(this.queue, this.state), m);
        if (g === "sync") {
          this.syncing = this.sock.send({ type: "sync" });
          this.syncs++;
          break;
        }
        this.queue.push(g);
        if (!this.animating) this.next_state();
        break;
      }
      case "error":
        toast(error_text(m), "error");
        // a refused move leaves the game unchanged: allow the same ply again
        this.sent_ply = -1;
        this.render();
        break;
      case "hint":
        this.hint = { hole: m.hole, score: m.score, ply: this.state?.ply ?? 0 };
        this.render();
        break;
      case "analysis":
        if (this.state && m.ply === this.state.ply) {
          this.lines = { ply: m.ply, depth: m.depth, lines: m.lines };
          this.render_analysis();
        }
        break;
      case "review":
        this.review = { done: m.done, progress: m.progress, moves: m.moves, players: m.players ?? null };
        this.render();
        break;
      case "presence":
        if (this.state) this.state.spectators = m.spectators;
        show_watching(this.el, m.spectators);
        break;
      case "chat_log":
      case "chat":
        this.chat.on_message(m);
        break;
      case "rematch":
        if (m.token) {
          store.set_token(m.id, m.token);
          location.hash = `#/game/${m.id}/${m.token}`;
        } else {
          location.hash = `#/game/${m.id}`; // a spectator follows the rematch
        }
        break;
    }
  }

  /** Applies the next queued state, with a sowing animation when it adds one move to the
   * position on screen (skipped when states pile up or the user reads an earlier move). */
  private next_state() {
    if (__TOGUZ_TEST_HOOKS__ && this.hold_turn && this.queue[0] && this.queue[0].to_move === this.queue[0].you) return;
    const g = this.queue.shift();
    if (!g) return;
    const old = this.state;
    const reduced_motion = !!window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;
    const view = this.vars.var_path ? 0 : this.view_ply; // no animation under a variation shown
    const sowing = old && animates(old, g, view, this.queue.length, reduced_motion) ? sowing_of(old, g) : null;
    if (old && sowing) {
      this.animate(old, g, sowing.path, () => this.apply(g));
      return;
    }
    this.apply(g);
  }

  private animate(old: GameState, g: GameState, path: Cell[], done: () => void) {
    this.animating = true;
    const mv = g.moves[g.moves.length - 1];
    const frames = sowing_frames(old.board, mv, path);
    this.anim = { board: lifted(old.board, mv), trail: null };
    // the new ply number, the move list and the rest show at once; only the board animates
    const step = frame_ms(path.length);
    let i = 0;
    const tick = () => {
      if (i >= frames.length) {
        this.anim = null;
        this.animating = false;
        done();
        return;
      }
      this.anim = frames[i++];
      this.render_board();
      window.setTimeout(tick, step);
    };
    this.render_board();
    window.setTimeout(tick, step);
  }

  private apply(g: GameState) {
    const prev = this.state;
    this.sounds.on_state(prev, g);
    const changed_ply = !prev || prev.ply !== g.ply;
    // our standing offer gone while the game goes on: the opponent declined it (or moved)
    if (offer_declined(prev, g)) {
      this.declined_ply = g.ply;
      toast(t("draw_declined"));
    }
    this.state = g;
    this.received_at = performance.now();
    if (changed_ply) {
      this.pending = null;
      this.hint = null;
      this.confirm_resign = false;
      this.lines = null;
      if (this.analysing) this.sock.send({ type: "analyze", multipv: 3 });
    }
    if (this.sent_ply !== g.ply) this.sent_ply = -1;
    if (!is_over(g)) this.panel_closed = false;
    this.watch_tournament(g);
    this.chat.on_state(g);
    if (this.view_ply !== null && this.view_ply >= g.ply) this.view_ply = null;
    this.vars.sync(g);
    // a premove waits for the latest state: one still queued would make it stale
    const pm = this.queue.length === 0 ? premove_on_state(g, this.premove) : { play: null, keep: this.premove };
    this.premove = pm.keep;
    this.render();
    if (pm.play !== null) this.play(pm.play);
    if (this.queue.length > 0) this.next_state();
  }

  /** A player's finished game of a tournament opened from its page: on to his next game. */
  private watch_tournament(g: GameState) {
    if (this.stop_next || !is_over(g) || (g.you !== "white" && g.you !== "black")) return;
    const tournament = tournament_of_game(g.id);
    if (tournament) this.stop_next = watch_next_game(g.id, tournament);
  }

  // ---- input ----------------------------------------------------------------------------

  private can_move(): boolean {
    return may_move(this.state, this.view_ply, this.animating, this.sent_ply) && !this.vars.var_path;
  }

  /** A click or tap on a legal hole: played at once, or with move confirmation on a touch
   * screen only at the second tap on it. */
  private tap_legal(hole: number) {
    if (!this.confirm_touch || !coarse_pointer()) return this.play(hole);
    const r = confirm_tap(this.pending, hole);
    this.pending = r.pending;
    if (r.play !== null) this.play(r.play);
    else this.render_board();
  }

  private play(hole: number) {
    const g = this.state;
    if (g && this.off_live()) return this.play_variation(hole);
    if (!g || !this.can_move() || !g.legal.includes(hole)) return;
    if (this.refuse_offline()) return;
    if (this.sock.send({ type: "move", hole, ply: g.ply })) {
      this.sent_ply = g.ply;
      this.render_board();
    }
  }

  /** A move while the socket is not open is refused here at once, the board left as it was:
   * it is never kept to be sent when the connection comes back. */
  private refuse_offline(): boolean {
    const why = move_refusal(this.conn);
    if (why) toast(t(why), "error");
    return why !== null;
  }

  private go_to(ply: number | null) {
    const g = this.state;
    if (!g) return;
    this.vars.var_path = null;
    this.view_ply = view_at(g, ply);
    this.render();
  }

  /** Whether a move goes onto the move tree: the page has one, no animation runs, and the
   * position shown is not one the server takes moves in (an earlier one, a variation's, or any
   * once the game is over). */
  private off_live(): boolean {
    const g = this.state;
    return !!g && !!this.vars.tree && !this.animating && (this.vars.var_path !== null || this.view_ply !== null || is_over(g));
  }

  /** A move on the analysis board away from the live position: onto the move tree (a variation,
   * or the line's own next move), never to the server. */
  private play_variation(hole: number) {
    const place = this.vars.play(this.state!, this.view_ply, hole);
    if (!place) return;
    this.pending = null;
    this.view_ply = place.view_ply;
    this.render();
  }

  /** A navigation: along the move tree where the page has one, else along the game's moves. */
  private navigate(go: "first" | "prev" | "next" | "last") {
    const g = this.state;
    if (!g) return;
    if (!this.vars.tree) return this.go_to(go_target(go, this.view_ply ?? g.ply));
    this.view_ply = this.vars.navigate(g, this.view_ply, go).view_ply;
    this.render();
  }

  /** A click on the move tree's panel or tools: a move shown, up into the parent line, the
   * variation shown promoted, made the main line or deleted, the export with the variations.
   * Whether the click was one of those. */
  private on_tree_click(target: Element): boolean {
    const g = this.state;
    if (!g || !this.vars.tree) return false;
    const node = target.closest<HTMLElement>("#moves [data-path]");
    const a = target.closest<HTMLElement>("[data-action]")?.dataset.action ?? "";
    const edit = a === "var-promote" ? "promote" : a === "var-main" ? "main" : a === "var-delete" ? "delete" : null;
    if (node) this.view_ply = this.vars.go(g, node.dataset.path ? node.dataset.path.split(".").map(Number) : []).view_ply;
    else if (a === "var-up") this.view_ply = this.vars.navigate(g, this.view_ply, "up").view_ply;
    else if (edit) this.view_ply = this.vars.edit(g, this.view_ply, edit).view_ply;
    else if (a === "export-variations") void this.export_variations();
    else return false;
    this.render();
    return true;
  }

  /** Downloads the game's PGN with the page's variations: the server's tags over the tree. */
  private async export_variations() {
    const g = this.state!;
    try {
      const server = await (await fetch(api.pgn_url(g.id))).text();
      const blob = new Blob([this.vars.pgn(g, server)], { type: "application/x-chess-pgn" });
      const a = document.createElement("a");
      a.href = URL.createObjectURL(blob);
      a.download = `toguz-${g.id}-variations.pgn`;
      a.click();
      window.setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    } catch {
      toast(t("reconnecting"), "error");
    }
  }

  private on_key(e: KeyboardEvent) {
    const target = e.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    const g = this.state;
    if (!g) return;
    const cmd = key_command(e.key);
    if (cmd && "play" in cmd) {
      this.play(cmd.play);
      e.preventDefault();
    } else if (cmd) {
      this.navigate(cmd.go);
      e.preventDefault();
    } else if (e.key === "Enter" && target?.classList.contains("hole")) {
      this.play(Number(target.dataset.hole));
    }
  }

  private on_click(e: Event) {
    const target = e.target as Element;
    const hole = target.closest<SVGGElement>("g.hole");
    const premove = this.premove;
    if (hole) {
      if (hole.classList.contains("legal")) this.tap_legal(Number(hole.dataset.hole));
      else this.premove = premove_after_click(this.state, premove, hole.dataset.side ?? null, Number(hole.dataset.hole));
      if (this.premove !== premove) this.render_board();
      return;
    }
    if (premove !== null || this.pending !== null) {
      this.premove = this.pending = null; // a click elsewhere cancels them
      this.render_board();
    }
    if (target instanceof HTMLInputElement && target.id === "confirm-touch") {
      this.confirm_touch = target.checked;
      set_pref("confirm_touch", target.checked);
      return;
    }
    if (this.on_tree_click(target)) return;
    const mv = target.closest<HTMLElement>("[data-goto]");
    if (mv) {
      this.go_to(Number(mv.dataset.goto));
      return;
    }
    const btn = target.closest<HTMLElement>("[data-action]");
    if (!btn) return;
    const a = btn.dataset.action!;
    const send = (m: GameClientMessage) => {
      if (!this.sock.send(m)) toast(t("reconnecting"), "error");
    };
    switch (a) {
      case "takeback":
      case "hint":
      case "offer_draw":
      case "accept_draw":
      case "decline_draw":
      case "accept_takeback":
      case "decline_takeback":
      case "abort":
      case "rematch":
      case "claim_win":
        send({ type: a });
        break;
      case "resign":
        this.confirm_resign = true;
        this.render();
        break;
      case "resign-confirm":
        this.confirm_resign = false;
        send({ type: "resign" });
        break;
      case "resign-cancel":
        this.confirm_resign = false;
        this.render();
        break;
      case "analyse":
        this.analysing = !this.analysing;
        this.lines = null;
        send(this.analysing ? { type: "analyze", multipv: 3 } : { type: "analyze_stop" });
        this.render();
        break;
      case "eval-view":
        this.eval_view = other_view(this.eval_view);
        set_pref("eval_view", this.eval_view);
        this.render();
        break;
      case "review":
        // the server sends a finished review once per connection: one already here is shown again
        if (!this.review?.done) send({ type: "review" });
        this.review = this.review ?? { done: false, progress: 0, moves: [], players: null };
        this.panel_closed = true;
        this.render();
        break;
      case "explorer":
        location.hash = `#/explorer/${encodeURIComponent(this.shown_text())}`;
        break;
      case "flip":
        this.flipped = !this.flipped;
        this.render();
        break;
      case "close-panel":
        this.panel_closed = true;
        this.render();
        break;
      case "copy": {
        const input = this.el.querySelector<HTMLInputElement>(`#${btn.dataset.for}`);
        if (input)
          void copy_text(input.value, input).then((ok) => {
            if (ok) toast(t("copied"));
          });
        break;
      }
      case "first":
      case "prev":
      case "next":
      case "last":
        this.navigate(a);
        break;
    }
  }

  // ---- drawing --------------------------------------------------------------------------

  private bottom(): Side {
    return bottom_side(this.state!.you, this.flipped);
  }

  private shown(): { board: Board; to_move: Side; ply: number } {
    return this.vars.shown() ?? shown_position(this.state!, this.view_ply, this.anim?.board ?? null);
  }

  /** The position text on screen: a variation's, else the game's at the ply shown. */
  private shown_text(): string {
    return this.vars.shown()?.text ?? shown_text(this.state!, this.view_ply);
  }

  private name_of(side: Side): string {
    const p = this.state?.players?.[side];
    if (!p) return "…";
    return p.name ? player_name(p.name, p.default_name, p.level) : t(side);
  }

  private render_board() {
    const g = this.state;
    const box = this.el.querySelector<HTMLElement>("#board");
    if (!g || !box) return;
    const s = this.shown();
    const live = this.view_ply === null && !this.vars.var_path;
    const last = this.vars.shown() ? this.vars.shown()!.last : s.ply > 0 ? g.moves[s.ply - 1] : null;
    // on the analysis board, away from the live position, a move goes onto the move tree
    const legal = this.can_move() ? g.legal : this.off_live() ? this.vars.legal(g, this.view_ply) : [];
    const focused = this.board_focused || box.contains(document.activeElement);
    this.board_focused = false;
    box.innerHTML = board_svg({
      board: s.board,
      bottom: this.bottom(),
      legal: new Set(legal),
      to_move: s.to_move,
      last: last && !this.anim ? { from: last.from, to: last.to } : null,
      hint: live && this.hint && this.hint.ply === g.ply ? this.hint.hole : null,
      trail: this.anim?.trail ?? null,
      names: { white: this.name_of("white"), black: this.name_of("black") },
    });
    box.dataset.ply = String(g.ply);
    box.dataset.shown = String(s.ply);
    box.dataset.variation = this.vars.var_path ? "1" : "0";
    box.dataset.status = g.status;
    box.dataset.toMove = g.to_move;
    box.dataset.you = g.you;
    box.dataset.animating = this.animating ? "1" : "0";
    box.dataset.canMove = this.can_move() ? "1" : "0";
    box.dataset.premove = live && this.premove !== null ? String(this.premove) : "";
    if (live && this.pending !== null)
      box.querySelector(`g.hole.legal[data-hole="${this.pending}"]`)?.classList.add("pending");
    if (live && this.premove !== null)
      box.querySelector(`g.hole[data-side="${g.you}"][data-hole="${this.premove}"]`)?.classList.add("premove");
    if (focused) this.focus_board(box);
  }

  /** Puts the keyboard back on the board after a redraw: on its first legal hole when there is
   * one, else on the board itself. */
  private focus_board(box: HTMLElement) {
    const hole = box.querySelector<SVGGElement>("g.hole.legal");
    if (hole) return hole.focus();
    box.tabIndex = -1;
    box.focus();
  }

  /** How long the opponent has been away now: the state's away_ms plus the time since it came. */
  private away_text(): string {
    return t("seconds", { n: Math.floor(away_ms(this.state, this.elapsed()) / 1000) });
  }

  /** Both clocks now (the running one counted on since the state came), null without a clock. */
  private clocks_now(): { white: number; black: number } | null {
    const c = this.state?.clock;
    if (!c) return null;
    const r = running_clock(this.state, this.elapsed());
    const now = (s: Side) => (r?.side === s ? r.ms : clock_ms(c, s));
    return { white: now("white"), black: now("black") };
  }

  /** The milliseconds since the state shown came. */
  private elapsed(): number {
    return performance.now() - this.received_at;
  }

  /** The first move's time left now: the state's first_move_ms less the time since it came. */
  private first_move_text(): string {
    return t("first_move_due", { s: Math.ceil(first_move_left(this.state, this.elapsed()) / 1000) });
  }

  private tick() {
    const g = this.state;
    const away = this.el.querySelector<HTMLElement>("#away");
    if (away) away.textContent = this.away_text();
    const first = this.el.querySelector<HTMLElement>("#first-move");
    if (first) first.textContent = this.first_move_text();
    const corr = g?.status === "playing" ? g.correspondence : null;
    if (corr) {
      // the claim button comes once the deadline passes, without a new state from the server
      if (deadline_passed(g, Date.now()) !== this.deadline_passed) {
        this.render();
        return;
      }
      const el = this.el.querySelector<HTMLElement>("#corr-left");
      if (el) el.textContent = this.deadline_text();
    }
    const running = running_clock(g, this.elapsed());
    if (!running) return;
    const el = this.el.querySelector<HTMLElement>(`.clock[data-side="${running.side}"]`);
    if (!el) return;
    el.textContent = clock_text(running.ms);
    el.classList.toggle("low", running.ms < 20000);
    this.sounds.on_clock(running.side, running.ms, g?.you ?? "spectator");
  }

  /** A correspondence game's deadline in words: the time the side to move has left, or that it
   * is up. */
  private deadline_text(): string {
    const g = this.state!;
    const left = time_left_text((g.correspondence?.deadline_ms ?? 0) - Date.now());
    const side = this.name_of(g.to_move);
    return left === null ? t("corr_time_up", { side }) : t("corr_left", { side, left });
  }

  /** Why the game is paused when the server's store refuses its writes (empty otherwise). */
  private store_html(): string {
    const code = this.state!.store;
    if (!code) return "";
    const why = t_any(`e_${code}`, {}, "e_store_unavailable");
    return `<p class="store-fault" id="store-fault" role="alert" data-code="${esc(code)}">${esc(why)} ${esc(t("store_paused"))}</p>`;
  }

  /** The deadline line of a correspondence game being played (empty otherwise). */
  private deadline_html(): string {
    const g = this.state!;
    if (!g.correspondence || g.status !== "playing") return "";
    this.deadline_passed = deadline_passed(g, Date.now());
    return `<p class="deadline${this.deadline_passed ? " up" : ""}" id="corr-deadline" data-deadline-ms="${g.correspondence.deadline_ms}">
      ${esc(t("days_per_move", { n: g.correspondence.days_per_move }))} · <span id="corr-left">${esc(this.deadline_text())}</span></p>`;
  }

  private player_bar(side: Side, pos: "top" | "bottom"): string {
    const g = this.state!;
    const p = g.players?.[side];
    const turn = g.status === "playing" && g.to_move === side;
    const you = g.you === side ? ` <span class="you-tag">(${esc(t("you"))})</span>` : "";
    const online = g.mode === "online" && p && !p.engine;
    const dot = online
      ? `<span class="dot ${p!.connected ? "on" : "off"}" title="${esc(t(p!.connected ? "connected" : "disconnected"))}"></span>`
      : "";
    const away = online && !p!.connected && g.status === "playing" ? ` <span class="away-tag">${esc(t("away"))}</span>` : "";
    let clock = "";
    if (g.clock) {
      clock = `<span class="clock${g.clock.running === side ? " running" : ""}" data-side="${side}">${clock_text(clock_ms(g.clock, side))}</span>`;
    }
    const thinking = turn && g.thinking && p?.engine ? `<span class="thinking">${esc(t("engine_thinking"))}</span>` : "";
    return `<div class="player ${pos}${turn ? " turn" : ""}" data-side="${side}">
      <span class="stone-badge ${side}"></span>${dot}
      ${seat_html(g, side, this.name_of(side))}${you}${away}${thinking}
      <span class="kz" title="${esc(t("kazna"))}">${esc(t("kazna"))}: <b>${this.shown().board.kazna[side]}</b></span>
      ${clock}</div>`;
  }

  private status_line(): string {
    const g = this.state!;
    const to_move = `${esc(t(g.to_move))} ${esc(t("to_move"))}`;
    switch (status_kind(g)) {
      case "waiting":
        return esc(t("waiting_opponent"));
      case "over":
        return esc(this.result_title());
      case "spectator":
        return `${esc(t("spectator"))} · ${to_move}`;
      case "first_move":
        return `${esc(t("your_move"))} · <span id="first-move">${esc(this.first_move_text())}</span>`;
      case "your_move":
        return esc(t("your_move"));
      case "thinking":
        return esc(t("engine_thinking"));
      case "side_to_move":
        return to_move;
    }
  }

  private result_title(): string {
    const r = result_title_of(this.state!);
    return "wins" in r ? t("wins", { side: this.name_of(r.wins) }) : t(r.key);
  }

  private controls(): string {
    const g = this.state!;
    const b = (action: string, label: string, extra = "") =>
      `<button type="button" data-action="${action}" ${extra}>${esc(label)}</button>`;
    const control = (c: Control): string => {
      if (c.kind === "confirm_resign")
        return `<span class="confirm">${esc(t("confirm_resign"))} ${b("resign-confirm", t("resign"), 'class="danger"')} ${b("resign-cancel", "✕")}</span>`;
      if (c.kind === "offer") {
        // the server's away_ms is as of the state; tick() counts on from there
        const away = c.away ? ` (<span class="away" id="away">${esc(this.away_text())}</span>)` : "";
        return `<span class="offer"${c.id ? ` id="${c.id}"` : ""}>${esc(t(c.text))}${away}</span>`;
      }
      const extra = [
        c.cls ? `class="${c.cls}"` : "",
        c.id ? `id="${c.id}"` : "",
        c.title ? `title="${esc(t(c.title))}"` : "",
        c.disabled ? "disabled" : "",
      ].filter((x) => x).join(" ");
      return b(c.action, t(c.label), extra);
    };
    const ui = {
      confirm_resign: this.confirm_resign,
      declined_ply: this.declined_ply,
      deadline_passed: this.deadline_passed,
      analysing: this.analysing,
      reviewing: !!this.review,
    };
    const out = controls_of(g, ui).map(control);
    out.push(`<a class="button" href="${api.pgn_url(g.id)}" target="_blank" download="toguz-${esc(g.id)}.pgn">${esc(t("export_pgn"))}</a>`);
    if (this.vars.tree) out.push(`<button type="button" data-action="export-variations" id="export-variations">${esc(t("export_pgn_variations"))}</button>`);
    if (coarse_pointer() && plays_side(g.you))
      out.push(`<label class="touch-confirm"><input type="checkbox" id="confirm-touch"${this.confirm_touch ? " checked" : ""}/> ${esc(t("confirm_touch"))}</label>`);
    return out.join(" ");
  }

  private move_list(): string {
    const g = this.state!;
    // a game may start with Black to move (imported position): number pairs from the start
    const cells = move_cells(g, this.view_ply ?? g.ply, this.review?.moves ?? []).map((c) => {
      if (c.kind === "num") return `<span class="mnum">${c.n}.</span>`;
      if (c.kind === "gap") return `<span class="mv empty">…</span>`;
      if (c.kind === "result") return `<span class="mres">${c.text}</span>`;
      const cls = `mv${c.current ? " current" : ""}${c.mark ? ` mark-${mark_class(c.mark)}` : ""}`;
      return `<span class="${cls}" data-goto="${c.ply}" data-ply="${c.ply}" role="button" tabindex="-1">${esc(c.notation)}${c.mark ? `<sup>${esc(c.mark)}</sup>` : ""}</span>`;
    });
    return `<div class="nav">
        <button type="button" data-action="first" aria-label="${esc(t("start"))}">«</button>
        <button type="button" data-action="prev" aria-label="${esc(t("a_prev"))}">◀</button>
        <button type="button" data-action="next" aria-label="${esc(t("a_next"))}">▶</button>
        <button type="button" data-action="last" aria-label="${esc(t("a_last"))}">»</button>
      </div>
      ${this.vars.tree ? this.vars.panel_html(g, this.view_ply, this.review_marks()) : `<div class="moves" id="moves" data-count="${g.moves.length}">${cells.join("")}</div>`}
      <p class="keys">${esc(t(this.vars.tree ? "keys_help_variations" : "keys_help"))}</p>`;
  }

  /** The review's marks by the game's ply. */
  private review_marks(): Map<number, string> {
    const marks = new Map<number, string>();
    for (const r of this.review?.moves ?? []) if (r.mark) marks.set(r.ply, r.mark);
    return marks;
  }

  /** The engine's lines of the position shown: the live one's from the socket, another's (an
   * earlier move, a variation) from GET /api/explorer/eval, asked once per position while the
   * analysis is on; an answer for a position no longer shown waits for it to come back. */
  private engine_lines(): { depth: number; lines: Line[] } | null {
    const text = this.shown_text();
    if (text === this.state!.position) return this.lines;
    if (this.shown_lines?.position === text) return this.shown_lines;
    if (this.analysing && this.asked_lines !== text) {
      this.asked_lines = text;
      void learn_api
        .explorer_eval(text)
        .then((r) => {
          const lines = r.moves.slice(0, 3).map((m, i) => ({ multipv: i + 1, depth: r.depth, seldepth: r.depth, nodes: 0, pv: [m.hole], pv_notation: m.pv_notation, score: m.score }));
          this.shown_lines = { position: text, depth: r.depth, lines };
          if (this.analysing && this.shown_text() === text) this.render_analysis();
        })
        .catch(() => undefined); // the lines stay "…" for this position
    }
    return null;
  }

  private eval_bar(): string {
    const line = this.engine_lines()?.lines?.[0];
    let pct = 50;
    let label = "";
    if (line?.score) {
      pct = bar_share(line.score, this.eval_view);
      // "White 73%" (the bar is narrow), "+1.25", or "White wins by 6" when proven or in the tables
      const c = favoured_chance(line.score, this.eval_view);
      label = c ? `${t(c.side)} ${c.pct}%` : eval_label(line.score);
    }
    if (!this.analysing) return `<div class="evalbar" id="evalbar" hidden></div>`;
    const flip = this.bottom() === "black";
    // White's share grows from White's side (the bottom when White is at the bottom)
    // the text, written across above the bar, is the favoured side's win chance or White's
    // expected margin in stones
    return `<div class="evalbar${flip ? " flip" : ""}" id="evalbar" title="${esc(t("eval_help"))}" data-white="${pct.toFixed(1)}">
      <span class="eval-label" id="eval-label">${esc(label || "…")}</span>
      <div class="bar"><div class="white-part" style="height:${pct.toFixed(1)}%"></div></div></div>`;
  }

  private render_analysis() {
    const box = this.el.querySelector<HTMLElement>("#analysis");
    const bar = this.el.querySelector<HTMLElement>("#evalbar");
    if (bar) bar.outerHTML = this.eval_bar();
    if (!box) return;
    if (!this.analysing) {
      box.innerHTML = "";
      box.hidden = true;
      return;
    }
    box.hidden = false;
    const shown = this.engine_lines();
    const rows = (shown?.lines ?? [])
      .map((l, i) => {
        // "White wins by 6" when proven or in the tables, else the favoured side's win chance or
        // White's margin, as the reader chose
        const txt = this.eval_text(l.score);
        const pv = (l.pv_notation.length ? l.pv_notation : l.pv.map(String)).slice(0, 12).join(" ");
        return `<li class="line" data-rank="${i + 1}"><b>${esc(txt)}</b> <span class="pv">${esc(pv)}</span></li>`;
      })
      .join("");
    box.innerHTML = `<h3>${esc(t("analyse"))} <small>${shown ? `${esc(t("depth"))} ${shown.depth}` : "…"}</small></h3><ol class="lines">${rows}</ol>
      <p class="units">${esc(t(this.eval_view === "chance" ? "eval_help_chance" : "eval_help"))} ${this.eval_view_button()}</p>`;
  }

  /** A score from White's view as the reader's view shows it: "White: win chance 73%", or
   * White's margin ("+1.25"); a known result as such ("White wins by 6"). */
  private eval_text(sc: Score): string {
    const c = favoured_chance(sc, this.eval_view);
    return c ? t("win_chance_of", { side: t(c.side), p: c.pct }) : eval_label(sc);
  }

  /** The button that switches between the win chance and the stone margin. */
  private eval_view_button(): string {
    const key = this.eval_view === "chance" ? "show_margin" : "show_chance";
    return `<button type="button" class="eval-view" data-action="eval-view">${esc(t(key))}</button>`;
  }

  /** A score from the side to move's view in words with its unit: "+15.75 stones expected for
   * White" or "White wins in 7". */
  private score_words(sc: Score): string {
    const g = this.state!;
    const words = { win: t("win_in"), loss: t("loss_in"), draw: t("draw_in") };
    if (sc.proven) return `${t(g.to_move)}: ${score_text(sc, words)}`;
    if (known_result(sc)) return eval_label(sc);
    const p = mover_chance(sc, this.eval_view);
    if (p !== null) return t("win_chance_of", { side: t(g.to_move), p });
    return t("margin_for", { v: cp_text(sc.cp), side: t(g.to_move) });
  }

  private review_html(): string {
    const r = this.review;
    if (!r) return "";
    const g = this.state!;
    const W = 600;
    const H = 160;
    // White's share is the light area rising from the bottom, Black's the dark one above it
    const { pts, step, line: poly, area, cursor } = review_graph(r.moves, this.view_ply ?? g.ply, W, H, this.eval_view);
    const start = parse_position(g.start_position);
    const label = (ply: number) => move_label(ply, start.move_number, start.to_move);
    const marks = r.moves
      .filter((m) => m.mark)
      .map((m) => {
        const [x, y] = pts[m.ply] ?? [0, H / 2];
        const cls = mark_class(m.mark!);
        const mv = g.moves[m.ply - 1];
        return `<circle class="gmark ${cls}" cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="5" data-goto="${m.ply}"><title>${esc(label(m.ply))} ${esc(mv?.notation ?? "")}${esc(m.mark)}</title></circle>`;
      })
      .join("");
    const hits = pts
      .map(([x], i) => `<rect class="ghit" x="${x - step / 2}" y="0" width="${step}" height="${H}" data-goto="${i}"/>`)
      .join("");
    const list = r.moves
      .filter((m) => m.mark)
      .map((m) => {
        const mv = g.moves[m.ply - 1];
        const best = m.best_notation ?? `${t("hole")} ${m.best}`;
        return `<li data-goto="${m.ply}" data-ply="${m.ply}"><span role="button"><span class="mnum">${esc(label(m.ply))}</span> <b>${esc(mv?.notation ?? String(m.hole))}${esc(m.mark)}</b> (${esc(t(m.side))}) — ${esc(t("best_was"))} <b class="best">${esc(best)}</b> · ${esc(t("loss_stones", { n: (m.loss_cp / 100).toFixed(1) }))}</span></li>`;
      })
      .join("");
    const progress = r.done ? "" : `<progress max="1" value="${r.progress}"></progress> ${esc(t("reviewing"))} ${(r.progress * 100).toFixed(0)}%`;
    return `<section class="review" id="review" data-done="${r.done ? 1 : 0}">
      <h3>${esc(t("review_graph"))} ${this.eval_view_button()}</h3>${progress}
      <svg class="graph" id="graph" viewBox="0 0 ${W} ${H}" preserveAspectRatio="none">
        <rect class="gbg" x="0" y="0" width="${W}" height="${H}"/>
        ${area ? `<polygon class="garea" points="${area}"/>` : ""}
        <line class="gmid" x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}"/>
        <polyline class="gline" points="${poly}"/>
        <line class="gcursor" x1="${cursor}" y1="0" x2="${cursor}" y2="${H}"/>
        ${hits}${marks}
      </svg>
      ${this.summary_html()}
      ${list ? `<h4>${esc(t("mistakes"))}</h4><ul class="mistakes">${list}</ul>` : ""}
    </section>`;
  }

  /** The finished review's totals per player (the server's `players`). */
  private summary_html(): string {
    const p = this.review?.players;
    if (!p) return "";
    const row = (side: Side) => {
      const s = p[side];
      return `<tr data-side="${side}"><th scope="row"><span class="who"><span class="stone-badge ${side}"></span>${esc(this.name_of(side))}</span></th>
        <td>${s.moves}</td><td>${(s.average_loss_cp / 100).toFixed(2)}</td><td>${s.inaccuracies}</td><td>${s.mistakes}</td><td>${s.blunders}</td></tr>`;
    };
    // on a phone the mark columns show only their marks (the words stay in the tooltips)
    const mark = (m: string, key: Key) => `<th title="${esc(t(key))}">${m}<span class="word"> ${esc(t(key))}</span></th>`;
    return `<div class="summary-wrap"><table class="summary" id="review-summary"><thead><tr><th></th><th>${esc(t("moves"))}</th>
      <th title="${esc(t("avg_loss_help"))}">${esc(t("avg_loss"))}</th>${mark("?!", "inaccuracies")}${mark("?", "mistakes")}${mark("??", "blunders")}</tr></thead>
      <tbody>${row("white")}${row("black")}</tbody></table></div>`;
  }

  private links_html(): string {
    const g = this.state!;
    const links = share_links(g, store.invite(g.id), `${location.origin}${location.pathname}`);
    const parts: string[] = [];
    if (links.invite) {
      parts.push(`<label>${esc(t("invite_link"))}<span class="copyrow"><input id="invite-link" readonly value="${esc(links.invite)}"/>
        <button type="button" data-action="copy" data-for="invite-link">${esc(t("copy"))}</button></span></label>`);
    }
    if (links.spectator) {
      parts.push(`<label>${esc(t("spectator_link"))}<span class="copyrow"><input id="spectator-link" readonly value="${esc(links.spectator)}"/>
        <button type="button" data-action="copy" data-for="spectator-link">${esc(t("copy"))}</button></span></label>`);
    }
    return parts.length ? `<div class="links">${parts.join("")}</div>` : "";
  }

  private over_panel(): string {
    const g = this.state!;
    if (!is_over(g) || this.panel_closed) return "";
    const r = g.result;
    const reason = r ? t_any(`r_${r.reason}`) : "";
    const tournament = tournament_of_game(g.id); // opened from a tournament page
    return `<div class="over-panel" id="game-over" role="dialog" data-winner="${esc(r?.winner ?? "")}" data-reason="${esc(r?.reason ?? "")}">
      <button type="button" class="x" data-action="close-panel" aria-label="${esc(t("a_close"))}">✕</button>
      <h2>${r && r.winner !== "draw" ? `<span class="stone-badge ${r.winner}"></span> ` : ""}${esc(this.result_title())}</h2>
      ${r ? `<p class="final-score">${esc(t("score"))}: <b>${esc(r.score)}</b></p><p class="reason">${esc(reason)}</p>` : ""}
      ${g.rated ? (["white", "black"] as const).map((s) => g.players[s]?.rating_diff == null ? "" : `<p class="rating-change" data-side="${s}">${esc(t("rating_change", { name: this.name_of(s), diff: diff_text(g.players[s]!.rating_diff) }))}</p>`).join("") : ""}
      <div class="row">
        <button type="button" data-action="review" class="primary">${esc(t("review"))}</button>
        ${may_rematch(g) ? `<button type="button" data-action="rematch">${esc(t("rematch"))}</button>` : ""}
        ${tournament ? `<a class="button primary" id="tn-back" href="#/tournaments/${encodeURIComponent(tournament)}">${esc(t("tn_back"))}</a>` : ""}
        <a class="button" href="#/">${esc(t("home"))}</a>
      </div></div>`;
  }

  render() {
    const g = this.state;
    if (!g) return;
    const top = other(this.bottom());
    const hint_text =
      this.hint && this.hint.ply === g.ply
        ? `<p class="hint-text" id="hint">${esc(t("hint"))}: ${esc(t("hole"))} ${this.hint.hole}${this.hint.score ? ` (${esc(this.score_words(this.hint.score))})` : ""}</p>`
        : "";
    this.board_focused ||= !!this.el.querySelector("#board")?.contains(document.activeElement);
    const typing = document.activeElement instanceof HTMLInputElement && this.chat.el.contains(document.activeElement) ? document.activeElement : null;
    this.body.innerHTML = `<div class="game" data-mode="${g.mode}" data-conn="${this.conn}">
      <div class="banner" id="conn-banner" ${this.ever_open && this.conn !== "open" ? "" : "hidden"}>${esc(t("reconnecting"))}</div>
      <div class="main-col">
        ${this.player_bar(top, "top")}
        <div class="board-wrap">
          ${this.eval_bar()}
          <div class="board" id="board"></div>
          ${this.over_panel()}
        </div>
        ${this.player_bar(this.bottom(), "bottom")}
        <p class="status" id="status">${this.status_line()}</p>
        ${context_html(g)}
        ${this.store_html()}
        ${this.deadline_html()}
        ${g.unrated_reason ? `<p class="notice" id="unrated-notice">${esc(t_any(`unrated_${g.unrated_reason}`))}</p>` : ""}
        ${hint_text}
        <div class="controls" id="controls">${this.controls()}</div>
        ${this.links_html()}
        ${this.review_html()}
      </div>
      <aside class="side-col">
        ${this.move_list()}
        <div class="analysis" id="analysis" hidden></div>
      </aside></div>`;
    this.el.querySelector(".side-col")?.append(this.chat.el);
    typing?.focus();
    this.render_board();
    this.render_analysis();
    this.tick();
    const you = g.you === "white" || g.you === "black" ? g.you : null;
    this.blind.update({ id: g.id, board: g.board, to_move: g.to_move, legal: g.legal, may_move: this.can_move(), moves: g.moves.slice(0, g.ply), over: is_over(g), tuz: g.tuz, you });
    // keep the current move visible inside the list (not by scrolling the page)
    const list = this.el.querySelector<HTMLElement>("#moves");
    const cur = this.el.querySelector<HTMLElement>("#moves .current");
    if (list && cur) {
      const top = cur.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + cur.offsetHeight > list.scrollTop + list.clientHeight)
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}
