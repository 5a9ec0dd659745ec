// The games feature's pure part (src/games/game_state.ts, compiled by `npm run test:unit`):
// deltas and gaps, the sowing animation's frames, what is on screen and when the reader may
// move, the controls, status line and move list, the clocks, the review graph, the editor's
// boards.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  after_delta, animates, away_ms, bottom_side, can_move, clock_ms, controls_of, deadline_passed, first_move_left, frame_ms,
  go_target, key_command, last_state, mark_class, may_rematch, move_cells, offer_declined, opponent, plays_side, position_at,
  result_mark, result_title_of, review_graph, running_clock, share_links, shown_position, shown_text, sowing_frames, sowing_of,
  start_board, status_kind, stone_total, variant_of_size, view_at, with_stones,
} from "../../node_modules/.toguz-unit/games/game_state.js";
import { parse_position, sowing_path } from "../../node_modules/.toguz-unit/board/logic.js";

const START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1";
const AFTER_65 = "9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1";
const mv65 = { side: "white", hole: 6, from: { side: "white", hole: 6 }, to: { side: "black", hole: 5 }, notation: "65(10)", position: AFTER_65 };

/** A game at ply 1 after 65(10): Black to move, the reader Black. */
function game(over = {}) {
  const p = parse_position(AFTER_65);
  return {
    id: "g1", mode: "online", variant: "standard", tuz: true, play_out: false, n: 9, start_position: START, position: AFTER_65,
    board: p.board, moves: [mv65], ply: 1, to_move: "black", legal: [1, 2, 3, 4, 6, 7, 8, 9], status: "playing", result: null,
    players: { white: null, black: null }, clock: null, draw_offer: null, rematch_offer: null, you: "black", thinking: false,
    ...over,
  };
}

test("a delta that follows makes the next state; a gap asks for the whole state", () => {
  const g = game();
  const next = after_delta(g, { type: "delta", move: { ...mv65, side: "black" }, game: { ply: 2, legal: [], to_move: "white" } });
  assert.notEqual(next, "sync");
  assert.equal(next.ply, 2);
  assert.equal(next.moves.length, 2);
  assert.equal(after_delta(g, { type: "delta", move: mv65, game: { ply: 3 } }), "sync"); // one missed
  assert.equal(after_delta(null, { type: "delta", move: null, game: { ply: 0 } }), "sync"); // none before it
  // the next delta applies over the last state queued, not the one on screen
  const queued = game({ ply: 2 });
  assert.equal(last_state([game(), queued], game()), queued);
  assert.equal(last_state([], g), g);
});

test("one move more animates, unless the reader looks back, states pile up or motion is reduced", () => {
  const old = game({ ply: 0, moves: [], board: parse_position(START).board, position: START });
  const g = game();
  assert.equal(animates(old, g, null, 0, false), true);
  assert.equal(animates(null, g, null, 0, false), false);
  assert.equal(animates(old, g, 0, 0, false), false);
  assert.equal(animates(old, g, null, 2, false), false);
  assert.equal(animates(old, g, null, 0, true), false);
  assert.equal(animates(old, game({ ply: 2 }), null, 0, false), false);
});

test("the sowing frames drop one stone a hole, a tuz's into its owner's kazna", () => {
  const start = parse_position(START).board;
  const path = sowing_path(9, mv65.from, 9);
  const frames = sowing_frames(start, mv65, path);
  assert.equal(frames.length, 9);
  assert.deepEqual(frames[0].trail, { side: "white", hole: 6 });
  assert.deepEqual(frames[0].board.white, [9, 9, 9, 9, 9, 1, 9, 9, 9]); // emptied, then the first stone
  const last = frames[8].board;
  assert.deepEqual(last.white, [9, 9, 9, 9, 9, 1, 10, 10, 10]);
  assert.deepEqual(last.black, [10, 10, 10, 10, 10, 9, 9, 9, 9]); // the capture comes with the state
  assert.deepEqual(start.white, [9, 9, 9, 9, 9, 9, 9, 9, 9], "the start board is left as it was");
  // Black's tuz on White's hole 8: that stone goes to Black's kazna
  const tuz = parse_position("9,9,9,9,9,9,9,x,9/9,9,9,9,9,9,9,9,9 0 0 w 1").board;
  const end = sowing_frames(tuz, mv65, path)[8].board;
  assert.equal(end.white[7], 0);
  assert.equal(end.kazna.black, 1);
  assert.equal(frame_ms(9), 560 / 9);
  assert.equal(frame_ms(1), 70);
  assert.equal(frame_ms(100), 18);
});

test("what is on screen: an earlier ply, the animation's board, or the live position", () => {
  const g = game();
  assert.equal(position_at(g, 0), START);
  assert.equal(position_at(g, 1), AFTER_65);
  const back = shown_position(g, 0, null);
  assert.deepEqual([back.ply, back.to_move, back.board.white[5]], [0, "white", 9]);
  const anim = parse_position(START).board;
  assert.equal(shown_position(g, null, anim).board, anim);
  assert.equal(shown_position(g, null, null).board, g.board);
  assert.equal(view_at(g, -3), 0);
  assert.equal(view_at(g, 1), null); // the live ply
  assert.equal(view_at(g, 7), null);
  assert.equal(view_at(g, null), null);
  assert.equal(bottom_side("black", false), "black");
  assert.equal(bottom_side("spectator", false), "white");
  assert.equal(bottom_side("white", true), "black");
});

test("the reader may move on the live position, in a game going on, once per ply", () => {
  const g = game();
  assert.equal(can_move(g, null, false, -1), true);
  assert.equal(can_move(null, null, false, -1), false);
  assert.equal(can_move(g, 0, false, -1), false); // looking back
  assert.equal(can_move(g, null, true, -1), false); // animating
  assert.equal(can_move(g, null, false, 1), false); // his move for ply 1 is on its way
  assert.equal(can_move(game({ status: "over" }), null, false, -1), false);
  assert.equal(can_move(game({ status: "aborted" }), null, false, -1), false);
  assert.equal(can_move(game({ legal: [] }), null, false, -1), false);
});

test("a draw offer of ours gone while the game goes on was declined", () => {
  const mine = game({ draw_offer: "black" });
  assert.equal(offer_declined(mine, game()), true);
  assert.equal(offer_declined(mine, game({ status: "over" })), false); // accepted: the game ended
  assert.equal(offer_declined(game({ draw_offer: "white" }), game()), false); // not ours
  assert.equal(offer_declined(mine, game({ id: "g2" })), false); // another game (a rematch)
  assert.equal(offer_declined(null, game()), false);
});

test("keys: 1-9 play a hole, the arrows and Home/End go through the moves", () => {
  assert.deepEqual(key_command("7"), { play: 7 });
  assert.equal(key_command("0"), null);
  assert.deepEqual(key_command("ArrowLeft"), { go: "prev" });
  assert.deepEqual(key_command("ArrowUp"), { go: "first" });
  assert.deepEqual(key_command("End"), { go: "last" });
  assert.equal(key_command("Enter"), null);
  assert.deepEqual([go_target("first", 5), go_target("prev", 5), go_target("next", 5), go_target("last", 5)], [0, 4, 6, null]);
});

test("the sowing of a state one move on: its move and path, none from an empty hole", () => {
  const old = game({ ply: 0, moves: [], board: parse_position(START).board, position: START });
  const s = sowing_of(old, game());
  assert.equal(s.mv, mv65);
  assert.deepEqual(s.path, sowing_path(9, mv65.from, 9));
  const empty = game({ board: parse_position("9,9,9,9,9,0,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1").board });
  assert.equal(sowing_of(empty, game()), null);
  assert.equal(shown_text(game(), null), AFTER_65);
  assert.equal(shown_text(game(), 0), START);
});

const PEOPLE = {
  white: { name: "Asel", engine: false, level: null, connected: true },
  black: { name: "Bek", engine: false, level: null, connected: true },
};
const UI = { confirm_resign: false, declined_ply: -1, deadline_passed: false, analysing: false, reviewing: false };
const actions = (cs) => cs.map((c) => (c.kind === "button" ? c.action : c.kind === "offer" ? `(${c.text})` : "[confirm]"));

test("the reader's side, his opponent and who may ask for a rematch", () => {
  assert.equal(plays_side("white"), true);
  assert.equal(plays_side("both"), false);
  assert.equal(plays_side("spectator"), false);
  assert.equal(opponent(game({ players: PEOPLE })).name, "Asel"); // the reader is Black
  assert.equal(opponent(game({ players: PEOPLE, you: "spectator" })), null);
  assert.equal(opponent(game({ you: "white" })), null); // the seat is empty
  assert.equal(may_rematch(game()), true);
  assert.equal(may_rematch(game({ you: "spectator" })), false);
  assert.equal(may_rematch(game({ mode: "local", you: "both" })), true);
  assert.equal(may_rematch(game({ mode: "engine", you: "spectator" })), false);
  assert.equal(may_rematch(game({ mode: "analysis", you: "both" })), false);
});

test("an online game's controls: resign, draw offers, abort, the claim when the opponent is gone", () => {
  const g = game({ players: PEOPLE });
  assert.deepEqual(actions(controls_of(g, UI)), ["resign", "offer_draw", "abort", "flip"]); // ply 1: abort allowed
  assert.deepEqual(actions(controls_of(game({ players: PEOPLE, ply: 2, can_abort: false }), UI)), ["resign", "offer_draw", "flip"]);
  assert.deepEqual(actions(controls_of(g, { ...UI, confirm_resign: true })), ["[confirm]", "offer_draw", "abort", "flip"]);
  assert.deepEqual(actions(controls_of(game({ players: PEOPLE, draw_offer: "white", can_abort: false }), UI)),
    ["resign", "(draw_offered)", "accept_draw", "decline_draw", "flip"]);
  assert.deepEqual(actions(controls_of(game({ players: PEOPLE, draw_offer: "black", can_abort: false }), UI)), ["resign", "(draw_sent)", "flip"]);
  const declined = controls_of(game({ players: PEOPLE, can_abort: false, can_offer_draw: false }), { ...UI, declined_ply: 1 });
  assert.deepEqual(actions(declined), ["resign", "(draw_declined)", "flip"]);
  assert.equal(declined[1].id, "draw-declined");
  const gone = { ...PEOPLE, white: { ...PEOPLE.white, connected: false, away_ms: 5000 } };
  const cs = controls_of(game({ players: gone, can_abort: false }), UI);
  assert.deepEqual(actions(cs), ["resign", "offer_draw", "(opponent_gone)", "claim_win", "flip"]);
  assert.equal(cs[2].away, true);
  assert.equal(cs[3].cls, "primary");
  assert.deepEqual(actions(controls_of(game({ players: gone, can_abort: false, can_claim: false }), UI)), ["resign", "offer_draw", "(opponent_gone)", "flip"]);
  // a spectator has none of it, and no analysis in an online game
  assert.deepEqual(actions(controls_of(game({ players: PEOPLE, you: "spectator" }), UI)), ["flip"]);
});

test("a correspondence game's claim on time comes once the deadline has passed", () => {
  const corr = { days_per_move: 3, deadline_ms: 1000 };
  const g = game({ players: PEOPLE, correspondence: corr, can_abort: false, to_move: "white" });
  assert.deepEqual(actions(controls_of(g, UI)), ["resign", "offer_draw", "flip"]);
  const cs = controls_of(g, { ...UI, deadline_passed: true });
  assert.deepEqual(actions(cs), ["resign", "offer_draw", "claim_win", "flip"]);
  assert.deepEqual([cs[2].label, cs[2].id], ["claim_on_time", "claim-on-time"]);
  // not when it is the reader's own move that is late
  assert.deepEqual(actions(controls_of({ ...g, to_move: "black" }, { ...UI, deadline_passed: true })), ["resign", "offer_draw", "flip"]);
  assert.equal(deadline_passed(g, 999), false);
  assert.equal(deadline_passed(g, 1000), true);
  assert.equal(deadline_passed({ ...g, status: "over" }, 5000), false);
  assert.equal(deadline_passed(null, 5000), false);
});

test("the engine and analysis modes' controls, and those after the end", () => {
  const eng = game({ mode: "engine", players: { white: { name: "", engine: true, level: 5, connected: true }, black: PEOPLE.black } });
  assert.deepEqual(actions(controls_of(eng, UI)), ["takeback", "hint", "resign", "offer_draw", "analyse", "flip"]);
  const on = controls_of(eng, { ...UI, analysing: true });
  assert.deepEqual(actions(on), ["takeback", "hint", "resign", "offer_draw", "analyse", "explorer", "flip"]);
  assert.deepEqual([on[4].label, on[4].cls], ["stop", "active"]);
  assert.equal(on[5].title, "explorer_from_game");
  const ana = game({ mode: "analysis", you: "both", ply: 0, moves: [] });
  assert.deepEqual(actions(controls_of(ana, UI)), ["hint", "analyse", "review", "explorer", "flip"]);
  assert.deepEqual(actions(controls_of(ana, { ...UI, reviewing: true })), ["hint", "analyse", "explorer", "flip"]);
  const over = game({ players: PEOPLE, status: "over", rematch_offer: "white" });
  assert.deepEqual(actions(controls_of(over, UI)), ["(rematch_offered)", "rematch", "review", "flip"]);
  const mine = controls_of({ ...over, rematch_offer: "black" }, UI);
  assert.deepEqual(actions(mine), ["rematch", "review", "flip"]);
  assert.equal(mine[0].disabled, true);
  assert.deepEqual(actions(controls_of({ ...over, you: "spectator" }, UI)), ["review", "flip"]);
});

test("the status line and the result's title", () => {
  assert.equal(status_kind(game({ status: "waiting" })), "waiting");
  assert.equal(status_kind(game({ status: "aborted" })), "over");
  assert.equal(status_kind(game({ you: "spectator" })), "spectator");
  assert.equal(status_kind(game({ first_move_ms: 20000 })), "first_move");
  assert.equal(status_kind(game()), "your_move");
  assert.equal(status_kind(game({ you: "both" })), "side_to_move");
  assert.equal(status_kind(game({ you: "white", thinking: true })), "thinking");
  assert.equal(status_kind(game({ you: "white" })), "side_to_move");
  assert.equal(status_kind(game({ legal: [], thinking: false })), "side_to_move");
  assert.deepEqual(result_title_of(game({ status: "aborted" })), { key: "aborted" });
  assert.deepEqual(result_title_of(game({ status: "over", result: { winner: "white", reason: "aborted", score: "" } })), { key: "aborted" });
  assert.deepEqual(result_title_of(game({ status: "over" })), { key: "game_over" });
  assert.deepEqual(result_title_of(game({ status: "over", result: { winner: "draw", reason: "score", score: "81-81" } })), { key: "drawn" });
  assert.deepEqual(result_title_of(game({ status: "over", result: { winner: "black", reason: "score", score: "82-80" } })), { wins: "black" });
  assert.deepEqual([result_mark("white"), result_mark("black"), result_mark("draw")], ["1-0", "0-1", "½-½"]);
});

test("the move list: numbered pairs, a gap when Black starts, review marks and the result", () => {
  const b1 = { ...mv65, side: "black", notation: "32" };
  const g = game({ moves: [mv65, b1, { ...mv65, notation: "71" }], ply: 3 });
  const review = [{ ply: 2, mark: "??" }, { ply: 3, mark: null }];
  assert.deepEqual(move_cells(g, 2, review), [
    { kind: "num", n: 1 },
    { kind: "move", ply: 1, notation: "65(10)", mark: null, current: false },
    { kind: "move", ply: 2, notation: "32", mark: "??", current: true },
    { kind: "num", n: 2 },
    { kind: "move", ply: 3, notation: "71", mark: null, current: false },
  ]);
  const black_first = game({ start_position: "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 4", moves: [b1], status: "over",
    result: { winner: "white", reason: "score", score: "82-80" } });
  assert.deepEqual(move_cells(black_first, 1, []), [
    { kind: "num", n: 4 }, { kind: "gap" }, { kind: "move", ply: 1, notation: "32", mark: null, current: true }, { kind: "result", text: "1-0" },
  ]);
  assert.deepEqual(move_cells(game({ moves: [], start_position: "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 b 4" }), 0, []), []);
  assert.deepEqual([mark_class("??"), mark_class("?"), mark_class("?!")], ["blunder", "mistake", "dubious"]);
});

test("the clocks count down from the state, the away time counts up", () => {
  const clock = { white_ms: 60000, black_ms: 30000, increment_ms: 0, running: "black" };
  assert.equal(clock_ms(clock, "white"), 60000);
  assert.deepEqual(running_clock(game({ clock }), 1500), { side: "black", ms: 28500 });
  assert.equal(running_clock(game({ clock: { ...clock, running: null } }), 1500), null);
  assert.equal(running_clock(game({ clock, status: "over" }), 1500), null);
  assert.equal(running_clock(null, 0), null);
  const away = { ...PEOPLE, white: { ...PEOPLE.white, connected: false, away_ms: 4000 } };
  assert.equal(away_ms(game({ players: away }), 2500), 6500);
  assert.equal(away_ms(game({ players: PEOPLE }), 2500), 0);
  assert.equal(away_ms(game({ players: away, you: "spectator" }), 2500), 0);
  assert.equal(first_move_left(game({ first_move_ms: 10000 }), 2500), 7500);
  assert.equal(first_move_left(game({ first_move_ms: 1000 }), 2500), 0);
  assert.equal(first_move_left(game(), 2500), 0);
});

test("the links to share: the invite while waiting (when kept here), the spectators' link online", () => {
  const base = "https://t.example/";
  assert.deepEqual(share_links(game({ status: "waiting" }), "inv", base), { invite: "https://t.example/#/join/g1/inv", spectator: "https://t.example/#/game/g1" });
  assert.deepEqual(share_links(game({ status: "waiting" }), undefined, base), { invite: null, spectator: "https://t.example/#/game/g1" });
  assert.deepEqual(share_links(game(), "inv", base), { invite: null, spectator: "https://t.example/#/game/g1" });
  assert.deepEqual(share_links(game({ mode: "engine" }), "inv", base), { invite: null, spectator: null });
});

test("the review graph: a point a ply from 0, the area under the line, the cursor", () => {
  const moves = [{ ply: 1, white_cp: 0 }, { ply: 2, white_cp: 100000 }];
  const r = review_graph(moves, 1, 600, 160);
  assert.equal(r.count, 3);
  assert.equal(r.step, 300);
  assert.equal(r.cursor, 300);
  assert.deepEqual(r.pts.map(([x]) => x), [0, 300, 600]);
  assert.equal(r.pts[0][1], 80); // level at the start
  assert.ok(r.pts[2][1] < 80, "White far ahead is above the middle");
  assert.equal(r.line.split(" ").length, 3);
  assert.ok(r.area.startsWith(`0,160 ${r.line} 600.0,160`));
  assert.equal(review_graph(moves, 9, 600, 160).cursor, 600); // clamped to the last ply
  const none = review_graph([], 0, 600, 160);
  assert.deepEqual([none.count, none.step, none.cursor], [1, 600, 0]);
});

test("the editor's boards: the start, an empty one, a stone more or less, the count", () => {
  const b = start_board(9);
  assert.deepEqual(b.white, [9, 9, 9, 9, 9, 9, 9, 9, 9]);
  assert.equal(stone_total(b), 162);
  assert.equal(stone_total(start_board(7, 0)), 0);
  const more = with_stones(b, "black", 3, 2);
  assert.equal(more.black[2], 11);
  assert.equal(b.black[2], 9, "the board given is left as it was");
  assert.equal(with_stones(b, "white", 1, -20).white[0], 0);
  // a tuz's hole holds no stones of its own: its owner's kazna counts them
  const tuz = { ...b, tuz: { white: 4, black: 0 }, kazna: { white: 5, black: 1 } };
  assert.equal(stone_total(tuz), 162 - 9 + 6);
  assert.deepEqual([variant_of_size(9), variant_of_size(7), variant_of_size(5)], ["standard", "kozdatu", "bestemshi"]);
});
