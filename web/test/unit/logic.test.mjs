// Unit tests of the pure front-end helpers (src/board/logic.ts, compiled by `npm run test:unit`).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  parse_position, format_position, sowing_path, score_text, cp_text, bar_percent,
  clock_text, graph_points, graph_value, route_parts, move_label, date_text, known_result,
} from "../../node_modules/.toguz-unit/board/logic.js";

test("parse_position reads the start and the position after 65(10)", () => {
  const s = parse_position("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1");
  assert.deepEqual(s.board.white, [9, 9, 9, 9, 9, 9, 9, 9, 9]);
  assert.equal(s.to_move, "white");
  const p = parse_position("9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1");
  assert.deepEqual(p.board.black, [10, 10, 10, 10, 0, 9, 9, 9, 9]);
  assert.equal(p.board.kazna.white, 10);
  assert.equal(p.to_move, "black");
});

test("an x on Black's row is White's tuz", () => {
  const p = parse_position("0,2,x,4,5,6,7,8,9/1,x,3,4,5,6,7,8,9 40 30 b 20");
  assert.equal(p.board.tuz.white, 2);
  assert.equal(p.board.tuz.black, 3);
  assert.equal(p.board.white[2], 0);
  assert.equal(p.move_number, 20);
  assert.equal(format_position(p.board, p.to_move, p.move_number), "0,2,x,4,5,6,7,8,9/1,x,3,4,5,6,7,8,9 40 30 b 20");
});

test("parse_position names the bad field", () => {
  assert.throws(() => parse_position("9,9/9,9 0 0 w"), /rows/);
  assert.throws(() => parse_position("9,9,9,9,9/9,9,9,9,9 0 0 q"), /side/);
  assert.throws(() => parse_position("9,9,a,9,9/9,9,9,9,9 0 0 w"), /white hole 3/);
  assert.throws(() => parse_position("9,9,9,9,9/9,9,9,9,9 -1 0 w"), /white kazna/);
});

test("sowing_path starts in the emptied hole for k >= 2 and wraps rows", () => {
  assert.deepEqual(sowing_path(9, { side: "white", hole: 6 }, 10).map((c) => `${c.side[0]}${c.hole}`),
    ["w6", "w7", "w8", "w9", "b1", "b2", "b3", "b4", "b5", "b6"]);
  // 65(10) from the start: 9 stones from White's hole 6, the last one in Black's hole 5
  const first = sowing_path(9, { side: "white", hole: 6 }, 9);
  assert.deepEqual(first[8], { side: "black", hole: 5 });
  assert.deepEqual(sowing_path(5, { side: "black", hole: 5 }, 1), [{ side: "white", hole: 1 }]);
  const lap = sowing_path(5, { side: "white", hole: 1 }, 11);
  assert.equal(lap.length, 11);
  assert.deepEqual(lap[10], { side: "white", hole: 1 }); // the origin gets another stone on lap 2
});

test("scores and clocks as text", () => {
  assert.equal(cp_text(762), "+7.62");
  assert.equal(cp_text(-5), "−0.05");
  assert.equal(cp_text(0), "0.00");
  assert.equal(score_text({ cp: 0, proven: { result: "win", margin: 12, plies: 7 } }), "win in 7 (+12)");
  assert.equal(score_text({ cp: 0, proven: { result: "draw", margin: null, plies: 2 } }), "draw");
  assert.equal(clock_text(300000), "5:00");
  assert.equal(clock_text(65500), "1:05");
  assert.equal(clock_text(9540), "9.5");
  assert.equal(clock_text(-3), "0.0");
  assert.equal(clock_text(3723000), "1:02:03");
});

test("bar and graph stay inside their boxes", () => {
  assert.equal(bar_percent(0), 50);
  assert.ok(bar_percent(1e6) <= 100 && bar_percent(1e6) > 99);
  assert.ok(bar_percent(-1e6) >= 0 && bar_percent(-1e6) < 1);
  const pts = graph_points([0, 1, -1, 0.5, 7], 400, 100);
  assert.deepEqual(pts[0], [0, 50]);
  assert.ok(Math.abs(pts[1][0] - 100) < 1e-9 && pts[1][1] === 0); // won for White: the top
  assert.ok(pts[2][1] === 100); // won for Black: the bottom
  assert.equal(pts[3][1], 25);
  assert.equal(pts[4][0], 400); // the last ply at the right edge
  assert.equal(pts[4][1], 0); // clamped to the box
  assert.deepEqual(graph_points([0.2], 400, 100)[0][0], 0);
});

test("the graph keeps moving after one side is lost", () => {
  const won = (margin) => ({ cp: 10000, proven: { result: "win", margin, plies: 9 }, white_cp: 10000 });
  const lost = (margin) => ({ cp: -10000, proven: { result: "loss", margin, plies: 9 }, white_cp: -10000 });
  // unproven scores stay inside the inner band, however large
  assert.ok(Math.abs(graph_value({ cp: 90000, proven: null }, 9000)) <= 0.85);
  assert.ok(graph_value(null, 300) > 0 && graph_value(null, -300) < 0);
  // a large lead still moves the line: +30 and +60 stones lie well apart
  assert.ok(graph_value(null, 6000) - graph_value(null, 3000) > 0.1);
  assert.ok(graph_value(null, -6000) - graph_value(null, -3000) < -0.1);
  assert.equal(graph_value(null, 0), 0);
  // a proven win lies beyond every unproven score, and a larger margin lies further out
  assert.ok(graph_value(won(2), 10000) > graph_value(null, 1e6));
  assert.ok(graph_value(won(40), 10000) > graph_value(won(2), 10000) + 0.05);
  assert.ok(graph_value(lost(40), -10000) < graph_value(lost(2), -10000) - 0.05);
  assert.ok(graph_value(won(80), 10000) <= 1);
  assert.equal(graph_value({ cp: 0, proven: { result: "draw", margin: 0, plies: 3 } }, 0), 0);
});

test("move numbers of plies, from any start", () => {
  assert.equal(move_label(1, 1, "white"), "1.");
  assert.equal(move_label(2, 1, "white"), "1…");
  assert.equal(move_label(12, 1, "white"), "6…");
  assert.equal(move_label(13, 1, "white"), "7.");
  // an imported position: Black to move at move 20
  assert.equal(move_label(1, 20, "black"), "20…");
  assert.equal(move_label(2, 20, "black"), "21.");
});

test("dates for the games list in every language", () => {
  // a time without zone is read as local time, so the expected text does not depend on the zone
  assert.equal(date_text("2026-11-30T21:05:26", "en"), "30 Nov 2026, 21:05");
  assert.equal(date_text("2026-11-30T21:05:26", "ru"), "30.11.2026 21:05");
  assert.equal(date_text("2026-03-04T07:08:00", "kk"), "04.03.2026 07:08");
  assert.equal(date_text("2026-03-04T07:08:00", "ky"), "04.03.2026 07:08");
  assert.equal(date_text("not a date", "ky"), "not a date");
});

test("route_parts reads hash routes", () => {
  assert.deepEqual(route_parts("#/game/abc/tok%2F1"), ["game", "abc", "tok/1"]);
  assert.deepEqual(route_parts(""), []);
  assert.deepEqual(route_parts("#/"), []);
});

test("known_result reads a proven or table result from White's view", () => {
  // Black to move and winning by 6 (the side to move's view: cp > 0, white_cp < 0)
  const table = { cp: 20006, white_cp: -20006, proven: null, table: { result: "win", margin: 6, plies: 0 } };
  assert.deepEqual(known_result(table), { winner: "black", margin: 6 });
  // White to move and lost, margin unknown
  const lost = { cp: -30990, white_cp: -30990, proven: { result: "loss", margin: null, plies: 10 }, table: null };
  assert.deepEqual(known_result(lost), { winner: "black", margin: null });
  assert.deepEqual(known_result({ cp: 0, white_cp: 0, proven: { result: "draw", margin: 0, plies: 2 } }), { winner: "draw", margin: 0 });
  assert.equal(known_result({ cp: 125, white_cp: -125, proven: null, table: null }), null);
  assert.equal(known_result(null), null);
  // the review graph counts a table result as proven: beyond every estimate
  const white_table = { cp: 20004, white_cp: 20004, proven: null, table: { result: "win", margin: 4, plies: 0 } };
  assert.ok(graph_value(white_table, 20004) > 0.88);
});
