// The JSON shapes of docs/web-protocol.md, as the browser reads them.

export type Side = "white" | "black";
export type You = Side | "both" | "spectator";

export interface Proven {
  result: "win" | "draw" | "loss";
  margin: number | null;
  plies: number;
}
export interface Score {
  cp: number;
  proven: Proven | null;
  white_cp?: number;
}

export interface Board {
  white: number[];
  black: number[];
  kazna: { white: number; black: number };
  tuz: { white: number; black: number };
}

export interface MoveRec {
  hole: number;
  side: Side;
  notation: string;
  captured: number;
  tuz: boolean;
  from: { side: Side; hole: number };
  to: { side: Side; hole: number };
  position: string;
}

export interface Result {
  winner: Side | "draw";
  reason: string;
  score: string;
}

export interface Player {
  name: string;
  engine: boolean;
  level: number | null;
  connected: boolean;
  away_ms?: number | null;
  // added by the server: which of its own default names `name` is (the page translates it)
  default_name?: string | null;
}

export interface Clock {
  white_ms: number;
  black_ms: number;
  increment_ms: number;
  running: Side | null;
}

export interface GameState {
  id: string;
  mode: "engine" | "local" | "online" | "analysis";
  variant: string;
  tuz: boolean;
  play_out: boolean;
  n: number;
  start_position: string;
  position: string;
  board: Board;
  moves: MoveRec[];
  ply: number;
  to_move: Side;
  legal: number[];
  status: "waiting" | "playing" | "over" | "aborted";
  result: Result | null;
  players: { white: Player | null; black: Player | null };
  clock: Clock | null;
  draw_offer: Side | null;
  rematch_offer: Side | null;
  you: You;
  thinking: boolean;
  // additions by the server (docs/web-protocol.md allows them): may `you` claim the win now,
  // the abandon delay, the rematch game once there is one
  can_claim?: boolean;
  abandon_ms?: number;
  rematch_id?: string | null;
  // may `you` offer a draw now (false for a while after an offer of his was declined)
  can_offer_draw?: boolean;
}

export interface Line {
  pv: number[];
  pv_notation?: string[];
  score: Score;
}

export interface Review {
  ply: number;
  hole: number;
  side: Side;
  white_cp: number;
  best: number;
  best_pv: number[];
  loss_cp: number;
  mark: null | "?!" | "?" | "??";
  // added by the server: the evaluation after the move from White's view, the best move's
  // notation (absent in reviews stored before it was sent)
  white?: Score;
  best_notation?: string;
}

/** One side's totals of a finished review. */
export interface ReviewSummary {
  moves: number;
  average_loss_cp: number;
  inaccuracies: number;
  mistakes: number;
  blunders: number;
}
