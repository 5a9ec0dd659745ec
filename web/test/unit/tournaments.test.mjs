// The tournament pages' pure part (src/tournaments/tournaments_state.ts): the summary line, the
// lists and game tables, the results and links, the reader's actions, the game opened for him and
// the request a new tournament's form sends.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  actions_key, actions_of, game_link_kind, game_result_text, game_to_open, new_tournament_body, open_and_done, playing_and_done, summary_text,
  max_players_of, system_text, tie_break_text, countdown_of, countdown_text, podium_of, next_game_of, edit_tournament_body,
} from "../../node_modules/.toguz-unit/tournaments/tournaments_state.js";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";

await load_lang("en");

function tn(over = {}) {
  return {
    id: "t1", name: "Spring", system: "arena", initial_ms: 180000, increment_ms: 2000, rated: true, starts_ms: 0, status: "upcoming",
    players: 12, max_players: 100, entry: "open", creator: "asel", now_ms: 0, entrants: [], standings: [], games: [], me: null, ...over,
  };
}
const game = (over = {}) => ({ id: "g", round: 1, board: 1, white: 0, black: 1, white_name: "a", black_name: "b", result: "*", ...over });

test("the summary line: system, clock, rated, players, then the start, end or round", () => {
  const s = summary_text(tn({ status: "running", rounds: 5, round: 2, system: "swiss", rated: false, players: 1 }));
  assert.equal(s, `${system_text("swiss")} · 3+2 · Casual · 1 player · Round 2 of 5`);
  assert.match(summary_text(tn()), /^Arena · 3\+2 · Rated · 12 players · Starts /);
  assert.equal(summary_text(tn({ status: "finished" })).split(" · ").length, 4);
  assert.match(summary_text(tn({ status: "running", ends_ms: 5000, rounds: 3 })), / · 12 players · Ends [^·]+$/);
});

test("the lists: open tournaments apart from finished and cancelled ones", () => {
  const items = [tn({ id: "a" }), tn({ id: "b", status: "finished" }), tn({ id: "c", status: "running" }), tn({ id: "d", status: "cancelled" })];
  const { open, done } = open_and_done(items);
  assert.deepEqual(open.map((x) => x.id), ["a", "c"]);
  assert.deepEqual(done.map((x) => x.id), ["b", "d"]);
});

test("the games: those being played, those over newest first; results and links", () => {
  const games = [game({ id: "1", result: "1-0" }), game({ id: "2" }), game({ id: null, result: "1-0" }), game({ id: "4", called_off: true })];
  const { playing, done } = playing_and_done(games);
  assert.deepEqual(playing.map((g) => g.id), ["2"]);
  assert.deepEqual(done.map((g) => g.id), ["4", null, "1"]);
  assert.equal(game_result_text(game({ result: "1/2-1/2" })), "½-½");
  assert.equal(game_result_text(game({ result: "0-1" })), "0-1");
  assert.equal(game_result_text(game({ called_off: true })), "—");
  assert.equal(game_link_kind(game()), "watch");
  assert.equal(game_link_kind(game({ result: "1-0" })), "replay");
  assert.equal(game_link_kind(game({ called_off: true })), "replay");
  assert.equal(game_link_kind(game({ id: null })), "forfeit");
  assert.deepEqual([tie_break_text(3), tie_break_text(2.5), tie_break_text(1.25), tie_break_text(1 / 3)], ["3", "2.5", "1.25", "0.33"]);
});

test("the reader's actions: log in, start, code and join, resume, his game, withdraw", () => {
  assert.equal(actions_of(tn(), null), "login");
  assert.equal(actions_of(tn({ status: "finished" }), "asel"), null);
  assert.deepEqual(actions_of(tn(), "asel"), ["start", "edit", "cancel", "join"]);
  assert.deepEqual(actions_of(tn({ entry: "code" }), "bek"), ["code", "join"]);
  assert.deepEqual(actions_of(tn({ status: "running" }), "bek"), ["join"]); // an arena is joined late
  assert.equal(actions_of(tn({ status: "running", system: "swiss" }), "bek"), null);
  const me = { player: 1, paused: false, withdrawn: false, game: null };
  assert.deepEqual(actions_of(tn({ status: "running", me: { ...me, paused: true } }), "bek"), ["paused", "resume"]);
  assert.deepEqual(actions_of(tn({ status: "running", me: { ...me, game: "g7" } }), "bek"), ["my_game", "pause"]); // an arena pauses
  assert.deepEqual(actions_of(tn({ status: "running", system: "swiss", me: { ...me, game: "g7" } }), "bek"), ["my_game", "withdraw"]);
  assert.deepEqual(actions_of(tn({ me }), "bek"), ["withdraw"]);
  assert.deepEqual(actions_of(tn({ status: "running", me: { ...me, withdrawn: true } }), "bek"), []);
  assert.equal(game_to_open(tn({ status: "running", me: { ...me, game: "g7" } })), "g7");
  assert.equal(game_to_open(tn({ status: "finished", me: { ...me, game: "g7" } })), null);
  assert.equal(game_to_open(tn({ status: "running" })), null);
});

test("a new tournament's request: times in ms, the arena's minutes or the Swiss rounds only", () => {
  const form = { name: "Cup", system: "arena", minutes: "0.25", increment: "2", starts_in: "5", duration: "45", rounds: "7", max_players: "64", code: "", rated: true };
  assert.deepEqual(new_tournament_body(form, 1000), {
    name: "Cup", system: "arena", initial_ms: 15000, increment_ms: 2000, rated: true, starts_at: 301000, max_players: 64, entry_code: "",
    duration_minutes: 45,
  });
  const swiss = new_tournament_body({ ...form, system: "swiss" }, 0);
  assert.equal(swiss.rounds, 7);
  assert.equal("duration_minutes" in swiss, false);
  const rr = new_tournament_body({ ...form, system: "round-robin" }, 0);
  assert.equal("rounds" in rr || "duration_minutes" in rr, false);
});

test("the form's number of players fits each system: a round robin takes 20 at most", () => {
  for (const sys of ["round-robin", "double-round-robin"]) {
    const { most, initial } = max_players_of(sys);
    assert.equal(most, 20);
    assert.ok(initial >= 2 && initial <= most, `${sys}: ${initial}`);
  }
  for (const sys of ["arena", "swiss"]) assert.deepEqual(max_players_of(sys), { most: 256, initial: 100 });
});

test("the actions' part is made again only when the actions or the reader's game change", () => {
  const open = tn({ status: "upcoming", entry: "code", me: null });
  const k = actions_key(actions_of(open, "ann"), open);
  assert.equal(actions_key(actions_of({ ...open, standings: [] }, "ann"), { ...open, standings: [] }), k, "a refresh with the same actions");
  const joined = { ...open, me: { player: 0, paused: false, withdrawn: false, game: null } };
  assert.notEqual(actions_key(actions_of(joined, "ann"), joined), k);
  const playing = { ...joined, status: "running", me: { ...joined.me, game: "g1" } };
  const playing2 = { ...playing, me: { ...playing.me, game: "g2" } };
  assert.notEqual(actions_key(actions_of(playing, "ann"), playing), actions_key(actions_of(playing2, "ann"), playing2));
});

test("the countdown: to the start, to a running arena's end, none after", () => {
  assert.deepEqual(countdown_of(tn({ starts_ms: 65000 }), 5000), { key: "tn_countdown_start", ms: 60000 });
  assert.deepEqual(countdown_of(tn({ status: "running", ends_ms: 10000 }), 12000), { key: "tn_countdown_end", ms: 0 });
  assert.equal(countdown_of(tn({ status: "running", system: "swiss" }), 0), null);
  assert.equal(countdown_of(tn({ status: "finished", ends_ms: 10000 }), 0), null);
  assert.deepEqual([countdown_text(59001), countdown_text(60000), countdown_text(3600000 + 61000), countdown_text(0)], ["1:00", "1:00", "1:01:01", "0:00"]);
});

test("the podium: the first three of a finished tournament only", () => {
  const standings = ["a", "b", "c", "d"].map((name, i) => ({ rank: i + 1, player: i, name, rating: 0, points: String(9 - i) }));
  assert.deepEqual(podium_of(tn({ status: "finished", standings })).map((s) => s.name), ["a", "b", "c"]);
  assert.deepEqual(podium_of(tn({ status: "finished", standings: standings.slice(0, 2) })).map((s) => s.name), ["a", "b"]);
  assert.deepEqual(podium_of(tn({ status: "running", standings })), []);
});

test("on from a finished game: the next one once it has started, none when it will not come", () => {
  const me = { player: 0, paused: false, withdrawn: false, game: null };
  assert.equal(next_game_of(tn({ status: "running", me: { ...me, game: "g1" } }), "g1"), null, "the end not taken in yet");
  assert.equal(next_game_of(tn({ status: "running", me }), "g1"), null, "waiting to be paired");
  assert.equal(next_game_of(tn({ status: "running", me: { ...me, game: "g2" } }), "g1"), "g2");
  assert.equal(next_game_of(tn({ status: "finished", me: { ...me, game: "g2" } }), "g1"), "over");
  assert.equal(next_game_of(tn({ status: "running", me: { ...me, paused: true } }), "g1"), "over");
  assert.equal(next_game_of(tn({ status: "running", me: null }), "g1"), "over");
});

test("an edit's request: the new tournament's fields less the system, players, code and rated", () => {
  const form = { name: "Cup", system: "arena", minutes: "2", increment: "1", starts_in: "10", duration: "30", rounds: "7", max_players: "0", code: "", rated: false, first_move: "20" };
  assert.deepEqual(edit_tournament_body(form, 0), {
    name: "Cup", initial_ms: 120000, increment_ms: 1000, starts_at: 600000, duration_minutes: 30, first_move_seconds: 20,
  });
});
