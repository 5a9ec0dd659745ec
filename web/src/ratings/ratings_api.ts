// The rating lists' HTTP calls and answers (docs/ratings-federation.md "On the site"): what
// `toguz ratings compute` wrote, as the server serves it from --ratings-dir.

import { call } from "../protocol/api.js";
import { lang } from "../i18n/index.js";
import type { ListRow } from "./ratings_state.js";

export interface ListSummary {
  id: string;
  heading: string;
  players: number;
  events: number;
}
export interface EventSummary {
  name: string;
  site: string;
  date: string;
  period: string;
  games: number;
}
export interface RatingList {
  id: string;
  heading: string;
  columns: string[]; // the print page's column names in the page's language
  list: ListRow[];
  events: EventSummary[];
  periods: { period: string; games: number; rated_changes: number; new_ratings: number }[];
}
export interface HistoryEntry {
  period: string;
  event: string;
  event_index: number | null;
  date: string;
  round: string;
  opponent: number;
  opponent_name: string;
  opponent_region: string;
  opponent_rating: number | null;
  score: number;
  use: "rated" | "initial" | "unrated";
  expected?: number;
  k?: number;
  change?: number;
}
export interface RatedPlayer {
  index: number;
  number: number; // 0: not on the list
  name: string;
  region: string;
  id: string;
  title: string;
  before: number | null;
  after: number | null;
  games: number;
  names: string[];
  history: HistoryEntry[];
}
export interface EventLine {
  player: number;
  name: string;
  region: string;
  rating: number | null;
  games: number;
  score: number;
  expected: number;
  k: number;
  change: number;
  initial_games: number;
  initial_score: number;
}
export interface NamesReport {
  skipped: { source: string; reason: string; detail: string }[];
  ambiguous: { names: { name: string; region: string; games: number; events: string[] }[]; reasons: string[] }[];
}

/** The URL of a list, or of one of its parts (rest: "/list.csv", "/players/3", ...). */
export const list_path = (id: string, rest = "") => `/api/ratings/${encodeURIComponent(id)}${rest}`;
export const print_path = (id: string) => `${list_path(id, "/print")}?lang=${lang()}`;
export const ratings_api = {
  lists: () => call<{ lists: ListSummary[] }>("GET", "/api/ratings"),
  list: (id: string) => call<RatingList>("GET", `${list_path(id)}?lang=${lang()}`),
  player: (id: string, n: number) => call<{ heading: string; player: RatedPlayer }>("GET", list_path(id, `/players/${n}`)),
  event: (id: string, n: number) => call<{ heading: string; event: EventSummary & { lines: EventLine[] } }>("GET", list_path(id, `/events/${n}`)),
  names: (id: string) => call<NamesReport>("GET", list_path(id, "/names")),
};
