// The arbiter pages' pure part (src/arbiter/arbiter_state.ts): results, names, tie-breaks, the
// event's line, the round shown, the arbiter's link and the forms' requests.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  RESULTS, arbiter_link, event_date, event_meta, new_event_body, new_player_body, player_label, result_label, round_index,
  tie_break_text, titled_name,
} from "../../node_modules/.toguz-unit/arbiter/arbiter_state.js";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";

await load_lang("en");

function event(over = {}) {
  return {
    id: "e1", name: "Cup", site: "Bishkek", date: "2026.05.01", system: "swiss", rounds: 5, tie_breaks: [], players: [], played: [],
    standings: [], next: "players", ...over,
  };
}

test("results: the server's codes shown as the page writes them", () => {
  assert.deepEqual(RESULTS.map(([v]) => v), ["*", "1-0", "1/2-1/2", "0-1", "+-", "-+"]);
  assert.equal(result_label("1/2-1/2"), "½-½");
  assert.equal(result_label("*"), "—");
  assert.equal(result_label("-+"), "− +");
  assert.equal(result_label("odd"), "odd");
});

test("players, tie-breaks and dates as the page writes them", () => {
  assert.equal(titled_name({ name: "Asel", rating: 0, title: "" }), "Asel");
  assert.equal(titled_name({ name: "Asel", rating: 0, title: "FM" }), "FM Asel");
  assert.equal(player_label({ name: "Asel", rating: 1850, title: "FM" }), "FM Asel (1850)");
  assert.equal(player_label({ name: "Bek", rating: 0, title: "" }), "Bek");
  assert.deepEqual([tie_break_text(4), tie_break_text(3.5), tie_break_text(2.25), tie_break_text(1 / 3)], ["4", "3.5", "2.25", "0.33"]);
  assert.equal(event_date(new Date(Date.UTC(2026, 11, 1, 12))), "2026.12.01");
});

test("the forms' requests: rounds only for Swiss, no rating typed is none", () => {
  const f = { name: "Cup", site: "Osh", date: " 2026.05.01 ", system: "swiss", rounds: "7" };
  assert.deepEqual(new_event_body(f), { name: "Cup", site: "Osh", date: "2026.05.01", system: "swiss", rounds: 7 });
  assert.equal(new_event_body({ ...f, system: "round-robin" }).rounds, null);
  assert.deepEqual(new_player_body("Asel", "", "FM"), { name: "Asel", rating: 0, title: "FM" });
  assert.deepEqual(new_player_body("Asel", "1850", ""), { name: "Asel", rating: 1850, title: "" });
});

test("the round shown: the one picked, else the latest", () => {
  assert.equal(round_index(3, 0), 2);
  assert.equal(round_index(3, 1), 0);
  assert.equal(round_index(3, 3), 2);
  assert.equal(round_index(3, 4), 2);
  assert.equal(round_index(0, 0), -1);
});

test("the event's line: site and date, system, the round or the end", () => {
  const round = { boards: [], byes: [] };
  assert.equal(event_meta(event()), "Bishkek, 2026.05.01 · Swiss");
  assert.equal(event_meta(event({ site: "", played: [round, round], next: "results" })), "2026.05.01 · Swiss · Round 2 of 5");
  assert.match(event_meta(event({ system: "double-round-robin", next: "done", date: "" })), /^Bishkek · .+ · .+$/);
  assert.notEqual(event_meta(event({ system: "round-robin" })), event_meta(event({ system: "double-round-robin" })));
});

test("the arbiter's link carries the key, both escaped", () => {
  assert.equal(arbiter_link("https://t.example/", "e 1", "k/2"), "https://t.example/#/arbiter/e%201/k%2F2");
});
