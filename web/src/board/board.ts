// The board as on a real one, drawn as one SVG: the opponent's row at the top (his hole 1 on
// the right, facing our hole N), the two kaznas in the middle (ours nearer to us), our row at the
// bottom numbered 1..N from the left. Every stone is drawn; counts are written beside each hole.
// For a screen reader the SVG is a group of named holes in reading order (the top row from its
// hole 1, then the bottom row from its hole 1, then the kaznas), the legal ones buttons; the
// written counts are hidden from it, as each hole's name says its count.

import type { Board, Side } from "../protocol/types.js";
import { t } from "../i18n/index.js";

export interface BoardView {
  board: Board;
  bottom: Side; // whose row is drawn at the bottom
  legal: Set<number>; // holes of the side to move that may be played now
  to_move: Side;
  last: { from: { side: Side; hole: number }; to: { side: Side; hole: number } } | null;
  hint: number | null; // a hole of the side to move
  trail: { side: Side; hole: number } | null; // the hole a sowing animation is in
  names: { white: string; black: string };
}

const HW = 72; // hole pitch
const HOLE_W = 62;
const HOLE_H = 150;
const KAZ_H = 56;
const PAD = 12;
const LABEL = 26;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Stone centres for k stones inside a w x h box: columns of up to 3, as many rows as fit. */
function stone_spots(k: number, w: number, h: number): { r: number; pts: [number, number][] } {
  const cols = k <= 8 ? 2 : 3;
  let r = cols === 2 ? 9 : 8;
  let rows = Math.ceil(k / cols);
  while (rows * (2 * r + 1) > h - 8 && r > 3.5) {
    r -= 0.5;
  }
  const maxRows = Math.floor((h - 8) / (2 * r + 1));
  rows = Math.min(rows, maxRows);
  const pts: [number, number][] = [];
  const cw = 2 * r + 2;
  const x0 = (w - cols * cw) / 2 + r + 1;
  const y0 = h - 4 - r;
  for (let i = 0; i < Math.min(k, rows * cols); i++) {
    const row = Math.floor(i / cols);
    const col = i % cols;
    // a little irregularity, as real stones lie, but fixed for a given count
    const jx = ((i * 37) % 5) - 2;
    const jy = ((i * 53) % 3) - 1;
    pts.push([x0 + col * cw + jx * 0.6, y0 - row * (2 * r + 1) + jy * 0.6]);
  }
  return { r, pts };
}

/** The SVG markup of the board for view. */
export function board_svg(v: BoardView): string {
  const n = v.board.white.length;
  const W = PAD * 2 + n * HW;
  const H = PAD * 2 + LABEL * 2 + HOLE_H * 2 + KAZ_H * 2 + 24;
  const top: Side = v.bottom === "white" ? "black" : "white";
  const parts: string[] = [];
  parts.push(
    `<svg class="board-svg" viewBox="0 0 ${W} ${H}" xmlns="http://www.w3.org/2000/svg" role="group" aria-label="${esc(t("a_board"))}">`,
  );
  parts.push(`<rect class="wood" x="0" y="0" width="${W}" height="${H}" rx="18"/>`);

  const row_y = { top: PAD + LABEL, bottom: H - PAD - LABEL - HOLE_H };
  const kaz_y = { top: row_y.top + HOLE_H + 8, bottom: row_y.top + HOLE_H + 16 + KAZ_H };

  const hole = (side: Side, hole: number, x: number, y: number, at_top: boolean) => {
    const count = v.board[side][hole - 1];
    // a tuz on this row belongs to the other side: board.tuz[other] == hole
    const owner: Side = side === "white" ? "black" : "white";
    const is_tuz = v.board.tuz[owner] === hole;
    const legal = v.to_move === side && v.legal.has(hole);
    const cls = ["hole", `row-${side}`];
    if (legal) cls.push("legal");
    if (is_tuz) cls.push("tuz", `tuz-${owner}`);
    if (v.last && v.last.from.side === side && v.last.from.hole === hole) cls.push("last-from");
    if (v.last && v.last.to.side === side && v.last.to.hole === hole) cls.push("last-to");
    if (v.hint !== null && v.to_move === side && v.hint === hole) cls.push("hint");
    if (v.trail && v.trail.side === side && v.trail.hole === hole) cls.push("trail");
    const label = `${t(side)} ${t("hole")} ${hole}: ${count}`;
    parts.push(
      `<g class="${cls.join(" ")}" data-side="${side}" data-hole="${hole}" data-count="${count}"` +
        (legal ? ` role="button" tabindex="0"` : ` role="img"`) +
        ` aria-label="${esc(label)}" transform="translate(${x},${y})">`,
    );
    parts.push(`<rect class="pit" x="0" y="0" width="${HOLE_W}" height="${HOLE_H}" rx="28"/>`);
    if (is_tuz) {
      parts.push(
        `<g class="tuz-mark"><line x1="16" y1="${HOLE_H / 2 - 16}" x2="${HOLE_W - 16}" y2="${HOLE_H / 2 + 16}"/>` +
          `<line x1="${HOLE_W - 16}" y1="${HOLE_H / 2 - 16}" x2="16" y2="${HOLE_H / 2 + 16}"/></g>` +
          `<text class="tuz-label" x="${HOLE_W / 2}" y="${HOLE_H / 2 + 38}">${esc(t("tuz"))}</text>`,
      );
    } else {
      const { r, pts } = stone_spots(count, HOLE_W, HOLE_H);
      // stones settle at the end of the hole nearer its owner
      for (const [sx, sy] of pts) {
        const yy = at_top ? HOLE_H - sy : sy;
        parts.push(`<circle class="stone" cx="${sx.toFixed(1)}" cy="${yy.toFixed(1)}" r="${r}"/>`);
      }
    }
    parts.push(`</g>`);
    // count and hole number outside the hole
    const ly = at_top ? y - 8 : y + HOLE_H + 19;
    parts.push(
      `<text class="count" x="${x + HOLE_W / 2}" y="${ly}" aria-hidden="true">` +
        `<tspan class="num">${hole}</tspan><tspan class="cnt" dx="6">${is_tuz ? "×" : count}</tspan></text>`,
    );
  };

  // the top row's hole h is drawn in column n - h, the bottom row's in column h - 1
  const x_of = (column: number) => PAD + column * HW + (HW - HOLE_W) / 2;
  for (let h = 1; h <= n; h++) hole(top, h, x_of(n - h), row_y.top, true);
  for (let h = 1; h <= n; h++) hole(v.bottom, h, x_of(h - 1), row_y.bottom, false);

  const kazna = (side: Side, y: number) => {
    const k = v.board.kazna[side];
    const w = n * HW - 70;
    const label = `${t("kazna")} ${t(side)}: ${k}`;
    parts.push(`<g class="kazna kazna-${side}" data-side="${side}" data-count="${k}" role="img" aria-label="${esc(label)}" transform="translate(${PAD + 4},${y})">`);
    parts.push(`<rect class="tray" x="0" y="0" width="${w}" height="${KAZ_H}" rx="${KAZ_H / 2}"/>`);
    const per_row = Math.max(1, Math.floor((w - 24) / 8));
    for (let i = 0; i < k; i++) {
      const row = Math.floor(i / per_row);
      if (row > 5) break;
      const col = i % per_row;
      parts.push(`<circle class="stone small" cx="${16 + col * 8}" cy="${KAZ_H - 9 - row * 8}" r="3.6"/>`);
    }
    parts.push(`</g>`);
    parts.push(
      `<text class="kazna-count" x="${PAD + w + 40}" y="${y + KAZ_H / 2 + 9}" aria-hidden="true">${k}</text>`,
    );
  };
  kazna(top, kaz_y.top);
  kazna(v.bottom, kaz_y.bottom);
  parts.push(`</svg>`);
  return parts.join("");
}
