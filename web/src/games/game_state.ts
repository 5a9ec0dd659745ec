// The games feature's pure part: of the game page (games/game.ts draws it) which state comes
// next from the server's messages, what position is on screen, whether the reader may move, the
// sowing animation's frames, what the keys do, which controls, status line and move list it
// shows, the clocks' time left and the review graph's shape; of the position editor
// (games/editor.ts) its boards and stone count. No DOM access and no fetch here (unit-tested in
// test/unit/game_state.test.mjs).

import { view_graph_value, type EvalView } from "./eval_view_state.js";
import { graph_points, graph_x, other, parse_position, sowing_path, type Cell } from "../board/logic.js";
import type { Key } from "../i18n/index.js";
import { apply_delta } from "../protocol/messages.js";
import type { Board, DeltaMessage, GameState, MoveRec, Player, Review, Side, You } from "../protocol/types.js";
import { takeback_controls } from "./takeback_state.js";

/** What a delta does: the state it makes (queued after the others), or "sync" when it does not
 * follow the last state the page has (a gap) and the page must ask for the whole state. */
export function after_delta(last: GameState | null, d: DeltaMessage): GameState | "sync" {
  return apply_delta(last, d) ?? "sync";
}

/** The state the next delta applies over: the last one queued, else the one shown. */
export function last_state(queue: GameState[], shown: GameState | null): GameState | null {
  return queue.length > 0 ? queue[queue.length - 1] : shown;
}

/** Whether going from `old` to `g` is worth a sowing animation: one move more, the live position
 * on screen, no pile of states behind it, and the reader does not ask for reduced motion. */
export function animates(old: GameState | null, g: GameState, view_ply: number | null, queued: number, reduced_motion: boolean): boolean {
  return (
    old !== null &&
    g.ply === old.ply + 1 &&
    g.moves.length === old.moves.length + 1 &&
    view_ply === null &&
    queued < 2 &&
    !reduced_motion
  );
}

/** The boards of the sowing animation of `mv` over `start`, one per stone dropped along `path`
 * (board/logic.ts sowing_path), each with the hole it reached. The moved hole is emptied
 * first; a stone reaching a tuz goes to its owner's kazna. `start` is not changed. */
export function sowing_frames(start: Board, mv: MoveRec, path: Cell[]): { board: Board; trail: Cell }[] {
  const b = lifted(start, mv);
  return path.map((c) => {
    const owner = other(c.side);
    if (b.tuz[owner] === c.hole) b.kazna[owner]++;
    else b[c.side][c.hole - 1]++;
    return { board: JSON.parse(JSON.stringify(b)) as Board, trail: c };
  });
}

/** The board with the moved hole emptied: the animation's first frame. */
export function lifted(start: Board, mv: MoveRec): Board {
  const b: Board = JSON.parse(JSON.stringify(start));
  b[mv.from.side][mv.from.hole - 1] = 0;
  return b;
}

/** The milliseconds between two frames of a sowing of `stones`: about 0.56 s in all, 18 to 70
 * ms a stone. */
export function frame_ms(stones: number): number {
  return Math.max(18, Math.min(70, 560 / stones));
}

/** Whether our standing draw offer was declined between two states of the same game: it is
 * gone while the game goes on. */
export function offer_declined(prev: GameState | null, g: GameState): boolean {
  const mine = (x: GameState | null) => !!x && (x.you === "white" || x.you === "black") && x.draw_offer === x.you;
  return !!prev && prev.id === g.id && mine(prev) && !g.draw_offer && g.status === "playing";
}

/** Whether the game is over (finished or called off). */
export function is_over(g: GameState): boolean {
  return g.status === "over" || g.status === "aborted";
}

/** Whether the reader may play a hole now: the live position shown, no animation, the game
 * going on with legal moves, and no move of his for this ply on its way. */
export function can_move(g: GameState | null, view_ply: number | null, animating: boolean, sent_ply: number): boolean {
  return !!g && view_ply === null && !animating && !is_over(g) && g.legal.length > 0 && sent_ply !== g.ply;
}

/** The ply to show when the reader asks for `ply`: within 0..g.ply, null for the live one. */
export function view_at(g: GameState, ply: number | null): number | null {
  if (ply === null) return null;
  const p = Math.max(0, Math.min(g.ply, ply));
  return p === g.ply ? null : p;
}

/** The position text after `ply` moves (0: the start). */
export function position_at(g: GameState, ply: number): string {
  return ply === 0 ? g.start_position : g.moves[ply - 1].position;
}

/** The position on screen: an earlier one the reader went back to, else the animation's
 * board, else the live one. */
export function shown_position(g: GameState, view_ply: number | null, anim_board: Board | null): { board: Board; to_move: Side; ply: number } {
  if (view_ply !== null) {
    const p = parse_position(position_at(g, view_ply));
    return { board: p.board, to_move: p.to_move, ply: view_ply };
  }
  return { board: anim_board ?? g.board, to_move: g.to_move, ply: g.ply };
}

/** The side drawn at the bottom: the reader's (White for a spectator or both), turned over by
 * the flip button. */
export function bottom_side(you: GameState["you"], flipped: boolean): Side {
  const base: Side = you === "black" ? "black" : "white";
  return flipped ? other(base) : base;
}

/** What a key does on the game page: play a hole (1-9), go to a ply, or nothing. */
export type KeyCommand = { play: number } | { go: "first" | "prev" | "next" | "last" } | null;

export function key_command(key: string): KeyCommand {
  if (/^[1-9]$/.test(key)) return { play: Number(key) };
  if (key === "ArrowLeft") return { go: "prev" };
  if (key === "ArrowRight") return { go: "next" };
  if (key === "Home" || key === "ArrowUp") return { go: "first" };
  if (key === "End" || key === "ArrowDown") return { go: "last" };
  return null;
}

/** The ply a navigation asks for from the ply shown (null: the live position). */
export function go_target(go: "first" | "prev" | "next" | "last", shown: number): number | null {
  return go === "first" ? 0 : go === "prev" ? shown - 1 : go === "next" ? shown + 1 : null;
}

/** The sowing to animate from `old` to `g` (its last move and the holes its stones reach), or
 * null when the moved hole was empty. */
export function sowing_of(old: GameState, g: GameState): { mv: MoveRec; path: Cell[] } | null {
  const mv = g.moves[g.moves.length - 1];
  const k = old.board[mv.from.side][mv.from.hole - 1];
  return k > 0 ? { mv, path: sowing_path(g.n, mv.from, k) } : null;
}

/** The position text on screen: the one the reader went back to, else the live one. */
export function shown_text(g: GameState, view_ply: number | null): string {
  return view_ply === null ? g.position : position_at(g, view_ply);
}

/** Whether the reader plays one side (not a spectator, not both sides at one device). */
export function plays_side(you: You): you is Side {
  return you === "white" || you === "black";
}

/** The reader's opponent when he plays one side, else null. */
export function opponent(g: GameState): Player | null {
  return plays_side(g.you) ? (g.players?.[other(g.you)] ?? null) : null;
}

/** Whether a finished game offers the reader a rematch: a player of an online game, or anyone
 * but a spectator at an engine or local game. */
export function may_rematch(g: GameState): boolean {
  if (g.tournament) return false; // a tournament pairs its own games
  return (g.mode === "online" && plays_side(g.you)) || ((g.mode === "engine" || g.mode === "local") && g.you !== "spectator");
}

/** A result as the move list writes it. */
export function result_mark(winner: Side | "draw"): string {
  return winner === "white" ? "1-0" : winner === "black" ? "0-1" : "½-½";
}

/** The class of a review's mark: ?? a blunder, ? a mistake, ?! a dubious move. */
export function mark_class(mark: string): "blunder" | "mistake" | "dubious" {
  return mark === "??" ? "blunder" : mark === "?" ? "mistake" : "dubious";
}

/** One cell of the move list: a move number, the empty White half of a game that starts with
 * Black to move, a move (with its review mark), or the result at the end. */
export type MoveCell =
  | { kind: "num"; n: number }
  | { kind: "gap" }
  | { kind: "move"; ply: number; notation: string; mark: string | null; current: boolean }
  | { kind: "result"; text: string };

/** The move list of `g` with ply `shown` current and the review's marks; the moves are numbered
 * in pairs from the start position's move number. */
export function move_cells(g: GameState, shown: number, review: Review[]): MoveCell[] {
  const marks = new Map<number, string>();
  for (const r of review) if (r.mark) marks.set(r.ply, r.mark);
  const start = parse_position(g.start_position);
  const cells: MoveCell[] = [];
  let num = start.move_number;
  if (start.to_move === "black" && g.moves.length > 0) cells.push({ kind: "num", n: num }, { kind: "gap" });
  g.moves.forEach((m, i) => {
    const ply = i + 1;
    if (m.side === "white") cells.push({ kind: "num", n: num });
    cells.push({ kind: "move", ply, notation: m.notation, mark: marks.get(ply) ?? null, current: ply === shown });
    if (m.side === "black") num++;
  });
  if (g.result && g.status === "over") cells.push({ kind: "result", text: result_mark(g.result.winner) });
  return cells;
}

/** What the status line under the board says. */
export type StatusKind = "waiting" | "over" | "spectator" | "first_move" | "your_move" | "side_to_move" | "thinking";

export function status_kind(g: GameState): StatusKind {
  if (g.status === "waiting") return "waiting";
  if (is_over(g)) return "over";
  if (g.you === "spectator") return "spectator";
  // fair play: the first move is due within a stated time, else the game is aborted
  if (typeof g.first_move_ms === "number" && g.you === g.to_move) return "first_move";
  if (g.legal.length > 0 && g.you === g.to_move) return "your_move";
  if (g.legal.length > 0 && g.you === "both") return "side_to_move";
  if (g.thinking) return "thinking";
  return "side_to_move";
}

/** The title of a game's end: called off, over without a result, drawn, or who won. */
export function result_title_of(g: GameState): { key: "aborted" | "game_over" | "drawn" } | { wins: Side } {
  if (g.status === "aborted" || g.result?.reason === "aborted") return { key: "aborted" };
  if (!g.result) return { key: "game_over" };
  if (g.result.winner === "draw") return { key: "drawn" };
  return { wins: g.result.winner };
}

/** One of the game's controls: a button (its action, label and look), a line of words about an
 * offer (`away`: with how long the opponent is gone), or the resign confirmation. */
export type Control =
  | { kind: "button"; action: string; label: Key; cls?: "primary" | "danger" | "active"; id?: string; title?: Key; disabled?: boolean }
  | { kind: "offer"; text: Key; id?: string; away?: boolean }
  | { kind: "confirm_resign" };

/** What the page itself adds to the state for the controls. */
export interface ControlsUi {
  confirm_resign: boolean;
  declined_ply: number; // our draw offer was declined at this ply
  deadline_passed: boolean; // a correspondence deadline was past at the last render
  analysing: boolean;
  reviewing: boolean; // a review is asked for or shown
}

/** The controls under the board, in order (the PGN export, always last, is the view's). */
export function controls_of(g: GameState, ui: ControlsUi): Control[] {
  const b = (action: string, label: Key, more: Partial<Extract<Control, { kind: "button" }>> = {}): Control => ({ kind: "button", action, label, ...more });
  const over = is_over(g);
  const out: Control[] = [];
  const me = g.you;
  const player = plays_side(me);
  if (!over) {
    if (g.mode === "engine" || g.mode === "local" || g.mode === "analysis") {
      if (g.ply > 0) out.push(b("takeback", "takeback"));
      if (g.legal.length > 0) out.push(b("hint", "hint"));
    }
    if (player || (me === "both" && g.mode !== "analysis")) {
      if (ui.confirm_resign) out.push({ kind: "confirm_resign" });
      else if (g.status === "playing") out.push(b("resign", "resign"));
      if (player && g.mode !== "local") {
        if (g.draw_offer && g.draw_offer !== me) {
          out.push({ kind: "offer", text: "draw_offered" }, b("accept_draw", "accept_draw", { cls: "primary" }), b("decline_draw", "decline_draw"));
        } else if (g.draw_offer === me) {
          out.push({ kind: "offer", text: "draw_sent" });
        } else if (g.status === "playing") {
          if (ui.declined_ply === g.ply) out.push({ kind: "offer", text: "draw_declined", id: "draw-declined" });
          // the server limits repeated offers (can_offer_draw); older servers do not send it
          if (g.can_offer_draw ?? true) out.push(b("offer_draw", "offer_draw"));
        }
      }
      out.push(...takeback_controls(g));
      if (g.can_abort ?? (g.mode === "online" && player && g.ply < 2)) out.push(b("abort", "abort"));
      const opp = opponent(g);
      if (g.correspondence && player && g.status === "playing" && g.to_move !== me && ui.deadline_passed) {
        // the opponent's time to move is up: the server's claim_win wins on time
        out.push(b("claim_win", "claim_on_time", { cls: "primary", id: "claim-on-time" }));
      } else if (g.mode === "online" && opp && !opp.engine && !opp.connected && g.status === "playing" && !g.correspondence) {
        // the server says when the claim is allowed (can_claim); before that, how long he is gone
        out.push({ kind: "offer", text: "opponent_gone", away: typeof opp.away_ms === "number" });
        if (g.can_claim ?? true) out.push(b("claim_win", "claim_win", { cls: "primary" }));
      }
    }
  } else {
    if (may_rematch(g)) {
      if (g.rematch_offer && g.rematch_offer !== me) out.push({ kind: "offer", text: "rematch_offered" });
      out.push(b("rematch", "rematch", g.rematch_offer === me ? { disabled: true } : { cls: "primary" }));
    }
    out.push(b("review", "review"));
  }
  // the engine's lines for the live position; after the end the review takes over. None in an
  // online game between people, for players and spectators alike (the server refuses it).
  if (!over && g.mode !== "online") out.push(b("analyse", ui.analysing ? "stop" : "analyse", ui.analysing ? { cls: "active" } : {}));
  if (g.mode === "analysis" && !ui.reviewing) out.push(b("review", "review"));
  // the opening explorer from the position shown, in analysis and review
  if (ui.analysing || ui.reviewing || g.mode === "analysis") out.push(b("explorer", "open_explorer", { id: "game-explorer", title: "explorer_from_game" }));
  out.push(b("flip", "flip"));
  return out;
}

/** A side's time on the clock as the state gave it. */
export function clock_ms(clock: NonNullable<GameState["clock"]>, side: Side): number {
  return side === "white" ? clock.white_ms : clock.black_ms;
}

/** The running clock now, `elapsed` ms after the state came: its side and the time left; null
 * when no clock runs in a game being played. */
export function running_clock(g: GameState | null, elapsed: number): { side: Side; ms: number } | null {
  if (!g || !g.clock || !g.clock.running || g.status !== "playing") return null;
  return { side: g.clock.running, ms: clock_ms(g.clock, g.clock.running) - elapsed };
}

/** How long the opponent has been away, `elapsed` ms after the state came (0: not away). */
export function away_ms(g: GameState | null, elapsed: number): number {
  const opp = g ? opponent(g) : null;
  return typeof opp?.away_ms === "number" ? opp.away_ms + elapsed : 0;
}

/** The first move's time left, `elapsed` ms after the state came (0 when none is due). */
export function first_move_left(g: GameState | null, elapsed: number): number {
  const ms = g?.first_move_ms;
  return typeof ms === "number" ? Math.max(0, ms - elapsed) : 0;
}

/** Whether a correspondence game being played is past its deadline at `now` (ms since the
 * epoch). */
export function deadline_passed(g: GameState | null, now: number): boolean {
  const corr = g?.status === "playing" ? g.correspondence : null;
  return !!corr && now >= corr.deadline_ms;
}

/** The links a game offers to copy: the invite while an online game waits for the friend (when
 * this browser keeps the invite), the spectators' link of an online game. */
export function share_links(g: GameState, invite: string | undefined, base: string): { invite: string | null; spectator: string | null } {
  return {
    invite: g.mode === "online" && g.status === "waiting" && invite ? `${base}#/join/${g.id}/${invite}` : null,
    spectator: g.mode === "online" ? `${base}#/game/${g.id}` : null,
  };
}

/** The review graph's shape in a `width` × `height` box: a point a ply (White's share, from the
 * start, as the evaluation `view` shows it), the line through them, the area under it, the
 * cursor at ply `shown` and the width of a ply's click target. */
export function review_graph(moves: Review[], shown: number, width: number, height: number, view: EvalView = "margin") {
  const values = [0, ...moves.map((m) => view_graph_value(m.white, m.white_cp, view))];
  const pts = graph_points(values, width, height);
  const count = values.length;
  const step = count > 1 ? width / (count - 1) : width;
  const line = pts.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(" ");
  const area = pts.length ? `0,${height} ${line} ${pts[pts.length - 1][0].toFixed(1)},${height}` : "";
  const cursor = graph_x(Math.min(shown, count - 1), count, width);
  return { count, pts, step, line, area, cursor };
}

// ---- the position editor ------------------------------------------------------------------

/** The start of a game with `n` holes a side: n stones in each, no tuz, empty kaznas. */
export function start_board(n: number, stones = n): Board {
  return { white: Array(n).fill(stones), black: Array(n).fill(stones), kazna: { white: 0, black: 0 }, tuz: { white: 0, black: 0 } };
}

/** The stones on a board: the holes (a tuz's hole holds none: its owner's kazna has them) and the
 * kaznas. A position of n holes a side must have 2 n² in all. */
export function stone_total(b: Board): number {
  const row = (r: number[], tuz: number) => r.reduce((s, c, i) => s + (i + 1 === tuz ? 0 : c), 0);
  return row(b.white, b.tuz.black) + row(b.black, b.tuz.white) + b.kazna.white + b.kazna.black;
}

/** `b` with `d` stones added to a hole (never below none); `b` is not changed. */
export function with_stones(b: Board, side: Side, hole: number, d: number): Board {
  const row = b[side].slice();
  row[hole - 1] = Math.max(0, row[hole - 1] + d);
  return { ...b, [side]: row };
}

/** The variant of a board of `n` holes a side. */
export function variant_of_size(n: number): string {
  return n === 9 ? "standard" : n === 7 ? "kozdatu" : "bestemshi";
}
