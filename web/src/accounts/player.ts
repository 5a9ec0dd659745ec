// The player page (#/@/<name>, also /@/<name>): ratings per category with a graph over time,
// W/D/L in total and by colour, the games (each opens the replay with its review), a download of
// every game as one PGN, and a link that challenges the player from the lobby. The leaderboard
// (#/leaderboard/<category>) is here too. Every name is escaped (accounts_state.ts, which also
// derives the paging); the HTTP calls are accounts_api.ts's.

import "./accounts.css";
import { accounts, moderation, who_am_i, type AccountGameRow } from "./accounts_api.js";
import {
  account_error, history_svg, is_other_player, leader_category, leaderboard_html, page_span, player_games_html, user_html,
  type LeaderRow, type Speed, type User,
} from "./accounts_state.js";
import { lang, t } from "../i18n/index.js";
import { date_text } from "../board/logic.js";
import { esc, toast, type View } from "../shell/util.js";

const PAGE = 50;

export class PlayerView implements View {
  el = document.createElement("div");
  private user: User | null = null;
  private history: Partial<Record<Speed, [number, number][]>> = {};
  private games: AccountGameRow[] = [];
  private total = 0;
  private offset = 0;
  private error = "";
  private me: string | null = null;

  constructor(private name: string) {
    this.el.className = "player-page";
    this.el.addEventListener("click", (e) => {
      if ((e.target as Element).closest("#block-player")) return void this.block();
      const b = (e.target as Element).closest<HTMLElement>("[data-page]");
      if (!b) return;
      this.offset = Math.max(0, this.offset + Number(b.dataset.page) * PAGE);
      void this.load_games();
    });
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.report();
    });
    this.render();
    void who_am_i().then((me) => {
      this.me = me;
      this.render();
    });
    void this.load();
  }

  private async block() {
    if (!this.user) return;
    try {
      await moderation.block(this.user.username, true);
      toast(t("blocked_done", { name: this.user.username }));
    } catch (e) {
      toast(account_error(e), "error");
    }
  }

  private async report() {
    const input = this.el.querySelector("#report-reason") as HTMLInputElement | null;
    if (!this.user || !input || !input.value.trim()) return;
    try {
      await moderation.report(this.user.username, input.value.trim());
      input.value = "";
      toast(t("report_sent"));
    } catch (e) {
      toast(account_error(e), "error");
    }
  }

  /** Report and block, for a logged-in reader on another player's page. */
  private moderation_html(): string {
    if (!this.user || !is_other_player(this.me, this.user.username)) return "";
    return `<form class="row" id="report-form"><input id="report-reason" maxlength="500" placeholder="${esc(t("report_reason"))}"/>
      <button type="submit">${esc(t("report"))}</button>
      <button type="button" id="block-player">${esc(t("block"))}</button></form>`;
  }
  destroy() {}

  private async load() {
    try {
      this.user = await accounts.user(this.name);
    } catch (e) {
      this.error = account_error(e);
      this.render();
      return;
    }
    this.render();
    // the graph and the games are extras: the page stands without them
    try {
      this.history = await accounts.history(this.name);
    } catch {
      this.history = {};
    }
    await this.load_games();
  }

  private async load_games() {
    try {
      const r = await accounts.games(this.user?.username ?? this.name, PAGE, this.offset);
      this.games = r.games;
      this.total = r.total;
    } catch {
      this.games = [];
      this.total = 0;
    }
    this.render();
  }

  render() {
    if (this.error) {
      this.el.innerHTML = `<p class="form-error" role="alert">${esc(this.error)}</p>`;
      return;
    }
    if (!this.user) {
      this.el.innerHTML = `<p class="muted">…</p>`;
      return;
    }
    const graph = history_svg(this.history);
    const span = page_span(this.offset, this.games.length, this.total);
    const pager = span
      ? `<p class="more row">${span.prev ? `<button type="button" data-page="-1">◀</button>` : ""} ${span.from}–${span.to} / ${this.total}
          ${span.next ? `<button type="button" data-page="1">▶</button>` : ""}</p>`
      : "";
    this.el.innerHTML = `${user_html(this.user)}
      ${graph ? `<section class="card"><h3>${esc(t("rating_graph"))}</h3>${graph}</section>` : ""}
      <section><h3>${esc(t("games"))}</h3>
      <p class="row"><a class="button" href="${esc(accounts.pgn_url(this.user.username))}" download>${esc(t("download_games"))}</a>
        <a class="button" id="challenge-link" href="#/lobby/challenge/${encodeURIComponent(this.user.username)}">${esc(t("challenge"))}</a></p>
      ${this.moderation_html()}
      ${player_games_html(this.user.username, this.games, (iso) => date_text(iso, lang()))}${pager}</section>`;
  }
}

export class LeaderboardView implements View {
  el = document.createElement("div");
  private rows: LeaderRow[] = [];
  private error = "";
  private category: Speed;

  constructor(category: string | undefined) {
    this.category = leader_category(category);
    this.el.className = "leaderboard";
    this.render();
    void this.load();
  }
  destroy() {}

  private async load() {
    try {
      this.rows = (await accounts.leaderboard(this.category)).players;
    } catch (e) {
      this.error = account_error(e);
    }
    this.render();
  }

  render() {
    this.el.innerHTML = leaderboard_html(this.category, this.rows) + (this.error ? `<p class="form-error" role="alert">${esc(this.error)}</p>` : "");
  }
}
