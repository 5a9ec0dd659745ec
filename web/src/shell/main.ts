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

import "./style.css";
import { store } from "../games/games_api.js";
import { AccountView, AuthView } from "../accounts/account.js";
import { ForgotView, ResetView, VerifyView } from "../accounts/mail.js";
import { ArbiterEventView, ArbiterHomeView } from "../arbiter/arbiter.js";
import { TeamEventView } from "../arbiter/arbiter_teams.js";
import { BroadcastView, KeeperView } from "../arbiter/broadcast.js";
import { RatingEventView, RatingListView, RatingNamesView, RatingPlayerView, RatingsHomeView } from "../ratings/ratings.js";
import { who_am_i } from "../accounts/accounts_api.js";
import { EditorView } from "../games/editor.js";
import { GameView } from "../games/game.js";
import { GamesView } from "../games/games.js";
import { HomeView, JoinView } from "./home.js";
import { header_html, theme_of, type Theme } from "./shell_state.js";
import { load_account_prefs, pref, set_pref } from "./prefs.js";
import { LobbyView } from "../lobby/lobby.js";
import { ModerationView } from "../accounts/moderation.js";
import { LeaderboardView, PlayerView } from "../accounts/player.js";
import { ExplorerView } from "../learn/explorer.js";
import { PuzzlesView } from "../learn/puzzles.js";
import { StudiesView } from "../learn/studies.js";
import { TournamentView, TournamentsHomeView } from "../tournaments/tournaments.js";
import { initial_lang, load_lang, set_lang, t, type Lang } from "../i18n/index.js";
import { route_parts } from "../board/logic.js";
import { clear_toasts, esc, toast, type View } from "./util.js";
import { Notices } from "./notices.js";

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

function route() {
  view?.destroy();
  clear_toasts();
  let parts = route_parts(location.hash);
  // the server serves the page itself at /@/<name>; the hash route wins when both are there
  if (parts.length === 0 && location.pathname.startsWith("/@/")) parts = ["@", decodeURIComponent(location.pathname.slice(3))];
  const main = document.getElementById("app")!;
  if (parts.length === 0) view = new HomeView();
  else if (parts[0] === "game" && parts[1]) {
    // the token comes only from the URL: the spectator link (no token) watches
    if (parts[2]) store.set_token(parts[1], parts[2]);
    view = new GameView(parts[1], parts[2]);
  } else if (parts[0] === "join" && parts[1] && parts[2]) view = new JoinView(parts[1], parts[2]);
  else if (parts[0] === "games") view = new GamesView();
  else if (parts[0] === "editor") view = new EditorView();
  else if (parts[0] === "lobby") view = new LobbyView(parts[1] === "challenge" ? parts[2] ?? "" : "");
  else if (parts[0] === "leaderboard") view = new LeaderboardView(parts[1]);
  else if (parts[0] === "login" || parts[0] === "signup") view = new AuthView(parts[0]);
  else if (parts[0] === "account") view = new AccountView();
  else if (parts[0] === "forgot") view = new ForgotView();
  else if (parts[0] === "reset" && parts[1]) view = new ResetView(parts[1]);
  else if (parts[0] === "verify" && parts[1]) view = new VerifyView(parts[1]);
  else if (parts[0] === "moderation") view = new ModerationView();
  else if (parts[0] === "@" && parts[1]) view = new PlayerView(parts[1]);
  else if (parts[0] === "puzzles") view = new PuzzlesView(parts[1]);
  else if (parts[0] === "studies") view = new StudiesView(parts[1] ? Number(parts[1]) : null);
  else if (parts[0] === "explorer") view = new ExplorerView(parts[1] ?? "");
  else if (parts[0] === "tournaments") view = parts[1] ? new TournamentView(parts[1]) : new TournamentsHomeView();
  else if (parts[0] === "arbiter" && parts[1] === "team" && parts[2]) view = new TeamEventView(parts[2], parts[3]);
  else if (parts[0] === "arbiter") view = parts[1] ? new ArbiterEventView(parts[1], parts[2]) : new ArbiterHomeView();
  else if (parts[0] === "broadcast" && parts[1]) view = new BroadcastView(parts[1]);
  else if (parts[0] === "keeper" && parts[1] && parts[2]) view = new KeeperView(parts[1], parts[2]);
  else if (parts[0] === "ratings") view = ratings_view(parts);
  else {
    view = null;
    main.innerHTML = `<p>${esc(t("not_found"))}</p>`;
    return;
  }
  main.replaceChildren(view.el);
  document.body.dataset.route = parts[0] ?? "home";
  route_now = parts;
  update_notices();
}

/** #/ratings[/<list>[/player/<n>|/event/<n>|/names]]. */
function ratings_view(parts: string[]): View {
  const [, list, what, n] = parts;
  if (!list) return new RatingsHomeView();
  if (what === "player") return new RatingPlayerView(list, Number(n));
  if (what === "event") return new RatingEventView(list, Number(n));
  if (what === "names") return new RatingNamesView(list);
  return new RatingListView(list);
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
