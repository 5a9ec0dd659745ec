// The game page's pure part (src/games/game_state.ts, compiled by `npm run test:unit`): deltas
// and gaps, the sowing animation's frames, what is on screen and when the reader may move.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  after_delta, animates, bottom_side, can_move, frame_ms, go_target, key_command, last_state, offer_declined,
  position_at, shown_position, sowing_frames, view_at,
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
