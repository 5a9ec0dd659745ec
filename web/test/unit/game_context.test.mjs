// The game page's context (src/games/game_context_state.ts) and the header's notices
// (src/shell/notices_state.ts): the time-control line in the four languages, the seats'
// ratings, the spectators' count, the notices' markup and the tab's title.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";
import { context_line, seat_diff, seat_rating, watching_text } from "../../node_modules/.toguz-unit/games/game_context_state.js";
import { notice_title, notices_html, waiting_games } from "../../node_modules/.toguz-unit/shell/notices_state.js";

const blitz = { mode: "online", rated: true, speed: "blitz", time_control: { kind: "clock", initial_ms: 180000, increment_ms: 2000 } };
const rapid = { mode: "online", rated: false, speed: "rapid", time_control: { kind: "clock", initial_ms: 600000, increment_ms: 5000 } };
const corr = { mode: "online", rated: true, speed: "correspondence", time_control: { kind: "correspondence", days: 2 } };

test("the time-control line in the four languages", async () => {
  const want = {
    en: ["Rated · Blitz 3+2", "Casual · Rapid 10+5", "Rated · Correspondence · 2 days a move"],
    ru: ["Рейтинговая · Блиц 3+2", "Товарищеская · Рапид 10+5", "Рейтинговая · По переписке · 2 дня на ход"],
    kk: ["Рейтингтік · Блиц 3+2", "Жолдастық · Рапид 10+5", "Рейтингтік · Хат арқылы · бір жүріске 2 күн"],
    ky: ["Рейтингдик · Блиц 3+2", "Достук · Рапид 10+5", "Рейтингдик · Кат аркылуу · бир жүрүшкө 2 күн"],
  };
  for (const [lang, lines] of Object.entries(want)) {
    await load_lang(lang);
    assert.deepEqual([blitz, rapid, corr].map(context_line), lines, lang);
  }
  await load_lang("en");
  assert.equal(context_line({ mode: "online", rated: false, speed: "bullet", time_control: { kind: "clock", initial_ms: 30000, increment_ms: 0 } }), "Casual · Bullet ½+0");
  assert.equal(context_line({ mode: "engine", rated: false, speed: null, time_control: { kind: "none" } }), "No clock");
  assert.equal(context_line({ mode: "analysis", rated: false, speed: null, time_control: { kind: "none" } }), "");
});

test("the seats' ratings and changes, and the spectators", async () => {
  await load_lang("en");
  const p = { name: "Aigerim", rating: 1500, provisional: true, rating_diff: 162 };
  assert.equal(seat_rating({ rated: true }, p), "1500?");
  assert.equal(seat_rating({ rated: true }, { ...p, provisional: false }), "1500");
  assert.equal(seat_rating({ rated: false }, p), "");
  assert.equal(seat_diff(p), "+162");
  assert.equal(seat_diff({ ...p, rating_diff: -8 }), "−8");
  assert.equal(seat_diff({ ...p, rating_diff: null }), "");
  assert.equal(watching_text(0), "");
  assert.equal(watching_text(3), "3 watching");
  await load_lang("ru");
  assert.equal(watching_text(1), "1 зритель");
  assert.equal(watching_text(5), "5 зрителей");
  await load_lang("en");
});

test("the notices: challenges with their buttons, the games waiting, the tab's title", async () => {
  await load_lang("en");
  const ch = { id: "c1", from: "<b>Bo</b>", rating: 1500, provisional: true, variant: "standard",
    clock: { initial_ms: 180000, increment_ms: 2000 }, days_per_move: null, speed: "blitz", rated: true, color: "white" };
  const games = [
    { id: "g1", token: "t1", your_turn: true },
    { id: "g2", token: "t2", your_turn: false },
    { id: "g3", token: "t3", your_turn: true },
  ];
  assert.deepEqual(waiting_games(games, "g1").map((g) => g.id), ["g3"]);
  const html = notices_html([ch], waiting_games(games, ""));
  assert.match(html, /&#60;b&#62;Bo&#60;\/b&#62; challenges you · 3\+2 · Rated/);
  assert.ok(!html.includes("<b>"), "the name escaped");
  assert.match(html, /data-notice-accept="c1"/);
  assert.match(html, /data-notice-decline="c1"/);
  assert.match(html, /href="#\/game\/g1\/t1">Your turn in 2 games</);
  assert.equal(notices_html([], []), "");
  assert.equal(notice_title("Toguz korgool", 1, 0), "(1) Toguz korgool");
  assert.equal(notice_title("Toguz korgool", 0, 2), "Your turn · Toguz korgool");
  assert.equal(notice_title("Toguz korgool", 2, 1), "(2) Your turn · Toguz korgool");
  assert.equal(notice_title("Toguz korgool", 0, 0), "Toguz korgool");
});

test("the lobby's days-per-move seeks: the form's choice, rated, the message", async () => {
  const { seek_clock, seek_days, can_rate, seek_message, challenge_message, seek_rating, SEEK_DAYS } =
    await import("../../node_modules/.toguz-unit/lobby/lobby_state.js");
  assert.deepEqual(SEEK_DAYS, [1, 2, 3, 5, 7, 14]);
  assert.equal(seek_clock("d3"), null);
  assert.equal(seek_days("d3"), 3);
  assert.equal(seek_days("d4"), null);
  assert.equal(seek_days("3"), null);
  assert.equal(can_rate("Aigerim", null, 3), true);
  assert.equal(can_rate(null, null, 3), false);
  const m = seek_message({ variant: "standard", clock: null, days_per_move: 2, rated: true, color: "random", spread: 100, rating: 1600 });
  assert.equal(m.days_per_move, 2);
  assert.equal(m.clock, null);
  assert.deepEqual(m.range, [1500, 1700]);
  assert.equal(challenge_message("Bo", { variant: "standard", clock: null, days_per_move: 7, rated: true, color: "white" }).days_per_move, 7);
  assert.equal(seek_rating({ correspondence: { rating: 1650, provisional: false } }, null, 5), 1650);
});
