// The moderators' page (#/moderation, docs/accounts.md "Moderation"): the open flags (raised by
// the server) and reports (by players), newest first, each with its actions: mark or unmark the
// account, close or reopen it, void the game's rating changes, resolve the item; and a form that
// voids any game by id. The server refuses all of it to everyone but moderators (403), and the
// page then says so. Every name and reason is escaped. Which actions an item has is
// accounts_state.ts's; the HTTP calls are accounts_api.ts's.

import "./accounts.css";
import { moderation, type ReportItem } from "./accounts_api.js";
import { account_error, player_href, report_actions } from "./accounts_state.js";
import { t } from "../i18n/index.js";
import { esc, toast, type View } from "../shell/util.js";

/** One item's row: what it is, about whom, why, and its action buttons. */
export function report_row_html(r: ReportItem): string {
  const who = (name: string | null) => (name ? `<a href="${esc(player_href(name))}" class="uname">${esc(name)}</a>` : "—");
  const target = r.target ?? "";
  const actions = report_actions(r)
    .map(({ action, label }) => {
      const game = action === "void" ? ` data-game="${esc(r.game)}"` : "";
      return `<button type="button" data-action="${action}" data-id="${r.id}" data-user="${esc(target)}"${game}>${esc(t(label))}</button>`;
    })
    .join(" ");
  return `<tr data-report="${r.id}" data-kind="${esc(r.kind)}">
    <td>${esc(t(r.kind === "flag" ? "mod_kind_flag" : "mod_kind_report"))}</td>
    <td>${who(r.target)}${r.target_marked ? ` <small>(${esc(t("mod_marked"))})</small>` : ""}${r.target_closed ? ` <small>(${esc(t("mod_closed"))})</small>` : ""}</td>
    <td>${r.kind === "flag" ? who(r.about) : who(r.reporter)}</td>
    <td>${r.game ? `<a href="#/game/${encodeURIComponent(r.game)}">${esc(r.game)}</a>` : "—"}</td>
    <td class="reason">${esc(r.reason)}${r.chat ? `<q class="mod-chat">${esc(r.chat)}</q>` : ""}</td>
    <td>${esc(r.created.slice(0, 16).replace("T", " "))}</td>
    <td class="row">${actions}</td></tr>`;
}

export function reports_html(items: ReportItem[]): string {
  if (items.length === 0) return `<p class="muted" id="mod-empty">${esc(t("mod_none"))}</p>`;
  return `<table class="mod-table" id="mod-reports"><thead><tr><th>${esc(t("mod_kind"))}</th><th>${esc(t("mod_target"))}</th>
    <th>${esc(t("mod_by"))}</th><th>${esc(t("mod_game"))}</th><th>${esc(t("mod_reason"))}</th><th></th><th></th></tr></thead>
    <tbody>${items.map(report_row_html).join("")}</tbody></table>`;
}

export class ModerationView implements View {
  el = document.createElement("div");
  private items: ReportItem[] = [];
  private error = "";
  private resolved = false;

  constructor() {
    this.el.className = "moderation";
    this.el.addEventListener("click", (e) => {
      const b = (e.target as Element).closest<HTMLElement>("button[data-action]");
      if (b) void this.act(b.dataset);
    });
    this.el.addEventListener("change", (e) => {
      if ((e.target as HTMLElement).id !== "mod-resolved") return;
      this.resolved = (e.target as HTMLInputElement).checked;
      void this.load();
    });
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      const id = (this.el.querySelector("#mod-void-id") as HTMLInputElement).value.trim();
      if (id) void this.act({ action: "void", game: id });
    });
    this.render();
    void this.load();
  }
  destroy() {}

  private async load() {
    try {
      this.items = (await moderation.list(this.resolved)).reports;
      this.error = "";
    } catch (e) {
      this.error = account_error(e);
    }
    this.render();
  }

  private async act(d: DOMStringMap) {
    const done = moderation.act(d.action ?? "", d.user ?? "", d.game ?? "", Number(d.id));
    if (!done) return;
    try {
      await done;
      toast(t("mod_done"));
    } catch (e) {
      toast(account_error(e), "error");
    }
    await this.load();
  }

  render() {
    const list = this.error ? `<p class="form-error" role="alert" id="mod-error">${esc(this.error)}</p>` : reports_html(this.items);
    this.el.innerHTML = `<section class="card"><h2>${esc(t("moderation"))}</h2>
      <label class="row"><input type="checkbox" id="mod-resolved"${this.resolved ? " checked" : ""}/> ${esc(t("mod_show_resolved"))}</label>
      ${list}</section>
      <form class="card auth-form" id="mod-void-form"><h3>${esc(t("mod_void_game"))}</h3>
      <label>${esc(t("mod_game_id"))}<input id="mod-void-id" autocomplete="off" spellcheck="false" maxlength="64"/></label>
      <button type="submit">${esc(t("mod_void"))}</button></form>`;
  }
}
