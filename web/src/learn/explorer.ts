// The opening explorer: for the position on the board, every move played from it in the
// server's record collection, with its games, White wins / draws / Black wins, the players'
// mean rating and the engine's evaluation (GET /api/explorer/eval, asked after the counts: the
// counts show at once, the evaluations when the search is done); a move clicked goes to the
// position after it. Filters by rating and year. Without a collection (or a position no game
// reached) the engine's evaluation of every legal move is shown alone.
//   #/explorer[/<position>]   (the start when no position is given)
// Its filters and cells are derived in learn_state.ts; the HTTP calls are learn_api.ts's.

import "./learn.css";
import { error_text, t, type Key } from "../i18n/index.js";
import { learn_api, type ExplorerAnswer, type ExplorerFilter, type MoveEvals } from "./learn_api.js";
import { open_analysis, position_svg } from "../board/learn_board.js";
import { eval_cell_of, share, with_filter } from "./learn_state.js";
import { esc, type View } from "../shell/util.js";

export class ExplorerView implements View {
  el = document.createElement("div");
  private answer: ExplorerAnswer | null = null;
  private error = "";
  private path: { position: string; move: string }[] = []; // the moves clicked from the first
  private filter: ExplorerFilter = {};
  private evals: MoveEvals | null = null;
  private evals_failed = false;
  private evals_asked = ""; // the position whose evaluations were last asked

  constructor(private position: string) {
    this.el.className = "explorer";
    this.el.innerHTML = `<p class="loading">…</p>`;
    this.el.addEventListener("click", (e) => this.on_click(e));
    this.el.addEventListener("change", (e) => this.on_change(e.target as HTMLInputElement));
    void this.load();
  }
  destroy() {}

  private async load() {
    const asked = this.position;
    try {
      this.answer = await learn_api.explorer(asked, this.filter);
      this.error = "";
    } catch (e) {
      this.answer = null;
      // a server without a collection still evaluates: the page is then the engine's alone
      this.error = (e as { code?: string }).code === "no_explorer" ? "" : error_text(e);
    }
    if (asked !== this.position) return; // another position was asked meanwhile
    if (this.evals_asked !== asked) {
      this.evals_asked = asked;
      this.evals = null;
      this.evals_failed = false;
      void this.load_evals(asked);
    }
    this.render();
  }

  private async load_evals(position: string) {
    try {
      const e = await learn_api.explorer_eval(position);
      if (this.evals_asked === position) this.evals = e;
    } catch {
      if (this.evals_asked === position) this.evals_failed = true;
    }
    if (this.evals_asked === position) this.render();
  }

  /** The engine's column for a hole: its evaluation, "…" while searching, "–" without one. */
  private eval_cell(hole: number): string {
    const { text, line } = eval_cell_of(this.evals, this.evals_failed, hole);
    return `<td class="n eval" data-eval-hole="${hole}"${line ? ` title="${esc(line)}"` : ""}>${esc(text)}</td>`;
  }

  private go(position: string) {
    this.position = position;
    history.replaceState(null, "", `#/explorer/${encodeURIComponent(position)}`);
    void this.load();
  }

  private on_click(e: Event) {
    const target = e.target as Element;
    const row = target.closest<HTMLElement>("tr[data-after]");
    if (row) {
      this.path.push({ position: this.position, move: row.dataset.move ?? "" });
      this.go(row.dataset.after!);
      return;
    }
    const a = target.closest<HTMLElement>("[data-action]")?.dataset.action;
    if (a === "back" && this.path.length) this.go(this.path.pop()!.position);
    else if (a === "analysis") void open_analysis(this.answer?.position ?? this.evals?.position ?? this.position);
  }

  private on_change(el: HTMLInputElement) {
    const f = el.dataset.filter as keyof ExplorerFilter | undefined;
    if (!f) return;
    this.filter = with_filter(this.filter, f, el.value);
    void this.load();
  }

  render() {
    const a = this.answer;
    const filter = (key: keyof ExplorerFilter, label: Key) =>
      `<label>${esc(t(label))} <input type="number" min="0" step="1" data-filter="${key}" id="explorer-${key}" value="${this.filter[key] ?? ""}"/></label>`;
    const rows = (a?.moves ?? []).map(
      (m) => `<tr data-after="${esc(m.after)}" data-move="${esc(m.move)}" data-hole="${m.hole}" tabindex="0">
        <td class="mv">${esc(m.move)}</td><td class="n">${m.games}</td>
        <td class="n">${share(m.white_wins, m.games)}</td><td class="n">${share(m.draws, m.games)}</td>
        <td class="n">${share(m.black_wins, m.games)}</td><td class="n">${m.average_rating ?? "–"}</td>${this.eval_cell(m.hole)}</tr>`,
    );
    const moves_played = this.path.map((p) => esc(p.move)).join(" ");
    const ev = this.evals;
    const eval_head = `<th title="${esc(t("explorer_eval_help", { d: ev?.depth ?? "…" }))}">${esc(t("explorer_eval"))}</th>`;
    // no game reached the position (or no collection): every legal move with the engine's word
    const engine_only =
      ev && ev.moves.length && !a?.moves.length
        ? `<div class="explorer-wrap"><table class="explorer-moves" id="explorer-evals"><thead><tr><th>${esc(t("explorer_move"))}</th>${eval_head}<th></th></tr></thead>
            <tbody>${ev.moves
              .map(
                (m) => `<tr data-after="${esc(m.after)}" data-move="${esc(m.move)}" data-hole="${m.hole}" tabindex="0">
                  <td class="mv">${esc(m.move)}</td>${this.eval_cell(m.hole)}<td class="pv muted">${esc(m.pv_notation.slice(1, 7).join(" "))}</td></tr>`,
              )
              .join("")}</tbody></table></div>`
        : "";
    const table = a?.moves.length
      ? `<div class="explorer-wrap"><table class="explorer-moves" id="explorer-moves"><thead><tr><th>${esc(t("explorer_move"))}</th><th>${esc(t("games"))}</th>
            <th>${esc(t("white"))}</th><th>${esc(t("draw"))}</th><th>${esc(t("black"))}</th><th>${esc(t("rating"))}</th>${eval_head}</tr></thead>
            <tbody>${rows.join("")}</tbody></table></div>`
      : a
        ? `<p id="explorer-none">${esc(t("explorer_no_games"))}</p>${engine_only}`
        : engine_only;
    const shown = a?.position ?? ev?.position ?? "";
    const board = shown ? `<div class="board" id="explorer-board" data-position="${esc(shown)}">${position_svg(shown, "white", null)}</div>` : "<div></div>";
    this.el.innerHTML = `<h2>${esc(t("explorer"))}</h2>
      <div class="learn-grid">${board}
        <div class="learn-side card">
          ${this.error ? `<p class="feedback wrong" id="explorer-error">${esc(this.error)}</p>` : ""}
          ${a ? `<p id="explorer-games">${esc(t("explorer_games", { n: a.games, total: a.indexed_games }))}</p>` : !this.error ? `<p class="muted" id="explorer-no-index">${esc(t("e_no_explorer"))}</p>` : ""}
          ${moves_played ? `<p class="muted">${moves_played}</p>` : ""}
          ${table}
          <div class="row">${this.path.length ? `<button type="button" data-action="back" id="explorer-back">${esc(t("a_prev"))}</button>` : ""}
            <button type="button" data-action="analysis" id="explorer-analysis">${esc(t("analysis_from_here"))}</button></div>
          ${a ? `<div class="row explorer-filters">${filter("min_rating", "explorer_min_rating")}${filter("max_rating", "explorer_max_rating")}</div>
          <div class="row explorer-filters">${filter("from_year", "explorer_from_year")}${filter("to_year", "explorer_to_year")}</div>` : ""}
        </div>
      </div>`;
  }
}
