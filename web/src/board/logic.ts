// Pure helpers of the front end (no DOM): reading a position string for display, the path of a
// sowing for the animation, scores as text and as a bar, the clock as text, the graph points.
// None of this decides what is legal: the server sends the legal holes.

import type { Board, Score, Side } from "../protocol/types.js";

export interface ShownPosition {
  board: Board;
  to_move: Side;
  move_number: number;
}

/** Reads a position string (rules.md) for display; throws Error naming the field when it is
 * malformed. `x` on Black's row is White's tuz and vice versa. */
export function parse_position(text: string): ShownPosition {
  const fields = text.trim().split(/ +/);
  if (fields.length < 4 || fields.length > 5) throw new Error("position: expected 4 or 5 fields");
  const rows = fields[0].split("/");
  if (rows.length !== 2) throw new Error("position: holes: expected <white>/<black>");
  const read_row = (row: string, name: string) => {
    const cells = row.split(",");
    return cells.map((c, i) => {
      if (c === "x" || c === "X") return -1;
      if (!/^\d+$/.test(c)) throw new Error(`position: ${name} hole ${i + 1}: expected a count or x`);
      return Number(c);
    });
  };
  const w = read_row(rows[0], "white");
  const b = read_row(rows[1], "black");
  if (w.length !== b.length || ![5, 7, 9].includes(w.length))
    throw new Error("position: rows must both hold 5, 7 or 9 holes");
  const kw = Number(fields[1]);
  const kb = Number(fields[2]);
  if (!Number.isInteger(kw) || kw < 0) throw new Error("position: white kazna: expected a count");
  if (!Number.isInteger(kb) || kb < 0) throw new Error("position: black kazna: expected a count");
  if (fields[3] !== "w" && fields[3] !== "b") throw new Error("position: side: expected w or b");
  const num = fields.length === 5 ? Number(fields[4]) : 1;
  const tuz = { white: b.indexOf(-1) + 1, black: w.indexOf(-1) + 1 };
  return {
    board: {
      white: w.map((c) => Math.max(c, 0)),
      black: b.map((c) => Math.max(c, 0)),
      kazna: { white: kw, black: kb },
      tuz,
    },
    to_move: fields[3] === "w" ? "white" : "black",
    move_number: Number.isInteger(num) && num > 0 ? num : 1,
  };
}

/** Writes a position string from a board (the editor's output). */
export function format_position(board: Board, to_move: Side, move_number = 1): string {
  const row = (cells: number[], tuz_hole: number) =>
    cells.map((c, i) => (i + 1 === tuz_hole ? "x" : String(c))).join(",");
  return (
    `${row(board.white, board.tuz.black)}/${row(board.black, board.tuz.white)} ` +
    `${board.kazna.white} ${board.kazna.black} ${to_move === "white" ? "w" : "b"} ${move_number}`
  );
}

export interface Cell {
  side: Side;
  hole: number;
}

/** The holes a sowing of k stones from (side, hole) passes, in order, for the animation:
 * k = 1 goes to the next hole; k >= 2 starts in the emptied hole; order White 1..N, Black 1..N. */
export function sowing_path(n: number, from: Cell, k: number): Cell[] {
  const path: Cell[] = [];
  let idx = (from.side === "white" ? 0 : n) + from.hole - 1;
  if (k === 1) idx = (idx + 1) % (2 * n);
  for (let i = 0; i < k; i++) {
    path.push({ side: idx < n ? "white" : "black", hole: (idx % n) + 1 });
    idx = (idx + 1) % (2 * n);
  }
  return path;
}

/** The opponent of side. */
export function other(side: Side): Side {
  return side === "white" ? "black" : "white";
}

/** A score as short text from the side to move's view: "+7.62", "win in 12", "draw". */
export function score_text(score: Score, words = { win: "win in {n}", loss: "loses in {n}", draw: "draw" }): string {
  if (score.proven) {
    const p = score.proven;
    if (p.result === "draw") return words.draw;
    const w = p.result === "win" ? words.win : words.loss;
    const m = p.margin !== null ? ` (${p.margin > 0 ? "+" : ""}${p.margin})` : "";
    return w.replace("{n}", String(p.plies)) + m;
  }
  return cp_text(score.cp);
}

/** Centi-stones as signed stones with two decimals. */
export function cp_text(cp: number): string {
  const s = (Math.abs(cp) / 100).toFixed(2);
  return (cp > 0 ? "+" : cp < 0 ? "−" : "") + s;
}

/** The share of the evaluation bar that is White's, 0..100 (50 = equal), saturating smoothly. */
export function bar_percent(wcp: number): number {
  return 50 + 50 * Math.tanh(wcp / 2000);
}

/** Remaining time as m:ss, or s.t below ten seconds. */
export function clock_text(ms: number): string {
  const v = Math.max(0, ms);
  if (v < 10000) return (Math.floor(v / 100) / 10).toFixed(1);
  const s = Math.floor(v / 1000);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, "0");
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${ss}` : `${m}:${ss}`;
}

/** The x of value i of count in a graph width wide (first at 0, last at width). */
export function graph_x(i: number, count: number, width: number): number {
  return count > 1 ? (i / (count - 1)) * width : 0;
}

/** The points of the review graph: x over plies 0..count-1 across the width, y from values in
 * -1..1 (graph_value; 1 = White winning) in a width x height box (y = height/2 is equal, y = 0
 * White winning). */
export function graph_points(values: number[], width: number, height: number): [number, number][] {
  return values.map((v, i) => [graph_x(i, values.length, width), height / 2 - Math.max(-1, Math.min(1, v)) * (height / 2)]);
}

/** Reads "#/a/b/c" into ["a","b","c"] (empty parts dropped, each part URI-decoded). */
export function route_parts(hash: string): string[] {
  return hash
    .replace(/^#\/?/, "")
    .split("?")[0]
    .split("/")
    .filter((p) => p.length > 0)
    .map((p) => decodeURIComponent(p));
}

/** Stones per hole and total for a variant name. */
export function variant_size(variant: string): number {
  return variant === "kozdatu" ? 7 : variant === "bestemshi" ? 5 : 9;
}

/** The move number of ply (1-based) in a game whose start position has move number `first`
 * and side to move `first_side`, written "6." for White's move and "6…" for Black's. */
export function move_label(ply: number, first: number, first_side: Side): string {
  const half = ply - 1 + (first_side === "black" ? 1 : 0);
  const num = first + Math.floor(half / 2);
  return half % 2 === 0 ? `${num}.` : `${num}…`;
}

/** A time from the server (ISO 8601) for the games list: "30 Nov 2026, 21:05" in English,
 * "30.11.2026 21:05" (as written in Russia, Kazakhstan and Kyrgyzstan) in the other languages,
 * in the reader's time zone; the text as given when it is not a time. Written here rather than
 * with Intl, whose data for Kazakh and Kyrgyz is missing or garbled in some browsers. */
export function date_text(iso: string, lang: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const two = (n: number) => String(n).padStart(2, "0");
  const time = `${two(d.getHours())}:${two(d.getMinutes())}`;
  if (lang === "en") {
    const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
    return `${d.getDate()} ${months[d.getMonth()]} ${d.getFullYear()}, ${time}`;
  }
  return `${two(d.getDate())}.${two(d.getMonth() + 1)}.${d.getFullYear()} ${time}`;
}

/** Where a reviewed position sits on the graph, -1 (Black winning) .. 1 (White winning), from
 * White's view: an unproven score in the inner band (|v| <= 0.85) on a log scale that still
 * tells +30 from +60 stones (a lead of 82 stones, more than half of them, reaches the band's
 * edge), a proven win or loss in the outer band, further out for a larger final margin. So the
 * graph keeps moving after one side is lost instead of lying flat on the edge. A result the
 * endgame tables know counts as proven. */
export function graph_value(white: Score | null | undefined, white_cp_value: number): number {
  const p = white?.proven ?? white?.table;
  if (!p) {
    const cp = white?.white_cp ?? white_cp_value;
    const f = Math.min(1, Math.log1p(Math.abs(cp) / 500) / Math.log1p(8200 / 500));
    return 0.85 * Math.sign(cp) * f;
  }
  if (p.result === "draw") return 0;
  const sign = p.result === "win" ? 1 : -1;
  const margin = p.margin === null ? 20 : Math.abs(p.margin);
  return sign * (0.88 + 0.12 * Math.tanh(margin / 30));
}

/** A result known to the end (proven by the solver, or known to the endgame tables) from
 * White's view: the winner ("draw" for a draw) and the final margin in stones when known; null
 * for the engine's estimate. The score is the side to move's: White is to move when cp and
 * white_cp agree (a won or lost score is never 0). */
export function known_result(score: Score | null | undefined): { winner: Side | "draw"; margin: number | null } | null {
  const r = score?.proven ?? score?.table ?? null;
  if (!score || !r) return null;
  if (r.result === "draw") return { winner: "draw", margin: 0 };
  const white_to_move = score.cp === score.white_cp;
  const winner: Side = (r.result === "win") === white_to_move ? "white" : "black";
  return { winner, margin: r.margin === null ? null : Math.abs(r.margin) };
}
