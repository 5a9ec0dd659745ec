// A federation's rating lists, a chunk of their own fetched on their first visit
// (shell/routes_state.ts): #/ratings[/<list>[/player/<n>|/event/<n>|/names]].

import type { View } from "../shell/util.js";
import { RatingEventView, RatingListView, RatingNamesView, RatingPlayerView, RatingsHomeView } from "./ratings.js";

/** The view of the route `parts`, null when it names none of these pages. */
export function view_of(parts: string[]): View | null {
  const [head, list, what, n] = parts;
  if (head !== "ratings") return null;
  if (!list) return new RatingsHomeView();
  if (what === "player") return new RatingPlayerView(list, Number(n));
  if (what === "event") return new RatingEventView(list, Number(n));
  if (what === "names") return new RatingNamesView(list);
  return new RatingListView(list);
}
