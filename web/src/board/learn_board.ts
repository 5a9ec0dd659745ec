// What the puzzle, study and explorer pages share with the game screen: the board of a position
// string with the last move marked, an analysis board opened from a position (as the editor
// does: POST /api/import), and a score in words from White's view.

import { api, store } from "../games/games_api.js";
import { board_svg } from "./board.js";
import { error_text, t } from "../i18n/index.js";
import { cp_text, known_result, parse_position } from "./logic.js";
import type { MoveRec, Score, Side } from "../protocol/types.js";
import { toast } from "../shell/util.js";

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

/** A score from White's view: "White wins by 6" when the solver or the endgame tables know the
 * result ("White wins" without a known margin, "Draw"), else White's expected margin ("+1.25"). */
export function eval_label(score: Score): string {
  const k = known_result(score);
  if (!k) return cp_text(score.white_cp);
  if (k.winner === "draw") return t("drawn");
  return k.margin === null ? t("wins", { side: t(k.winner) }) : t("side_wins_by", { side: t(k.winner), n: k.margin });
}
