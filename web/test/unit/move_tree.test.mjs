// The analysis board's move tree (src/games/move_tree.ts) and the rules of a move it plays
// variations with (src/board/play.ts), the latter against the server's own vectors.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { board_end, play_hole } from "../../node_modules/.toguz-unit/board/play.js";
import {
  add_move, delete_variation, end_at, go_back, go_end, go_forward, go_up, has_variations, in_variation, legal_at,
  make_main, moves_to, path_of_holes, pgn_with_tree, position_at_path, promote, tree_from_movetext, tree_movetext, tree_of, with_line,
} from "../../node_modules/.toguz-unit/games/move_tree.js";

const data = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../tests/data");
const START = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1";
const RULES = { tuz: true, play_out: false };

/** The tree after playing `holes` one after another from `path` (each must be legal). */
function mt_play(tree, path, holes) {
  let r = { tree, path };
  for (const h of holes) {
    r = add_move(r.tree, r.path, h);
    assert.ok(r, `hole ${h} legal`);
  }
  return r;
}
const mt_notes = (tree, p) => moves_to(tree, p).map((m) => m.notation).join(" ");
/** The position after `holes` from the start, played without the tree. */
const mt_pos = (holes) => holes.reduce((pos, h) => play_hole(pos, h, RULES).position, START);

test("the master game ply by ply: notation and position as the server writes them", () => {
  const g = JSON.parse(readFileSync(path.join(data, "master-game.json"), "utf8"));
  let pos = g.positions_after_each_ply[0];
  g.moves.forEach((note, i) => {
    const m = play_hole(pos, Number(note[0]), RULES);
    assert.equal(m.notation, note, `ply ${i + 1}`);
    assert.equal(m.position, g.positions_after_each_ply[i + 1], `ply ${i + 1}`);
    pos = m.position;
  });
  assert.equal(play_hole(START, 0, RULES), null);
  assert.equal(play_hole("0,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,18 0 0 w 1", 1, RULES), null, "an empty hole");
});

test("perft from the start to depth 4 (9, 73, 613, 5199) with the ends", () => {
  const perft = (pos, earlier, d) => {
    if (d === 0) return 1;
    if (earlier.length && board_end(pos, earlier, RULES)) return 1;
    let n = 0;
    for (let h = 1; h <= 9; h++) {
      const m = play_hole(pos, h, RULES);
      if (m) n += perft(m.position, [...earlier, pos], d - 1);
    }
    return n;
  };
  assert.deepEqual([1, 2, 3, 4].map((d) => perft(START, [], d)), [9, 73, 613, 5199]);
});

test("the random games end as the server's referee ends them, standard and played out", () => {
  const lines = readFileSync(path.join(data, "random-games.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  for (const [i, g] of lines.entries()) {
    for (const [game, rules] of [[g, RULES], [g.play_out, { tuz: true, play_out: true }]]) {
      const seen = [START];
      for (const h of game.moves.split(" ").map(Number)) seen.push(play_hole(seen[seen.length - 1], h, rules).position);
      const last = seen.pop();
      assert.equal(last, game.position, `game ${i + 1}`);
      const end = board_end(last, seen, rules);
      assert.ok(end, `game ${i + 1} ended`);
      assert.equal(end.reason, game.end, `game ${i + 1}`);
      assert.deepEqual([end.score.white, end.score.black], game.score, `game ${i + 1}`);
      assert.equal(board_end(seen[seen.length - 1], seen.slice(0, -1), rules), null, `game ${i + 1} went on before`);
    }
  }
  // on the tree: no move after the end
  const r = mt_play(tree_of(START, RULES), [], lines[0].moves.split(" ").map(Number));
  assert.deepEqual(legal_at(r.tree, r.path), []);
  assert.equal(add_move(r.tree, r.path, 1), null);
});

test("the end cases: decided before no move, a repetition drawn whatever the kaznas", () => {
  const lines = readFileSync(path.join(data, "end-cases.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l));
  for (const c of lines) {
    const r = mt_play(tree_of(START, RULES), [], c.moves.split(" ").map(Number));
    assert.equal(position_at_path(r.tree, r.path), c.position, c.case);
    const end = end_at(r.tree, r.path);
    assert.equal(end.reason, c.end, c.case);
    assert.deepEqual([end.score.white, end.score.black], c.score, c.case);
    assert.equal(end.winner, { "1-0": "white", "0-1": "black", "1/2-1/2": "draw" }[c.result], c.case);
  }
});

test("a move differing from the line's next starts a variation; the same move follows the line", () => {
  const main = mt_play(tree_of(START, RULES), [], [6, 8, 5]);
  assert.deepEqual(main.path, [0, 0, 0]);
  assert.equal(mt_notes(main.tree, main.path), "65(10) 87 55");
  // back to the start: 6 again follows the main line, 7 starts a variation
  const same = add_move(main.tree, [], 6);
  assert.equal(same.tree, main.tree, "nothing added");
  assert.deepEqual(same.path, [0]);
  const side = add_move(main.tree, [], 7);
  assert.deepEqual(side.path, [1]);
  assert.equal(position_at_path(side.tree, side.path), "9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9 10 0 b 1");
  assert.ok(has_variations(side.tree) && !has_variations(main.tree));
  assert.ok(in_variation(side.path) && !in_variation(main.path));
  // entering the existing variation again
  assert.deepEqual(add_move(side.tree, [], 7).path, [1]);
  assert.equal(mt_notes(main.tree, [0, 0, 0]), "65(10) 87 55", "the first tree unchanged");
  assert.equal(add_move(main.tree, [0, 5], 1), null, "a path not in the tree");
});

test("navigation: back, forward, start, end, up into the parent line, any move", () => {
  let r = mt_play(tree_of(START, RULES), [], [6, 8, 5, 9]);
  r = mt_play(r.tree, [0], [1, 2]); // a variation at Black's first move
  const t = mt_play(r.tree, [0, 1], [3, 4]).tree; // nested: an alternative to White's 2nd move
  assert.equal(mt_notes(t, [0, 1, 1, 0]), "65(10) 11(10) 32(22) 45");
  assert.deepEqual(go_back([0, 1, 1, 0]), [0, 1, 1]);
  assert.deepEqual(go_back([]), []);
  assert.deepEqual(go_forward(t, [0, 1]), [0, 1, 0]);
  assert.deepEqual(go_forward(t, [0, 0, 0, 0]), [0, 0, 0, 0], "at the end it stays");
  assert.deepEqual(go_end(t, [0, 1]), [0, 1, 0], "the end of the variation's own line");
  assert.deepEqual(go_end(t, []), [0, 0, 0, 0]);
  assert.deepEqual(go_up([0, 1, 1, 0]), [0, 1], "the nested variation branches after 11");
  assert.deepEqual(go_up(go_up([0, 1, 1, 0])), [0], "then the first variation after 65(10)");
  assert.deepEqual(go_up([0, 0]), [0, 0], "the main line has no parent");
  // the position shown after each of them
  const at = (p) => position_at_path(t, p);
  assert.equal(at(go_back([0, 1, 1, 0])), mt_pos([6, 1, 3]));
  assert.equal(at(go_forward(t, [0, 1])), mt_pos([6, 1, 2]));
  assert.equal(at(go_end(t, [0, 1])), mt_pos([6, 1, 2]));
  assert.equal(at(go_end(t, [])), mt_pos([6, 8, 5, 9]));
  assert.equal(at(go_up([0, 1, 1, 0])), mt_pos([6, 1]));
  assert.equal(at(go_up(go_up([0, 1, 1, 0]))), mt_pos([6]));
  assert.equal(position_at_path(t, []), START);
  assert.equal(position_at_path(t, [0, 1, 1, 0]), moves_to(t, [0, 1, 1, 0]).at(-1).position);
  assert.deepEqual(path_of_holes(t, [6, 1, 3, 4]), [0, 1, 1, 0]);
  assert.equal(path_of_holes(t, [6, 1, 9]), null);
});

test("promote one level, make the main line, delete a variation, at depth", () => {
  let r = mt_play(tree_of(START, RULES), [], [6, 8, 5, 9]);
  r = mt_play(r.tree, [0], [1, 2]);
  const t = mt_play(r.tree, [0, 1], [3, 4]).tree;
  const p1 = promote(t, [0, 1, 1, 0]);
  assert.deepEqual(p1.path, [0, 1, 0, 0]);
  assert.equal(mt_notes(p1.tree, go_end(p1.tree, [0, 1])), "65(10) 11(10) 32(22) 45", "the nested one is its line's now");
  assert.equal(mt_notes(p1.tree, [0, 1, 1]), "65(10) 11(10) 21(12)", "the old continuation a variation");
  const p2 = promote(p1.tree, p1.path);
  assert.deepEqual(p2.path, [0, 0, 0, 0]);
  assert.equal(mt_notes(p2.tree, go_end(p2.tree, [])), "65(10) 11(10) 32(22) 45", "the main line");
  assert.equal(mt_notes(p2.tree, [0, 1, 0, 0]), "65(10) 87 55 99(12)", "the old main line a variation");
  assert.equal(promote(p2.tree, p2.path), null, "nothing above the main line");
  const m = make_main(t, [0, 1, 1, 0]);
  assert.deepEqual(m, p2, "make_main promotes all the way");
  assert.equal(position_at_path(p2.tree, p2.path), mt_pos([6, 1, 3, 4]), "the same position shown after promotion");
  const d = delete_variation(t, [0, 1, 1, 0]);
  assert.deepEqual(d.path, [0, 1]);
  assert.equal(mt_notes(d.tree, go_end(d.tree, [0, 1])), "65(10) 11(10) 21(12)");
  assert.ok(has_variations(d.tree));
  const d2 = delete_variation(d.tree, [0, 1, 0]);
  assert.deepEqual(d2.path, [0]);
  assert.ok(!has_variations(d2.tree));
  assert.equal(delete_variation(d2.tree, [0, 0]), null, "the main line stays");
  assert.equal(mt_notes(t, [0, 1, 1, 0]), "65(10) 11(10) 32(22) 45", "the tree given is never changed");
});

test("the server's line merged in: followed where it is, added where it is not", () => {
  const server = mt_play(tree_of(START, RULES), [], [7, 9]).tree;
  const server_moves = moves_to(server, [0, 0]);
  let r = mt_play(tree_of(START, RULES, server_moves.slice(0, 1)), [0], [1]);
  const merged = with_line(r.tree, server_moves);
  assert.deepEqual(merged.path, [0, 1], "the server's next move becomes a variation beside ours");
  assert.equal(merged.tree.children[0].children[1].move, server_moves[1], "kept as the server sent it");
  assert.deepEqual(with_line(merged.tree, server_moves).tree, merged.tree);
});

test("PGN with variations: written with RAV, read back to the same tree", () => {
  let r = mt_play(tree_of(START, RULES), [], [6, 8, 5, 9]);
  r = mt_play(r.tree, [0], [1, 2]);
  r = mt_play(r.tree, [0, 1], [3, 4]);
  const t = mt_play(r.tree, [], [7]).tree;
  const text = tree_movetext(t, "*");
  assert.equal(text, "1. 65(10) (1. 76(10)) 1... 87 (1... 11(10) 2. 21(12) (2. 32(22) 45)) 2. 55 99(12) *");
  const back = tree_from_movetext(START, RULES, `[Event "x"]\n[Result "*"]\n\n${text}\n`);
  assert.deepEqual(back, t);
  assert.equal(tree_movetext(tree_of(START, RULES), "1-0"), "1-0");
  // the whole PGN: the server's tags (its result replaced), the movetext wrapped, read back
  const server = '[Event "?"]\r\n[White "A"]\r\n[Result "1-0"]\r\n\r\n1. 65(10) 87 1-0 {zero}\r\n';
  let on = { tree: t, path: [0, 0, 0, 0] };
  for (let i = 0; i < 8; i++) on = add_move(on.tree, on.path, legal_at(on.tree, on.path).at(-1));
  const long = on.tree;
  const pgn = pgn_with_tree(server, tree_movetext(long, "*"), "*");
  assert.match(pgn, /^\[Event "\?"\]\n\[White "A"\]\n\[Result "\*"\]\n\n1\. 65\(10\) \(1\. 76/);
  assert.ok(pgn.split("\n").every((l) => l.length <= 79) && pgn.split("\n").length > 5, "wrapped");
  assert.deepEqual(tree_from_movetext(START, RULES, pgn), long);
  // a record from a position with Black to move numbers its first move 5...
  const black = "10,10,10,10,1,3,12,11,11/11,11,11,11,1,9,9,1,10 10 0 b 5";
  const bt = mt_play(tree_of(black, RULES), [], [9, 3]).tree;
  assert.equal(tree_movetext(bt, "*"), `5... ${moves_to(bt, [0]).at(-1).notation} 6. ${moves_to(bt, [0, 0]).at(-1).notation} *`);
  assert.deepEqual(tree_from_movetext(black, RULES, tree_movetext(bt, "*")), bt);
  // book habits and comments are skipped; a bad move or parenthesis is refused
  assert.deepEqual(tree_from_movetext(START, RULES, "1. 65 (10) {good} 87! (1... 11) *"), mt_play(mt_play(tree_of(START, RULES), [], [6, 8]).tree, [0], [1]).tree);
  assert.throws(() => tree_from_movetext(START, RULES, "1. 65 (1. 0"), /never closed|not legal/);
  assert.throws(() => tree_from_movetext(START, RULES, "1. 65 87)"), /without/);
  assert.throws(() => tree_from_movetext(START, RULES, "1. 64 87 *"), /'64' is not 65\(10\) as played/);
});
