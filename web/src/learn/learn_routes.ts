// The learning pages and the position editor, a chunk of their own fetched on their first visit
// (shell/routes_state.ts): #/puzzles[/<id>], #/studies[/<n>], #/explorer[/<position>], #/editor.

import { EditorView } from "../games/editor.js";
import type { View } from "../shell/util.js";
import { ExplorerView } from "./explorer.js";
import { PuzzlesView } from "./puzzles.js";
import { StudiesView } from "./studies.js";

/** The view of the route `parts`, null when it names none of these pages. */
export function view_of(parts: string[]): View | null {
  const [head, a] = parts;
  if (head === "puzzles") return new PuzzlesView(a);
  if (head === "studies") return new StudiesView(a ? Number(a) : null);
  if (head === "explorer") return new ExplorerView(a ?? "");
  if (head === "editor") return new EditorView();
  return null;
}
