// The current games list's pure part (games page, "Current games"): what each row shows, and
// which rows to add, change or remove when a new list comes (so the list updates in place).

/** One game of GET /api/games/live (docs/web-protocol.md "HTTP"). */
export interface LiveGame {
  id: string;
  white: string;
  black: string;
  rated: boolean;
  white_rating: number | null;
  black_rating: number | null;
  initial_ms: number;
  increment_ms: number;
  speed: string | null;
  variant: string;
  moves: number;
}

/** "Aigerim (1650)" in a rated game, the name alone otherwise. */
export function player_text(name: string, rating: number | null): string {
  return rating === null ? name : `${name} (${rating})`;
}

/** The time control as players write it: "5+2" (minutes + seconds), "0:30+0" under a minute. */
export function time_control_text(initial_ms: number, increment_ms: number): string {
  const s = Math.round(initial_ms / 1000);
  const base = s % 60 === 0 ? String(s / 60) : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  return `${base}+${Math.round(increment_ms / 1000)}`;
}

/** The cells of a row, in the table's order: white, black, time control, moves. */
export function row_cells(g: LiveGame): string[] {
  return [
    player_text(g.white, g.white_rating),
    player_text(g.black, g.black_rating),
    time_control_text(g.initial_ms, g.increment_ms),
    String(g.moves),
  ];
}

/** How the rows shown (by id, with their cells) become the new list: the ids to remove, and per
 * id of the new list, in its order, the cells to set (null: the row is unchanged). */
export function plan_rows(
  shown: Map<string, string[]>,
  games: LiveGame[],
): { remove: string[]; rows: { id: string; cells: string[] | null }[] } {
  const ids = new Set(games.map((g) => g.id));
  const remove = [...shown.keys()].filter((id) => !ids.has(id));
  const rows = games.map((g) => {
    const cells = row_cells(g);
    const old = shown.get(g.id);
    const same = old !== undefined && old.length === cells.length && old.every((c, i) => c === cells[i]);
    return { id: g.id, cells: same ? null : cells };
  });
  return { remove, rows };
}
