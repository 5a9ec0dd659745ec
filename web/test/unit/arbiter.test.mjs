// The arbiter pages' pure part (src/arbiter/arbiter_state.ts): results, names, tie-breaks, the
// event's line, the round shown, the arbiter's link and the forms' requests; a team event's
// rosters typed, lineups, boards' players, tie-break columns and link; a team event's TRF told.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  BoardDrafts, edit_player_body, may_enter_players, may_repair, print_path,
  RESULTS, arbiter_link, event_date, event_meta, new_event_body, new_player_body, player_label, result_label, round_index,
  tie_break_list, tie_break_text, titled_name, keeper_link, live_signature, move_pairs,
  TEAM_TIE_BREAKS, board_member, extra_tie_breaks, lineup_body, may_repair_team, new_team_event_body, roster_lines, team_arbiter_link, is_team_trf,
} from "../../node_modules/.toguz-unit/arbiter/arbiter_state.js";
import { tie_break_text as tournament_tie_break_text } from "../../node_modules/.toguz-unit/tournaments/tournaments_state.js";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";

await load_lang("en");

function event(over = {}) {
  return {
    id: "e1", name: "Cup", site: "Bishkek", date: "2026.05.01", system: "swiss", rounds: 5, tie_breaks: [], players: [], played: [],
    standings: [], next: "players", ...over,
  };
}

test("results: the server's codes shown as the page writes them", () => {
  assert.deepEqual(RESULTS.map(([v]) => v), ["*", "1-0", "1/2-1/2", "0-1", "+-", "-+", "--"]);
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

test("tie-breaks: rounded alike on the arbiter's and the tournaments' pages; the list typed", () => {
  for (const v of [0, 4, 3.5, 2.25, 1 / 3, 12.75, 7.125])
    assert.equal(tie_break_text(v), tournament_tie_break_text(v), String(v));
  assert.deepEqual(tie_break_list("bh-1, BH  sb,de bh-m1"), ["BH-1", "BH", "SB", "DE", "BH-M1"]);
  assert.deepEqual(tie_break_list("xx"), ["xx"]);
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

test("late players in a Swiss only; a round paired again only before its results", () => {
  const p = (name, withdrawn = false) => ({ name, rating: 0, title: "", withdrawn });
  const round = (...results) => ({ boards: results.map((result, i) => ({ white: 2 * i, black: 2 * i + 1, result, moves: 0 })), byes: [] });
  assert.equal(may_enter_players(event()), true);
  assert.equal(may_enter_players(event({ played: [round("*")] })), true, "a Swiss takes late players");
  assert.equal(may_enter_players(event({ system: "round-robin", played: [round("*")] })), false);
  assert.equal(may_enter_players(event({ system: "round-robin" })), true);
  const players = [p("a"), p("b"), p("c"), p("d")];
  assert.equal(may_repair(event({ players })), false, "nothing paired");
  assert.equal(may_repair(event({ players, played: [round("*", "*")] })), true);
  assert.equal(may_repair(event({ players, played: [round("1-0", "*")] })), false, "a result is in");
  const out = [p("a"), p("b", true), p("c"), p("d")];
  assert.equal(may_repair(event({ players: out, played: [round("+-", "*")] })), true, "the pairing's own forfeit against a withdrawn player");
});

test("a player corrected is numbered from 1; print pages in the page's language", () => {
  assert.deepEqual(edit_player_body(0, "Asel", "", "FM"), { player: 1, name: "Asel", rating: 0, title: "FM" });
  assert.deepEqual(edit_player_body(3, "Bek", "2100", ""), { player: 4, name: "Bek", rating: 2100, title: "" });
  assert.equal(print_path("/api/events/e1/standings", "ru"), "/api/events/e1/standings?lang=ru");
  assert.equal(print_path("/api/events/e1/pairings?round=2", "ky"), "/api/events/e1/pairings?round=2&lang=ky");
});

test("what is typed into a board stays until that board is saved", () => {
  const d = new BoardDrafts();
  assert.deepEqual(d.get(1, 1), {});
  d.set(1, 1, { moves: "1. 65 87" });
  d.set(1, 2, { result: "1-0" });
  d.set(1, 1, { result: "0-1" });
  assert.deepEqual(d.get(1, 1), { moves: "1. 65 87", result: "0-1" });
  d.saved(1, 2);
  assert.deepEqual(d.get(1, 2), {});
  assert.deepEqual(d.get(1, 1), { moves: "1. 65 87", result: "0-1" }, "another board keeps its draft");
  assert.deepEqual(d.get(2, 1), {}, "by round too");
});

test("the broadcast: a keeper's link, moves in pairs, a board drawn again only when it changed", () => {
  assert.equal(keeper_link("https://x.kz/", "e 1", "a/b"), "https://x.kz/#/keeper/e%201/a%2Fb");
  assert.deepEqual(move_pairs(["65", "87", "55"]), ["1. 65 87", "2. 55"]);
  assert.deepEqual(move_pairs([]), []);
  const b = { white: 0, black: 1, result: "*", moves: ["65"], position: "p", clocks: { white: "", black: "" }, keepers: 1 };
  assert.equal(live_signature(b), live_signature({ ...b, keepers: 2 }));
  assert.notEqual(live_signature(b), live_signature({ ...b, moves: ["65", "87"] }));
  assert.notEqual(live_signature(b), live_signature({ ...b, clocks: { white: "1:00", black: "" } }));
});

test("a team event: rosters typed, lineups, the boards' players, tie-break columns, the link", () => {
  assert.deepEqual(roster_lines(" Eleusiz, Nurlan 2200\n\nАйгерим\nBolat 12345 \n"), [
    { name: "Eleusiz, Nurlan", rating: 2200 }, { name: "Айгерим", rating: 0 }, { name: "Bolat 12345", rating: 0 }]);
  assert.deepEqual(lineup_body(1, [true, false, true]), { team: 2, players: [1, 3] });
  assert.deepEqual(lineup_body(0, [false, false]), { team: 1, absent: true });
  assert.deepEqual(new_team_event_body({ name: "Cup", site: "", date: " 2026.12.01 ", system: "round-robin", rounds: "5", boards: "2", scoring: "board-points" }),
    { name: "Cup", site: "", date: "2026.12.01", system: "round-robin", rounds: null, boards: 2, scoring: "board-points" });
  assert.deepEqual(extra_tie_breaks(["BP", "DE", "TSB"]), [1, 2]);
  assert.deepEqual(tie_break_list("bp tsb, coin", TEAM_TIE_BREAKS), ["BP", "TSB", "coin"]);
  const p = (name) => ({ name, rating: 0, title: "" });
  const m = { home: 0, away: 1, home_lineup: [0, 2], away_lineup: [1], boards: [
    { result: "*", moves: 0, home_white: true, forced: false }, { result: "-+", moves: 0, home_white: false, forced: true }],
  home_points: "1", away_points: "0", complete: false };
  const ev = { teams: [{ name: "A", roster: [p("A1"), p("A2"), p("A3")] }, { name: "B", roster: [p("B1"), p("B2")] }], played: [{ matches: [m], byes: [] }] };
  assert.equal(board_member(ev, m, true, 1).name, "A3");
  assert.equal(board_member(ev, m, false, 0).name, "B2");
  assert.equal(board_member(ev, m, false, 1), null);
  assert.equal(may_repair_team(ev), true);
  m.boards[0].result = "1-0";
  assert.equal(may_repair_team(ev), false);
  assert.equal(team_arbiter_link("https://t.kz/", "ab", "k/y"), "https://t.kz/#/arbiter/team/ab/k%2Fy");
});

test("is_team_trf: a file with team lines (013) is a team event's", () => {
  assert.equal(is_team_trf("012 Cup\n001    1      Ana\n013 Ala                                 1\n"), true);
  assert.equal(is_team_trf("013 Ala\r\n"), true);
  assert.equal(is_team_trf("012 Cup 013\n001    1      Ana 013\n"), false);
  assert.equal(is_team_trf(""), false);
});
