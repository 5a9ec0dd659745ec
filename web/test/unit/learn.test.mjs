// The learning pages' pure part (src/learn/learn_state.ts) on the puzzles the server answers
// (test/fixtures/learn.json, kept equal to the server's answers by tests/unit/site/learn_api_test.cpp),
// and the learning API's calls against a mocked fetch (src/learn/learn_api.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import {
  new_trial, try_move, play_reply, legal_now, shown_position, shown_to_move, streak_after, remember,
  line_position, line_ply, share, PUZZLE_THEMES, theme_choices, give_up, streak_shown, viewed_position, viewed_move, should_report,
  after_answer, unrated_note, study_of, study_status_text, study_differs_text, nodes_text, with_filter, eval_cell_of,
} from "../../node_modules/.toguz-unit/learn/learn_state.js";
import { learn_api, next_query, explorer_query, puzzle_store } from "../../node_modules/.toguz-unit/learn/learn_api.js";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";

await load_lang("en"); // the pages' texts below are English

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

test("the theme choices: those with puzzles and the one chosen, with their counts", () => {
  assert.equal(PUZZLE_THEMES.length, 6);
  assert.deepEqual(theme_choices({ capture: 4, tuz: 0, endgame: 2 }, "tuz"), [
    { theme: "capture", count: 4, selected: false },
    { theme: "tuz", count: 0, selected: true },
    { theme: "endgame", count: 2, selected: false },
  ]);
  assert.deepEqual(theme_choices({}, ""), []);
});

test("giving up, the streak shown and the board while the solution is looked at", () => {
  const p = fx.miss;
  const tr = new_trial(p);
  const up = give_up(tr);
  assert.equal(up.state, "missed");
  assert.equal(give_up(up), up, "an attempt over stays as it is");
  assert.equal(streak_shown({ current: 4, best: 6, over: false }), 4);
  assert.equal(streak_shown({ current: 4, best: 6, over: true }), 0);
  assert.equal(viewed_position(tr, null), p.position);
  assert.equal(viewed_position(tr, 0), p.position);
  assert.equal(viewed_position(up, 1), p.line[0].position);
  assert.equal(viewed_move(up, 0), null);
  assert.equal(viewed_move(up, 1), p.line[0]);
  const wrong = try_move(tr, p.choices[0].moves.find((m) => m.hole !== p.line[0].hole).hole).trial;
  assert.equal(viewed_move(wrong, null), wrong.wrong);
  assert.equal(viewed_position(wrong, null), wrong.wrong.position);
});

test("an attempt is sent once, in practice, with an account; its answer updates both ratings", () => {
  const p = fx.solve;
  const tr = new_trial(p);
  const rated = { ...fx.summary, rated: true };
  assert.equal(should_report("practice", rated, tr, ""), true);
  assert.equal(should_report("practice", rated, tr, p.id), false);
  assert.equal(should_report("streak", rated, tr, ""), false);
  assert.equal(should_report("practice", { ...rated, rated: false }, tr, ""), false);
  assert.equal(should_report("practice", null, tr, ""), false);
  assert.equal(should_report("practice", rated, null, ""), false);
  const player = { rating: 1530, rd: 80, provisional: false, attempts: 3, diff: 30 };
  const answer = { id: p.id, solved: true, rated: true, reason: null, player, puzzle: { ...p.rating, rating: 1470, diff: -30 } };
  const after = after_answer(rated, tr, answer);
  assert.equal(after.summary.player, player);
  assert.equal(after.trial.puzzle.rating.rating, 1470);
  assert.equal(after.trial.puzzle.rated, false);
  assert.equal(tr.puzzle.rated, p.rated, "the attempt given is left as it was");
  assert.equal(after_answer(null, tr, answer).summary, null);
  assert.equal(after_answer(rated, tr, { ...answer, player: null }).summary, rated);
});

test("the note that an attempt is not rated, and why", () => {
  const rated = { ...fx.summary, rated: true };
  const tr = (over) => new_trial({ ...fx.solve, ...over });
  assert.equal(unrated_note(rated, tr({ rated: true }), null, "practice"), null);
  assert.equal(unrated_note(rated, tr({ rated: false, unrated_reason: "attempted" }), null, "practice"), "puzzle_attempted");
  assert.equal(unrated_note(rated, tr({ rated: false, unrated_reason: "not_served" }), null, "practice"), "puzzle_not_served");
  assert.equal(unrated_note(rated, tr({ rated: false }), { rated: true }, "practice"), null, "this attempt was rated");
  assert.equal(unrated_note(rated, tr({ rated: false }), null, "streak"), null);
  assert.equal(unrated_note({ ...rated, rated: false }, tr({ rated: false }), null, "practice"), null);
});

test("the puzzle page's settings are kept, with defaults where storage has none", () => {
  // node has no localStorage (or an empty one): every read falls back, no write throws
  assert.equal(puzzle_store.theme(), "");
  assert.equal(puzzle_store.mode(), "practice");
  assert.deepEqual(puzzle_store.recent(), []);
  assert.deepEqual(puzzle_store.streak(), { current: 0, best: 0, over: false });
  puzzle_store.set_mode("streak");
});

test("a study's words: what the solver proves, and where the book says otherwise", () => {
  const base = { study: 3, position: "", side: "white", task: "win", proven: null, engine: null, line: [] };
  const proven = (result, margin) => ({ result, margin, nodes: 1 });
  assert.equal(study_of([base, { ...base, study: 5 }], 5).study, 5);
  assert.equal(study_of([base], 9), undefined);
  assert.equal(study_of(null, 3), undefined);
  assert.equal(study_status_text(base), "Not yet proven: the solver has not finished this study.");
  assert.equal(study_status_text({ ...base, proven: proven("draw", 0) }), "Proven: a draw");
  assert.equal(study_status_text({ ...base, proven: proven("win", -4) }), "Proven: White wins by 4");
  assert.equal(study_status_text({ ...base, proven: proven("loss", null) }), "Proven: Black wins");
  assert.equal(study_differs_text({ ...base, proven: proven("win", 2) }), "");
  assert.equal(study_differs_text({ ...base, task: "draw", proven: proven("win", 2) }), "The book's answer is a draw, but under the rules played here the solver proves a win for White.");
  assert.match(study_differs_text({ ...base, proven: proven("draw", 0) }), /^The solver proves another result/);
  assert.equal(study_differs_text(base), "");
  assert.equal(nodes_text(1234567), "1 234 567");
});

test("the explorer's filters and engine cells", () => {
  assert.deepEqual(with_filter({}, "min_rating", " 1500 "), { min_rating: 1500 });
  assert.deepEqual(with_filter({ min_rating: 1500 }, "min_rating", ""), { min_rating: undefined });
  assert.equal(with_filter({}, "to_year", "-3").to_year, undefined);
  assert.equal(with_filter({}, "to_year", "20.5").to_year, undefined);
  assert.deepEqual(with_filter({ from_year: 2020 }, "to_year", "2024"), { from_year: 2020, to_year: 2024 });
  const score = { cp: 150, white_cp: 150, proven: null };
  const evals = { position: "", depth: 8, moves: [{ hole: 3, move: "3", after: "", score, pv_notation: ["a", "b", "c", "d", "e", "f", "g"] }] };
  assert.deepEqual(eval_cell_of(evals, false, 3), { text: "+1.50", line: "a b c d e f" });
  assert.deepEqual(eval_cell_of(evals, false, 4), { text: "–", line: "" });
  assert.deepEqual(eval_cell_of(null, false, 3), { text: "…", line: "" });
  assert.deepEqual(eval_cell_of(null, true, 3), { text: "–", line: "" });
});
