// The puzzle and study logic (src/learn/learn_state.ts) on the puzzles the server answers
// (test/fixtures/learn.json, kept equal to the server's answers by tests/unit/site/learn_api_test.cpp),
// and the learning API's calls against a mocked fetch (src/learn/learn_api.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  new_trial, try_move, play_reply, legal_now, shown_position, shown_to_move, streak_after, remember,
  line_position, line_ply, share,
} from "../../node_modules/.toguz-unit/learn/learn_state.js";
import { learn_api, next_query, explorer_query } from "../../node_modules/.toguz-unit/learn/learn_api.js";

const fx = JSON.parse(readFileSync(new URL("../fixtures/learn.json", import.meta.url), "utf8"));

test("a puzzle solved: the solution's moves, the forced reply between them", () => {
  const p = fx.solve;
  assert.equal(p.line.length, 3);
  let tr = new_trial(p);
  assert.equal(shown_position(tr), p.position);
  assert.deepEqual(legal_now(tr), p.choices[0].moves.map((m) => m.hole));
  let r = try_move(tr, p.line[0].hole);
  assert.equal(r.verdict, "right");
  tr = r.trial;
  assert.equal(shown_position(tr), p.line[0].position);
  assert.deepEqual(legal_now(tr), [], "the reply is due, not the solver's move");
  assert.equal(try_move(tr, p.line[2].hole).verdict, "ignored");
  tr = play_reply(tr);
  assert.equal(shown_position(tr), p.line[1].position);
  assert.equal(shown_to_move(tr), p.side);
  r = try_move(tr, p.line[2].hole);
  assert.equal(r.verdict, "solved");
  assert.equal(r.trial.state, "solved");
  assert.deepEqual(legal_now(r.trial), []);
});

test("a puzzle missed: the wrong move's position is shown and the attempt is over", () => {
  const p = fx.miss;
  const wrong = p.choices[0].moves.find((m) => m.hole !== p.line[0].hole);
  assert.ok(wrong, "the puzzle has another legal move");
  const r = try_move(new_trial(p), wrong.hole);
  assert.equal(r.verdict, "wrong");
  assert.equal(r.trial.state, "missed");
  assert.equal(shown_position(r.trial), wrong.position);
  assert.equal(try_move(r.trial, p.line[0].hole).verdict, "ignored");
  // a hole that is not legal is no attempt at all
  const illegal = [1, 2, 3, 4, 5, 6, 7, 8, 9].find((h) => !legal_now(new_trial(p)).includes(h));
  if (illegal) assert.equal(try_move(new_trial(p), illegal).verdict, "ignored");
});

test("the streak: solves add up, a miss ends it and the best stays", () => {
  let s = { current: 0, best: 0, over: false };
  s = streak_after(s, true);
  s = streak_after(s, true);
  assert.deepEqual(s, { current: 2, best: 2, over: false });
  s = streak_after(s, false);
  assert.deepEqual(s, { current: 2, best: 2, over: true });
  s = streak_after(s, true);
  assert.deepEqual(s, { current: 1, best: 2, over: false });
});

test("the puzzles not to repeat: each once, the newest kept", () => {
  let r = [];
  for (const id of ["a", "b", "c", "a"]) r = remember(r, id, 3);
  assert.deepEqual(r, ["b", "c", "a"]);
  assert.deepEqual(remember(r, "d", 3), ["c", "a", "d"]);
});

test("a puzzle's rating before anybody tried it: its difficulty's start", () => {
  assert.equal(fx.solve.rating.rating, 1100 + 100 * fx.solve.difficulty);
  assert.equal(fx.solve.rating.provisional, true);
  assert.equal(fx.solve.rated, false); // the fixture's viewer has no account
  assert.equal(fx.summary.player, null);
});

test("a study line at a ply", () => {
  const s = fx.studies.studies.find((x) => x.study === 1);
  assert.ok(s.proven);
  assert.equal(line_position(s.position, s.line, 0), s.position);
  assert.equal(line_position(s.position, s.line, 2), s.line[1].position);
  assert.equal(line_position(s.position, s.line, 999), s.line.at(-1).position);
  assert.equal(line_ply(-3, 5), 0);
  const open = fx.studies.studies.filter((x) => !x.proven).map((x) => x.study);
  assert.deepEqual(open, [3, 8]);
});

test("the API's requests and a refusal with its code", async () => {
  assert.equal(next_query("", []), "");
  assert.equal(next_query("tuz", ["a1", "b2"]), "?theme=tuz&exclude=a1%2Cb2");
  const seen = [];
  globalThis.fetch = async (url, init) => {
    seen.push([init.method, url]);
    if (String(url).startsWith("/api/puzzles/next"))
      return new Response(JSON.stringify({ error: "no puzzle left", code: "no_puzzle", params: { theme: "tuz" } }), { status: 404 });
    return new Response(JSON.stringify(fx.summary), { status: 200 });
  };
  const s = await learn_api.summary();
  assert.equal(s.count, fx.summary.count);
  assert.equal(s.rated, false);
  await assert.rejects(learn_api.next("tuz", ["x"]), (e) => e.status === 404 && e.code === "no_puzzle" && e.params.theme === "tuz");
  await learn_api.puzzle("ab/c");
  await learn_api.explorer("9,9 0 0 w");
  await learn_api.attempt("ab/c", true);
  assert.deepEqual(seen, [
    ["GET", "/api/puzzles"],
    ["GET", "/api/puzzles/next?theme=tuz&exclude=x"],
    ["GET", "/api/puzzles/ab%2Fc"],
    ["GET", "/api/explorer?position=9%2C9%200%200%20w"],
    ["POST", "/api/puzzles/ab%2Fc/attempt"],
  ]);
});

test("the explorer's query and shares", () => {
  assert.equal(explorer_query("9,9 0 0 w"), "?position=9%2C9%200%200%20w");
  assert.equal(explorer_query("p", { min_rating: 1500, to_year: 2020, max_rating: undefined }), "?position=p&min_rating=1500&to_year=2020");
  assert.equal(share(1, 3), "33%");
  assert.equal(share(0, 0), "–");
  // every move of the answer leads to the position the next answer is about
  assert.equal(fx.explorer_start.moves[0].after, fx.explorer_after.position);
});
