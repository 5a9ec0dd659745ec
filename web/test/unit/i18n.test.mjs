// Every text of the app exists in all four languages, with the same {placeholders}, and the
// game's own terms are used for the kazna and the tuz.
import { test } from "node:test";
import assert from "node:assert/strict";
import { DICTS, t } from "../../node_modules/.toguz-unit/i18n.js";

test("every language has every key with the same placeholders", () => {
  const keys = Object.keys(DICTS.en);
  for (const [code, dict] of Object.entries(DICTS)) {
    for (const k of keys) {
      assert.ok(typeof dict[k] === "string" && dict[k].length > 0, `${code} lacks ${k}`);
      const ph = (s) => (s.match(/\{\w+\}/g) || []).sort().join();
      assert.equal(ph(dict[k]), ph(DICTS.en[k]), `${code}.${k} placeholders`);
    }
    assert.deepEqual(Object.keys(dict).filter((k) => !(k in DICTS.en)), [], `${code} has keys English lacks`);
  }
});

test("the game's own terms", () => {
  assert.equal(DICTS.en.kazna, "Kazna");
  assert.equal(DICTS.ru.kazna, "Казан");
  assert.equal(DICTS.kk.kazna, "Қазан");
  assert.equal(DICTS.ky.kazna, "Казан");
  assert.equal(DICTS.kk.tuz, "Тұздық");
  assert.equal(DICTS.ky.tuz, "Түз");
});

test("t fills placeholders and falls back to the key", () => {
  assert.equal(t("wins", { side: "Aigerim" }), "Aigerim wins");
  assert.equal(t("no-such-key"), "no-such-key");
});
