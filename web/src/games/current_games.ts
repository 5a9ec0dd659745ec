// "Current games" on the games page: the live games between people (GET /api/games/live),
// polled every few seconds and updated in place (rows added, changed, moved or removed; the
// others untouched), each opening the game as a spectator.

import { call } from "../protocol/api.js";
import { t } from "../i18n/index.js";
import { plan_rows, type LiveGame } from "./current_games_state.js";

const POLL_MS = 5000;

export class CurrentGamesView {
  el = document.createElement("section");
  private body = document.createElement("tbody");
  private empty = document.createElement("p");
  private table = document.createElement("table");
  private shown = new Map<string, string[]>();
  private timer: number | undefined;
  private loading = false;

  constructor() {
    this.el.className = "current-games";
    const h = document.createElement("h2");
    h.textContent = t("current_games");
    this.table.id = "current-games";
    const head = this.table.createTHead().insertRow();
    for (const key of ["white", "black", "time_control", "moves"] as const) {
      const th = document.createElement("th");
      th.textContent = t(key);
      head.appendChild(th);
    }
    head.appendChild(document.createElement("th"));
    this.table.appendChild(this.body);
    this.empty.textContent = t("no_current_games");
    const wrap = document.createElement("div");
    wrap.className = "table-wrap";
    wrap.appendChild(this.table);
    this.el.append(h, this.empty, wrap);
    this.table.hidden = true;
    this.empty.hidden = true;
    void this.load();
    this.timer = window.setInterval(() => void this.load(), POLL_MS);
  }

  destroy() {
    window.clearInterval(this.timer);
  }

  private async load() {
    if (this.loading) return;
    this.loading = true;
    try {
      const r = await call<{ games: LiveGame[] }>("GET", "/api/games/live");
      this.update(r.games);
    } catch {
      /* the next poll tries again */
    } finally {
      this.loading = false;
    }
  }

  /** Brings the table to `games`, touching only the rows that changed. */
  private update(games: LiveGame[]) {
    const plan = plan_rows(this.shown, games);
    for (const id of plan.remove) {
      this.row(id)?.remove();
      this.shown.delete(id);
    }
    plan.rows.forEach(({ id, cells }, i) => {
      let tr = this.row(id);
      if (!tr) tr = this.new_row(id);
      if (cells) {
        cells.forEach((text, c) => {
          const td = tr!.cells[c];
          if (td.textContent !== text) td.textContent = text;
        });
        this.shown.set(id, cells);
      }
      if (this.body.rows[i] !== tr) this.body.insertBefore(tr, this.body.rows[i] ?? null);
    });
    this.table.hidden = games.length === 0;
    this.empty.hidden = games.length !== 0;
  }

  private row(id: string): HTMLTableRowElement | null {
    for (const tr of Array.from(this.body.rows)) if (tr.dataset.id === id) return tr;
    return null;
  }

  private new_row(id: string): HTMLTableRowElement {
    const tr = document.createElement("tr");
    tr.dataset.id = id;
    for (const cls of ["name w", "name b", "tc", "nmoves"]) {
      const td = document.createElement("td");
      td.className = cls;
      tr.appendChild(td);
    }
    const open = document.createElement("td");
    open.className = "open";
    const a = document.createElement("a");
    a.href = `#/game/${encodeURIComponent(id)}`; // no token: a spectator
    a.textContent = t("watch");
    open.appendChild(a);
    tr.appendChild(open);
    return tr;
  }
}
