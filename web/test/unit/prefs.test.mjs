// The player's settings (src/shell/prefs_state.ts, src/shell/prefs.ts): the defaults, what this
// browser stores (also as the page once wrote it), an account's settings over the browser's
// with anything unknown or bad left out, and the page's settings kept without storage (node).
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PREF_KEYS, changed_prefs, decode_pref, default_prefs, encode_pref, merge_prefs, pref_valid, prefs_from,
} from "../../node_modules/.toguz-unit/shell/prefs_state.js";
import { pref, set_pref } from "../../node_modules/.toguz-unit/shell/prefs.js";

const DEFAULTS = { theme: "auto", sound: true, blind: false, eval_view: "chance", confirm_touch: false, chat_rated: false };

test("every setting has a default, and the server's catalogue has the same keys", () => {
  assert.deepEqual(default_prefs(), DEFAULTS);
  assert.deepEqual(PREF_KEYS, ["theme", "sound", "blind", "eval_view", "confirm_touch", "chat_rated"]);
  assert.deepEqual(prefs_from(() => null), DEFAULTS); // nothing stored
});

test("values are checked by kind: a choice among its own, a flag true or false", () => {
  assert.ok(pref_valid("theme", "dark") && pref_valid("theme", "auto"));
  assert.ok(!pref_valid("theme", "pink") && !pref_valid("theme", true));
  assert.ok(pref_valid("eval_view", "margin") && !pref_valid("eval_view", "dark"));
  assert.ok(pref_valid("blind", false) && !pref_valid("blind", "1") && !pref_valid("blind", 1));
});

test("the browser's stored texts, as written now and as the page once wrote them", () => {
  const stored = { "toguz.theme": "dark", "toguz.sound": "off", "toguz.blind": "1", "toguz.eval_view": "margin", "toguz.confirm_touch": "1" };
  assert.deepEqual(prefs_from((k) => stored[k] ?? null), { theme: "dark", sound: false, blind: true, eval_view: "margin", confirm_touch: true, chat_rated: false });
  assert.equal(decode_pref("sound", "on"), true);
  assert.equal(decode_pref("sound", "junk"), true); // the default
  assert.equal(decode_pref("theme", "purple"), "auto");
  for (const [k, v] of [["blind", true], ["blind", false], ["theme", "light"], ["eval_view", "margin"]])
    assert.equal(decode_pref(k, encode_pref(k, v)), v);
});

test("the account's settings win over the browser's; unknown keys and bad values are left out", () => {
  const browser = { ...DEFAULTS, theme: "light", sound: false };
  const merged = merge_prefs(browser, { blind: true, theme: "dark", colour: "red", eval_view: "sideways", sound: "yes" });
  assert.deepEqual(merged, { ...browser, blind: true, theme: "dark" });
  assert.deepEqual(merge_prefs(browser, {}), browser); // an account that stored none
  for (const junk of [null, "blind", [true], 7]) assert.deepEqual(merge_prefs(browser, junk), browser);
  assert.deepEqual(merge_prefs(browser, Object.create({ blind: true })), browser); // own keys only
  assert.deepEqual(changed_prefs(browser, merged), ["theme", "blind"]);
});

test("without storage a change lasts for the page", () => {
  assert.equal(pref("blind"), false);
  set_pref("blind", true);
  assert.equal(pref("blind"), true);
});
