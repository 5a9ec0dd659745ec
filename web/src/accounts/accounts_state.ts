// The accounts feature's pure part: of the account, player, leaderboard and moderation pages
// (docs/web-protocol.md, "Accounts, ratings and the lobby"): the same username, password and
// speed rules as src/accounts, a refusal in words, the pages' paging and moderation actions, and
// their HTML, every name escaped (the lobby's part is lobby/lobby_state.ts). No DOM access and no
// fetch here (unit-tested in test/unit/accounts.test.mjs).

import { error_text, t, type Key } from "../i18n/index.js";
import { ApiError } from "../protocol/api.js";
import { esc } from "../shell/util.js";
import type { ReportItem } from "./accounts_api.js";

export const SPEEDS = ["bullet", "blitz", "rapid", "classical", "correspondence"] as const;
export type Speed = (typeof SPEEDS)[number];

export interface Clock {
  initial_ms: number;
  increment_ms: number;
}

// src/accounts/speed.h: moves per player of a typical game, and the upper bounds in seconds.
export const ESTIMATED_MOVES = 50;
export const BULLET_BELOW = 180;
export const BLITZ_BELOW = 480;
export const RAPID_BELOW = 1500;

/** The speed category of a clock (initial + 50 × increment), as the server computes it; null
 * for a game without a clock (casual only). */
export function speed_of(clock: Clock | null, days_per_move: number | null = null): Speed | null {
  if (days_per_move && days_per_move > 0) return "correspondence";
  if (!clock) return null;
  const est = clock.initial_ms + ESTIMATED_MOVES * clock.increment_ms;
  if (est <= 0) return null;
  if (est < BULLET_BELOW * 1000) return "bullet";
  if (est < BLITZ_BELOW * 1000) return "blitz";
  if (est < RAPID_BELOW * 1000) return "rapid";
  return "classical";
}

/** "3+2" (minutes + seconds), or "∞" without a clock. */
export function clock_label(clock: Clock | null, days_per_move: number | null = null): string {
  if (days_per_move && days_per_move > 0) return t("days_per_move", { n: days_per_move });
  if (!clock) return "∞";
  const m = clock.initial_ms / 60000;
  const min = Number.isInteger(m) ? String(m) : m === 0.25 ? "¼" : m === 0.5 ? "½" : m.toFixed(1);
  return `${min}+${Math.round(clock.increment_ms / 1000)}`;
}

/** The time left to move in a correspondence game, as shown: "2 d 5 h", "5 h 12 min", "12 min";
 * null once it is up. */
export function time_left_text(ms: number): string | null {
  if (ms <= 0) return null;
  const min = Math.floor(ms / 60000);
  const d = Math.floor(min / 1440);
  const h = Math.floor((min % 1440) / 60);
  if (d > 0) return t("left_days", { d, h });
  if (h > 0) return t("left_hours", { h, m: min % 60 });
  return t("left_minutes", { m: min % 60 });
}

// src/accounts/reserved_names.txt: the names nobody may take (compared in lower case).
export const RESERVED = [
  "admin", "administrator", "anonymous", "api", "bot", "engine", "guest", "mod", "moderator",
  "null", "official", "root", "server", "staff", "support", "system", "toguz", "togyz",
  "undefined", "lobby", "login", "logout", "signup", "nobody",
];

/** The refusal code the server would give for this username, or null when it is acceptable. */
export function check_username(name: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(name)) return "username_bad_character";
  if (name.length < 2) return "username_too_short";
  if (name.length > 20) return "username_too_long";
  if (RESERVED.includes(name.toLowerCase())) return "username_reserved";
  return null;
}

/** The refusal code the page can give for a new password (src/accounts/password.h): at least 10
 * characters, at most 256 bytes of UTF-8, not only white space; null when the server is to
 * judge it (it also refuses the most common passwords, "password_common"). */
export function check_password(password: string): string | null {
  const bytes = new TextEncoder().encode(password).length;
  if (bytes > 256) return "password_too_long";
  if ([...password].length < 10) return "password_too_short";
  if (/^[ \t\n\v\f\r]*$/.test(password)) return "password_blank";
  return null;
}

export interface CategoryRating {
  rating: number;
  rd: number;
  volatility: number;
  games: number;
  provisional: boolean;
}

export interface Wdl {
  win: number;
  draw: number;
  loss: number;
}

export interface User {
  username: string;
  created?: string;
  online?: boolean;
  bot?: boolean;
  ratings: Partial<Record<Speed, CategoryRating>>;
  counts?: { all?: Wdl; white?: Wdl; black?: Wdl };
}

/** A rating as shown: rounded, with "?" while provisional ("1500?"). */
export function rating_text(r: { rating: number; provisional: boolean } | null | undefined): string {
  if (!r) return "";
  return `${Math.round(r.rating)}${r.provisional ? "?" : ""}`;
}

/** "+12", "−7", "0": a rating change at the end of a game. */
export function diff_text(d: number | null | undefined): string {
  if (d === null || d === undefined) return "";
  const n = Math.round(d);
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

/** The player page's link: `#/@/<name>`. */
export function player_href(name: string): string {
  return `#/@/${encodeURIComponent(name)}`;
}

function wdl_cells(w: Wdl | undefined): string {
  const x = w ?? { win: 0, draw: 0, loss: 0 };
  const n = x.win + x.draw + x.loss;
  const pct = n ? Math.round((100 * (x.win + x.draw / 2)) / n) : 0;
  return `<td class="n">${n}</td><td class="n win">${x.win}</td><td class="n">${x.draw}</td><td class="n loss">${x.loss}</td><td class="n">${n ? `${pct}%` : ""}</td>`;
}

/** The ratings per category and the W/D/L table of a player page. */
export function user_html(u: User): string {
  const rows = SPEEDS.map((s) => {
    const r = u.ratings[s];
    const shown = r && r.games > 0 ? esc(rating_text(r)) : "—";
    return `<tr data-speed="${s}"><th>${esc(t(`speed_${s}`))}</th><td class="n rating">${shown}</td><td class="n">${r ? r.games : 0}</td>
      <td class="n muted">${r && r.games > 0 ? `±${Math.round(r.rd)}` : ""}</td></tr>`;
  }).join("");
  const c = u.counts ?? {};
  const online = u.online ? `<span class="online">${esc(t("online_now"))}</span>` : "";
  return `<h2 class="player-name"><span class="uname">${esc(u.username)}</span>${u.bot ? ` <span class="tag">${esc(t("bot"))}</span>` : ""} ${online}</h2>
    <div class="player-tables">
    <div class="table-wrap"><table class="ratings"><thead><tr><th>${esc(t("category"))}</th><th>${esc(t("rating"))}</th><th>${esc(t("games"))}</th><th></th></tr></thead><tbody>${rows}</tbody></table></div>
    <div class="table-wrap"><table class="wdl"><thead><tr><th></th><th>${esc(t("games"))}</th><th>${esc(t("wins_n"))}</th><th>${esc(t("draws_n"))}</th><th>${esc(t("losses_n"))}</th><th>${esc(t("score"))}</th></tr></thead><tbody>
      <tr data-colour="all"><th>${esc(t("total"))}</th>${wdl_cells(c.all)}</tr>
      <tr data-colour="white"><th>${esc(t("as_white"))}</th>${wdl_cells(c.white)}</tr>
      <tr data-colour="black"><th>${esc(t("as_black"))}</th>${wdl_cells(c.black)}</tr></tbody></table></div></div>`;
}

/** A rating graph over time, one polyline per category with games ([ms, rating] points). */
export function history_svg(history: Partial<Record<Speed, [number, number][]>>): string {
  const series = SPEEDS.map((s) => [s, history[s] ?? []] as const).filter(([, p]) => p.length > 1);
  if (series.length === 0) return "";
  const all = series.flatMap(([, p]) => p);
  const t0 = Math.min(...all.map((p) => p[0]));
  const t1 = Math.max(...all.map((p) => p[0]));
  const r0 = Math.min(...all.map((p) => p[1])) - 20;
  const r1 = Math.max(...all.map((p) => p[1])) + 20;
  const W = 600;
  const H = 160;
  const x = (v: number) => (t1 > t0 ? ((v - t0) / (t1 - t0)) * W : W / 2).toFixed(1);
  const y = (v: number) => (H - ((v - r0) / (r1 - r0)) * H).toFixed(1);
  const lines = series
    .map(([s, p]) => `<polyline class="hist ${s}" fill="none" points="${p.map(([a, b]) => `${x(a)},${y(b)}`).join(" ")}"><title>${esc(t(`speed_${s}`))}</title></polyline>`)
    .join("");
  return `<svg class="history" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("rating_graph"))}">${lines}
    <text x="2" y="12" class="axis">${Math.round(r1)}</text><text x="2" y="${H - 3}" class="axis">${Math.round(r0)}</text></svg>`;
}

/** The games of a player page, from that player's side: colour, opponent (linked when an
 * account), result, rating change, speed, date, and a link that replays the game. */
export function player_games_html(
  name: string,
  rows: {
    id: string;
    white: string;
    black: string;
    result: string | null;
    moves: number;
    created: string;
    updated: string;
    rated?: boolean;
    speed?: Speed | null;
    white_account?: string | null;
    black_account?: string | null;
    white_diff?: number | null;
    black_diff?: number | null;
    white_average_loss_cp?: number | null;
    black_average_loss_cp?: number | null;
    white_mistakes?: number | null;
    black_mistakes?: number | null;
  }[],
  date: (iso: string) => string,
): string {
  if (rows.length === 0) return `<p class="empty">${esc(t("no_games"))}</p>`;
  const key = name.toLowerCase();
  const body = rows
    .map((r) => {
      const white = (r.white_account ?? "").toLowerCase() === key;
      const opp = white ? r.black_account ?? null : r.white_account ?? null;
      const opp_name = white ? r.black : r.white;
      const who = opp ? `<a href="${esc(player_href(opp))}">${esc(opp)}</a>` : esc(opp_name || "…");
      const side = white ? "white" : "black";
      const res = !r.result ? "*" : r.result === "draw" ? "½" : r.result === side ? "1" : "0";
      const cls = !r.result ? "" : r.result === "draw" ? "draw" : r.result === side ? "win" : "loss";
      const diff = r.rated ? diff_text(white ? r.white_diff : r.black_diff) : "";
      // the review's accuracy of the player's side: average loss (cp) and mistakes
      const loss = white ? r.white_average_loss_cp : r.black_average_loss_cp;
      const mistakes = white ? r.white_mistakes : r.black_mistakes;
      const acc = loss == null ? "" : t("accuracy_cell", { loss: Math.round(loss), n: mistakes ?? 0 });
      return `<tr data-id="${esc(r.id)}"><td><span class="stone-badge ${side}" title="${esc(t(side))}"></span></td><td class="who">${who}</td>
        <td class="res ${cls}">${res}</td><td class="n">${esc(diff)}</td><td class="n acc">${esc(acc)}</td>
        <td>${r.speed ? esc(t(`speed_${r.speed}`)) : ""} ${esc(t(r.rated ? "rated" : "casual"))}</td><td class="n">${r.moves}</td>
        <td><small>${esc(date(r.updated || r.created))}</small></td><td><a href="#/game/${encodeURIComponent(r.id)}">${esc(t("open"))}</a></td></tr>`;
    })
    .join("");
  return `<div class="table-wrap"><table class="player-games"><thead><tr><th></th><th>${esc(t("opponent"))}</th><th>${esc(t("result"))}</th>
    <th>${esc(t("rating"))}</th><th>${esc(t("accuracy"))}</th><th></th><th>${esc(t("moves"))}</th><th></th><th></th></tr></thead><tbody>${body}</tbody></table></div>`;
}

export interface LeaderRow {
  username: string;
  rating: number;
  rd: number;
  games: number;
}

/** A leaderboard: rank, linked name, rating, games; category tabs above it. */
export function leaderboard_html(category: Speed, rows: LeaderRow[]): string {
  const tabs = SPEEDS.map(
    (s) => `<a class="button${s === category ? " active" : ""}" href="#/leaderboard/${s}"${s === category ? ' aria-current="page"' : ""}>${esc(t(`speed_${s}`))}</a>`,
  ).join("");
  const body = rows.length
    ? rows
        .map((r, i) => `<tr><td class="n">${i + 1}</td><td class="who"><a href="${esc(player_href(r.username))}">${esc(r.username)}</a></td>
          <td class="n rating">${Math.round(r.rating)}</td><td class="n">${r.games}</td></tr>`)
        .join("")
    : `<tr class="empty"><td colspan="4">${esc(t("no_players"))}</td></tr>`;
  return `<h2>${esc(t("leaderboard"))}</h2><p class="row tabs">${tabs}</p>
    <div class="table-wrap"><table class="leaders"><thead><tr><th>#</th><th>${esc(t("name_player"))}</th><th>${esc(t("rating"))}</th>
    <th>${esc(t("games"))}</th></tr></thead><tbody>${body}</tbody></table></div>`;
}

/** A refusal in the reader's language; a server without the accounts API says so. */
export function account_error(e: unknown): string {
  if (e instanceof ApiError && (e.status === 404 || e.status === 405) && !e.code) return t("accounts_unavailable");
  return error_text(e);
}

/** What is wrong with a sign-up or log-in form before it is sent: the error's text key (e_...),
 * null when it may go. Sign-up checks the server's rules; log-in only that both are filled. */
export function auth_problem(mode: "login" | "signup", username: string, password: string): string | null {
  if (mode === "signup") {
    const bad = check_username(username) ?? check_password(password);
    return bad ? `e_${bad}` : null;
  }
  return !username || !password ? "e_login_failed" : null;
}

/** Whether the logged-in reader `me` looks at another player's page (names are caseless). */
export function is_other_player(me: string | null, name: string): boolean {
  return !!me && me.toLowerCase() !== name.toLowerCase();
}

/** The pager under a list of `shown` rows from `offset` of `total`: the rows' span and whether
 * there are rows before and after; null when one page holds them all. */
export function page_span(offset: number, shown: number, total: number): { from: number; to: number; prev: boolean; next: boolean } | null {
  if (total <= shown && offset === 0) return null;
  const to = offset + shown;
  return { from: offset + 1, to, prev: offset > 0, next: to < total };
}

/** The leaderboard's category from the address: a speed, else blitz. */
export function leader_category(param: string | undefined): Speed {
  return (SPEEDS as readonly string[]).includes(param ?? "") ? (param as Speed) : "blitz";
}

/** A moderation item's actions: mark or unmark and close or reopen its account, void its game,
 * resolve it. */
export function report_actions(r: ReportItem): { action: "mark" | "unmark" | "close" | "reopen" | "void" | "resolve"; label: Key }[] {
  const out: ReturnType<typeof report_actions> = [];
  if (r.target) {
    out.push(r.target_marked ? { action: "unmark", label: "mod_unmark" } : { action: "mark", label: "mod_mark" });
    out.push(r.target_closed ? { action: "reopen", label: "mod_reopen" } : { action: "close", label: "mod_close" });
  }
  if (r.game) out.push({ action: "void", label: "mod_void" });
  if (!r.resolved) out.push({ action: "resolve", label: "mod_resolve" });
  return out;
}
