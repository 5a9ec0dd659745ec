// The analysis board's variations on the game page (games/game.ts holds one): the move tree
// (move_tree.ts) of an analysis board or a finished game, the move shown when it is off the
// game's own line, the moves panel drawn from the tree, its buttons, the PGN export with the
// variations, and the tree kept for this tab (sessionStorage) across reloads. The variations
// are the page's own: nothing of them goes to the server or the opponent.

import { parse_position } from "../board/logic.js";
import { t } from "../i18n/index.js";
import type { Board, GameState, MoveRec, Side } from "../protocol/types.js";
import { esc } from "../shell/util.js";
import { is_over, mark_class, result_mark, view_at } from "./game_state.js";
import { store } from "./games_api.js";
import {
  add_move, delete_variation, go_back, go_end, go_forward, go_up, has_path, in_variation, legal_at, make_main, moves_to,
  path_of_holes, pgn_with_tree, position_at_path, promote, tree_cells, tree_from_movetext, tree_movetext, tree_of,
  with_line, type MoveTree, type TreeCell, type TreePath,
} from "./move_tree.js";

/** Whether a game has the variations board: an analysis board, or any game once it is over
 * (never a game being played: the moves there are the players'). */
export function variations_on(g: GameState): boolean {
  return g.mode === "analysis" || is_over(g);
}

/** Where a navigation or a move leads: the ply of the game's line to show (null: the live
 * one), the shown move being off it when `var_path` is set. */
export interface Place {
  view_ply: number | null;
}

/** The variations of one game page: its tree, the move shown when off the game's line, and
 * where the game's own line is in the tree (the page's view_ply counts along it). */
export class Variations {
  tree: MoveTree | null = null;
  var_path: TreePath | null = null; // the move shown when it is off the game's line
  private server_path: TreePath = []; // the game's own line in the tree

  constructor(private id: string) {}

  /** Follows a state of the game: the tree made (from this tab's copy, an imported record, or
   * the game's moves) once the game has the variations board, the game's moves merged in (a
   * new one makes the game's line the main line). */
  sync(g: GameState) {
    if (!variations_on(g)) {
      this.tree = null;
      this.var_path = null;
      return;
    }
    if (!this.tree || this.tree.start !== g.start_position) this.tree = this.load(g);
    let r = with_line(this.tree, g.moves);
    if (r.tree !== this.tree && in_variation(r.path)) {
      // a new move of the game itself (after a takeback on an analysis board): its line is the
      // main line again
      r = make_main(r.tree, r.path);
      this.var_path = null;
    }
    this.tree = r.tree;
    this.server_path = r.path;
    if (this.var_path && !has_path(this.tree, this.var_path)) this.var_path = null;
    this.save();
  }

  /** The stored tree of this tab (the game's moves since merged in), else the imported
   * record's when the game's moves are a line of it (the record the server read), else the
   * game's line alone. A text that does not read is left aside. */
  private load(g: GameState): MoveTree {
    const rules = { tuz: g.tuz, play_out: g.play_out };
    const read = (text: string | null) => {
      try {
        return text ? tree_from_movetext(g.start_position, rules, text) : null;
      } catch {
        return null;
      }
    };
    const imported = read(store.imported(this.id));
    const holds = imported && path_of_holes(imported, g.moves.map((m) => m.hole));
    return read(store.tree(this.id)) ?? (holds ? imported : null) ?? tree_of(g.start_position, rules);
  }

  /** Keeps the tree for this tab, as movetext. */
  private save() {
    if (this.tree) store.set_tree(this.id, tree_movetext(this.tree, "*"));
  }

  /** The path shown: the variation's move, else the game's line at `view_ply`. */
  shown_path(g: GameState, view_ply: number | null): TreePath {
    return this.var_path ?? this.server_path.slice(0, view_ply ?? g.ply);
  }

  /** Goes to `path`: on the game's line its ply (null: the live one), else the variation. */
  go(g: GameState, path: TreePath): Place {
    const on_line = path.length <= this.server_path.length && path.every((x, i) => x === this.server_path[i]);
    this.var_path = on_line ? null : path;
    if (on_line) return { view_ply: view_at(g, path.length) };
    let branch = 0;
    while (branch < path.length && path[branch] === this.server_path[branch]) branch++;
    return { view_ply: view_at(g, branch) };
  }

  /** A navigation from the move shown: the start, one back, one on, the end of its line, or up
   * into the parent line. */
  navigate(g: GameState, view_ply: number | null, to: "first" | "prev" | "next" | "last" | "up"): Place {
    const tree = this.tree!;
    const p = this.shown_path(g, view_ply);
    const next = to === "first" ? [] : to === "prev" ? go_back(p) : to === "next" ? go_forward(tree, p) : to === "last" ? go_end(tree, p) : go_up(p);
    return this.go(g, next);
  }

  /** Plays `hole` at the move shown (a variation, or the line's own next move); null when it is
   * not legal there. */
  play(g: GameState, view_ply: number | null, hole: number): Place | null {
    const r = add_move(this.tree!, this.shown_path(g, view_ply), hole);
    if (!r) return null;
    this.tree = r.tree;
    this.save();
    return this.go(g, r.path);
  }

  /** Promotes the variation shown one level, makes it the main line, or deletes it. */
  edit(g: GameState, view_ply: number | null, what: "promote" | "main" | "delete"): Place {
    const p = this.shown_path(g, view_ply);
    const r = what === "promote" ? promote(this.tree!, p) : what === "main" ? make_main(this.tree!, p) : delete_variation(this.tree!, p);
    if (!r) return { view_ply };
    this.tree = r.tree;
    this.server_path = with_line(r.tree, g.moves).path;
    this.save();
    return this.go(g, r.path);
  }

  /** The holes playable at the move shown (none where the game ended). */
  legal(g: GameState, view_ply: number | null): number[] {
    return this.tree ? legal_at(this.tree, this.shown_path(g, view_ply)) : [];
  }

  /** The variation's position shown (null on the game's line): its board, side to move, ply
   * and last move. */
  shown(): { board: Board; to_move: Side; ply: number; last: MoveRec | null; text: string } | null {
    if (!this.tree || !this.var_path) return null;
    const text = position_at_path(this.tree, this.var_path);
    const p = parse_position(text);
    const moves = moves_to(this.tree, this.var_path);
    return { board: p.board, to_move: p.to_move, ply: this.var_path.length, last: moves[moves.length - 1] ?? null, text };
  }

  /** The moves panel: the tree's moves as buttons (the game's own moves also with their ply
   * and review mark), the variations in parentheses, the buttons of the variation shown. */
  panel_html(g: GameState, view_ply: number | null, marks: Map<number, string>): string {
    const shown = this.shown_path(g, view_ply);
    const line_ply = (p: TreePath) =>
      p.length <= this.server_path.length && p.every((x, i) => x === this.server_path[i]) ? p.length : null;
    const cell = (c: TreeCell): string => {
      if (c.kind === "num") return `<span class="mnum">${c.n}.</span>`;
      if (c.kind === "gap") return `<span class="mv empty">…</span>`;
      if (c.kind === "open" || c.kind === "close") return `<span class="paren">${c.kind === "open" ? "(" : ")"}</span>`;
      if (c.kind === "vars") return `<div class="vars" role="group" aria-label="${esc(t("variations"))}">${c.items.map((x, i) => (i > 0 && x.kind !== "close" && c.items[i - 1].kind !== "open" ? " " : "") + cell(x)).join("")}</div>`;
      const ply = line_ply(c.path);
      const mark = ply !== null ? marks.get(ply) : undefined;
      const name = c.depth > 0 ? `${t("variation")}: ${c.text}` : c.text;
      const at = ply !== null ? ` data-goto="${ply}" data-ply="${ply}"` : "";
      const cls = `mv${c.current ? " current" : ""}${mark ? ` mark-${mark_class(mark)}` : ""}${c.depth > 0 ? " var" : ""}`;
      return `<button type="button" class="${cls}" data-path="${c.path.join(".")}"${at} aria-label="${esc(name)}"${c.current ? ' aria-current="true"' : ""}>${esc(c.depth > 0 ? c.text : c.notation)}${mark ? `<sup>${esc(mark)}</sup>` : ""}</button>`;
    };
    const cells = tree_cells(this.tree!, shown).map(cell);
    if (g.result && g.status === "over") cells.push(`<span class="mres">${result_mark(g.result.winner)}</span>`);
    const b = (action: string, label: string) => `<button type="button" data-action="${action}">${esc(label)}</button>`;
    const tools = in_variation(shown)
      ? `<div class="var-tools" id="var-tools">${b("var-up", t("var_up"))} ${b("var-promote", t("var_promote"))} ${b("var-main", t("var_main"))} ${b("var-delete", t("var_delete"))}</div>`
      : "";
    return `<div class="moves tree" id="moves" data-count="${g.moves.length}" data-variation="${this.var_path ? 1 : 0}">${cells.join("")}</div>${tools}`;
  }

  /** The PGN of the game with the tree's moves: the server's tags over the tree's movetext;
   * the result kept while the main line is the game's own, else `*`. */
  pgn(g: GameState, server_pgn: string): string {
    const main = go_end(this.tree!, []);
    const same = main.length === g.moves.length && this.server_path.every((x) => x === 0);
    const tag = /^\s*\[Result "([^"]*)"\]/m.exec(server_pgn)?.[1] ?? "*";
    const result = same ? tag : "*";
    return pgn_with_tree(server_pgn, tree_movetext(this.tree!, result), result);
  }
}
