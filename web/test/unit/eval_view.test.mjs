// How the game page shows the engine's evaluation (src/games/eval_view_state.ts, compiled by
// `npm run test:unit`): the other view, the favoured side's win chance, the side to move's,
// the bar's share and the review graph's value in both views.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  bar_share, favoured_chance, mover_chance, other_view, view_graph_value, white_wdl,
} from "../../node_modules/.toguz-unit/games/eval_view_state.js";
import { bar_percent, graph_value } from "../../node_modules/.toguz-unit/board/logic.js";
import { review_graph } from "../../node_modules/.toguz-unit/games/game_state.js";

// Black to move, 1.53 stones ahead: 570 permille to win, 20 to draw, 410 to lose.
const BLACK_AHEAD = { cp: 153, white_cp: -153, proven: null, table: null, wdl: [570, 20, 410] };
const WHITE_AHEAD = { cp: 420, white_cp: 420, proven: null, table: null, wdl: [731, 10, 259] };
const PROVEN = { cp: 30990, white_cp: 30990, proven: { result: "win", margin: null, plies: 10 }, table: null, wdl: [1000, 0, 0] };
const OLD = { cp: 153, white_cp: -153, proven: null };

test("the toggle switches to the other view", () => {
  assert.equal(other_view("chance"), "margin");
  assert.equal(other_view("margin"), "chance");
});

test("the chances are turned to White's view when Black is to move", () => {
  assert.deepEqual(white_wdl(BLACK_AHEAD), [410, 20, 570]);
  assert.deepEqual(white_wdl(WHITE_AHEAD), [731, 10, 259]);
  assert.equal(white_wdl(OLD), null);
});

test("the favoured side and its chance in whole percent; none for a known result or the margin view", () => {
  assert.deepEqual(favoured_chance(WHITE_AHEAD, "chance"), { side: "white", pct: 73 });
  assert.deepEqual(favoured_chance(BLACK_AHEAD, "chance"), { side: "black", pct: 57 });
  assert.equal(favoured_chance(WHITE_AHEAD, "margin"), null);
  assert.equal(favoured_chance(PROVEN, "chance"), null);
  assert.equal(favoured_chance(OLD, "chance"), null, "a score without chances falls back to the margin");
});

test("a hint's chance is the side to move's", () => {
  assert.equal(mover_chance(BLACK_AHEAD, "chance"), 57);
  assert.equal(mover_chance(BLACK_AHEAD, "margin"), null);
  assert.equal(mover_chance(PROVEN, "chance"), null);
  assert.equal(mover_chance(OLD, "chance"), null);
});

test("the bar shows White's expected score in the chance view, the margin's share otherwise", () => {
  assert.equal(bar_share(WHITE_AHEAD, "chance"), 73.6);
  assert.equal(bar_share(BLACK_AHEAD, "chance"), 42);
  assert.equal(bar_share(BLACK_AHEAD, "margin"), bar_percent(-153));
  assert.equal(bar_share(OLD, "chance"), bar_percent(-153));
  assert.equal(bar_share(PROVEN, "chance"), bar_percent(30990));
});

test("the review graph follows the view; a known result keeps its outer band", () => {
  const even = { cp: 0, white_cp: 0, proven: null, table: null, wdl: [485, 30, 485] };
  assert.equal(view_graph_value(even, 0, "chance"), 0);
  assert.ok(Math.abs(view_graph_value(WHITE_AHEAD, 420, "chance") - 0.85 * (0.736 * 2 - 1)) < 1e-9);
  assert.equal(view_graph_value(WHITE_AHEAD, 420, "margin"), graph_value(WHITE_AHEAD, 420));
  assert.equal(view_graph_value(PROVEN, 30990, "chance"), graph_value(PROVEN, 30990));
  const moves = [{ ply: 1, hole: 6, side: "white", white_cp: 420, best: 6, best_pv: [6], loss_cp: 0, mark: null, white: WHITE_AHEAD }];
  const chance = review_graph(moves, 1, 100, 100, "chance");
  const margin = review_graph(moves, 1, 100, 100);
  assert.ok(Math.abs(chance.pts[1][1] - (50 - view_graph_value(WHITE_AHEAD, 420, "chance") * 50)) < 1e-9);
  assert.ok(Math.abs(margin.pts[1][1] - (50 - graph_value(WHITE_AHEAD, 420) * 50)) < 1e-9);
});
