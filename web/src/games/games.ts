// The games page: the games being played now (current_games.ts), and past games with search
// by player and result, each opened for replay.

import { api, store, type GameRow } from "./games_api.js";
import { error_text, lang, player_name, t, t_any } from "../i18n/index.js";
import { date_text } from "../board/logic.js";
import { esc, toast, type View } from "../shell/util.js";
import { CurrentGamesView } from "./current_games.js";

export class GamesView implements View {
  el = document.createElement("div");
  private rows: GameRow[] = [];
  private total = 0;
  private player = "";
  private result = "";
  private loaded = false;
  private offset = 0;
  private list = document.createElement("div");
  private current: CurrentGamesView | null = null;

  /** limit: rows per page (the home page shows the newest few, the games page 50, with the
   * current games above them). */
  constructor(private limit = 50) {
    this.el.className = "games";
    if (limit >= 50) {
      this.current = new CurrentGamesView();
      this.el.appendChild(this.current.el);
    }
    this.el.appendChild(this.list);
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      e.stopPropagation();
      this.player = (this.el.querySelector("#q-player") as HTMLInputElement).value.trim();
      this.result = (this.el.querySelector("#q-result") as HTMLSelectElement).value;
      this.offset = 0;
      void this.load();
    });
    this.el.addEventListener("click", (e) => {
      const a = (e.target as Element).closest<HTMLElement>("[data-page]");
      if (!a) return;
      this.offset = Math.max(0, this.offset + Number(a.dataset.page) * this.limit);
      void this.load();
    });
    this.render();
    void this.load();
  }
  destroy() {
    this.current?.destroy();
  }

  private async load() {
    try {
      const r = await api.list({ player: this.player, result: this.result, limit: this.limit, offset: this.offset });
      this.rows = r.games;
      this.total = r.total;
      this.loaded = true;
      this.render();
    } catch (e) {
      toast(error_text(e), "error");
    }
  }

  render() {
    const sel = (v: string) => (this.result === v ? " selected" : "");
    const res = (r: GameRow) =>
      r.result === "white" ? "1-0" : r.result === "black" ? "0-1" : r.result === "draw" ? "½-½" : "*";
    const body = this.rows
      .map((r) => {
        const tok = store.token(r.id);
        const href = `#/game/${encodeURIComponent(r.id)}${tok ? `/${encodeURIComponent(tok)}` : ""}`;
        // a seat nobody has taken yet (a game waiting for the invited friend) has no name
        const white = r.white ? player_name(r.white, r.white_default, r.level) : "…";
        const black = r.black ? player_name(r.black, r.black_default, r.level) : "…";
        // long names are cut with an ellipsis (the whole name in the tooltip); on a phone each
        // row is a small card with the link beside the names (style.css)
        return `<tr data-id="${esc(r.id)}"><td class="name w" title="${esc(white)}">${esc(white)}</td><td class="name b" title="${esc(black)}">${esc(black)}</td>
          <td class="res">${res(r)}${r.score && r.result ? ` <small>${esc(r.score)}</small>` : ""}</td>
          <td class="reason">${r.reason ? esc(t_any(`r_${r.reason}`)) : ""}</td><td class="nmoves">${r.moves}</td>
          <td class="date"><small>${esc(date_text(r.updated || r.created, lang()))}</small></td><td class="open"><a href="${href}">${esc(t("open"))}</a></td></tr>`;
      })
      .join("");
    this.list.innerHTML = `<h2>${esc(t("games_list"))}</h2>
      <form class="search" id="games-search">
        <label>${esc(t("search_player"))}<input id="q-player" value="${esc(this.player)}"/></label>
        <label>${esc(t("result"))}<select id="q-result"><option value="">${esc(t("any"))}</option>
          <option value="white"${sel("white")}>1-0</option><option value="black"${sel("black")}>0-1</option>
          <option value="draw"${sel("draw")}>½-½</option></select></label>
        <button type="submit">${esc(t("search"))}</button></form>
      ${
        this.loaded && this.rows.length === 0
          ? `<p>${esc(t("no_games"))}</p>`
          : `<div class="table-wrap"><table id="games-table" data-total="${this.total}"><thead><tr><th>${esc(t("white"))}</th><th>${esc(t("black"))}</th>
          <th>${esc(t("result"))}</th><th></th><th>${esc(t("moves"))}</th><th></th><th></th></tr></thead><tbody>${body}</tbody></table></div>`
      }${this.pager()}`;
  }

  /** "11-20 / 57" with previous / next buttons; on the home page a link to the games page. */
  private pager(): string {
    if (this.total <= this.rows.length && this.offset === 0) return "";
    const from = this.offset + 1;
    const to = this.offset + this.rows.length;
    const prev = this.offset > 0 ? `<button type="button" data-page="-1">◀</button>` : "";
    const next = to < this.total ? `<button type="button" data-page="1">▶</button>` : "";
    const all = this.limit < 50 ? ` <a href="#/games">${esc(t("games"))}</a>` : "";
    return `<p class="more row">${prev} ${from}–${to} / ${this.total} ${next}${all}</p>`;
  }
}
