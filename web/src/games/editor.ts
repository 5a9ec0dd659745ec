// The position editor: counts for every hole and both kaznas, the tuzes, the side to move;
// the result is a position string the server checks (POST /api/import) and opens for analysis.
// Clicking a hole on the preview adds a stone, shift-click (or right-click) takes one away; on a
// touch screen, which has neither, the "−" mode makes a tap take one away.
// Its boards and stone count are game_state.ts's.

import { api, store } from "./games_api.js";
import { start_board, stone_total, variant_of_size, with_stones } from "./game_state.js";
import { board_svg } from "../board/board.js";
import { error_text, t } from "../i18n/index.js";
import { format_position, parse_position, variant_size } from "../board/logic.js";
import type { Board, Side } from "../protocol/types.js";
import { esc, toast, type View } from "../shell/util.js";

export class EditorView implements View {
  el = document.createElement("div");
  private board: Board;
  private to_move: Side = "white";
  private variant = "standard";
  private removing = false; // a tap takes a stone away

  constructor() {
    this.el.className = "editor";
    this.board = start_board(9);
    this.el.addEventListener("input", (e) => this.on_input(e.target as HTMLInputElement));
    this.el.addEventListener("change", (e) => this.on_input(e.target as HTMLInputElement));
    this.el.addEventListener("click", (e) => this.on_click(e as MouseEvent));
    this.el.addEventListener("contextmenu", (e) => {
      const g = (e.target as Element).closest("g.hole");
      if (g) {
        e.preventDefault();
        this.bump(g as SVGGElement, -1);
      }
    });
    this.render();
  }
  destroy() {}

  private bump(g: SVGGElement, d: number) {
    this.board = with_stones(this.board, g.dataset.side as Side, Number(g.dataset.hole), d);
    this.render();
  }

  private on_click(e: MouseEvent) {
    const target = e.target as Element;
    const g = target.closest<SVGGElement>("g.hole");
    if (g) {
      this.bump(g, e.shiftKey !== this.removing ? -1 : 1);
      return;
    }
    const a = target.closest<HTMLElement>("[data-action]")?.dataset.action;
    const n = this.board.white.length;
    if (a === "add-mode" || a === "remove-mode") {
      this.removing = a === "remove-mode";
      this.render();
    } else if (a === "clear") {
      this.board = start_board(n, 0);
      this.render();
    } else if (a === "reset") {
      this.board = start_board(n);
      this.to_move = "white";
      this.render();
    } else if (a === "analyse") {
      void this.analyse();
    } else if (a === "explorer") {
      location.hash = `#/explorer/${encodeURIComponent(this.text())}`;
    }
  }

  private on_input(el: HTMLInputElement) {
    const f = el.dataset.field;
    if (!f) return;
    const v = Number(el.value);
    if (f === "variant") {
      this.variant = el.value;
      this.board = start_board(variant_size(el.value));
      this.render();
      return;
    }
    if (f === "to_move") this.to_move = el.value as Side;
    else if (f === "kw") this.board.kazna.white = Math.max(0, v | 0);
    else if (f === "kb") this.board.kazna.black = Math.max(0, v | 0);
    else if (f === "tw") this.board.tuz.white = v | 0;
    else if (f === "tb") this.board.tuz.black = v | 0;
    else if (f === "position") {
      try {
        const p = parse_position(el.value);
        this.board = p.board;
        this.to_move = p.to_move;
        this.variant = variant_of_size(p.board.white.length);
      } catch {
        return; // keep typing
      }
    } else return;
    if (el.type !== "text" || f !== "position") this.render(f);
    else this.render("position");
  }

  private text(): string {
    return format_position(this.board, this.to_move, 1);
  }

  private async analyse() {
    try {
      const r = await api.import_position(this.text());
      store.set_token(r.id, r.token);
      location.hash = `#/game/${r.id}/${r.token}`;
    } catch (e) {
      toast(error_text(e), "error");
    }
  }

  /** Draws the editor; keep_focus names the field being typed in, which is left alone. */
  render(keep_focus?: string) {
    const n = this.board.white.length;
    const need = 2 * n * n;
    const total = stone_total(this.board);
    const opts = (sel: number) =>
      `<option value="0"${sel === 0 ? " selected" : ""}>${esc(t("none"))}</option>` +
      Array.from({ length: n - 1 }, (_, i) => `<option value="${i + 1}"${sel === i + 1 ? " selected" : ""}>${i + 1}</option>`).join("");
    const svg = board_svg({
      board: this.board,
      bottom: "white",
      legal: new Set(),
      to_move: this.to_move,
      last: null,
      hint: null,
      trail: null,
      names: { white: t("white"), black: t("black") },
    });
    if (keep_focus === "position") {
      this.el.querySelector("#editor-board")!.innerHTML = svg;
      this.el.querySelector("#editor-total")!.textContent = `${t("total")}: ${total} (${t("must_total", { n: need })})`;
      return;
    }
    const mode = (action: string, label: string, on: boolean, help: string) =>
      `<button type="button" data-action="${action}" id="editor-${action}" aria-pressed="${on}" title="${esc(help)}"${on ? ' class="active"' : ""}>${label}</button>`;
    this.el.innerHTML = `<h2>${esc(t("editor"))}</h2>
      <div class="editor-grid">
      <div class="editor-left">
      <div class="row editor-mode" role="group" aria-label="${esc(t("tap_mode"))}">
        <span>${esc(t("tap_mode"))}</span>
        ${mode("add-mode", "+1", !this.removing, t("tap_add"))}${mode("remove-mode", "−1", this.removing, t("tap_remove"))}
        <small>${esc(this.removing ? t("tap_remove") : t("tap_add"))}</small></div>
      <div class="board" id="editor-board">${svg}</div></div>
      <form class="card" onsubmit="return false">
        <label>${esc(t("variant"))}<select data-field="variant">
          ${(["standard", "kozdatu", "bestemshi"] as const).map((v) => `<option value="${v}"${v === this.variant ? " selected" : ""}>${esc(t(`v_${v}`))}</option>`).join("")}</select></label>
        <label>${esc(t("kazna"))} (${esc(t("white"))})<input type="number" min="0" data-field="kw" value="${this.board.kazna.white}"/></label>
        <label>${esc(t("kazna"))} (${esc(t("black"))})<input type="number" min="0" data-field="kb" value="${this.board.kazna.black}"/></label>
        <label>${esc(t("tuz_of", { side: t("white") }))}<select data-field="tw">${opts(this.board.tuz.white)}</select></label>
        <label>${esc(t("tuz_of", { side: t("black") }))}<select data-field="tb">${opts(this.board.tuz.black)}</select></label>
        <label>${esc(t("side_to_move"))}<select data-field="to_move">
          <option value="white"${this.to_move === "white" ? " selected" : ""}>${esc(t("white"))}</option>
          <option value="black"${this.to_move === "black" ? " selected" : ""}>${esc(t("black"))}</option></select></label>
        <p id="editor-total" class="${total === need ? "ok" : "bad"}">${esc(t("total"))}: ${total} (${esc(t("must_total", { n: need }))})</p>
        <label>${esc(t("position"))}<input type="text" id="editor-position" data-field="position" value="${esc(this.text())}" spellcheck="false"/></label>
        <div class="row"><button type="button" data-action="clear">${esc(t("clear"))}</button>
          <button type="button" data-action="reset">${esc(t("reset"))}</button>
          <button type="button" class="primary" data-action="analyse" id="editor-analyse">${esc(t("analyse_position"))}</button>
          <button type="button" data-action="explorer" id="editor-explorer">${esc(t("open_explorer"))}</button></div>
      </form></div>`;
  }
}
