// The over-the-board events' HTTP calls and answers (docs/web-protocol.md "Over-the-board
// events"), and the arbiter keys this browser keeps (localStorage), which let it change an
// event.

import { call, call_text } from "../protocol/api.js";
import type { Score } from "../protocol/types.js";

export interface EventPlayer {
  name: string;
  rating: number;
  title: string;
  withdrawn?: boolean; // by the arbiter: not paired from the next round on
}
export interface EventBoard {
  white: number;
  black: number;
  result: string;
  moves: number;
}
/** What individual and team events have alike. */
export interface EventHead {
  id: string;
  name: string;
  site: string;
  date: string;
  system: "swiss" | "round-robin" | "double-round-robin";
  rounds: number;
}
export interface ArbiterEvent extends EventHead {
  tie_breaks: string[];
  players: EventPlayer[];
  played: { boards: EventBoard[]; byes: number[]; half_byes?: number[]; zero_byes?: number[] }[];
  /** tie_break_texts: the values as every page writes them (the server rounds them). */
  standings: { player: number; rank: number; points: string; tie_breaks: number[]; tie_break_texts?: string[] }[];
  bye_requests?: { player: number; round: number; kind: "half" | "zero" }[];
  forbidden?: [number, number][];
  max_half_byes?: number;
  half_bye_last_round?: boolean;
  accelerated_rounds?: number;
  forfeit_withdraws?: boolean;
  rated?: boolean; // once finished, its games go to the federation's rating list
  next: "players" | "pair" | "results" | "done";
}

/** A board of the round being played as the broadcast shows it (GET /api/events/<id>/live). */
export interface LiveBoard {
  white: number;
  black: number;
  result: string;
  moves: string[]; // as written, PlayOK's notation
  position: string;
  clocks: { white: string; black: string }; // as entered from the board's clock, "" none
  keepers: number; // keeper links that open this board
  // the engine's score of the position after half-move `ply`, eval_delay half-moves before the
  // current one; null while the delay is off, not reached or not yet searched
  eval: { ply: number; score: Score } | null;
}
export interface Live {
  round: number;
  boards: LiveBoard[];
  following: boolean;
  follow_error?: { line: number; detail: string };
  eval_delay: number; // half-moves; 0: no evaluation for spectators
}

/** A match of a team event: lineups are roster indexes, board b has lineup[b] (none: empty). */
export interface TeamMatch {
  home: number; // first-named team: White on boards 1, 3, 5...
  away: number;
  home_lineup: number[];
  away_lineup: number[];
  boards: { result: string; moves: number; home_white: boolean; forced: boolean }[];
  home_points: string;
  away_points: string;
  complete: boolean;
}
/** A team event (GET /api/team-events/<id>). */
export interface TeamEvent extends EventHead {
  boards: number;
  scoring: "match-points" | "board-points";
  tie_breaks: string[]; // short names: MP, BP, TSB, DE, BH
  teams: { name: string; rating: number; withdrawn: boolean; roster: EventPlayer[] }[];
  played: { matches: TeamMatch[]; byes: number[] }[];
  standings: { team: number; rank: number; match_points: number; board_points: string; tie_breaks: number[]; tie_break_texts: string[] }[];
  board_prizes: { team: number; player: number; points: string; scored: number; games: number }[][];
  rated?: boolean; // once finished, its board games go to the federation's rating list
  next: "teams" | "pair" | "results" | "done";
}

const K_KEYS = "toguz.arbiter_keys"; // {event id: {key, name, team}}

type Keys = Record<string, { key: string; name: string; team?: boolean }>;
export function keys(): Keys {
  try {
    const v = JSON.parse(localStorage.getItem(K_KEYS) ?? "{}") as unknown;
    return v && typeof v === "object" ? (v as Keys) : {};
  } catch {
    return {};
  }
}
export function keep_key(id: string, key: string, name: string, team = false) {
  const all = keys();
  all[id] = team ? { key, name, team } : { key, name };
  try {
    localStorage.setItem(K_KEYS, JSON.stringify(all));
  } catch {
    /* storage may be unavailable: the link still works */
  }
}

/** The URL of an event, or of one of its pages (rest: "/standings", "/tgk", ...). */
export const event_path = (id: string, rest = "") => `/api/events/${encodeURIComponent(id)}${rest}`;
export const arbiter_api = {
  create: (body: Record<string, unknown>) => call<{ id: string; key: string; event: ArbiterEvent }>("POST", "/api/events", body),
  /** A new event read from an exchange file (TRF) by the server; the importer holds its key. */
  import_trf: (trf: string) => call<{ id: string; key: string; event: ArbiterEvent }>("POST", "/api/events/import", { trf }),
  /** The event's exchange file (TRF): the arbiter's only, as it holds the players' ids. */
  trf: (id: string, key: string) => call_text("POST", event_path(id, "/trf"), { key }),
  get: (id: string) => call<{ event: ArbiterEvent }>("GET", event_path(id)),
  post: (id: string, action: string, body: Record<string, unknown>) =>
    call<{ event: ArbiterEvent; live: Live; token?: string; board?: number }>("POST", event_path(id, `/${action}`), body),
  live: (id: string) => call<{ event: ArbiterEvent; live: Live }>("GET", event_path(id, "/live")),
};

/** The URL of a team event, or of one of its pages (rest: "/standings", "/tgk", ...). */
export const team_event_path = (id: string, rest = "") => `/api/team-events/${encodeURIComponent(id)}${rest}`;
export const team_api = {
  create: (body: Record<string, unknown>) => call<{ id: string; key: string; event: TeamEvent }>("POST", "/api/team-events", body),
  get: (id: string) => call<{ event: TeamEvent }>("GET", team_event_path(id)),
  post: (id: string, action: string, body: Record<string, unknown>) => call<{ event: TeamEvent }>("POST", team_event_path(id, `/${action}`), body),
  /** A new team event read from an exchange file (TRF) by the server; the importer holds its key. */
  import_trf: (trf: string) => call<{ id: string; key: string; event: TeamEvent }>("POST", "/api/team-events/import", { trf }),
  /** The team event's exchange file (TRF): the arbiter's only, as it holds the players' ids. */
  trf: (id: string, key: string) => call_text("POST", team_event_path(id, "/trf"), { key }),
};
