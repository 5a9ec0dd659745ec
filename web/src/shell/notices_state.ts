// The header's notices, their pure part (notices.ts draws them): incoming challenges and the
// games waiting for the player's move, as markup (every name escaped) and as the tab's title.
// No DOM access and no fetch here (unit-tested in test/unit/notices.test.mjs).

import type { MyGame } from "../accounts/accounts_api.js";
import { clock_label } from "../accounts/accounts_state.js";
import { t } from "../i18n/index.js";
import type { Challenge } from "../lobby/lobby_state.js";
import { esc } from "./util.js";

/** The games that wait for the player's move, less the one on screen (`shown`, "" for none). */
export function waiting_games(games: MyGame[], shown: string): MyGame[] {
  return games.filter((g) => g.your_turn && g.id !== shown);
}

/** The tab's title: "(2) Toguz korgool" with two challenges, "Your turn · Toguz korgool" with a
 * game waiting, both with both, the page's own title alone with neither. */
export function notice_title(base: string, challenges: number, your_turn: number): string {
  return `${challenges > 0 ? `(${challenges}) ` : ""}${your_turn > 0 ? `${t("your_turn")} · ` : ""}${base}`;
}

/** The notices' markup: each challenge with its terms and the accept and decline buttons, then
 * a link to the nearest game waiting for the player's move with the count. */
export function notices_html(challenges: Challenge[], waiting: MyGame[]): string {
  const rows = challenges.map((c) => {
    const terms = [clock_label(c.clock, c.days_per_move), t(c.rated ? "rated" : "casual")].join(" · ");
    return `<span class="notice" data-notice-challenge="${esc(c.id)}">${esc(t("notice_challenge", { name: c.from }))} · ${esc(terms)}
      <button type="button" class="primary" data-notice-accept="${esc(c.id)}">${esc(t("accept"))}</button>
      <button type="button" data-notice-decline="${esc(c.id)}">${esc(t("decline"))}</button></span>`;
  });
  if (waiting.length) {
    const g = waiting[0];
    rows.push(`<a class="notice your-turn" id="notice-your-turn" href="#/game/${encodeURIComponent(g.id)}/${encodeURIComponent(g.token)}">${esc(t("notice_your_turn", { n: waiting.length }))}</a>`);
  }
  return rows.join("");
}
