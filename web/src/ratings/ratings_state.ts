// The rating lists' pure part (docs/ratings-federation.md "On the site"): the list searched by
// name, sorted by a column and cut into pages (a federation's list has thousands of players:
// only a page of rows is ever in the document), and the numbers as the pages write them.

/** One row of a published list (GET /api/ratings/<list>). */
export interface ListRow {
  number: number;
  player: number; // the player's index: #/ratings/<list>/player/<player>
  name: string;
  region: string;
  id: string; // the federation's id, "" when none
  title: string;
  before: number | null; // null: not rated before this season
  change: number | null; // null: no rating before, so no change
  after: number | null; // null: not rated yet
  games: number;
}

export const SORT_KEYS = ["number", "name", "region", "title", "before", "change", "after", "games"] as const;
export type SortKey = (typeof SORT_KEYS)[number];
export const PAGE_SIZE = 100;

/** What the list page shows: the search, the order and the page (0-based). */
export interface ListQuery {
  search: string;
  sort: SortKey;
  desc: boolean;
  page: number;
}
export const first_query = (): ListQuery => ({ search: "", sort: "number", desc: false, page: 0 });

const MINUS = "\u2212";

/** A whole change with its sign: "+12", "−5" (the minus sign, not a hyphen), "0". */
export function signed(n: number): string {
  if (n > 0) return `+${n}`;
  if (n < 0) return `${MINUS}${-n}`;
  return "0";
}
/** A change to two places (the calculation's unrounded K (S − E)): "+10.39", "−5.19", "0.00". */
export function signed_fixed(x: number, digits = 2): string {
  const s = Math.abs(x).toFixed(digits);
  if (Number(s) === 0) return s;
  return (x > 0 ? "+" : MINUS) + s;
}
/** A score in half points: "1", "½", "2½", "0". */
export function score_text(x: number): string {
  const whole = Math.floor(x + 1e-9);
  const half = x - whole > 0.25;
  if (!half) return String(whole);
  return whole === 0 ? "½" : `${whole}½`;
}
/** A rating or an empty cell. */
export const rating_text = (r: number | null | undefined) => (r === null || r === undefined ? "" : String(r));

/** A name as the search compares it: lower case, ё as е, runs of spaces, dots and commas one space. */
export function fold(s: string): string {
  return s.toLocaleLowerCase("ru").replace(/ё/g, "е").replace(/[\s.,;_]+/g, " ").trim();
}

/** The rows whose name (any part of it) or federation id holds the search. */
export function search_rows(rows: readonly ListRow[], search: string): ListRow[] {
  const q = fold(search);
  if (!q) return rows.slice();
  return rows.filter((r) => fold(r.name).includes(q) || (r.id !== "" && fold(r.id) === q));
}

function compare(a: ListRow, b: ListRow, key: SortKey): number {
  const x = a[key];
  const y = b[key];
  if (typeof x === "string" && typeof y === "string") return x.localeCompare(y, "ru");
  return (x as number) - (y as number);
}

/** The rows ordered by `key` (descending with `desc`), ties by the list's number; an empty
 * value (no rating, no change, no region) goes last either way. */
export function sort_rows(rows: readonly ListRow[], key: SortKey, desc: boolean): ListRow[] {
  const empty = (r: ListRow) => r[key] === null || r[key] === "";
  return rows.slice().sort((a, b) => {
    if (empty(a) !== empty(b)) return empty(a) ? 1 : -1;
    const c = empty(a) ? 0 : compare(a, b, key);
    return (desc ? -c : c) || a.number - b.number;
  });
}

/** A header clicked: the same column turns the order round; another column sorts by it, the
 * numbers from the highest first, the names and the list's number from the first. */
export function sort_by(q: ListQuery, key: SortKey): ListQuery {
  if (q.sort === key) return { ...q, desc: !q.desc, page: 0 };
  const high_first = key === "before" || key === "change" || key === "after" || key === "games";
  return { ...q, sort: key, desc: high_first, page: 0 };
}

export interface ListPage {
  rows: ListRow[]; // at most PAGE_SIZE
  page: number; // the page shown, within range
  pages: number; // at least 1
  from: number; // 1-based, 0 when nothing is found
  to: number;
  total: number; // the rows found
}

/** The page of the list the query asks for, its page number kept within range. */
export function list_page(rows: readonly ListRow[], q: ListQuery, size = PAGE_SIZE): ListPage {
  const found = sort_rows(search_rows(rows, q.search), q.sort, q.desc);
  const pages = Math.max(1, Math.ceil(found.length / size));
  const page = Math.min(Math.max(0, q.page), pages - 1);
  const cut = found.slice(page * size, page * size + size);
  return { rows: cut, page, pages, from: cut.length ? page * size + 1 : 0, to: page * size + cut.length, total: found.length };
}

/** The address of a list's page: the list, a player's history, an event, the officer's names. */
export function ratings_href(list: string, what: "" | "player" | "event" | "names" = "", n?: number): string {
  const base = `#/ratings/${encodeURIComponent(list)}`;
  if (!what) return base;
  return what === "names" ? `${base}/names` : `${base}/${what}/${n}`;
}
