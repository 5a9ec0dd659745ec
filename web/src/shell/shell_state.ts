// The shell's pure parts: the header's markup (shell/main.ts draws it), and the home page's
// (shell/home.ts): whether an imported text is a position or a record, the game its forms ask
// for, and the "your turn" list. No DOM access and no fetch here (unit-tested in
// test/unit/shell.test.mjs).

import type { MyGame } from "../accounts/accounts_api.js";
import { player_href, time_left_text } from "../accounts/accounts_state.js";
import type { NewGame } from "../games/games_api.js";
import { LANGS, lang, t } from "../i18n/index.js";
import { esc } from "./util.js";

/** The header: the brand, then the menu (the pages, the account, the language) in #top-menu.
 * On a narrow screen (style.css) the menu folds behind #menu-toggle, shown when `open`; on a wide
 * one the button is hidden and the menu is all there. `me`: the logged-in player, null when
 * anonymous. Every text is escaped. */
/** The page's colours: light, or dark for a dark room. */
export type Theme = "light" | "dark";

/** The theme shown: the one this browser chose (kept), else the system's preference. */
export function theme_of(stored: string | null, prefers_dark: boolean): Theme {
  if (stored === "dark" || stored === "light") return stored;
  return prefers_dark ? "dark" : "light";
}

export function header_html(me: string | null, open: boolean, theme: Theme = "light", sound = true): string {
  const opts = LANGS.map((l) => `<option value="${l.code}"${l.code === lang() ? " selected" : ""}>${esc(l.name)}</option>`).join("");
  const pages = (["home", "games", "editor", "lobby", "tournaments", "puzzles", "studies", "arbiter", "ratings"] as const)
    .map((k) => `<a href="#/${k === "home" ? "" : k}">${esc(t(k))}</a>`)
    .join("");
  const account = me
    ? `<a id="me-link" href="${esc(player_href(me))}">${esc(me)}</a> <a href="#/account">${esc(t("account"))}</a>`
    : `<a id="me-link" href="#/login">${esc(t("login"))}</a>`;
  return `<a class="brand" href="#/"><span class="logo" aria-hidden="true">●●</span>${esc(t("title"))}</a>
    <button type="button" id="menu-toggle" class="menu-toggle" aria-expanded="${open}" aria-controls="top-menu"><span class="bars" aria-hidden="true"></span><span>${esc(t("menu"))}</span></button>
    <div id="top-menu" class="menu">
    <nav>${pages}</nav>
    ${account}
    <label class="lang"><span>${esc(t("language"))}</span><select id="lang-select">${opts}</select></label>
    <button type="button" id="theme-toggle" class="theme-toggle" aria-pressed="${theme === "dark"}">${esc(t("theme_dark"))}</button>
    <button type="button" id="sound-toggle" class="theme-toggle" aria-pressed="${sound}">${esc(t("sound"))}</button>
    </div>`;
}

/** Whether an imported text is a position: one line with a "/" between the rows; anything else
 * is a record. */
export function is_position_text(text: string): boolean {
  return !text.includes("\n") && /^[\dxX,]+\/[\dxX,]+\s/.test(text);
}

/** The home page's game forms as filled: the variant of each, the engine's level and colour,
 * the online game's name, colour, clock choice ("" none, "d<days>" correspondence,
 * "<initial ms>+<increment ms>") and rated box. */
export interface HomeForm {
  variant: string;
  level?: string;
  colour?: string;
  name?: string;
  clock?: string;
  rated?: boolean;
}

/** The game a home form asks for; `kept_name`: the name this browser keeps. */
export function new_game_of(kind: "engine" | "local" | "online", f: HomeForm, kept_name: string): NewGame {
  const g: NewGame = {
    mode: kind,
    variant: f.variant,
    tuz: f.variant === "standard",
    play_out: false,
    position: null,
    color: "white",
    level: 5,
    clock: null,
    name: kept_name || "",
  };
  if (kind === "engine") {
    g.level = Number(f.level);
    g.color = f.colour as NewGame["color"];
  } else if (kind === "online") {
    g.name = (f.name ?? "").trim();
    g.color = f.colour as NewGame["color"];
    const c = f.clock ?? "";
    if (c.startsWith("d")) {
      g.days_per_move = Number(c.slice(1)); // correspondence
    } else if (c) {
      const [a, b] = c.split("+").map(Number);
      g.clock = { initial_ms: a, increment_ms: b };
    }
    if (f.rated) g.rated = true;
  }
  return g;
}

/** The "your turn" list: the account's games waiting for its move, each with the time left to
 * move when it has a deadline (`left` null: the time is up). */
export function your_turn_rows(games: MyGame[], now: number): { game: MyGame; deadline: { left: string | null } | null }[] {
  return games
    .filter((g) => g.your_turn)
    .map((g) => ({ game: g, deadline: g.deadline_ms !== null ? { left: time_left_text(g.deadline_ms - now) } : null }));
}
