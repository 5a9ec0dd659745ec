// The lobby's pure part (docs/web-protocol.md, "WebSocket `/ws/lobby`"): its state from the
// server's messages, the tables' HTML (every name escaped), the seek form's choices and the
// messages its forms send. No DOM access and no fetch here (unit-tested in
// test/unit/accounts.test.mjs).

import {
  clock_label, player_href, rating_text, speed_of, ESTIMATED_MOVES, SPEEDS, type CategoryRating, type Clock, type Speed, type User,
} from "../accounts/accounts_state.js";
import { t, t_any } from "../i18n/index.js";
import type { Colour, LobbyClientMessage } from "../protocol/client.js";
import { esc } from "../shell/util.js";

/** What a seek or a challenge offers. */
export interface Terms {
  variant: string;
  clock: Clock | null;
  days_per_move: number | null;
  speed: Speed | null;
  rated: boolean;
  color: "white" | "black" | "random";
}

export interface Seek extends Terms {
  id: string;
  username: string | null;
  rating: number | null;
  provisional: boolean;
  range: [number, number] | null;
  mine: boolean;
}

export interface Pool {
  id: string;
  initial_ms: number;
  increment_ms: number;
  speed: Speed;
  waiting: number;
}

export interface Challenge extends Terms {
  id: string;
  from: string;
  rating: number | null;
  provisional: boolean;
}

export interface LobbyState {
  you: string | null;
  seeks: Seek[];
  pools: Pool[];
  online: { players: number; games: number };
  challenges: Challenge[];
  pool: string | null; // the pool this page waits in
}

export function empty_lobby(): LobbyState {
  return { you: null, seeks: [], pools: [], online: { players: 0, games: 0 }, challenges: [], pool: null };
}

/** The lobby after one server message (unknown messages change nothing). */
export function lobby_reduce(s: LobbyState, msg: any): LobbyState {
  switch (msg?.type) {
    case "lobby":
      return {
        ...s,
        you: msg.you ?? null,
        seeks: Array.isArray(msg.seeks) ? msg.seeks : [],
        pools: Array.isArray(msg.pools) ? msg.pools : [],
        online: msg.online ?? s.online,
        pool: null,
      };
    case "seek_added":
      if (!msg.seek || s.seeks.some((x) => x.id === msg.seek.id)) return s;
      return { ...s, seeks: [...s.seeks, msg.seek] };
    case "seek_removed":
      return { ...s, seeks: s.seeks.filter((x) => x.id !== msg.id) };
    case "online":
      return { ...s, online: { players: msg.players ?? 0, games: msg.games ?? 0 } };
    case "pools":
      return Array.isArray(msg.pools) ? { ...s, pools: msg.pools } : s;
    case "challenge":
      if (!msg.challenge || s.challenges.some((c) => c.id === msg.challenge.id)) return s;
      return { ...s, challenges: [...s.challenges, msg.challenge] };
    case "challenge_gone":
      return { ...s, challenges: s.challenges.filter((c) => c.id !== msg.id) };
    case "start":
      return { ...s, pool: null };
    default:
      return s;
  }
}

/** Whether this player may accept the seek: not his own, rated ones only with an account, and his
 * rating in the seek's category within its range (a provisional or unknown rating always fits,
 * as the server lets it). */
export function can_accept(seek: Seek, you: string | null, my_rating: CategoryRating | undefined): boolean {
  if (seek.mine) return false;
  if (seek.rated && !you) return false;
  if (!seek.range || !my_rating || my_rating.provisional) return true;
  return my_rating.rating >= seek.range[0] && my_rating.rating <= seek.range[1];
}

/** Seeks sorted for the table: by speed, then by estimated time, then rating. */
export function sorted_seeks(seeks: Seek[]): Seek[] {
  const rank = (s: Seek) => (s.speed ? SPEEDS.indexOf(s.speed) : SPEEDS.length);
  const est = (s: Seek) => (s.clock ? s.clock.initial_ms + ESTIMATED_MOVES * s.clock.increment_ms : Infinity);
  return [...seeks].sort((a, b) => rank(a) - rank(b) || est(a) - est(b) || (b.rating ?? 0) - (a.rating ?? 0));
}

/** The seeks table's rows; `ratings` are this player's, for the accept buttons. */
export function seek_rows_html(s: LobbyState, ratings: User["ratings"]): string {
  if (s.seeks.length === 0) return `<tr class="empty"><td colspan="6">${esc(t("no_seeks"))}</td></tr>`;
  return sorted_seeks(s.seeks)
    .map((k) => {
      const who = k.username
        ? `<a href="${esc(player_href(k.username))}">${esc(k.username)}</a>`
        : esc(t("name_guest"));
      const rating = k.rating === null ? "" : esc(rating_text({ rating: k.rating, provisional: k.provisional }));
      const range = k.range ? ` <small>${k.range[0]}–${k.range[1]}</small>` : "";
      const action = k.mine
        ? `<button type="button" data-cancel="${esc(k.id)}">${esc(t("cancel"))}</button>`
        : can_accept(k, s.you, k.speed ? ratings[k.speed] : undefined)
          ? `<button type="button" class="primary" data-accept="${esc(k.id)}">${esc(t("accept"))}</button>`
          : "";
      return `<tr data-seek="${esc(k.id)}"${k.mine ? ' class="mine"' : ""}><td class="who">${who}</td><td class="n">${rating}</td>
        <td>${esc(clock_label(k.clock, k.days_per_move))}</td><td>${k.speed ? esc(t(`speed_${k.speed}`)) : ""}</td>
        <td>${esc(t(k.rated ? "rated" : "casual"))}${range}${k.color !== "random" ? ` · ${esc(t(k.color))}` : ""}${k.variant !== "standard" ? ` · ${esc(t_any(`v_${k.variant}`))}` : ""}</td>
        <td class="act">${action}</td></tr>`;
    })
    .join("");
}

/** The quick-pairing buttons: one per pool, the one waited in marked. */
export function pool_buttons_html(s: LobbyState): string {
  return s.pools
    .map((p) => {
      const on = s.pool === p.id;
      return `<button type="button" class="pool${on ? " active" : ""}" data-pool="${esc(p.id)}" aria-pressed="${on}">
        <strong>${esc(clock_label({ initial_ms: p.initial_ms, increment_ms: p.increment_ms }))}</strong>
        <small>${esc(t(`speed_${p.speed}`))}${p.waiting ? ` · ${esc(t("waiting_n", { n: p.waiting }))}` : ""}</small></button>`;
    })
    .join("");
}

/** Incoming challenges, each with accept / decline. */
export function challenges_html(s: LobbyState): string {
  return s.challenges
    .map((c) => {
      const r = c.rating === null ? "" : ` (${esc(rating_text({ rating: c.rating, provisional: c.provisional }))})`;
      return `<li data-challenge="${esc(c.id)}"><a href="${esc(player_href(c.from))}">${esc(c.from)}</a>${r} ·
        ${esc(clock_label(c.clock, c.days_per_move))} · ${esc(t(c.rated ? "rated" : "casual"))}
        <button type="button" class="primary" data-challenge-accept="${esc(c.id)}">${esc(t("accept"))}</button>
        <button type="button" data-challenge-decline="${esc(c.id)}">${esc(t("decline_draw"))}</button></li>`;
    })
    .join("");
}

/** The message a seek form sends (`range` as ± around the player's rating, 0 for any). */
export function seek_message(f: {
  variant: string;
  clock: Clock | null;
  rated: boolean;
  color: Colour;
  spread: number;
  rating: number | null;
  days_per_move?: number | null;
}): LobbyClientMessage {
  const range: [number, number] | null = f.spread > 0 && f.rating !== null ? [Math.round(f.rating - f.spread), Math.round(f.rating + f.spread)] : null;
  const days = f.days_per_move ?? null;
  return { type: "seek", variant: f.variant, clock: days ? null : f.clock, days_per_move: days, rated: f.rated, color: f.color, range };
}

/** The message that challenges `to` with the seek form's terms. */
export function challenge_message(
  to: string,
  f: { variant: string; clock: Clock | null; rated: boolean; color: Colour; days_per_move?: number | null },
): LobbyClientMessage {
  const days = f.days_per_move ?? null;
  return { type: "challenge", to, variant: f.variant, clock: days ? null : f.clock, days_per_move: days, rated: f.rated, color: f.color };
}

/** The seek form's clocks: lichess's pool controls, in ms. */
export const SEEK_CLOCKS: Clock[] = [
  [1, 0], [2, 1], [3, 0], [3, 2], [5, 0], [5, 3], [10, 0], [10, 5], [15, 10], [30, 0], [30, 20],
].map(([m, s]) => ({ initial_ms: m * 60000, increment_ms: s * 1000 }));

/** The seek form's rating ranges: ± around the player's rating, 0 for any. */
export const SEEK_SPREADS = [0, 100, 200, 300, 500];

/** The seek form's days per move (correspondence), as the server takes them. */
export const SEEK_DAYS = [1, 2, 3, 5, 7, 14];

/** The seek form's clock from its choice: an index into SEEK_CLOCKS, "" for none (and for days
 * per move, "d<n>"). */
export function seek_clock(choice: string): Clock | null {
  return choice === "" || choice.startsWith("d") ? null : SEEK_CLOCKS[Number(choice)];
}

/** The seek form's days per move from its choice ("d3": 3 days), null for a clock or none. */
export function seek_days(choice: string): number | null {
  const n = choice.startsWith("d") ? Number(choice.slice(1)) : NaN;
  return SEEK_DAYS.includes(n) ? n : null;
}

/** Whether a seek may be rated: a logged-in player and a clock or days per move. */
export function can_rate(you: string | null, clock: Clock | null, days: number | null = null): boolean {
  return !!you && (clock !== null || days !== null);
}

/** The rating a seek's range is taken around: the player's in the clock's category, none while
 * it is provisional. */
export function seek_rating(ratings: User["ratings"], clock: Clock | null, days: number | null = null): number | null {
  const sp = speed_of(clock, days);
  const mine = sp ? ratings[sp] : undefined;
  return mine && !mine.provisional ? mine.rating : null;
}
