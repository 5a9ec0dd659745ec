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
export interface ArbiterEvent {
  id: string;
  name: string;
  site: string;
  date: string;
  system: "swiss" | "round-robin" | "double-round-robin";
  rounds: number;
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

const K_KEYS = "toguz.arbiter_keys"; // {event id: {key, name}}

type Keys = Record<string, { key: string; name: string }>;
export function keys(): Keys {
  try {
    const v = JSON.parse(localStorage.getItem(K_KEYS) ?? "{}") as unknown;
    return v && typeof v === "object" ? (v as Keys) : {};
  } catch {
    return {};
  }
}
export function keep_key(id: string, key: string, name: string) {
  const all = keys();
  all[id] = { key, name };
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
