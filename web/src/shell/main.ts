// The app shell: header (navigation, language), hash routes, one view at a time.
//   #/                      home            #/games             the games list
//   #/game/<id>[/<token>]   a game          #/join/<id>/<code>  take the invited seat
//   #/editor                position editor
//   #/lobby[/challenge/<name>]  #/login  #/signup  #/account  #/leaderboard/<category>
//   #/forgot  #/reset/<token>  #/verify/<token>  the forgotten password, the mailed links
//   #/@/<name> (or /@/<name>) a player page
//   #/puzzles[/<id>]  #/studies[/<n>]  #/explorer[/<position>]  the learning pages
//   #/arbiter[/<event>[/<key>]]  over-the-board events (arbiter.ts)
//   #/arbiter/team/<event>[/<key>]  a team event (arbiter_teams.ts)
//   #/broadcast/<event>, #/keeper/<event>/<token>  an event live, a board keeper (broadcast.ts)
//   #/ratings[/<list>[/player|event/<n>|/names]]  a federation's rating lists (ratings.ts)
//   #/tournaments[/<id>]  online tournaments (tournaments.ts)
//   #/moderation  the moderators' flags and reports (moderation.ts)
// Home, a game, the games list and the lobby are in the main chunk; the other pages come in a
// chunk per feature (PAGES, routes_state.ts), fetched on their first visit.

import "./style.css";
import { store } from "../games/games_api.js";
import { who_am_i } from "../accounts/accounts_api.js";
import { GameView } from "../games/game.js";
import { GamesView } from "../games/games.js";
import { HomeView, JoinView } from "./home.js";
import { header_html, theme_of, type Theme } from "./shell_state.js";
import { load_account_prefs, pref, set_pref } from "./prefs.js";
import { LobbyView } from "../lobby/lobby.js";
import { initial_lang, load_lang, set_lang, t, type Lang } from "../i18n/index.js";
import { route_parts } from "../board/logic.js";
import { clear_toasts, esc, toast, type View } from "./util.js";
import { Notices } from "./notices.js";
import { chunk_of, RouteGuard, type PageChunk } from "./routes_state.js";

/** A chunk of pages loaded on demand: the view of a route it holds. */
type Pages = { view_of(parts: string[]): View | null };

// One import() per chunk, written out, so that vite makes each a chunk of its own
// (routes_state.ts says which routes each holds).
const PAGES: Record<Exclude<PageChunk, "main">, () => Promise<Pages>> = {
  accounts: () => import("../accounts/account_routes.js"),
  learn: () => import("../learn/learn_routes.js"),
  arbiter: () => import("../arbiter/arbiter_routes.js"),
  ratings: () => import("../ratings/ratings_routes.js"),
  tournaments: () => import("../tournaments/tournament_routes.js"),
};

let view: View | null = null;
const notices = new Notices(); // the header's challenges and "your turn", on every page
let route_now: string[] = [];

function update_notices() {
  notices.update(me, route_now[0] ?? "home", route_now[0] === "game" ? route_now[1] ?? "" : "");
}

let me: string | null = null; // the logged-in player (accounts_api.ts), null when anonymous
let menu_open = false; // the header's menu on a narrow screen (shell_state.ts header_html)
let theme: Theme = "light";

/** Shows the theme of the setting "theme" (style.css keys its colours on <html data-theme>). */
function show_theme() {
  theme = theme_of(pref("theme"), matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.dataset.theme = theme;
}

/** Opens or closes the header's menu; its button says which (aria-expanded), style.css shows it. */
function set_menu(open: boolean) {
  menu_open = open;
  document.getElementById("menu-toggle")?.setAttribute("aria-expanded", String(open));
}

const guard = new RouteGuard(); // the route being shown: a chunk that comes late is dropped

/** Shows the page of the hash: a main chunk's view at once, another chunk's once fetched. */
function route() {
  view?.destroy();
  view = null;
  clear_toasts();
  const ticket = guard.begin();
  let parts = route_parts(location.hash);
  // the server serves the page itself at /@/<name>; the hash route wins when both are there
  if (parts.length === 0 && location.pathname.startsWith("/@/")) parts = ["@", decodeURIComponent(location.pathname.slice(3))];
  const chunk = chunk_of(parts);
  if (chunk === "main") return show(main_view(parts), parts);
  const pending = new PagePending(); // said only when the chunk is slow to come
  show(pending, parts);
  PAGES[chunk]().then(
    (pages) => {
      if (!guard.is_current(ticket)) return; // the reader went on meanwhile
      view?.destroy();
      show(pages.view_of(parts), parts);
    },
    () => {
      if (guard.is_current(ticket)) pending.failed();
    },
  );
}

/** The view of a route of the main chunk, null for an unknown one. */
function main_view(parts: string[]): View | null {
  const [head, a, b] = parts;
  if (head === undefined) return new HomeView();
  if (head === "game" && a) {
    // the token comes only from the URL: the spectator link (no token) watches
    if (b) store.set_token(a, b);
    return new GameView(a, b);
  }
  if (head === "join" && a && b) return new JoinView(a, b);
  if (head === "games") return new GamesView();
  if (head === "lobby") return new LobbyView(a === "challenge" ? parts[2] ?? "" : "");
  return null;
}

/** Puts `next` in the page as the view of `parts` ("not found" when null). */
function show(next: View | null, parts: string[]) {
  const main = document.getElementById("app")!;
  view = next;
  if (next) main.replaceChildren(next.el);
  else main.innerHTML = `<p>${esc(t("not_found"))}</p>`;
  document.body.dataset.route = parts[0] ?? "home";
  route_now = parts;
  update_notices();
}

/** The page while its chunk is on its way: "loading" after a moment, and when the fetch fails
 * (the network) a message with a button that tries again (the same route, fetched anew). */
class PagePending implements View {
  el = document.createElement("div");
  private state: "loading" | "failed" = "loading";
  private timer = window.setTimeout(() => this.render(), 300); // a quick chunk flashes nothing
  constructor() {
    this.el.className = "page-pending";
    this.el.addEventListener("click", (e) => {
      if ((e.target as Element).closest("#page-retry")) route();
    });
  }
  /** The chunk did not come. */
  failed() {
    this.state = "failed";
    this.render();
  }
  render() {
    window.clearTimeout(this.timer);
    this.el.innerHTML = this.state === "loading"
      ? `<p class="muted" id="page-loading" role="status">${esc(t("page_loading"))}</p>`
      : `<div class="card" id="page-failed" role="alert"><p>${esc(t("page_failed"))}</p>
        <button type="button" class="primary" id="page-retry">${esc(t("page_retry"))}</button></div>`;
  }
  destroy() {
    window.clearTimeout(this.timer);
  }
}

/** Draws the header again (language, account): the menu stays as it was, and so does the focus
 * on the header's menu button or language choice. */
function draw_header() {
  const focused = document.activeElement?.closest("#top") ? document.activeElement.id : "";
  document.getElementById("top")!.innerHTML = header_html(me, menu_open, theme, pref("sound"));
  document.title = notices.title(t("title"));
  if (focused) document.getElementById(focused)?.focus();
}

/** The first render waits for the reader's language (its own chunk, i18n/index.ts); a chunk
 * that cannot be fetched falls back to English, and without that the page shows the keys. */
async function start() {
  show_theme();
  const signed_in = who_am_i(); // asked while the language loads
  // a signed-in player's settings (blind mode first) are in place before the first page
  const account_prefs = signed_in.then((name) => (name ? load_account_prefs() : undefined));
  await Promise.all([load_lang(initial_lang()).catch(() => load_lang("en").catch(() => false)), account_prefs]);
  show_theme();
  window.addEventListener("toguz:prefs", () => {
    show_theme();
    draw_header();
  });
  document.addEventListener("change", (e) => {
    const el = e.target as HTMLSelectElement;
    if (el.id === "lang-select")
      set_lang(el.value as Lang).then(
        (ok) => {
          if (!ok) return; // a later choice wins
          draw_header();
          notices.render();
          view?.render();
        },
        () => {
          toast(t("e_network"), "error"); // the chunk did not come: the page stays as it was
          draw_header();
        },
      );
  });
  // the menu: its button opens and closes it; a link followed, a click elsewhere, another page or
  // Escape closes it (Escape gives the focus back to the button)
  document.addEventListener("click", (e) => {
    const el = e.target;
    if (!(el instanceof Element)) return;
    if (el.closest("#sound-toggle")) {
      set_pref("sound", !pref("sound"));
    } else if (el.closest("#theme-toggle")) {
      set_pref("theme", theme === "dark" ? "light" : "dark");
    } else if (el.closest("#menu-toggle")) set_menu(!menu_open);
    else if (menu_open && (el.closest("#top a") || !el.closest("#top"))) set_menu(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape" || !menu_open) return;
    set_menu(false);
    document.getElementById("menu-toggle")?.focus();
  });
  window.addEventListener("hashchange", () => {
    set_menu(false);
    route();
  });
  window.addEventListener("toguz:me", (e) => {
    me = (e as CustomEvent<string | null>).detail;
    draw_header();
    update_notices();
  });
  void signed_in.then((name) => {
    me = name;
    draw_header();
    update_notices();
  });
  document.getElementById("top")!.after(notices.el);
  draw_header();
  route();
}

void start();
