// The opening explorer: for the position on the board, every move played from it in the
// server's record collection, with its games, White wins / draws / Black wins and the players'
// mean rating; a move clicked goes to the position after it. Filters by rating and year.
//   #/explorer[/<position>]   (the start when no position is given)

import "./learn.css";
import { error_text, t } from "./i18n";
import { learn_api, type ExplorerAnswer, type ExplorerFilter } from "./learn_api";
import { open_analysis, position_svg } from "./learn_board";
import { share } from "./learn_logic";
import { esc, type View } from "./util";

export class ExplorerView implements View {
  el = document.createElement("div");
  private answer: ExplorerAnswer | null = null;
  private error = "";
  private path: { position: string; move: string }[] = []; // the moves clicked from the first
  private filter: ExplorerFilter = {};

  constructor(private position: string) {
    this.el.className = "explorer";
    this.el.innerHTML = `<p class="loading">…</p>`;
    this.el.addEventListener("click", (e) => this.on_click(e));
    this.el.addEventListener("change", (e) => this.on_change(e.target as HTMLInputElement));
    void this.load();
  }
  destroy() {}

  private async load() {
    try {
      this.answer = await learn_api.explorer(this.position, this.filter);
      this.error = "";
    } catch (e) {
      this.answer = null;
      this.error = error_text(e);
    }
    this.render();
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
    else if (a === "analysis") void open_analysis(this.answer?.position ?? this.position);
  }

  private on_change(el: HTMLInputElement) {
    const f = el.dataset.filter as keyof ExplorerFilter | undefined;
    if (!f) return;
    const v = el.value.trim() === "" ? undefined : Number(el.value);
    this.filter = { ...this.filter, [f]: v !== undefined && Number.isInteger(v) && v >= 0 ? v : undefined };
    void this.load();
  }

  render() {
    const a = this.answer;
    const filter = (key: keyof ExplorerFilter, label: string) =>
      `<label>${esc(t(label))} <input type="number" min="0" step="1" data-filter="${key}" id="explorer-${key}" value="${this.filter[key] ?? ""}"/></label>`;
    const rows = (a?.moves ?? []).map(
      (m) => `<tr data-after="${esc(m.after)}" data-move="${esc(m.move)}" data-hole="${m.hole}" tabindex="0">
        <td class="mv">${esc(m.move)}</td><td class="n">${m.games}</td>
        <td class="n">${share(m.white_wins, m.games)}</td><td class="n">${share(m.draws, m.games)}</td>
        <td class="n">${share(m.black_wins, m.games)}</td><td class="n">${m.average_rating ?? "–"}</td></tr>`,
    );
    const moves_played = this.path.map((p) => esc(p.move)).join(" ");
    const table = a
      ? a.moves.length
        ? `<div class="explorer-wrap"><table class="explorer-moves" id="explorer-moves"><thead><tr><th>${esc(t("explorer_move"))}</th><th>${esc(t("games"))}</th>
            <th>${esc(t("white"))}</th><th>${esc(t("draw"))}</th><th>${esc(t("black"))}</th><th>${esc(t("rating"))}</th></tr></thead>
            <tbody>${rows.join("")}</tbody></table></div>`
        : `<p id="explorer-none">${esc(t("explorer_no_games"))}</p>`
      : "";
    const board = a ? `<div class="board" id="explorer-board" data-position="${esc(a.position)}">${position_svg(a.position, "white", null)}</div>` : "<div></div>";
    this.el.innerHTML = `<h2>${esc(t("explorer"))}</h2>
      <div class="learn-grid">${board}
        <div class="learn-side card">
          ${this.error ? `<p class="feedback wrong" id="explorer-error">${esc(this.error)}</p>` : ""}
          ${a ? `<p id="explorer-games">${esc(t("explorer_games", { n: a.games, total: a.indexed_games }))}</p>` : ""}
          ${moves_played ? `<p class="muted">${moves_played}</p>` : ""}
          ${table}
          <div class="row">${this.path.length ? `<button type="button" data-action="back" id="explorer-back">${esc(t("a_prev"))}</button>` : ""}
            <button type="button" data-action="analysis" id="explorer-analysis">${esc(t("analysis_from_here"))}</button></div>
          <div class="row explorer-filters">${filter("min_rating", "explorer_min_rating")}${filter("max_rating", "explorer_max_rating")}</div>
          <div class="row explorer-filters">${filter("from_year", "explorer_from_year")}${filter("to_year", "explorer_to_year")}</div>
        </div>
      </div>`;
  }
}
