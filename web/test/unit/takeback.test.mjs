// Takeback proposals' controls (src/games/takeback_state.ts): from the state alone, and where
// they sit among the game's controls (game_state.ts controls_of).
import { test } from "node:test";
import assert from "node:assert/strict";
import { takeback_controls } from "../../node_modules/.toguz-unit/games/takeback_state.js";
import { controls_of } from "../../node_modules/.toguz-unit/games/game_state.js";

const game = (over = {}) => ({
  id: "g1", mode: "online", ply: 2, to_move: "white", legal: [1, 2], status: "playing", you: "white",
  players: { white: null, black: null }, draw_offer: null, rematch_offer: null, can_abort: false,
  takeback_offer: null, can_takeback: false, ...over,
});
const what = (cs) => cs.map((c) => (c.kind === "button" ? c.action : c.kind === "offer" ? `(${c.text})` : c.kind));

test("a player may propose when the server says so; the opponent answers", () => {
  assert.deepEqual(what(takeback_controls(game({ can_takeback: true }))), ["takeback"]);
  assert.equal(takeback_controls(game({ can_takeback: true }))[0].label, "propose_takeback");
  assert.deepEqual(what(takeback_controls(game())), []);
  assert.deepEqual(what(takeback_controls(game({ takeback_offer: "white" }))), ["(takeback_sent)"]);
  assert.deepEqual(what(takeback_controls(game({ takeback_offer: "black" }))),
    ["(takeback_offered)", "accept_takeback", "decline_takeback"]);
});

test("none for spectators, after the end, or outside online games", () => {
  assert.deepEqual(takeback_controls(game({ you: "spectator", takeback_offer: "black" })), []);
  assert.deepEqual(takeback_controls(game({ status: "over", can_takeback: true })), []);
  assert.deepEqual(takeback_controls(game({ mode: "engine", can_takeback: true })), []);
});

test("the game's controls carry the proposal", () => {
  const ui = { confirm_resign: false, declined_ply: -1, deadline_passed: false, analysing: false, reviewing: false };
  const cs = what(controls_of(game({ takeback_offer: "black" }), ui));
  assert.ok(cs.includes("accept_takeback") && cs.includes("decline_takeback"), cs.join());
});
