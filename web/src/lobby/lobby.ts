// The lobby (#/lobby): open seeks live over one WebSocket, a seek form, accepting a seek, quick
// pairing pools, incoming challenges, and the count of players and games online. A `start` from
// the server opens the game's seat for this player (docs/web-protocol.md). Its state, tables and
// messages are lobby_state.ts's; the socket is lobby_socket.ts.

import "../accounts/accounts.css";
import { store } from "../games/games_api.js";
import { accounts, who_am_i } from "../accounts/accounts_api.js";
import { account_error, clock_label, speed_of, type Clock, type User } from "../accounts/accounts_state.js";
import {
  SEEK_CLOCKS, SEEK_DAYS, SEEK_SPREADS, can_rate, challenge_message, challenges_html, pool_buttons_html, seek_clock, seek_days, seek_message, seek_rating,
  seek_rows_html,
} from "./lobby_state.js";
import type { Colour } from "../protocol/client.js";
import { error_text, t } from "../i18n/index.js";
import { LobbySocket, type SocketLike } from "./lobby_socket.js";
import { tournament_list } from "../tournaments/tournament_list.js";
import { tournaments_api } from "../tournaments/tournaments_api.js";
import { is_open } from "../tournaments/tournaments_state.js";
import { esc, toast, type View } from "../shell/util.js";

export class LobbyView implements View {
  el = document.createElement("div");
  private socket: LobbySocket;
  private ratings: User["ratings"] = {};
  private status: "connecting" | "open" | "closed" = "connecting";

  /** challenge_to: a name to challenge, filled in from the player page's link. */
  constructor(
    private challenge_to = "",
    make?: () => SocketLike,
  ) {
    this.el.className = "lobby";
    this.socket = new LobbySocket(
      {
        change: () => this.render_live(),
        start: (g) => {
          store.set_token(g.game, g.token);
          location.hash = `#/game/${encodeURIComponent(g.game)}/${encodeURIComponent(g.token)}`;
        },
        error: (m) => toast(error_text(m), "error"),
        notice: (m) => {
          if (m.type === "challenge_created") toast(t("challenge_sent"));
          else if (m.type === "challenge_gone" && m.reason === "declined") toast(t("challenge_declined"));
        },
        status: (s) => {
          this.status = s;
          this.render_live();
        },
      },
      make,
    );
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      this.create_seek();
    });
    this.el.addEventListener("click", (e) => this.on_click(e.target as Element));
    this.el.addEventListener("change", (e) => {
      if ((e.target as Element).id === "seek-clock") this.sync_form();
    });
    this.render();
    void this.load_me();
  }

  /** The upcoming and running tournaments, under the pools. */
  private async load_tournaments() {
    try {
      const all = (await tournaments_api.list()).tournaments.filter(is_open);
      this.el.querySelector("#lobby-tournaments")?.replaceChildren(tournament_list(all, "lobby-tn-list"));
    } catch (e) {
      toast(error_text(e), "error");
    }
  }

  destroy() {
    this.socket.close();
  }

  private async load_me() {
    const me = await who_am_i();
    if (!me) return;
    try {
      this.ratings = (await accounts.user(me)).ratings;
    } catch (e) {
      toast(account_error(e), "error");
    }
    this.render_live();
  }

  private on_click(el: Element) {
    const b = el.closest<HTMLElement>("[data-accept],[data-cancel],[data-pool],[data-challenge-accept],[data-challenge-decline]");
    if (!b) return;
    const d = b.dataset;
    const sent = d.accept
      ? this.socket.accept(d.accept)
      : d.cancel
        ? this.socket.cancel(d.cancel)
        : d.pool
          ? this.socket.toggle_pool(d.pool)
          : d.challengeAccept
            ? this.socket.answer_challenge(d.challengeAccept, true)
            : this.socket.answer_challenge(d.challengeDecline!, false);
    if (!sent) toast(t("reconnecting"), "error");
  }

  private form_clock(): Clock | null {
    return seek_clock((this.el.querySelector("#seek-clock") as HTMLSelectElement).value);
  }

  /** The form's days per move (a correspondence seek), null for a clock or none. */
  private form_days(): number | null {
    return seek_days((this.el.querySelector("#seek-clock") as HTMLSelectElement).value);
  }

  /** A game without a clock, or an anonymous player, cannot be rated. */
  private sync_form() {
    const rated = this.el.querySelector("#seek-rated") as HTMLInputElement | null;
    if (!rated) return;
    const can = can_rate(this.socket.state.you, this.form_clock(), this.form_days());
    rated.disabled = !can;
    if (!can) rated.checked = false;
    const sp = speed_of(this.form_clock(), this.form_days());
    (this.el.querySelector("#seek-speed") as HTMLElement).textContent = sp ? t(`speed_${sp}`) : t("casual");
  }

  private create_seek() {
    const val = (id: string) => (this.el.querySelector(id) as HTMLSelectElement).value;
    const clock = this.form_clock();
    const days_per_move = this.form_days();
    const to = (this.el.querySelector("#seek-to") as HTMLInputElement).value.trim();
    if (to) {
      this.challenge_to = to;
      const terms = { variant: val("#seek-variant"), clock, days_per_move, color: val("#seek-colour") as Colour,
        rated: (this.el.querySelector("#seek-rated") as HTMLInputElement).checked };
      if (!this.socket.send(challenge_message(to, terms))) toast(t("reconnecting"), "error");
      return;
    }
    const msg = seek_message({
      variant: val("#seek-variant"),
      clock,
      days_per_move,
      rated: (this.el.querySelector("#seek-rated") as HTMLInputElement).checked,
      color: val("#seek-colour") as Colour,
      spread: Number(val("#seek-range")),
      rating: seek_rating(this.ratings, clock, days_per_move),
    });
    if (!this.socket.send(msg)) toast(t("reconnecting"), "error");
  }

  /** Redraws the parts the server changes, leaving the seek form as the reader set it. */
  /** What render_live last put in each part (cleared when render rebuilds them). */
  private shown = new Map<string, string>();

  private render_live() {
    if (!this.socket) return; // the socket reports "connecting" from inside its constructor
    const s = this.socket.state;
    // A part is replaced only when its text changed, so a button under the pointer is not
    // swapped for a copy by an update that changed something else (an online count).
    const set = (id: string, html: string) => {
      const el = this.el.querySelector(id);
      if (!el || this.shown.get(id) === html) return;
      el.innerHTML = html;
      this.shown.set(id, html);
    };
    set("#lobby-online", `${esc(t("players_online", { n: s.online.players }))} · ${esc(t("games_playing", { n: s.online.games }))}`);
    set("#lobby-status", this.status === "open" ? "" : esc(t("reconnecting")));
    set("#pools", pool_buttons_html(s));
    set("#seeks-body", seek_rows_html(s, this.ratings));
    set("#challenges", challenges_html(s));
    const ch = this.el.querySelector("#challenges-box") as HTMLElement | null;
    if (ch) ch.hidden = s.challenges.length === 0;
    const who = this.el.querySelector("#lobby-who");
    if (who)
      who.innerHTML = s.you
        ? `${esc(t("logged_in_as"))} <a class="uname" href="#/@/${encodeURIComponent(s.you)}">${esc(s.you)}</a>`
        : `${esc(t("rated_needs_login"))} <a href="#/login">${esc(t("login"))}</a>`;
    this.sync_form();
  }

  render() {
    this.shown.clear();
    const clocks = SEEK_CLOCKS.map((c, i) => `<option value="${i}"${i === 3 ? " selected" : ""}>${esc(clock_label(c))}</option>`).join("");
    const days = SEEK_DAYS.map((n) => `<option value="d${n}">${esc(t("days_per_move", { n }))}</option>`).join("");
    const spreads = SEEK_SPREADS.map((n) => `<option value="${n}">${n ? `±${n}` : esc(t("any"))}</option>`).join("");
    this.el.innerHTML = `<h2>${esc(t("lobby"))}</h2>
      <p class="muted"><span id="lobby-online"></span> <span id="lobby-status" class="banner-inline"></span></p>
      <p id="lobby-who" class="muted"></p>
      <p><a href="#/leaderboard">${esc(t("leaderboard"))}</a></p>
      <section class="card" id="challenges-box" hidden><h3>${esc(t("challenges"))}</h3><ul id="challenges" class="challenges"></ul></section>
      <section><h3>${esc(t("quick_pairing"))}</h3><div class="pools" id="pools"></div></section>
      <section><h3><a href="#/tournaments">${esc(t("tournaments"))}</a></h3><div id="lobby-tournaments"></div></section>
      <div class="lobby-grid">
      <section><h3>${esc(t("seeks"))}</h3><div class="table-wrap"><table class="seeks"><thead><tr><th>${esc(t("name_player"))}</th>
        <th>${esc(t("rating"))}</th><th>${esc(t("clock"))}</th><th>${esc(t("category"))}</th><th></th><th></th></tr></thead>
        <tbody id="seeks-body"></tbody></table></div></section>
      <form class="card" id="seek-form"><h3>${esc(t("create_seek"))}</h3>
        <label>${esc(t("clock"))}<select id="seek-clock">${clocks}<optgroup label="${esc(t("speed_correspondence"))}">${days}</optgroup><option value="">${esc(t("no_clock"))}</option></select></label>
        <p class="muted" id="seek-speed"></p>
        <label class="check"><input type="checkbox" id="seek-rated"/> ${esc(t("rated"))}</label>
        <label>${esc(t("colour"))}<select id="seek-colour"><option value="random">${esc(t("random"))}</option>
          <option value="white">${esc(t("white"))}</option><option value="black">${esc(t("black"))}</option></select></label>
        <label>${esc(t("rating_range"))}<select id="seek-range">${spreads}</select></label>
        <label>${esc(t("challenge_to"))}<input id="seek-to" maxlength="20" autocomplete="off" spellcheck="false"
          value="${esc(this.challenge_to)}" placeholder="${esc(t("challenge_hint"))}"/></label>
        <label>${esc(t("variant"))}<select id="seek-variant"><option value="standard">${esc(t("v_standard"))}</option>
          <option value="kozdatu">${esc(t("v_kozdatu"))}</option><option value="bestemshi">${esc(t("v_bestemshi"))}</option></select></label>
        <button type="submit" class="primary" id="seek-create">${esc(t("create_seek"))}</button></form>
      </div>`;
    this.render_live();
    void this.load_tournaments();
  }
}
