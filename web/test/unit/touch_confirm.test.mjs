// Move confirmation on touch (src/games/touch_confirm_state.ts): the setting and the taps.
import { test } from "node:test";
import assert from "node:assert/strict";
import { confirm_tap, parse_confirm_touch } from "../../node_modules/.toguz-unit/games/touch_confirm_state.js";

test("the setting is off unless stored on", () => {
  assert.equal(parse_confirm_touch("1"), true);
  assert.equal(parse_confirm_touch(null), false);
  assert.equal(parse_confirm_touch("0"), false);
});

test("a first tap selects, a second on the same hole plays, another hole moves the choice", () => {
  assert.deepEqual(confirm_tap(null, 4), { play: null, pending: 4 });
  assert.deepEqual(confirm_tap(4, 6), { play: null, pending: 6 });
  assert.deepEqual(confirm_tap(6, 6), { play: 6, pending: null });
});
