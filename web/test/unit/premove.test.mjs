// Premoves (src/games/premove_state.ts): when one may be picked, what a click does to it, and
// what each new state does with it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { may_premove, premove_after_click, premove_on_state } from "../../node_modules/.toguz-unit/games/premove_state.js";

const board = { white: [9, 0, 9, 9, 9, 9, 9, 9, 9], black: [9, 9, 9, 9, 9, 9, 9, 9, 9], kazna: { white: 0, black: 0 }, tuz: { white: 0, black: 0 } };
const game = (over = {}) => ({ mode: "engine", status: "playing", you: "white", to_move: "black", legal: [], board, ...over });

test("a premove is picked in the opponent's turn of a live game only", () => {
  assert.equal(may_premove(game()), true);
  assert.equal(may_premove(game({ to_move: "white" })), false);
  assert.equal(may_premove(game({ you: "spectator" })), false);
  assert.equal(may_premove(game({ mode: "local", you: "both" })), false);
  assert.equal(may_premove(game({ mode: "analysis" })), false);
  assert.equal(may_premove(game({ status: "over" })), false);
  assert.equal(may_premove(game({ mode: "online" })), true);
});

test("a click picks an own non-empty hole; the same hole or anything else cancels", () => {
  assert.equal(premove_after_click(game(), null, "white", 5), 5);
  assert.equal(premove_after_click(game(), 5, "white", 5), null);
  assert.equal(premove_after_click(game(), 5, "white", 7), 7);
  assert.equal(premove_after_click(game(), null, "white", 2), null); // empty
  assert.equal(premove_after_click(game(), 5, "black", 3), null); // the opponent's row
  assert.equal(premove_after_click(game(), 5, null, null), null); // elsewhere
  assert.equal(premove_after_click(game({ to_move: "white" }), null, "white", 5), null);
});

test("the turn comes: played if legal, else dropped; kept while the opponent thinks", () => {
  assert.deepEqual(premove_on_state(game(), 5), { play: null, keep: 5 });
  assert.deepEqual(premove_on_state(game({ to_move: "white", legal: [1, 5] }), 5), { play: 5, keep: null });
  assert.deepEqual(premove_on_state(game({ to_move: "white", legal: [1, 3] }), 5), { play: null, keep: null });
  assert.deepEqual(premove_on_state(game({ status: "over" }), 5), { play: null, keep: null });
  assert.deepEqual(premove_on_state(game(), null), { play: null, keep: null });
});
