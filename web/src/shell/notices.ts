// The header's notices on every page (docs/web-protocol.md "Notices"): for a logged-in player,
// the challenges sent to him, fed by a lobby socket of its own (closed on the lobby page, which
// has its own), and the games waiting for his move, from GET /api/account/games asked on every
// page change and every POLL_MS. An accepted challenge, or any other start the socket gets,
// opens the game. The tab's title carries the counts.

import { accounts, type MyGame } from "../accounts/accounts_api.js";
import { store } from "../games/games_api.js";
import { error_text, t } from "../i18n/index.js";
import { LobbySocket } from "../lobby/lobby_socket.js";
import { notice_title, notices_html, waiting_games } from "./notices_state.js";
import { toast } from "./util.js";

const POLL_MS = 30000;

export class Notices {
  el = document.createElement("div");
  private socket: LobbySocket | null = null;
  private games: MyGame[] = [];
  private me: string | null = null;
  private route = "";
  private shown_game = "";
  private timer: ReturnType<typeof setInterval> | undefined;
  private shown_html = "";

  constructor() {
    this.el.id = "notices";
    this.el.className = "notices";
    this.el.setAttribute("aria-live", "polite");
    this.el.hidden = true;
    this.el.addEventListener("click", (e) => {
      const b = (e.target as Element).closest<HTMLElement>("[data-notice-accept],[data-notice-decline]");
      if (!b) return;
      const accept = b.dataset.noticeAccept;
      const sent = this.socket?.answer_challenge(accept ?? b.dataset.noticeDecline!, !!accept);
      if (!sent) toast(t("reconnecting"), "error");
    });
  }

  /** The page or the account changed: `route` is the route's first part ("lobby", "game", ...),
   * `game` the game on screen ("" for none). */
  update(me: string | null, route: string, game: string) {
    this.me = me;
    this.route = route;
    this.shown_game = game;
    const want = !!me && route !== "lobby";
    if (want && !this.socket) {
      this.socket = new LobbySocket({
        change: () => this.render(),
        start: (g) => {
          store.set_token(g.game, g.token);
          location.hash = `#/game/${encodeURIComponent(g.game)}/${encodeURIComponent(g.token)}`;
        },
        error: (m) => toast(error_text(m), "error"),
      });
    } else if (!want && this.socket) {
      this.socket.close();
      this.socket = null;
    }
    clearInterval(this.timer);
    this.timer = undefined;
    if (me) {
      this.timer = setInterval(() => void this.poll(), POLL_MS);
      void this.poll();
    } else {
      this.games = [];
    }
    this.render();
  }

  private async poll() {
    const me = this.me;
    try {
      const r = await accounts.my_games();
      if (this.me !== me) return; // logged out or in as another meanwhile
      this.games = r.games;
    } catch {
      return; // kept as it was: the next poll tries again
    }
    this.render();
  }

  /** The tab's title for the page's `base` title. */
  title(base: string): string {
    const challenges = this.socket?.state.challenges.length ?? 0;
    return notice_title(base, challenges, this.me ? waiting_games(this.games, this.shown_game).length : 0);
  }

  render() {
    const challenges = this.socket?.state.challenges ?? [];
    const waiting = this.me ? waiting_games(this.games, this.shown_game) : [];
    const html = notices_html(challenges, waiting);
    // replaced only when changed, so a button under the pointer stays the same button
    if (this.shown_html !== html) {
      this.el.innerHTML = html;
      this.shown_html = html;
    }
    this.el.hidden = html === "";
    this.el.dataset.count = String(challenges.length + waiting.length);
    this.el.dataset.route = this.route;
    document.title = this.title(t("title"));
  }
}
