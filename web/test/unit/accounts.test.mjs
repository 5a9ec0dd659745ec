// The account, player and lobby pages' logic (src/accounts/accounts_state.ts, accounts_api.ts,
// src/lobby/lobby_state.ts, lobby_socket.ts): the same rules as src/accounts (read from its
// sources), the API calls against a mocked fetch, the lobby socket against a fake WebSocket, and
// every name escaped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  RESERVED, ESTIMATED_MOVES, BULLET_BELOW, BLITZ_BELOW, RAPID_BELOW, check_username, check_password, speed_of,
  clock_label, rating_text, diff_text, user_html, player_games_html, history_svg, time_left_text, account_error, auth_problem,
  is_other_player, page_span, leader_category, report_actions,
} from "../../node_modules/.toguz-unit/accounts/accounts_state.js";
import {
  seek_rows_html, pool_buttons_html, challenges_html, lobby_reduce, empty_lobby, can_accept, sorted_seeks, seek_message,
  challenge_message, SEEK_CLOCKS, SEEK_SPREADS, seek_clock, can_rate, seek_rating,
} from "../../node_modules/.toguz-unit/lobby/lobby_state.js";
import { accounts, moderation, who_am_i } from "../../node_modules/.toguz-unit/accounts/accounts_api.js";
import { LobbySocket } from "../../node_modules/.toguz-unit/lobby/lobby_socket.js";
import { ApiError } from "../../node_modules/.toguz-unit/protocol/api.js";
import { error_text, load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";
import { en } from "../../node_modules/.toguz-unit/i18n/en.js";
import { ru } from "../../node_modules/.toguz-unit/i18n/ru.js";
import { kk } from "../../node_modules/.toguz-unit/i18n/kk.js";
import { ky } from "../../node_modules/.toguz-unit/i18n/ky.js";

const DICTS = { en, ru, kk, ky };
await load_lang("en"); // the pages' texts below are English

const cpp = (f) => readFileSync(new URL(`../../../src/accounts/${f}`, import.meta.url), "utf8");

test("the reserved names are src/accounts/reserved_names.txt's, which the server compiles in", () => {
  const names = cpp("reserved_names.txt").split("\n").filter((l) => l.trim());
  assert.ok(names.length >= 10);
  assert.deepEqual([...RESERVED].sort(), names.sort());
});

test("username rules give the server's codes", () => {
  assert.equal(check_username("ab"), null);
  assert.equal(check_username("Aigerim_92"), null);
  assert.equal(check_username("x".repeat(20)), null);
  assert.equal(check_username("x".repeat(21)), "username_too_long");
  assert.equal(check_username("a"), "username_too_short");
  assert.equal(check_username(""), "username_too_short");
  assert.equal(check_username("a b"), "username_bad_character");
  assert.equal(check_username("<script>"), "username_bad_character");
  assert.equal(check_username("Айгерим"), "username_bad_character");
  assert.equal(check_username("Admin"), "username_reserved");
  assert.equal(check_username("TOGUZ"), "username_reserved");
  assert.equal(check_username("admin2"), null);
});

test("passwords: at least 10 characters, at most 256 bytes, not only spaces, as the server", () => {
  assert.equal(check_password("123456789"), "password_too_short");
  assert.equal(check_password("a good one"), null);
  assert.equal(check_password("парольпар"), "password_too_short"); // 9 characters, 18 bytes
  assert.equal(check_password("парольпаро"), null); // 10 characters
  assert.equal(check_password("p".repeat(256)), null);
  assert.equal(check_password("я".repeat(129)), "password_too_long"); // 258 bytes
  assert.equal(check_password(" ".repeat(10)), "password_blank");
  assert.equal(check_password(" \t".repeat(6)), "password_blank");
});

test("every refusal code of the accounts has a text in every language", () => {
  // the catalogue the server compiles in (src/site/texts.json)
  const texts = JSON.parse(readFileSync(new URL("../../../src/site/texts.json", import.meta.url), "utf8"));
  const codes = new Set(texts.refusals.map((r) => r.code).filter((c) => /^(username|password|login|signup)_/.test(c)));
  assert.ok(codes.size >= 10, [...codes].join());
  for (const extra of ["login_failed", "no_user", "too_many_seeks", "no_seek", "passwords_busy"]) codes.add(extra);
  for (const [lang, dict] of Object.entries(DICTS))
    for (const c of codes) assert.ok(dict[`e_${c}`], `${lang} lacks e_${c}`);
  assert.equal(error_text({ code: "login_locked_account", params: { retry_after_s: "42" } }),
    "Too many failed logins for this account from here: try again in 42 s");
});

test("speed categories: src/accounts/speed.h's constants and boundaries", () => {
  const h = cpp("speed.h");
  assert.equal(ESTIMATED_MOVES, Number(h.match(/kEstimatedMoves = (\d+)/)[1]));
  assert.equal(BULLET_BELOW, Number(h.match(/kBulletBelow = (\d+)/)[1]));
  assert.equal(BLITZ_BELOW, Number(h.match(/kBlitzBelow = (\d+)/)[1]));
  assert.equal(RAPID_BELOW, Number(h.match(/kRapidBelow = (\d+)/)[1]));
  const c = (m, s) => ({ initial_ms: m * 60000, increment_ms: s * 1000 });
  assert.equal(speed_of({ initial_ms: 179999, increment_ms: 0 }), "bullet");
  assert.equal(speed_of(c(3, 0)), "blitz");
  assert.equal(speed_of(c(2, 1)), "bullet"); // 170 s
  assert.equal(speed_of(c(5, 3)), "blitz"); // 450 s
  assert.equal(speed_of(c(8, 0)), "rapid");
  assert.equal(speed_of(c(15, 10)), "rapid"); // 1400 s
  assert.equal(speed_of(c(25, 0)), "classical");
  assert.equal(speed_of(null), null);
  assert.equal(speed_of(null, 3), "correspondence");
  assert.equal(clock_label(c(3, 2)), "3+2");
  assert.equal(clock_label({ initial_ms: 30000, increment_ms: 0 }), "½+0");
  assert.equal(clock_label(null), "∞");
});

test("ratings are shown rounded, with ? while provisional", () => {
  assert.equal(rating_text({ rating: 1500, provisional: true }), "1500?");
  assert.equal(rating_text({ rating: 1723.5, provisional: false }), "1724");
  assert.equal(rating_text(null), "");
  assert.equal(diff_text(12.4), "+12");
  assert.equal(diff_text(-7), "−7");
  assert.equal(diff_text(0.2), "0");
  assert.equal(diff_text(null), "");
});

const EVIL = `<script>alert("x")</script>`;
const NO_TAG = (html) => assert.ok(!/<script|<img/i.test(html), `unescaped: ${html}`);

test("the player page escapes every name and shows every category", () => {
  const html = user_html({
    username: EVIL, online: true,
    ratings: { blitz: { rating: 1623.4, rd: 74.1, volatility: 0.06, games: 41, provisional: false },
      bullet: { rating: 1500, rd: 350, volatility: 0.06, games: 0, provisional: true } },
    counts: { all: { win: 3, draw: 1, loss: 0 }, white: { win: 2, draw: 0, loss: 0 }, black: { win: 1, draw: 1, loss: 0 } },
  });
  NO_TAG(html);
  assert.ok(html.includes("&#60;script&#62;"));
  for (const s of ["bullet", "blitz", "rapid", "classical", "correspondence"]) assert.ok(html.includes(`data-speed="${s}"`));
  assert.ok(html.includes(">1623<"));
  assert.ok(html.includes("88%")); // (3 + ½) / 4
  const games = player_games_html("Aigerim", [
    { id: "g1", white: "Aigerim", black: EVIL, white_account: "Aigerim", black_account: "<img src=x onerror=alert(1)>",
      result: "white", moves: 40, created: "2026-11-30T21:05:26Z", updated: "", rated: true, speed: "blitz", white_diff: 8, black_diff: -8,
      white_average_loss_cp: 23.6, black_average_loss_cp: 80, white_mistakes: 2, black_mistakes: 5 },
    { id: "g2", white: EVIL, black: "aigerim", white_account: null, black_account: "Aigerim",
      result: "white", moves: 30, created: "", updated: "", rated: false, speed: null },
  ], (iso) => iso);
  NO_TAG(games);
  assert.match(games, /class="res win">1</);
  assert.match(games, /class="res loss">0</);
  assert.ok(games.includes("+8"));
  assert.ok(games.includes(">24 cp · 2<")); // Aigerim's side of the review, not the opponent's
  assert.ok(games.includes('href="#/@/%3Cimg%20src%3Dx%20onerror%3Dalert(1)%3E"'));
  assert.equal(history_svg({ blitz: [[0, 1500]] }), ""); // one point draws no line
  assert.match(history_svg({ blitz: [[0, 1500], [1000, 1520]] }), /<polyline class="hist blitz"/);
});

const seek = (over = {}) => ({
  id: "s1", username: "Bolat", rating: 1600, provisional: false, variant: "standard",
  clock: { initial_ms: 180000, increment_ms: 2000 }, days_per_move: null, speed: "blitz", rated: true,
  color: "random", range: [1500, 1700], mine: false, ...over,
});

test("the lobby state follows the server's messages", () => {
  let s = lobby_reduce(empty_lobby(), { type: "lobby", you: "Aigerim", seeks: [seek()], pools: [], online: { players: 3, games: 1 } });
  assert.equal(s.seeks.length, 1);
  assert.equal(s.you, "Aigerim");
  s = lobby_reduce(s, { type: "seek_added", seek: seek({ id: "s2", username: EVIL }) });
  s = lobby_reduce(s, { type: "seek_added", seek: seek({ id: "s2" }) }); // twice: once
  assert.equal(s.seeks.length, 2);
  const rows = seek_rows_html(s, {});
  NO_TAG(rows);
  assert.ok(rows.includes('data-accept="s2"'));
  s = lobby_reduce(s, { type: "seek_removed", id: "s1" });
  assert.deepEqual(s.seeks.map((x) => x.id), ["s2"]);
  s = lobby_reduce(s, { type: "online", players: 9, games: 4 });
  assert.deepEqual(s.online, { players: 9, games: 4 });
  s = lobby_reduce(s, { type: "challenge", challenge: { id: "c1", from: EVIL, rating: 1500, provisional: true, clock: null, rated: false } });
  const ch = challenges_html(s);
  NO_TAG(ch);
  assert.ok(ch.includes("1500?"));
  s = lobby_reduce(s, { type: "challenge_gone", id: "c1", reason: "cancelled" });
  assert.equal(s.challenges.length, 0);
  assert.equal(lobby_reduce(s, { type: "no-such" }), s);
  s = lobby_reduce(s, { type: "pools", pools: [{ id: "3+2", initial_ms: 180000, increment_ms: 2000, speed: "blitz", waiting: 4 }] });
  assert.match(pool_buttons_html({ ...s, pool: "3+2" }), /data-pool="3\+2" aria-pressed="true"/);
  assert.match(seek_rows_html(empty_lobby(), {}), /class="empty"/);
});

test("who may accept a seek, and the seek a form sends", () => {
  const est = { rating: 1600, rd: 60, volatility: 0.06, games: 50, provisional: false };
  assert.equal(can_accept(seek(), "Aigerim", est), true);
  assert.equal(can_accept(seek(), null, undefined), false); // rated needs an account
  assert.equal(can_accept(seek({ rated: false }), null, undefined), true);
  assert.equal(can_accept(seek({ mine: true }), "Aigerim", est), false);
  assert.equal(can_accept(seek(), "Aigerim", { ...est, rating: 1800 }), false);
  assert.equal(can_accept(seek(), "Aigerim", { ...est, rating: 1800, provisional: true }), true);
  const order = sorted_seeks([
    seek({ id: "c", speed: "classical", clock: { initial_ms: 1800000, increment_ms: 0 } }),
    seek({ id: "b", speed: "bullet", clock: { initial_ms: 60000, increment_ms: 0 } }),
    seek({ id: "z", speed: null, clock: null }),
    seek({ id: "b2", speed: "bullet", clock: { initial_ms: 60000, increment_ms: 0 }, rating: 1900 }),
  ]).map((x) => x.id);
  assert.deepEqual(order, ["b2", "b", "c", "z"]);
  assert.deepEqual(seek_message({ variant: "standard", clock: null, rated: false, color: "random", spread: 200, rating: 1612.6 }),
    { type: "seek", variant: "standard", clock: null, days_per_move: null, rated: false, color: "random", range: [1413, 1813] });
  assert.equal(seek_message({ variant: "standard", clock: null, rated: false, color: "white", spread: 200, rating: null }).range, null);
});

function mock_fetch(answers) {
  const calls = [];
  globalThis.fetch = async (path, init) => {
    calls.push({ path, method: init.method, body: init.body ? JSON.parse(init.body) : undefined });
    const a = answers.shift() ?? { status: 200, body: {} };
    return new Response(a.body === undefined ? "" : JSON.stringify(a.body), { status: a.status });
  };
  return calls;
}

test("the accounts API: paths, bodies and refusals", async () => {
  const calls = mock_fetch([
    { status: 201, body: { username: "Aigerim" } },
    { status: 409, body: { error: "username: taken", code: "username_taken", params: {} } },
    { status: 429, body: { error: "locked", code: "login_locked_address", params: { retry_after_s: "120" } } },
    { status: 200, body: { ok: true } },
    { status: 200, body: { username: EVIL, ratings: {} } },
    { status: 200, body: { games: [], total: 0 } },
    { status: 404, body: { error: "no such user", code: "no_user", params: {} } },
  ]);
  assert.deepEqual(await accounts.signup("Aigerim", "correct horse"), { username: "Aigerim" });
  await assert.rejects(accounts.signup("aigerim", "correct horse"), (e) => e instanceof ApiError && e.status === 409 && e.code === "username_taken");
  const locked = await accounts.login("aigerim", "wrong").catch((e) => e);
  assert.equal(error_text(locked), "Too many failed logins from this address: try again in 120 s");
  await accounts.logout();
  await accounts.user(EVIL);
  await accounts.games("Ai gerim", 50, 100);
  await assert.rejects(accounts.user("nobody2"), (e) => e.code === "no_user");
  assert.deepEqual(calls.map((c) => `${c.method} ${c.path}`), [
    "POST /api/signup", "POST /api/signup", "POST /api/login", "POST /api/logout",
    `GET /api/users/${encodeURIComponent(EVIL)}`, "GET /api/games?account=Ai+gerim&limit=50&offset=100",
    "GET /api/users/nobody2",
  ]);
  assert.deepEqual(calls[0].body, { username: "Aigerim", password: "correct horse" });
  assert.ok(!calls.some((c) => c.path.includes("correct")), "a password never goes into a URL");
});

test("who_am_i is anonymous when the server has no accounts API", async () => {
  mock_fetch([{ status: 404, body: { error: "not found" } }, { status: 200, body: { username: "Bolat" } }]);
  assert.equal(await who_am_i(true), null);
  assert.equal(await who_am_i(), null); // cached
  assert.equal(await who_am_i(true), "Bolat");
});

class FakeSocket {
  static all = [];
  readyState = 0;
  sent = [];
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  constructor() {
    FakeSocket.all.push(this);
  }
  send(d) {
    this.sent.push(JSON.parse(d));
  }
  close() {
    this.readyState = 3;
    this.onclose?.({});
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  recv(msg) {
    this.onmessage?.({ data: typeof msg === "string" ? msg : JSON.stringify(msg) });
  }
}

test("the lobby socket: state, accept, start, errors, reconnect", (t) => {
  t.mock.timers.enable({ apis: ["setTimeout"] });
  FakeSocket.all = [];
  const seen = { changes: 0, starts: [], errors: [], status: [] };
  const lobby = new LobbySocket(
    { change: () => seen.changes++, start: (g) => seen.starts.push(g), error: (e) => seen.errors.push(e.code), status: (s) => seen.status.push(s) },
    () => new FakeSocket(),
  );
  const ws = FakeSocket.all[0];
  assert.equal(lobby.accept("s1"), false); // not open yet
  ws.open();
  ws.recv({ type: "lobby", you: null, seeks: [seek()], pools: [], online: { players: 1, games: 0 } });
  ws.recv("not json");
  assert.equal(lobby.state.seeks.length, 1);
  assert.equal(seen.changes, 1);
  assert.equal(lobby.accept("s1"), true);
  assert.equal(lobby.toggle_pool("3+2"), true);
  assert.equal(lobby.state.pool, "3+2");
  assert.equal(lobby.toggle_pool("3+2"), true);
  assert.equal(lobby.state.pool, null);
  assert.deepEqual(ws.sent, [{ type: "accept", id: "s1" }, { type: "pool_join", pool: "3+2", range: null }, { type: "pool_leave" }]);
  ws.recv({ type: "error", message: "gone", code: "no_seek", params: {} });
  assert.deepEqual(seen.errors, ["no_seek"]);
  ws.recv({ type: "start", game: "g7", token: "tok", side: "black" });
  assert.deepEqual(seen.starts, [{ game: "g7", token: "tok", side: "black" }]);
  // a drop: a new socket after the backoff, whose `lobby` replaces the state
  ws.close();
  assert.equal(FakeSocket.all.length, 1);
  t.mock.timers.tick(700);
  assert.equal(FakeSocket.all.length, 2);
  FakeSocket.all[1].open();
  FakeSocket.all[1].recv({ type: "lobby", you: "Aigerim", seeks: [], pools: [], online: { players: 2, games: 1 } });
  assert.equal(lobby.state.seeks.length, 0);
  assert.equal(lobby.state.you, "Aigerim");
  // closed by the page: no reconnect
  lobby.close();
  t.mock.timers.tick(10000);
  assert.equal(FakeSocket.all.length, 2);
  assert.deepEqual(seen.status, ["connecting", "open", "closed", "connecting", "open", "closed"]);
});

test("the leaderboard and a challenge", async () => {
  const { leaderboard_html } = await import("../../node_modules/.toguz-unit/accounts/accounts_state.js");
  const html = leaderboard_html("rapid", [{ username: EVIL, rating: 1888.6, rd: 50, games: 90 }, { username: "Bolat", rating: 1700, rd: 60, games: 12 }]);
  NO_TAG(html);
  assert.match(html, /<td class="n">1<\/td>/);
  assert.ok(html.includes(">1889<"));
  assert.match(html, /href="#\/leaderboard\/rapid" aria-current="page"/);
  assert.match(leaderboard_html("blitz", []), /class="empty"/);
  assert.deepEqual(challenge_message("Bolat", { variant: "standard", clock: null, rated: false, color: "black" }),
    { type: "challenge", to: "Bolat", variant: "standard", clock: null, days_per_move: null, rated: false, color: "black" });
  const calls = mock_fetch([{ status: 200, body: { category: "rapid", players: [] } }]);
  await accounts.leaderboard("rapid", 20);
  assert.equal(calls[0].path, "/api/leaderboard/rapid?limit=20");
});

test("the lobby socket reports answers that change no state", () => {
  FakeSocket.all = [];
  const notes = [];
  const lobby = new LobbySocket({ change() {}, start() {}, error() {}, notice: (m) => notes.push(m.type) }, () => new FakeSocket());
  const ws = FakeSocket.all[0];
  ws.open();
  ws.recv({ type: "challenge_created", id: "c9" });
  ws.recv({ type: "challenge_gone", id: "c9", reason: "declined" });
  ws.recv({ type: "pong" });
  assert.deepEqual(notes, ["challenge_created", "challenge_gone"]);
  lobby.close();
});

test("a correspondence game's time left to move", () => {
  const min = 60000;
  assert.equal(time_left_text(2 * 1440 * min + 5 * 60 * min + 30 * min), "2 d 5 h");
  assert.equal(time_left_text(23 * 60 * min + 59 * min + 30000), "23 h 59 min");
  assert.equal(time_left_text(12 * min), "12 min");
  assert.equal(time_left_text(30000), "0 min");
  assert.equal(time_left_text(0), null);
  assert.equal(time_left_text(-5), null);
});

test("the your-turn list's call", async () => {
  const seen = [];
  globalThis.fetch = async (url, init) => {
    seen.push([init.method, url]);
    return new Response(JSON.stringify({ games: [], your_turn: 0 }), { status: 200 });
  };
  assert.deepEqual(await accounts.my_games(), { games: [], your_turn: 0 });
  assert.deepEqual(seen, [["GET", "/api/account/games"]]);
});

test("a refusal in words; a server without the accounts API says so", () => {
  assert.equal(account_error(new ApiError(404, "not found")), en.accounts_unavailable);
  assert.equal(account_error(new ApiError(405, "method")), en.accounts_unavailable);
  // a 404 with the server's code is that refusal, not a missing API
  assert.equal(account_error(new ApiError(404, "no such user", "no_user")), error_text(new ApiError(404, "no such user", "no_user")));
  assert.notEqual(account_error(new ApiError(404, "no such user", "no_user")), en.accounts_unavailable);
});

test("the sign-up and log-in forms' checks before sending", () => {
  assert.equal(auth_problem("signup", "a", "a good password"), "e_username_too_short");
  assert.equal(auth_problem("signup", "Aigerim", "short"), "e_password_too_short");
  assert.equal(auth_problem("signup", "Admin", "short"), "e_username_reserved", "the name is checked first");
  assert.equal(auth_problem("signup", "Aigerim", "a good password"), null);
  assert.equal(auth_problem("login", "", "x"), "e_login_failed");
  assert.equal(auth_problem("login", "a", ""), "e_login_failed");
  assert.equal(auth_problem("login", "a", "x"), null, "log-in leaves the rules to the server");
});

test("the player page: another player's, its pager and the leaderboard's category", () => {
  assert.equal(is_other_player("Aigerim", "aigerim"), false);
  assert.equal(is_other_player("Aigerim", "Bolat"), true);
  assert.equal(is_other_player(null, "Bolat"), false);
  assert.equal(page_span(0, 12, 12), null);
  assert.deepEqual(page_span(0, 50, 57), { from: 1, to: 50, prev: false, next: true });
  assert.deepEqual(page_span(50, 7, 57), { from: 51, to: 57, prev: true, next: false });
  assert.deepEqual(page_span(50, 0, 0), { from: 51, to: 50, prev: true, next: false });
  assert.equal(leader_category("rapid"), "rapid");
  assert.equal(leader_category("hyper"), "blitz");
  assert.equal(leader_category(undefined), "blitz");
});

test("a moderation item's actions and their calls", async () => {
  const item = { id: 7, kind: "report", target: "Bolat", reporter: "Aigerim", about: null, game: "g1", reason: "x", created: "",
    resolved: false, target_marked: false, target_closed: true };
  assert.deepEqual(report_actions(item).map((a) => `${a.action}:${a.label}`), ["mark:mod_mark", "reopen:mod_reopen", "void:mod_void", "resolve:mod_resolve"]);
  assert.deepEqual(report_actions({ ...item, target: null, game: null, resolved: true }), []);
  assert.deepEqual(report_actions({ ...item, target_marked: true, target_closed: false, game: null }).map((a) => a.action), ["unmark", "close", "resolve"]);
  const calls = mock_fetch([]);
  for (const a of ["mark", "unmark", "close", "reopen", "void", "resolve"]) await moderation.act(a, "Bolat", "g1", 7);
  assert.equal(moderation.act("delete", "Bolat", "g1", 7), null);
  assert.deepEqual(calls.map((c) => [c.path, c.body]), [
    ["/api/moderation/mark", { username: "Bolat", marked: true }],
    ["/api/moderation/mark", { username: "Bolat", marked: false }],
    ["/api/moderation/close", { username: "Bolat", closed: true }],
    ["/api/moderation/close", { username: "Bolat", closed: false }],
    ["/api/moderation/void", { game: "g1" }],
    ["/api/moderation/resolve", { id: 7 }],
  ]);
});

test("the seek form's clocks, who may rate a seek, and the rating its range is around", () => {
  assert.equal(SEEK_CLOCKS.length, 11);
  assert.deepEqual(SEEK_CLOCKS[3], { initial_ms: 180000, increment_ms: 2000 });
  assert.deepEqual(SEEK_SPREADS, [0, 100, 200, 300, 500]);
  assert.equal(seek_clock(""), null);
  assert.equal(seek_clock("3"), SEEK_CLOCKS[3]);
  assert.equal(can_rate("Aigerim", SEEK_CLOCKS[0]), true);
  assert.equal(can_rate(null, SEEK_CLOCKS[0]), false);
  assert.equal(can_rate("Aigerim", null), false);
  const ratings = { blitz: { rating: 1613, rd: 60, provisional: false, games: 40 }, bullet: { rating: 1500, rd: 300, provisional: true, games: 0 } };
  assert.equal(seek_rating(ratings, SEEK_CLOCKS[3]), 1613); // 3+2 is blitz
  assert.equal(seek_rating(ratings, SEEK_CLOCKS[0]), null, "a provisional rating gives no range");
  assert.equal(seek_rating(ratings, SEEK_CLOCKS[10]), null, "no rating in that category");
  assert.equal(seek_rating(ratings, null), null);
});
