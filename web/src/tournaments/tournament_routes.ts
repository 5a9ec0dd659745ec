// The online tournaments' pages, a chunk of their own fetched on their first visit
// (shell/routes_state.ts): #/tournaments[/<id>].

import type { View } from "../shell/util.js";
import { TournamentView, TournamentsHomeView } from "./tournaments.js";

/** The view of the route `parts`, null when it names none of these pages. */
export function view_of(parts: string[]): View | null {
  if (parts[0] !== "tournaments") return null;
  return parts[1] ? new TournamentView(parts[1]) : new TournamentsHomeView();
}
