// The rating lists' pure part (src/ratings/ratings_state.ts): the changes and scores as the
// pages write them, the search by name, the order by a column and the pages of a long list.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  PAGE_SIZE, first_query, fold, list_page, ratings_href, score_text, search_rows, signed, signed_fixed, sort_by, sort_rows,
} from "../../node_modules/.toguz-unit/ratings/ratings_state.js";

const row = (number, name, after, before = after, over = {}) => ({
  number, player: number - 1, name, region: "", id: "", title: "", before, change: before === null || after === null ? null : after - before, after, games: 10, ...over,
});
const rows = [
  row(1, "Eleusiz Nurlan", 2441, 2450, { id: "KZ-4", region: "Almaty" }),
  row(2, "Жаңа Ойыншы", 2132, null),
  row(3, "Ахметов Дамир", 2009, 2000, { region: "Астана" }),
  row(4, "Бекет Арман", 1873, 1900),
  row(5, "Кали Айдана", 1872, 1800),
];

test("changes with a sign: plus, the minus sign (U+2212), zero", () => {
  assert.equal(signed(12), "+12");
  assert.equal(signed(-5), "\u22125");
  assert.equal(signed(0), "0");
  assert.equal(signed_fixed(10.389), "+10.39");
  assert.equal(signed_fixed(-5.1949), "\u22125.19");
  assert.equal(signed_fixed(-0.001), "0.00");
  assert.equal(score_text(0.5), "½");
  assert.equal(score_text(2.5), "2½");
  assert.equal(score_text(1), "1");
  assert.equal(score_text(0), "0");
});

test("the search finds a part of a name whatever its case, or a federation id", () => {
  assert.deepEqual(search_rows(rows, "ахмет").map((r) => r.number), [3]);
  assert.deepEqual(search_rows(rows, "  КАЛИ   айдана ").map((r) => r.number), [5]);
  assert.deepEqual(search_rows(rows, "kz-4").map((r) => r.number), [1]);
  assert.deepEqual(search_rows(rows, "").length, 5);
  assert.equal(search_rows(rows, "nobody").length, 0);
  assert.equal(fold("Пётр  Ivanov."), "петр ivanov");
});

test("sorting by a column: numbers high first, the empty last, ties by the list's number", () => {
  assert.deepEqual(sort_rows(rows, "change", true).map((r) => r.number), [5, 3, 1, 4, 2]);
  assert.deepEqual(sort_rows(rows, "change", false).map((r) => r.number), [4, 1, 3, 5, 2]);
  // the Russian order: Cyrillic before Latin
  assert.deepEqual(sort_rows(rows, "name", false).map((r) => r.number), [3, 4, 2, 5, 1]);
  assert.deepEqual(sort_rows(rows, "region", false).map((r) => r.number), [3, 1, 2, 4, 5]);
  let q = sort_by(first_query(), "after");
  assert.deepEqual([q.sort, q.desc], ["after", true]);
  q = sort_by(q, "after");
  assert.deepEqual([q.sort, q.desc], ["after", false]);
  assert.deepEqual(sort_by({ ...first_query(), page: 3 }, "name"), { search: "", sort: "name", desc: false, page: 0 });
});

test("a long list is shown a page at a time, the page kept in range", () => {
  const many = Array.from({ length: 2 * PAGE_SIZE + 5 }, (_, i) => row(i + 1, `Player ${i + 1}`, 2500 - i));
  const p = list_page(many, { ...first_query(), page: 1 });
  assert.equal(p.rows.length, PAGE_SIZE);
  assert.deepEqual([p.page, p.pages, p.from, p.to, p.total], [1, 3, PAGE_SIZE + 1, 2 * PAGE_SIZE, many.length]);
  const last = list_page(many, { ...first_query(), page: 99 });
  assert.deepEqual([last.page, last.rows.length, last.to], [2, 5, many.length]);
  const none = list_page(many, { ...first_query(), search: "nobody" });
  assert.deepEqual([none.page, none.pages, none.from, none.to, none.total], [0, 1, 0, 0, 0]);
  const found = list_page(many, { ...first_query(), search: "player 20" });
  assert.deepEqual(found.rows.map((r) => r.number), [20, 200, 201, 202, 203, 204, 205]);
});

test("the addresses of a list's pages", () => {
  assert.equal(ratings_href("2026 03"), "#/ratings/2026%2003");
  assert.equal(ratings_href("s", "player", 4), "#/ratings/s/player/4");
  assert.equal(ratings_href("s", "names"), "#/ratings/s/names");
});
