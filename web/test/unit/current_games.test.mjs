// The current games list's pure part (src/games/current_games_state.ts): the texts of a row and
// the plan that updates the table in place.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  plan_rows, player_text, row_cells, time_control_text,
} from "../../node_modules/.toguz-unit/games/current_games_state.js";

const game = (id, moves, rated = false) => ({
  id, white: "Aigerim", black: "Bolat", rated,
  white_rating: rated ? 1650 : null, black_rating: rated ? 1500 : null,
  initial_ms: 300000, increment_ms: 2000, speed: "blitz", variant: "standard", moves,
});

test("a row shows ratings only in a rated game, and the time control", () => {
  assert.equal(player_text("Aigerim", 1650), "Aigerim (1650)");
  assert.equal(player_text("Aigerim", null), "Aigerim");
  assert.equal(time_control_text(300000, 2000), "5+2");
  assert.equal(time_control_text(30000, 0), "0:30+0");
  assert.deepEqual(row_cells(game("a", 7, true)), ["Aigerim (1650)", "Bolat (1500)", "5+2", "7"]);
});

test("the plan touches only the rows that changed", () => {
  const shown = new Map([["a", row_cells(game("a", 4))], ["b", row_cells(game("b", 9))]]);
  const plan = plan_rows(shown, [game("c", 0, true), game("a", 5)]);
  assert.deepEqual(plan.remove, ["b"]);
  assert.deepEqual(plan.rows.map((r) => r.id), ["c", "a"]);
  assert.deepEqual(plan.rows[1].cells, ["Aigerim", "Bolat", "5+2", "5"]);
  const again = plan_rows(new Map([["a", row_cells(game("a", 5))]]), [game("a", 5)]);
  assert.equal(again.rows[0].cells, null);
  assert.deepEqual(again.remove, []);
});
