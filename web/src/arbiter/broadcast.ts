// An over-the-board event as it is played (docs/tournaments.md "Broadcasts"):
//   #/broadcast/<id>          every board of the round being played, its clocks as entered and
//                             the standings, polled every 1.5 s; a board clicked is shown large
//                             (its moves and position). The engine's evaluation only as the
//                             arbiter delays it: of a position some half-moves old.
//   #/keeper/<id>/<token>     a board keeper's page (phone-sized): the moves as they are played,
//                             each checked by the server, the last one taken back, the clocks
//                             as the board's clock shows them, the result.
// A poll redraws only the boards whose moves, result or clocks changed (live_signature), so a
// reader's place and the large board stay. Every name is put in as text.

import { error_text, t } from "../i18n/index.js";
import { eval_label, position_svg } from "../board/learn_board.js";
import { h, option, type View } from "../shell/util.js";
import { arbiter_api, type ArbiterEvent, type Live, type LiveBoard } from "./arbiter_api.js";
import { RESULTS, live_signature, move_pairs, result_label, titled_name } from "./arbiter_state.js";

const POLL_MS = 1500;

/** A board's players, result and clocks: the line a card and the large board share. */
function board_head(ev: ArbiterEvent, b: LiveBoard, n: number): HTMLElement {
  const clock = (s: string) => h("span", { class: "bc-clock" }, s);
  return h("div", { class: "bc-head" },
    h("span", { class: "bc-n" }, t("bc_board", { n })),
    h("span", { class: "bc-white name" }, titled_name(ev.players[b.white])), clock(b.clocks.white),
    h("span", { class: "bc-result" }, result_label(b.result)),
    clock(b.clocks.black), h("span", { class: "bc-black name" }, titled_name(ev.players[b.black])));
}

/** The delayed evaluation the server sent, or nothing. */
function board_eval(b: LiveBoard): HTMLElement | null {
  if (!b.eval) return null;
  return h("p", { class: "bc-eval", "data-ply": String(b.eval.ply) }, t("bc_eval", { n: b.eval.ply, score: eval_label(b.eval.score) }));
}

function board_picture(b: LiveBoard): HTMLElement {
  const pic = h("div", { class: "bc-position" });
  pic.innerHTML = position_svg(b.position, "white", null); // our own SVG, built from numbers
  return pic;
}

/** #/broadcast/<id>: every board of the round, the standings, one board large. */
export class BroadcastView implements View {
  el = document.createElement("div");
  private timer = 0;
  private shown = new Map<number, string>(); // board -> live_signature drawn
  private standings_drawn = "";
  private big = 0; // the board shown large, 0: none
  private grid = h("div", { id: "bc-boards", class: "bc-boards" });
  private large = h("section", { id: "bc-big", class: "bc-big" });
  private table = h("tbody", {});
  private last: { event: ArbiterEvent; live: Live } | null = null;

  constructor(private id: string) {
    this.el.className = "arbiter broadcast";
    this.el.replaceChildren(h("p", {}, t("arb_loading")));
    void this.poll();
  }
  destroy() {
    clearTimeout(this.timer);
    this.timer = -1;
  }

  /** Draws again in another language: the frame, and every board and the standings anew. */
  render() {
    if (!this.last) return;
    this.shown.clear();
    this.standings_drawn = "";
    this.grid.replaceChildren();
    this.frame(this.last.event, this.last.live);
    this.update(this.last.event, this.last.live);
    this.draw_big();
  }

  private async poll() {
    try {
      const r = await arbiter_api.live(this.id);
      if (this.timer === -1) return;
      if (!this.last || this.last.live.eval_delay !== r.live.eval_delay) this.frame(r.event, r.live);
      this.last = r;
      this.update(r.event, r.live);
    } catch (err) {
      if (!this.last) this.el.replaceChildren(h("p", { id: "bc-error" }, error_text(err)));
    }
    if (this.timer !== -1) this.timer = window.setTimeout(() => void this.poll(), POLL_MS);
  }

  /** What stays for the page's life: the title, the note, the boards' grid, the standings. */
  private frame(ev: ArbiterEvent, live: Live) {
    this.el.replaceChildren(
      h("h2", { id: "bc-title" }, t("bc_title", { name: ev.name || t("arb_untitled") })),
      h("p", { class: "arb-meta", id: "bc-note" }, live.eval_delay ? t("bc_note_delayed", { n: live.eval_delay }) : t("bc_note")),
      this.large, this.grid,
      h("section", { class: "arb-standings" }, h("h3", {}, t("arb_standings")),
        h("div", { class: "table-wrap" }, h("table", { id: "bc-standings" },
          h("thead", {}, h("tr", {}, h("th", {}, t("arb_rank")), h("th", {}, t("arb_player_name")), h("th", {}, t("arb_points")))), this.table))));
  }

  private update(ev: ArbiterEvent, live: Live) {
    if (live.boards.length === 0) this.grid.replaceChildren(h("p", {}, t("bc_no_round")));
    live.boards.forEach((b, i) => {
      const n = i + 1;
      const sig = `${live.round}:${live_signature(b)}`;
      if (this.shown.get(n) === sig) return;
      this.shown.set(n, sig);
      let card = this.grid.querySelector<HTMLElement>(`.bc-board[data-board="${n}"]`);
      if (!card) {
        card = h("div", { class: "bc-board", "data-board": String(n), tabindex: "0", role: "button" });
        card.addEventListener("click", () => this.show_big(n));
        this.grid.append(card);
      }
      card.dataset.moves = String(b.moves.length);
      card.dataset.result = b.result;
      card.replaceChildren(...[board_head(ev, b, n), board_picture(b),
        h("p", { class: "bc-last" }, move_pairs(b.moves).slice(-2).join(" ")), board_eval(b)].filter((p): p is HTMLElement => p !== null));
      if (n === this.big) this.draw_big();
    });
    for (const card of Array.from(this.grid.querySelectorAll<HTMLElement>(".bc-board")))
      if (Number(card.dataset.board) > live.boards.length) card.remove();
    const standings = JSON.stringify(ev.standings);
    if (standings !== this.standings_drawn) {
      this.standings_drawn = standings;
      this.table.replaceChildren(...ev.standings.map((s) => h("tr", { "data-player": String(s.player) },
        h("td", { class: "n" }, String(s.rank)), h("td", { class: "name" }, titled_name(ev.players[s.player])), h("td", { class: "n pts" }, s.points))));
    }
  }

  private show_big(n: number) {
    this.big = this.big === n ? 0 : n;
    this.draw_big();
  }

  /** The board clicked, large: its players, clocks, position and every move. */
  private draw_big() {
    const b = this.last?.live.boards[this.big - 1];
    if (!b || !this.last) {
      this.large.replaceChildren();
      return;
    }
    const close = h("button", { type: "button", id: "bc-close" }, t("bc_all_boards"));
    close.addEventListener("click", () => this.show_big(this.big));
    this.large.dataset.board = String(this.big);
    this.large.replaceChildren(...[board_head(this.last.event, b, this.big), board_picture(b), board_eval(b)].filter((p): p is HTMLElement => p !== null),
      h("ol", { class: "bc-moves" }, ...move_pairs(b.moves).map((m) => h("li", {}, m))), close);
  }
}

/** #/keeper/<id>/<token>: one board's moves, clocks and result as they happen. */
export class KeeperView implements View {
  el = document.createElement("div");
  private board = 0;
  private last: { event: ArbiterEvent; live: Live } | null = null;

  constructor(private id: string, private token: string) {
    this.el.className = "arbiter keeper";
    this.el.replaceChildren(h("p", {}, t("arb_loading")));
    void this.send("keeper_board", {});
  }
  destroy() {}

  /** One entry with the keeper's token; the board is drawn again from the answer. */
  private async send(action: string, body: Record<string, unknown>): Promise<boolean> {
    try {
      const r = await arbiter_api.post(this.id, action, { ...body, token: this.token });
      if (r.board) this.board = r.board;
      this.last = { event: r.event, live: r.live };
      this.render();
      return true;
    } catch (err) {
      const box = this.el.querySelector("#kp-error");
      if (box) box.textContent = error_text(err);
      else this.el.replaceChildren(h("p", { id: "kp-error", role: "alert" }, error_text(err)));
      return false;
    }
  }

  render() {
    if (!this.last) return;
    const ev = this.last.event;
    const b = this.last.live.boards[this.board - 1];
    if (!b) return;
    const move = h("input", { id: "kp-move", autocomplete: "off", inputmode: "text", "aria-label": t("bc_move"), placeholder: t("bc_move") }) as HTMLInputElement;
    const enter = h("form", { id: "kp-enter-form", class: "kp-row" }, move, h("button", { type: "submit", id: "kp-enter", class: "primary" }, t("bc_enter")));
    enter.addEventListener("submit", (e) => {
      e.preventDefault();
      if (move.value.trim()) void this.send("move", { move: move.value.trim() }).then((ok) => ok && this.el.querySelector<HTMLInputElement>("#kp-move")?.focus());
    });
    const undo = h("button", { type: "button", id: "kp-undo" }, t("bc_undo"));
    undo.addEventListener("click", () => void this.send("undo", {}));
    const cw = h("input", { id: "kp-clock-white", value: b.clocks.white, placeholder: "1:30:00", "aria-label": t("white") }) as HTMLInputElement;
    const cb = h("input", { id: "kp-clock-black", value: b.clocks.black, placeholder: "1:30:00", "aria-label": t("black") }) as HTMLInputElement;
    const set = h("button", { type: "button", id: "kp-set-clocks" }, t("bc_set_clocks"));
    set.addEventListener("click", () => void this.send("clock", { white: cw.value.trim(), black: cb.value.trim() }));
    const res = h("select", { id: "kp-result", "aria-label": t("result") }, ...RESULTS.map(([v, text]) => option(v, text, v === b.result))) as HTMLSelectElement;
    const finish = h("button", { type: "button", id: "kp-finish" }, t("bc_finish"));
    finish.addEventListener("click", () => void this.send("finish", { result: res.value }));
    const pending = b.result === "*";
    const parts: (HTMLElement | null)[] = [
      board_head(ev, b, this.board),
      board_picture(b),
      h("ol", { id: "kp-moves", class: "bc-moves", "data-moves": String(b.moves.length) }, ...move_pairs(b.moves).map((m) => h("li", {}, m))),
      h("p", { id: "kp-error", class: "arb-board-error", role: "alert" }),
      pending ? enter : null, pending && b.moves.length ? h("p", {}, undo) : null,
      h("fieldset", { class: "kp-clocks" }, h("legend", {}, t("bc_clocks")), cw, cb, set),
      h("fieldset", { class: "kp-finish" }, h("legend", {}, t("result")), res, finish),
    ];
    this.el.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
    if (pending) move.focus();
  }
}
