// The JSON shapes of docs/web-protocol.md, as the browser reads them.

export type Side = "white" | "black";
export type You = Side | "both" | "spectator";

/** A result known to the end of the game (`proven`) or to the endgame tables (`table`). */
export interface Proven {
  result: "win" | "draw" | "loss";
  margin: number | null;
  plies: number;
}
/** docs/web-protocol.md "Scores and lines": from the view of the side to move. */
export interface Score {
  cp: number;
  white_cp: number;
  proven: Proven | null;
  // a win or loss the endgame tables know (this server searches without tables; absent in
  // reviews stored before it was sent)
  table?: Proven | null;
  // the side to move's chances of a win, a draw and a loss in permille (absent in reviews
  // stored before it was sent)
  wdl?: [number, number, number];
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
  // an aborted game: the side that called it off (docs/accounts.md "Fair play"), null for none
  aborted_by?: Side | null;
}

export interface Player {
  name: string;
  engine: boolean;
  level: number | null;
  connected: boolean;
  away_ms?: number | null;
  // added by the server: which of its own default names `name` is (the page translates it)
  default_name?: string | null;
  // accounts: the seat's account, and in a rated game its rating before the game and, once it
  // is over, the change
  account?: string | null;
  rating?: number | null;
  provisional?: boolean;
  rating_diff?: number | null;
}

export interface Clock {
  white_ms: number;
  black_ms: number;
  increment_ms: number;
  running: Side | null;
}

export type TimeControl =
  | { kind: "clock"; initial_ms: number; increment_ms: number }
  | { kind: "correspondence"; days: number }
  | { kind: "none" };

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
  // an online casual game's takeback proposal, and whether `you` may propose one now
  takeback_offer?: Side | null;
  can_takeback?: boolean;
  // accounts: whether the game counts for the ratings, and its speed category
  rated?: boolean;
  // why a game asked for rated is played unrated: "pair_cap" (the pair's rated games today),
  // "account_marked"; null otherwise
  unrated_reason?: string | null;
  speed?: string | null;
  // a correspondence game: days per move and the wall-clock time (ms since the epoch) by which
  // the side to move must move
  correspondence?: { days_per_move: number; deadline_ms: number } | null;
  // the game's context: its time control, its tournament (null for none) and the spectators
  time_control?: TimeControl;
  tournament?: { id: string; name: string } | null;
  spectators?: number;
  // fair play: may `you` abort now, and the milliseconds left for the first move due (null when
  // none is due)
  can_abort?: boolean;
  first_move_ms?: number | null;
  // the store refuses the game's writes: its code (store_busy, store_read_only, store_full,
  // store_unavailable); the clocks stand still until it takes them again
  store?: string | null;
}

/** One line of a search (docs/web-protocol.md "Scores and lines"). */
export interface Line {
  multipv: number;
  depth: number;
  seldepth: number;
  nodes: number;
  pv: number[];
  pv_notation: string[];
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
  best_score?: Score;
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

// ---- the messages of the WebSocket, server to client (docs/web-protocol.md) ----------------

export interface StateMessage {
  type: "state";
  game: GameState;
}
/** What changed (docs/web-protocol.md "Deltas"): `game` is the state without `moves` and the
 * fields that never change; `move` is the move that made `game.ply`, or null when the ply
 * stayed (an offer, a player's arrival, the end). */
export type DeltaGame = Omit<GameState, "moves" | "id" | "mode" | "variant" | "tuz" | "play_out" | "n" | "start_position">;
export interface DeltaMessage {
  type: "delta";
  move: MoveRec | null;
  game: DeltaGame;
}
export interface PresenceMessage {
  type: "presence";
  spectators: number;
}
/** A refused request; `code` and `params` let the page say it in the reader's language. */
export interface ErrorMessage {
  type: "error";
  message: string;
  code?: string | null;
  params?: Record<string, string | number>;
}
export interface HintMessage {
  type: "hint";
  hole: number;
  ply: number;
  pv: number[];
  score: Score;
}
export interface AnalysisMessage {
  type: "analysis";
  ply: number;
  depth: number;
  lines: Line[];
  done: boolean;
}
export interface ReviewMessage {
  type: "review";
  done: boolean;
  progress: number;
  moves: Review[];
  players?: { white: ReviewSummary; black: ReviewSummary };
}
/** The rematch game: a seat's token, or null for a spectator who follows it. */
export interface RematchMessage {
  type: "rematch";
  id: string;
  token: string | null;
  side: You;
}
export interface PongMessage {
  type: "pong";
}
/** One message of a game's chat (docs/web-protocol.md "Chat"); `text` is shown escaped. */
export interface ChatLine {
  id: number;
  side: Side;
  name: string;
  text: string;
  time_ms: number;
}
/** The chat so far, to a connection that may read it, and whether it may post. */
export interface ChatLogMessage {
  type: "chat_log";
  messages: ChatLine[];
  post: boolean;
}
/** A new chat message. */
export interface ChatMessage {
  type: "chat";
  message: ChatLine;
}

export type ServerMessage =
  | StateMessage
  | DeltaMessage
  | PresenceMessage
  | ErrorMessage
  | HintMessage
  | AnalysisMessage
  | ReviewMessage
  | RematchMessage
  | PongMessage
  | ChatLogMessage
  | ChatMessage;

// ---- HTTP (docs/web-protocol.md, HTTP) -------------------------------------------------------

/** The body of a refused HTTP request. */
export interface HttpError {
  error: string;
  code?: string | null;
  params?: Record<string, string>;
}
