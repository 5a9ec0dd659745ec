// Unit tests of the blind mode's texts and rules (src/board/text_board_state.ts): what a hole
// would do, what a typed line means, and every sentence in the four languages.
import { test } from "node:test";
import assert from "node:assert/strict";
import { load_lang } from "../../node_modules/.toguz-unit/i18n/index.js";
import { parse_position } from "../../node_modules/.toguz-unit/board/logic.js";
import {
  preview_move, parse_typed, typed_mismatch, move_words, preview_words, kaznas_words, clocks_words, legal_words, rows_words,
  key_command_of,
} from "../../node_modules/.toguz-unit/board/text_board_state.js";

const START = parse_position("9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0 0 w 1").board;
// the master game's 27X (57): White's hole 2 lands in Black's hole 7, which held 2
const TUZ = parse_position("10,2,12,12,12,12,12,1,13/1,14,2,2,4,14,2,14,0 54 39 w 20").board;
// White 65(10) from the start
const MOVE = {
  hole: 6, side: "white", notation: "65(10)", captured: 10, tuz: false,
  from: { side: "white", hole: 6 }, to: { side: "black", hole: 5 },
  position: "9,9,9,9,9,1,10,10,10/10,10,10,10,0,9,9,9,9 10 0 b 1",
};

test("preview_move: the first move 65 takes 10; 1 lands on its own row", () => {
  assert.deepEqual(preview_move(START, "white", 6), { kind: "move", stones: 9, to: { side: "black", hole: 5 }, count: 10, captures: 10, tuz: false, kazna: 10 });
  const p = preview_move(START, "white", 1);
  assert.equal(p.kind, "move");
  assert.deepEqual(p.to, { side: "white", hole: 9 });
  assert.equal(p.captures, 0);
});

test("preview_move: a tuz when the hole then holds 3, not on hole 9, not twice, not without the rule", () => {
  // White 9 sows 3: his hole 9, Black's 1 and 2; Black's 2 then holds 3
  const b = parse_position("18,1,1,1,1,1,1,1,3/1,2,1,1,1,1,1,1,2 50 60 w 30").board;
  const p = preview_move(b, "white", 9);
  assert.deepEqual([p.to.side, p.to.hole, p.count, p.tuz, p.captures, p.kazna], ["black", 2, 3, true, 3, 53]);
  assert.equal(preview_move(b, "white", 9, false).tuz, false);
  assert.equal(preview_move({ ...b, tuz: { white: 5, black: 0 } }, "white", 9).tuz, false);
  assert.equal(preview_move({ ...b, tuz: { white: 0, black: 2 } }, "white", 9).tuz, false);
  // White 1 sows 18: the last lands in Black's 9, which then holds 3: never a tuz
  const nine = preview_move(b, "white", 1);
  assert.deepEqual([nine.to.side, nine.to.hole, nine.count, nine.tuz, nine.kazna], ["black", 9, 3, false, 50]);
});

test("preview_move: an empty hole, a tuz hole, stones passing a tuz go to its owner", () => {
  assert.deepEqual(preview_move(TUZ, "black", 9), { kind: "empty" });
  const b = parse_position("9,9,9,9,9,9,9,9,9/9,9,x,9,9,9,9,9,9 0 0 b 1").board; // White's tuz: Black's 3
  assert.deepEqual(preview_move(b, "black", 3), { kind: "tuz" });
  // Black 1 sows 9 from his hole 1 to his hole 9, passing his hole 3: one stone to White's kazna
  const p = preview_move(b, "black", 1);
  assert.deepEqual([p.to.side, p.to.hole, p.kazna], ["black", 9, 0]);
  const w = preview_move(b, "white", 9); // White 9: 9 stones, Black 1..8, Black's 3 is White's tuz
  assert.deepEqual([p.kind, w.to.hole, w.count, w.captures, w.kazna], ["move", 8, 10, 10, 11]);
});

test("parse_typed reads holes, notation, previews and commands", () => {
  assert.deepEqual(parse_typed("6", 9), { kind: "play", hole: 6, to: null, tuz: false, kazna: null });
  assert.deepEqual(parse_typed(" 27X (57) ", 9), { kind: "play", hole: 2, to: 7, tuz: true, kazna: 57 });
  assert.deepEqual(parse_typed("65(10)", 9), { kind: "play", hole: 6, to: 5, tuz: false, kazna: 10 });
  assert.deepEqual(parse_typed("/7", 9), { kind: "preview", side: null, hole: 7 });
  assert.deepEqual(parse_typed("b 3", 9), { kind: "preview", side: "black", hole: 3 });
  assert.deepEqual(parse_typed("K", 9), { kind: "command", command: "kaznas" });
  assert.deepEqual(parse_typed("8", 7), { kind: "bad" });
  assert.deepEqual(parse_typed("hello", 9), { kind: "bad" });
  assert.equal(key_command_of("m"), "legal");
  assert.equal(key_command_of("x"), null);
});

test("typed_mismatch says what the hole really plays", async () => {
  await load_lang("en");
  const p = preview_move(START, "white", 6);
  assert.equal(typed_mismatch(parse_typed("65", 9), p), null);
  assert.equal(typed_mismatch(parse_typed("65 (10)", 9), p), null);
  assert.equal(typed_mismatch(parse_typed("64", 9), p), "That hole plays 65 (10)");
  assert.equal(typed_mismatch(parse_typed("65x", 9), p), "That hole plays 65 (10)");
});

// every sentence in each language: the numbers that matter are in it, and nothing is left of
// a placeholder or a key
const SENTENCES = {
  en: ["White 6 to 5 on Black's row, captures 10, kazna 10", "White 6: 9 stones, the last lands in 5 on Black's row, captures 10, kazna 10"],
  ru: ["Белые: 6 на 5 у чёрных, взято 10, казан 10", "Белые, лунка 6: 9 камней, последний падает в 5 у чёрных, взято 10, казан 10"],
  kk: ["Ақ: 6 — 5 қараның жағында, 10 алды, қазан 10", "Ақ, отау 6: 9 құмалақ, соңғысы 5 отауға түседі, қараның жағында, 10 алды, қазан 10"],
  ky: ["Ак: 6 — 5 каранын тарабында, 10 алды, казан 10", "Ак, үй 6: 9 коргоол, акыркысы 5-үйгө түшөт, каранын тарабында, 10 алды, казан 10"],
};

for (const [lang, [move, preview]] of Object.entries(SENTENCES)) {
  test(`the announcements in ${lang}`, async () => {
    await load_lang(lang);
    try {
      assert.equal(move_words(MOVE), move);
      assert.equal(preview_words(START, "white", 6), preview);
      const texts = [
        kaznas_words(TUZ), kaznas_words({ ...TUZ, kazna: { white: 82, black: 39 } }), clocks_words({ white: 293000, black: 5000 }),
        clocks_words(null), legal_words([1, 2, 9], true, "white"), legal_words([], false, "black"), rows_words(TUZ),
        preview_words(TUZ, "white", 2), preview_words(TUZ, "black", 9), move_words({ ...MOVE, tuz: true, captured: 0 }),
      ];
      for (const s of texts) assert.ok(s.length > 0 && !/[{}]|bl_/.test(s), `${lang}: ${s}`);
      for (const n of ["54", "28", "82", "39", "43"]) assert.ok(texts[0].includes(n), `${lang}: ${texts[0]} names ${n}`);
      assert.match(texts[2], /4:53.*5\.0/);
      assert.match(texts[4], /1, 2, 9/);
      assert.match(texts[6], /10, 2, 12, 12, 12, 12, 12, 1, 13.*54.*1, 14, 2, 2, 4, 14, 2, 14, 0.*39/);
      if (lang !== "en") assert.doesNotMatch(texts.join(" "), /\b(White|Black|kazna|captures|stones|Legal|needs)\b/);
    } finally {
      await load_lang("en");
    }
  });
}
