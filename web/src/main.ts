// The app shell: header (navigation, language), hash routes, one view at a time.
//   #/                      home            #/games             the games list
//   #/game/<id>[/<token>]   a game          #/join/<id>/<code>  take the invited seat
//   #/editor                position editor

import "./style.css";
import { store } from "./api";
import { EditorView } from "./editor";
import { GameView } from "./game";
import { GamesView } from "./games";
import { HomeView, JoinView } from "./home";
import { LANGS, lang, set_lang, t, type Lang } from "./i18n";
import { route_parts } from "./logic";
import { clear_toasts, esc, type View } from "./util";

let view: View | null = null;

function header(): string {
  const opts = LANGS.map((l) => `<option value="${l.code}"${l.code === lang() ? " selected" : ""}>${l.name}</option>`).join("");
  return `<a class="brand" href="#/"><span class="logo" aria-hidden="true">●●</span>${esc(t("title"))}</a>
    <nav><a href="#/">${esc(t("home"))}</a><a href="#/games">${esc(t("games"))}</a><a href="#/editor">${esc(t("editor"))}</a></nav>
    <label class="lang"><span>${esc(t("language"))}</span><select id="lang-select">${opts}</select></label>`;
}

function route() {
  view?.destroy();
  clear_toasts();
  const parts = route_parts(location.hash);
  const main = document.getElementById("app")!;
  if (parts.length === 0) view = new HomeView();
  else if (parts[0] === "game" && parts[1]) {
    // the token comes only from the URL: the spectator link (no token) watches
    if (parts[2]) store.set_token(parts[1], parts[2]);
    view = new GameView(parts[1], parts[2]);
  } else if (parts[0] === "join" && parts[1] && parts[2]) view = new JoinView(parts[1], parts[2]);
  else if (parts[0] === "games") view = new GamesView();
  else if (parts[0] === "editor") view = new EditorView();
  else {
    view = null;
    main.innerHTML = `<p>${esc(t("not_found"))}</p>`;
    return;
  }
  main.replaceChildren(view.el);
  document.body.dataset.route = parts[0] ?? "home";
}

function draw_header() {
  document.getElementById("top")!.innerHTML = header();
  document.title = t("title");
}

document.addEventListener("change", (e) => {
  const el = e.target as HTMLSelectElement;
  if (el.id === "lang-select") {
    set_lang(el.value as Lang);
    draw_header();
    view?.render();
  }
});

window.addEventListener("hashchange", route);
document.documentElement.lang = lang();
draw_header();
route();
