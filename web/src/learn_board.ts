// What the puzzle and study pages share: the board of a position string with the last move
// marked, and an analysis board opened from a position (as the editor does: POST /api/import).

import { api, store } from "./api";
import { board_svg } from "./board";
import { error_text, t } from "./i18n";
import { parse_position } from "./logic";
import type { MoveRec, Side } from "./types";
import { toast } from "./util";

/** The board of `position` seen from `bottom`'s side, `last` marked, `legal` playable. */
export function position_svg(position: string, bottom: Side, last: MoveRec | null, legal: number[] = []): string {
  const p = parse_position(position);
  return board_svg({
    board: p.board,
    bottom,
    legal: new Set(legal),
    to_move: p.to_move,
    last: last ? { from: last.from, to: last.to } : null,
    hint: null,
    trail: null,
    names: { white: t("white"), black: t("black") },
  });
}

/** Opens an analysis board of `position` (a new analysis game of this browser). */
export async function open_analysis(position: string): Promise<void> {
  try {
    const r = await api.import_position(position);
    store.set_token(r.id, r.token);
    location.hash = `#/game/${r.id}/${r.token}`;
  } catch (e) {
    toast(error_text(e), "error");
  }
}
