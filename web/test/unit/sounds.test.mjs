// Which sound a game's change calls for (src/games/sounds.ts): a move, a capture, a tuz, the end,
// and the low-time warning once as the clock passes the mark.
import { test } from "node:test";
import assert from "node:assert/strict";
import { LOW_TIME_MS, low_time_crossed, sound_of_state } from "../../node_modules/.toguz-unit/games/sounds.js";

const move = (captured, tuz) => ({ hole: 7, side: "white", notation: "76", captured, tuz, from: {}, to: {}, position: "" });
const state = (ply, moves, status = "playing", id = "g1") => ({ id, ply, moves, status });

test("a move, a capture and a tuz each sound; a first state, a sync and another game do not", () => {
  const start = state(0, []);
  assert.equal(sound_of_state(start, state(1, [move(0, false)])), "move");
  assert.equal(sound_of_state(start, state(1, [move(10, false)])), "capture");
  assert.equal(sound_of_state(start, state(1, [move(3, true)])), "tuz");
  assert.equal(sound_of_state(null, state(1, [move(0, false)])), null); // the page's first state
  assert.equal(sound_of_state(start, state(0, [])), null); // an offer, a sync: no new move
  assert.equal(sound_of_state(start, state(3, [move(0, false), move(0, false), move(0, false)])), null); // caught up
  assert.equal(sound_of_state(start, state(1, [move(0, false)], "playing", "g2")), null);
});

test("the end of the game sounds once", () => {
  const before = state(40, [move(0, false)]);
  const over = state(41, [move(12, false)], "over");
  assert.equal(sound_of_state(before, over), "end");
  assert.equal(sound_of_state(over, { ...over }), null);
  assert.equal(sound_of_state(before, state(40, [move(0, false)], "over")), "end"); // a resignation
});

test("the low-time warning: once, as the clock passes the mark", () => {
  assert.equal(LOW_TIME_MS, 10_000);
  assert.equal(low_time_crossed(10_100, 9_950), true);
  assert.equal(low_time_crossed(9_950, 9_850), false); // already under
  assert.equal(low_time_crossed(null, 5_000), false); // first seen under: no alarm on opening a page
  assert.equal(low_time_crossed(30_000, 29_000), false);
});
