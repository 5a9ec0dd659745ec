// Move confirmation on touch (src/games/touch_confirm_state.ts): the taps (the setting is
// shell/prefs_state.ts's, test/unit/prefs.test.mjs).
import { test } from "node:test";
import assert from "node:assert/strict";
import { confirm_tap } from "../../node_modules/.toguz-unit/games/touch_confirm_state.js";

test("a first tap selects, a second on the same hole plays, another hole moves the choice", () => {
  assert.deepEqual(confirm_tap(null, 4), { play: null, pending: 4 });
  assert.deepEqual(confirm_tap(4, 6), { play: null, pending: 6 });
  assert.deepEqual(confirm_tap(6, 6), { play: 6, pending: null });
});
