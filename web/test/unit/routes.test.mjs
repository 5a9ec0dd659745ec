// The routes' chunks and the stale-route guard (src/shell/routes_state.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import { chunk_of, RouteGuard } from "../../node_modules/.toguz-unit/shell/routes_state.js";

test("routes: a first visit's pages are in the main chunk, the others in a chunk by feature", () => {
  const cases = {
    main: [[], ["game", "g1"], ["game", "g1", "tok"], ["join", "g1", "c"], ["games"], ["lobby"], ["lobby", "challenge", "x"], ["nowhere"], ["constructor"], ["__proto__"]],
    accounts: [["login"], ["signup"], ["account"], ["forgot"], ["reset", "t"], ["verify", "t"], ["moderation"], ["leaderboard", "blitz"], ["@", "asel"]],
    learn: [["puzzles"], ["puzzles", "7"], ["studies", "2"], ["explorer"], ["editor"]],
    arbiter: [["arbiter"], ["arbiter", "e1", "k"], ["arbiter", "team", "e1"], ["broadcast", "e1"], ["keeper", "e1", "t"]],
    ratings: [["ratings"], ["ratings", "kg", "player", "3"]],
    tournaments: [["tournaments"], ["tournaments", "t1"]],
  };
  for (const [chunk, routes] of Object.entries(cases))
    for (const parts of routes) assert.equal(chunk_of(parts), chunk, `#/${parts.join("/")}`);
});

test("routes: only the last route begun is current (a chunk that comes late is dropped)", () => {
  const guard = new RouteGuard();
  const first = guard.begin();
  assert.ok(guard.is_current(first));
  const second = guard.begin(); // the reader went on before the first chunk came
  assert.ok(!guard.is_current(first));
  assert.ok(guard.is_current(second));
  assert.notEqual(first, second);
});
