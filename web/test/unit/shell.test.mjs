// The shell's pure part (src/shell/shell_state.ts): the header's menu, an imported text told
// apart, the game each form asks for and the "your turn" list.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";
import { header_html, is_position_text, new_game_of, theme_of, your_turn_rows } from "../../node_modules/.toguz-unit/shell/shell_state.js";

test("the header: the pages, the account and the language in the menu its button controls", async () => {
  await load_lang("en");
  const closed = header_html(null, false);
  const button = /<button type="button" id="menu-toggle"[^>]*>/.exec(closed)?.[0] ?? "";
  assert.match(button, /aria-expanded="false"/);
  assert.match(button, /aria-controls="top-menu"/);
  assert.match(closed, /<span>Menu<\/span><\/button>/);
  // the button comes first, then the menu with every page, the log-in link and the language
  const menu = closed.slice(closed.indexOf('<div id="top-menu"'));
  assert.ok(closed.indexOf("menu-toggle") < closed.indexOf('id="top-menu"'));
  assert.deepEqual([...menu.matchAll(/href="([^"]*)"/g)].map((m) => m[1]),
    ["#/", "#/games", "#/editor", "#/lobby", "#/tournaments", "#/puzzles", "#/studies", "#/arbiter", "#/ratings", "#/login"]);
  assert.match(menu, /<select id="lang-select">/);
  // open, signed in: the name is text, and its page and the account are in the menu
  const open = header_html(`<b>"Asel"</b>`, true);
  assert.match(open, /id="menu-toggle"[^>]*aria-expanded="true"/);
  assert.ok(!open.includes("<b>") && open.includes("&#60;b&#62;&#34;Asel&#34;&#60;/b&#62;"));
  assert.match(open.slice(open.indexOf('id="top-menu"')), /href="#\/@\/%3Cb%3E%22Asel%22%3C%2Fb%3E">.*href="#\/account">Account<\/a>/s);
  await load_lang("ky");
  assert.match(header_html(null, false), /<span>Меню<\/span>/);
  await load_lang("en");
});

test("an imported text: a position is one line with a / between the rows", () => {
  assert.equal(is_position_text("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1"), true);
  assert.equal(is_position_text("9,9,x,9/9,9,9,X 10 0 b 3"), true);
  assert.equal(is_position_text("1. 76(10) 55\n2. 94 13"), false);
  assert.equal(is_position_text("9,9,9/9,9,9 0 0 w 1\n"), false);
  assert.equal(is_position_text("[Event \"x\"] 9/9 "), false);
});

test("the game each home form asks for", () => {
  const local = new_game_of("local", { variant: "kozdatu" }, "Asel");
  assert.deepEqual(local, { mode: "local", variant: "kozdatu", tuz: false, play_out: false, position: null, color: "white", level: 5, clock: null, name: "Asel" });
  const eng = new_game_of("engine", { variant: "standard", level: "12", colour: "black" }, "");
  assert.deepEqual([eng.mode, eng.tuz, eng.level, eng.color, eng.name], ["engine", true, 12, "black", ""]);
  const online = new_game_of("online", { variant: "standard", name: "  Bek ", colour: "random", clock: "300000+5000", rated: true }, "Asel");
  assert.deepEqual([online.name, online.color, online.clock, online.rated, online.days_per_move], ["Bek", "random", { initial_ms: 300000, increment_ms: 5000 }, true, undefined]);
  const corr = new_game_of("online", { variant: "standard", name: "Bek", colour: "white", clock: "d3", rated: false }, "");
  assert.deepEqual([corr.clock, corr.days_per_move, "rated" in corr], [null, 3, false]);
  assert.equal(new_game_of("online", { variant: "standard", name: "Bek", colour: "white", clock: "" }, "").clock, null);
});

test("the your-turn list: the games waiting for the account's move, with the time left", () => {
  const g = (over) => ({ id: "g", token: "t", side: "white", opponent: "Bek", your_turn: true, moves: 3, variant: "standard", rated: false,
    speed: null, days_per_move: null, deadline_ms: null, ...over });
  const rows = your_turn_rows([g({ id: "a" }), g({ id: "b", your_turn: false }), g({ id: "c", deadline_ms: 1000 + 3 * 3600_000, days_per_move: 1 }),
    g({ id: "d", deadline_ms: 500, days_per_move: 1 })], 1000);
  assert.deepEqual(rows.map((r) => r.game.id), ["a", "c", "d"]);
  assert.equal(rows[0].deadline, null);
  assert.equal(typeof rows[1].deadline.left, "string");
  assert.equal(rows[2].deadline.left, null, "the time is up");
});

test("the theme: the browser's choice, else the system's; the header's button says which", async () => {
  assert.equal(theme_of(null, false), "light");
  assert.equal(theme_of(null, true), "dark");
  assert.equal(theme_of("light", true), "light");
  assert.equal(theme_of("dark", false), "dark");
  assert.equal(theme_of("purple", true), "dark"); // an unknown value: the system's
  await load_lang("en");
  assert.match(header_html(null, false), /<button type="button" id="theme-toggle"[^>]*aria-pressed="false">Dark theme<\/button>/);
  assert.match(header_html(null, false, "dark"), /id="theme-toggle"[^>]*aria-pressed="true"/);
  assert.match(header_html(null, false), /<button type="button" id="sound-toggle"[^>]*aria-pressed="true">Sound<\/button>/);
  assert.match(header_html(null, false, "light", false), /id="sound-toggle"[^>]*aria-pressed="false"/);
  await load_lang("ru");
  assert.match(header_html(null, false, "dark"), />Тёмная тема<\/button>/);
  await load_lang("en");
});
