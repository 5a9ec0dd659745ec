// Every text of the app exists in all four languages, with the same {placeholders}, counted
// texts in each language's plural forms, and the game's own terms for the kazna and the tuz.
import { test } from "node:test";
import assert from "node:assert/strict";
import { lang, load_lang, plural_category, t, t_any } from "../../node_modules/.toguz-unit/i18n/index.js";
import { en } from "../../node_modules/.toguz-unit/i18n/en.js";
import { ru } from "../../node_modules/.toguz-unit/i18n/ru.js";
import { kk } from "../../node_modules/.toguz-unit/i18n/kk.js";
import { ky } from "../../node_modules/.toguz-unit/i18n/ky.js";

const DICTS = { en, ru, kk, ky };
await load_lang("en"); // the page loads one language before it renders; here English

const ph = (s) => (s.match(/\{\w+\}/g) || []).sort().join();

test("every language has every key with the same placeholders", () => {
  const keys = Object.keys(DICTS.en);
  for (const [code, dict] of Object.entries(DICTS)) {
    // the categories Intl.PluralRules gives the language (CLDR): what t() picks from
    const categories = new Intl.PluralRules(code).resolvedOptions().pluralCategories.sort();
    for (const k of keys) {
      const en = DICTS.en[k];
      const s = dict[k];
      if (typeof en === "string") {
        assert.ok(typeof s === "string" && s.length > 0, `${code} lacks ${k}`);
        assert.equal(ph(s), ph(en), `${code}.${k} placeholders`);
      } else {
        assert.deepEqual(Object.keys(s).sort(), categories, `${code}.${k}: the plural forms of ${code}`);
        for (const [form, text] of Object.entries(s)) {
          assert.ok(text.length > 0, `${code}.${k}.${form} is empty`);
          assert.equal(ph(text), ph(en.other), `${code}.${k}.${form} placeholders`);
          assert.ok(text.includes("{n}"), `${code}.${k}.${form} shows its count {n}`);
        }
      }
    }
    assert.deepEqual(Object.keys(dict).filter((k) => !(k in DICTS.en)), [], `${code} has keys English lacks`);
  }
});

test("of two loads the later asked wins, whichever arrives first", async () => {
  try {
    const [first, second] = await Promise.all([load_lang("ru"), load_lang("kk")]);
    assert.deepEqual([first, second], [false, true]);
    assert.equal(lang(), "kk");
    assert.equal(t("kazna"), "Қазан");
  } finally {
    await load_lang("en");
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

test("t fills placeholders; a key made at run time falls back", () => {
  assert.equal(t("wins", { side: "Aigerim" }), "Aigerim wins");
  assert.equal(t_any("no-such-key"), "no-such-key");
  assert.equal(t_any("e_no-such-code", {}, "e_store_unavailable"), t("e_store_unavailable"));
  assert.equal(t_any("r_resign"), t("r_resign"));
});

test("counted texts take the plural form of their {n}", async () => {
  try {
    assert.equal(t("players_online", { n: 1 }), "1 player online");
    assert.equal(t("players_online", { n: 21 }), "21 players online");
    assert.equal(t("loss_stones", { n: "1.0" }), "lost 1.0 stones"); // written decimals: other
    assert.equal(t("days_per_move", { n: "1" }), "1 day a move"); // the server's params are strings
    await load_lang("ru");
    const ru = [1, 2, 5, 11, 21, 22, 25, 101, 111].map((n) => t("players_online", { n }));
    assert.deepEqual(ru, ["1 игрок в сети", "2 игрока в сети", "5 игроков в сети", "11 игроков в сети", "21 игрок в сети",
      "22 игрока в сети", "25 игроков в сети", "101 игрок в сети", "111 игроков в сети"]);
    assert.equal(t("loss_stones", { n: "1.5" }), "потеряно 1.5 камня");
    assert.equal(t("study_nodes", { n: "12 341" }), "Просмотрена 12 341 позиция"); // thousands spaced
    assert.equal(plural_category(undefined), "other"); // no count: the general form
    await load_lang("kk");
    assert.equal(t("players_online", { n: 1 }), "желіде 1 ойыншы");
    assert.equal(t("players_online", { n: 7 }), "желіде 7 ойыншы");
  } finally {
    await load_lang("en");
  }
});
// The server's refusal codes and default names (src/site/texts.json, compiled into the server):
// each has a text in every language, which uses only the parameters the server sends with it.
import { readFileSync } from "node:fs";
import { error_text, player_name } from "../../node_modules/.toguz-unit/i18n/index.js";

const texts = JSON.parse(readFileSync(new URL("../../../src/site/texts.json", import.meta.url), "utf8"));

test("every server error code has a text in every language", () => {
  const params = new Map(); // code -> parameters every one of its messages carries
  for (const r of texts.refusals) {
    const sets = (Array.isArray(r.en) ? r.en : Object.values(r.en)).map((m) => new Set([...m.matchAll(/\{(\w+)\}/g)].map((x) => x[1])));
    params.set(r.code, new Set([...sets[0]].filter((n) => sets.every((s) => s.has(n)))));
  }
  assert.ok(params.size > 100, `read ${params.size} codes from texts.json`);
  for (const [code, names] of params) {
    for (const [lang, dict] of Object.entries(DICTS)) {
      const s = dict[`e_${code}`];
      assert.ok(s, `${lang} lacks e_${code}`);
      // a counted text: each of its plural forms
      for (const form of typeof s === "string" ? [s] : Object.values(s))
        for (const [, p] of form.matchAll(/\{(\w+)\}/g)) assert.ok(names.has(p), `${lang}.e_${code} uses {${p}}, which ${code} lacks`);
    }
  }
  assert.ok(texts.default_names.length >= 5);
  for (const code of texts.default_names)
    for (const [lang, dict] of Object.entries(DICTS)) assert.ok(dict[`name_${code}`], `${lang} lacks name_${code}`);
});

test("refusals and default names are written in the reader's language", () => {
  assert.equal(error_text({ code: "stale", params: { ply: "3", now: "4" }, message: "move: stale (...)" }),
    "That move came too late: the game has moved on");
  assert.equal(error_text({ code: "claim_early", params: { n: "60" }, message: "x" }), "Your opponent has been away less than 60 s");
  // an unknown code or none: the server's message with the word "Error"
  assert.equal(error_text({ code: "no-such", params: {}, message: "something new" }), "Error: something new");
  assert.equal(error_text({ message: "plain" }), "Error: plain");
  assert.equal(error_text(new TypeError("Failed to fetch")), "The server cannot be reached");
  assert.equal(player_name("toguz (level 5)", "engine", 5), "toguz (level 5)");
  assert.equal(player_name("Player", "player"), "Player");
  assert.equal(player_name("Aigerim", null), "Aigerim");
  assert.equal(DICTS.ru.name_engine.replace("{n}", "5"), "toguz (уровень 5)");
});
