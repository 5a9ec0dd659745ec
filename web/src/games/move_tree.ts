// The analysis board's move tree (games/game.ts draws it): the main line and variations at any
// depth, as lichess's analysis board keeps them. A node is a move with the moves that may
// follow it, the first of them its line's continuation, the others variations. A place in the
// tree is a path: the child index taken at each step from the start ([] the start, all zeros
// the main line). Every operation returns a new tree (and path); none changes its argument.
// Also the tree as PGN movetext with RAV parentheses and back. Unit-tested in
// test/unit/move_tree.test.mjs.

import { parse_position } from "../board/logic.js";
import { board_end, legal_holes, play_hole, type BoardEnd, type PlayRules } from "../board/play.js";
import type { MoveRec } from "../protocol/types.js";

/** A move of the tree with the moves that may follow it (the first: its line's next move). */
export interface TreeNode {
  move: MoveRec;
  children: TreeNode[];
}

/** The whole tree: the start position, the rules its moves are played under and the first
 * moves (the first: the main line's). */
export interface MoveTree {
  start: string;
  rules: PlayRules;
  children: TreeNode[];
}

export type TreePath = number[];

/** A tree holding one line: `moves` played from `start`. */
export function tree_of(start: string, rules: PlayRules, moves: MoveRec[] = []): MoveTree {
  return with_line({ start, rules, children: [] }, moves).tree;
}

/** The children at `path` (the first moves for []), or null for a path not in the tree. */
function children_at(tree: MoveTree, path: TreePath): TreeNode[] | null {
  let kids = tree.children;
  for (const i of path) {
    const node = kids[i];
    if (!node) return null;
    kids = node.children;
  }
  return kids;
}

/** Whether `path` names a place in the tree. */
export function has_path(tree: MoveTree, path: TreePath): boolean {
  return children_at(tree, path) !== null;
}

/** The moves from the start to `path`, in order. */
export function moves_to(tree: MoveTree, path: TreePath): MoveRec[] {
  const out: MoveRec[] = [];
  let kids = tree.children;
  for (const i of path) {
    out.push(kids[i].move);
    kids = kids[i].children;
  }
  return out;
}

/** The position text at `path` (the start for []). */
export function position_at_path(tree: MoveTree, path: TreePath): string {
  const m = moves_to(tree, path);
  return m.length ? m[m.length - 1].position : tree.start;
}

/** The positions from the start up to before `path`'s own (what a repetition looks back on). */
function earlier_positions(tree: MoveTree, path: TreePath): string[] {
  return [tree.start, ...moves_to(tree, path).map((m) => m.position)].slice(0, -1);
}

/** How the game stands at `path`: ended on the board (decided, no move, repetition) or null. */
export function end_at(tree: MoveTree, path: TreePath): BoardEnd | null {
  if (path.length === 0) return null;
  return board_end(position_at_path(tree, path), earlier_positions(tree, path), tree.rules);
}

/** The holes the side to move may play at `path`: none once the game has ended there. */
export function legal_at(tree: MoveTree, path: TreePath): number[] {
  if (end_at(tree, path)) return [];
  const p = parse_position(position_at_path(tree, path));
  return legal_holes(p.board, p.to_move);
}

/** `tree` with the children at `path` replaced by `f` of them (the nodes on the way copied). */
function with_children(tree: MoveTree, path: TreePath, f: (kids: TreeNode[]) => TreeNode[]): MoveTree {
  const rebuild = (kids: TreeNode[], depth: number): TreeNode[] => {
    if (depth === path.length) return f(kids);
    const i = path[depth];
    return kids.map((node, j) => (j === i ? { move: node.move, children: rebuild(node.children, depth + 1) } : node));
  };
  return { ...tree, children: rebuild(tree.children, 0) };
}

/** Playing `hole` at `path`: onto the child with that move when there is one (the line goes
 * on, or an existing variation is entered), else a new last child (a variation, or the line's
 * next move where it had none). Null for a hole not legal there or after the end. */
export function add_move(tree: MoveTree, path: TreePath, hole: number): { tree: MoveTree; path: TreePath } | null {
  const kids = children_at(tree, path);
  if (!kids || !legal_at(tree, path).includes(hole)) return null;
  const known = kids.findIndex((c) => c.move.hole === hole);
  if (known >= 0) return { tree, path: [...path, known] };
  const move = play_hole(position_at_path(tree, path), hole, tree.rules);
  if (!move) return null;
  return { tree: with_children(tree, path, (k) => [...k, { move, children: [] }]), path: [...path, kids.length] };
}

/** `moves` (a game's own line, as the server sends it) followed from the start: each onto the
 * child with that hole, or added as the last child (the server's move kept as it came). The
 * path of the line's end. */
export function with_line(tree: MoveTree, moves: MoveRec[]): { tree: MoveTree; path: TreePath } {
  let t = tree;
  const path: TreePath = [];
  for (const mv of moves) {
    const kids = children_at(t, path)!;
    const known = kids.findIndex((c) => c.move.hole === mv.hole);
    if (known >= 0) {
      path.push(known);
      continue;
    }
    t = with_children(t, path, (k) => [...k, { move: mv, children: [] }]);
    path.push(kids.length);
  }
  return { tree: t, path };
}

/** One move back (the start stays). */
export function go_back(path: TreePath): TreePath {
  return path.slice(0, -1);
}

/** One move on along the line: the first child, or where it is at the line's end. */
export function go_forward(tree: MoveTree, path: TreePath): TreePath {
  return children_at(tree, path)?.length ? [...path, 0] : path;
}

/** The end of the line `path` is on: its first children followed to the last. */
export function go_end(tree: MoveTree, path: TreePath): TreePath {
  const out = [...path];
  for (let kids = children_at(tree, out); kids && kids.length; kids = kids[0].children) out.push(0);
  return out;
}

/** The index in `path` of the innermost variation's first move (-1 on the main line). */
function variation_start(path: TreePath): number {
  for (let i = path.length - 1; i >= 0; i--) if (path[i] !== 0) return i;
  return -1;
}

/** Up into the parent line: the position the innermost variation branches from (`path` itself
 * on the main line). */
export function go_up(path: TreePath): TreePath {
  const i = variation_start(path);
  return i < 0 ? path : path.slice(0, i);
}

/** Whether `path` is inside a variation (not on the main line). */
export function in_variation(path: TreePath): boolean {
  return variation_start(path) >= 0;
}

/** The innermost variation holding `path` promoted one level: its first move becomes its
 * parent line's continuation and that line becomes a variation (promoted again and again, it
 * becomes the main line). Null on the main line. */
export function promote(tree: MoveTree, path: TreePath): { tree: MoveTree; path: TreePath } | null {
  const i = variation_start(path);
  if (i < 0) return null;
  const at = path[i];
  const t = with_children(tree, path.slice(0, i), (k) => [k[at], ...k.slice(0, at), ...k.slice(at + 1)]);
  return { tree: t, path: [...path.slice(0, i), 0, ...path.slice(i + 1)] };
}

/** The line through `path` made the main line: promoted until it is. */
export function make_main(tree: MoveTree, path: TreePath): { tree: MoveTree; path: TreePath } {
  let r = { tree, path };
  for (let p = promote(r.tree, r.path); p; p = promote(r.tree, r.path)) r = p;
  return r;
}

/** The innermost variation holding `path` deleted, with every move after it; the path goes to
 * where it branched. Null on the main line. */
export function delete_variation(tree: MoveTree, path: TreePath): { tree: MoveTree; path: TreePath } | null {
  const i = variation_start(path);
  if (i < 0) return null;
  const at = path[i];
  return { tree: with_children(tree, path.slice(0, i), (k) => k.filter((_, j) => j !== at)), path: path.slice(0, i) };
}

/** Whether the tree has any variation (a node with more than one child). */
export function has_variations(tree: MoveTree): boolean {
  const any = (kids: TreeNode[]): boolean => kids.length > 1 || kids.some((k) => any(k.children));
  return any(tree.children);
}

/** The path of the line a sequence of holes follows from the start, or null when it leaves the
 * tree. */
export function path_of_holes(tree: MoveTree, holes: number[]): TreePath | null {
  const path: TreePath = [];
  let kids = tree.children;
  for (const h of holes) {
    const i = kids.findIndex((c) => c.move.hole === h);
    if (i < 0) return null;
    path.push(i);
    kids = kids[i].children;
  }
  return path;
}

// ---- PGN movetext with variations -----------------------------------------------------------

/** A move as PGN writes it: its number before White's move, and before Black's where a line
 * starts or goes on after a variation (`12...`). */
function move_token(m: MoveRec, numbered: boolean): string {
  const after = parse_position(m.position).move_number;
  if (m.side === "white") return `${after}. ${m.notation}`;
  return numbered ? `${after - 1}... ${m.notation}` : m.notation;
}

/** One item of the tree written out: a move (with whether PGN numbers it here) or a
 * variation's parenthesis. */
type LineItem = { kind: "move"; path: TreePath; move: MoveRec; numbered: boolean } | { kind: "open" } | { kind: "close" };

/** The items of a line from `kids` (the children at `path`) on, each move's variations in
 * parentheses right after it (PGN's RAV, as lichess and ChessBase write them). */
function line_items(kids: TreeNode[], path: TreePath, numbered: boolean, out: LineItem[]): LineItem[] {
  let force = numbered;
  for (let k = kids, p = path; k.length; p = [...p, 0], k = k[0].children) {
    out.push({ kind: "move", path: [...p, 0], move: k[0].move, numbered: force });
    force = false;
    k.slice(1).forEach((v, j) => {
      out.push({ kind: "open" }, { kind: "move", path: [...p, j + 1], move: v.move, numbered: true });
      line_items(v.children, [...p, j + 1], false, out);
      out.push({ kind: "close" });
      force = true;
    });
  }
  return out;
}

/** The tree as PGN movetext: the main line with every variation in parentheses, then `result`
 * (`1-0`, `0-1`, `1/2-1/2`, `*`). The server's record reader reads its main line (it skips
 * text in parentheses), tree_from_movetext all of it. */
export function tree_movetext(tree: MoveTree, result: string): string {
  const words = line_items(tree.children, [], true, []).map((i) =>
    i.kind === "open" ? "(" : i.kind === "close" ? ")" : move_token(i.move, i.numbered),
  );
  return [...words, result].join(" ").replace(/\( /g, "(").replace(/ \)/g, ")");
}

/** One cell of the moves panel: a main-line move number, the empty half before a Black move,
 * a move (`text` numbered as PGN would inside a variation), a variation's parenthesis, or a
 * block of variations (a row of its own between main-line moves). */
export type TreeCell =
  | { kind: "num"; n: number }
  | { kind: "gap" }
  | { kind: "move"; path: TreePath; notation: string; text: string; depth: number; current: boolean }
  | { kind: "open" }
  | { kind: "close" }
  | { kind: "vars"; items: TreeCell[] };

/** The moves panel of `tree` with the move at `current` marked: the main line in numbered pairs,
 * its variations as blocks of nested parentheses after the move they replace. */
export function tree_cells(tree: MoveTree, current: TreePath): TreeCell[] {
  const key = current.join(".");
  const cells: TreeCell[] = [];
  let block: TreeCell[] | null = null;
  let depth = 0;
  let after_block = true; // the next Black move of the main line starts its own row
  for (const it of line_items(tree.children, [], true, [])) {
    if (it.kind !== "move") {
      depth += it.kind === "open" ? 1 : -1;
      if (!block) {
        const items: TreeCell[] = [];
        cells.push({ kind: "vars", items });
        block = items;
      }
      block.push({ kind: it.kind });
      continue;
    }
    const cell: TreeCell = { kind: "move", path: it.path, notation: it.move.notation, text: move_token(it.move, it.numbered), depth, current: it.path.join(".") === key };
    if (depth > 0) {
      block!.push(cell);
      continue;
    }
    const n = parse_position(it.move.position).move_number - (it.move.side === "black" ? 1 : 0);
    if (it.move.side === "white") cells.push({ kind: "num", n });
    else if (block || after_block) cells.push({ kind: "num", n }, { kind: "gap" });
    cells.push(cell);
    block = null;
    after_block = false;
  }
  return cells;
}

/** A PGN's movetext (tags, comments, move numbers, marks and results skipped) read into a tree
 * from `start`, the variations in parentheses kept. Throws an Error naming the token for a move
 * that is not legal where it stands or lands elsewhere than written, or an unbalanced
 * parenthesis. */
export function tree_from_movetext(start: string, rules: PlayRules, text: string): MoveTree {
  const body = text.split(/\r?\n/).filter((l) => !/^\s*\[/.test(l)).join("\n");
  const tokens = body.match(/\{[^}]*\}|\(\s*\d{1,3}\s*\)|[()]|[^\s(){},]+/g) ?? [];
  let tree: MoveTree = { start, rules, children: [] };
  let path: TreePath = [];
  const stack: TreePath[] = [];
  for (const tok of tokens) {
    if (tok === "(") {
      stack.push(path);
      path = go_back(path);
    } else if (tok === ")") {
      const back = stack.pop();
      if (!back) throw new Error(`record: ')' without '('`);
      path = back;
    } else if (/^(1-0|0-1|1\/2-1\/2|\*)$/.test(tok)) {
      if (!stack.length) break; // the game's end: a record's next game is not read
    } else if (/^[1-9]/.test(tok.replace(/^\d+\.+/, ""))) {
      // a move ("65(10)", "27X", glued to its number "12.65"): its hole, then where it lands
      const mv = tok.replace(/^\d+\.+/, "");
      const r = add_move(tree, path, Number(mv[0]));
      const made = r && moves_to(r.tree, r.path)[r.path.length - 1].notation;
      if (!r || !made || (/^\d\d/.test(mv) && made.slice(0, 2) !== mv.slice(0, 2)))
        throw new Error(`record: move '${tok}' is not ${r ? `${made} as played` : "legal there"}`);
      ({ tree, path } = r);
    }
  }
  if (stack.length) throw new Error("record: '(' is never closed");
  return tree;
}

/** A PGN: the tag lines of `server_pgn` (the game's record), its Result tag set to `result`,
 * then `movetext` wrapped at 79 characters. */
export function pgn_with_tree(server_pgn: string, movetext: string, result: string): string {
  const tags = server_pgn
    .split(/\r?\n/)
    .filter((l) => /^\s*\[/.test(l))
    .map((l) => (/^\s*\[Result /.test(l) ? `[Result "${result}"]` : l));
  const lines: string[] = [];
  let line = "";
  for (const w of movetext.split(" ")) {
    if (line && line.length + 1 + w.length > 79) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return `${tags.join("\n")}\n\n${lines.join("\n")}\n`;
}
