// The home page's pure part (shell/home.ts draws it): whether an imported text is a position or
// a record, the game its forms ask for, and the "your turn" list. No DOM access and no fetch here
// (unit-tested in test/unit/shell.test.mjs).

import type { MyGame } from "../accounts/accounts_api.js";
import { time_left_text } from "../accounts/accounts_state.js";
import type { NewGame } from "../games/games_api.js";

/** Whether an imported text is a position: one line with a "/" between the rows; anything else
 * is a record. */
export function is_position_text(text: string): boolean {
  return !text.includes("\n") && /^[\dxX,]+\/[\dxX,]+\s/.test(text);
}

/** The home page's game forms as filled: the variant of each, the engine's level and colour,
 * the online game's name, colour, clock choice ("" none, "d<days>" correspondence,
 * "<initial ms>+<increment ms>") and rated box. */
export interface HomeForm {
  variant: string;
  level?: string;
  colour?: string;
  name?: string;
  clock?: string;
  rated?: boolean;
}

/** The game a home form asks for; `kept_name`: the name this browser keeps. */
export function new_game_of(kind: "engine" | "local" | "online", f: HomeForm, kept_name: string): NewGame {
  const g: NewGame = {
    mode: kind,
    variant: f.variant,
    tuz: f.variant === "standard",
    play_out: false,
    position: null,
    color: "white",
    level: 5,
    clock: null,
    name: kept_name || "",
  };
  if (kind === "engine") {
    g.level = Number(f.level);
    g.color = f.colour as NewGame["color"];
  } else if (kind === "online") {
    g.name = (f.name ?? "").trim();
    g.color = f.colour as NewGame["color"];
    const c = f.clock ?? "";
    if (c.startsWith("d")) {
      g.days_per_move = Number(c.slice(1)); // correspondence
    } else if (c) {
      const [a, b] = c.split("+").map(Number);
      g.clock = { initial_ms: a, increment_ms: b };
    }
    if (f.rated) g.rated = true;
  }
  return g;
}

/** The "your turn" list: the account's games waiting for its move, each with the time left to
 * move when it has a deadline (`left` null: the time is up). */
export function your_turn_rows(games: MyGame[], now: number): { game: MyGame; deadline: { left: string | null } | null }[] {
  return games
    .filter((g) => g.your_turn)
    .map((g) => ({ game: g, deadline: g.deadline_ms !== null ? { left: time_left_text(g.deadline_ms - now) } : null }));
}
