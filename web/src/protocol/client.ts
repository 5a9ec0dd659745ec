// Every message the browser sends (docs/web-protocol.md, "Client to server"): one union on
// `type`, so the sockets' send() take nothing else and a misspelt type or a missing field fails
// the type check. The game socket (/ws/<id>, protocol/conn.ts) takes GameClientMessage, the
// lobby socket (/ws/lobby, lobby/lobby_socket.ts) LobbyClientMessage.

/** A clock offered in the lobby: minutes and the increment, in milliseconds. */
export interface ClockTerms {
  initial_ms: number;
  increment_ms: number;
}

export type Colour = "white" | "black" | "random";

/** The terms of a seek or a challenge. */
export interface TermsFields {
  variant: string;
  clock: ClockTerms | null;
  days_per_move: number | null;
  rated: boolean;
  color: Colour;
}

/** The game socket's requests that carry nothing but their type. */
export type GameAction =
  | "ping"
  | "sync"
  | "takeback"
  | "hint"
  | "resign"
  | "offer_draw"
  | "accept_draw"
  | "decline_draw"
  | "accept_takeback"
  | "decline_takeback"
  | "abort"
  | "rematch"
  | "claim_win"
  | "analyze_stop"
  | "review";

export type GameClientMessage =
  | { type: "hello"; token: string | null; deltas: boolean }
  | { type: "move"; hole: number; ply: number }
  | { type: "analyze"; multipv: number }
  | { type: "chat"; text: string }
  | { type: "chat_on"; on: boolean }
  | { type: GameAction };

export type LobbyClientMessage =
  | ({ type: "seek"; range: [number, number] | null } & TermsFields)
  | ({ type: "challenge"; to: string } & TermsFields)
  | { type: "cancel" | "accept" | "challenge_accept" | "challenge_decline" | "challenge_cancel"; id: string }
  | { type: "pool_join"; pool: string; range: [number, number] | null }
  | { type: "pool_leave" | "ping" };

export type ClientMessage = GameClientMessage | LobbyClientMessage;
