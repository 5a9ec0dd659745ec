// The server's WebSocket frames read once into types.ts's ServerMessage: a frame that is not
// JSON, not an object with a known `type`, or lacks a field of that type's shape is dropped
// (null), so the pages switch on `type` and read typed fields without guessing.

import type { DeltaMessage, GameState, ServerMessage } from "./types.js";

type Kind = "number" | "string" | "boolean" | "object" | "array";

// The fields every message of a type carries, with their JSON kinds (docs/web-protocol.md).
const REQUIRED: Record<ServerMessage["type"], [string, Kind][]> = {
  state: [["game", "object"]],
  delta: [["game", "object"]],
  presence: [["spectators", "number"]],
  error: [["message", "string"]],
  hint: [["hole", "number"], ["score", "object"]],
  analysis: [["ply", "number"], ["depth", "number"], ["lines", "array"], ["done", "boolean"]],
  review: [["done", "boolean"], ["progress", "number"], ["moves", "array"]],
  rematch: [["id", "string"]],
  pong: [],
  chat_log: [["messages", "array"], ["post", "boolean"]],
  chat: [["message", "object"]],
};

function kind_of(v: unknown): Kind | "null" | "other" {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  const k = typeof v;
  return k === "number" || k === "string" || k === "boolean" || k === "object" ? k : "other";
}

function has(o: Record<string, unknown>, fields: [string, Kind][]): boolean {
  return fields.every(([name, kind]) => kind_of(o[name]) === kind);
}

/** A score of "Scores and lines": cp and white_cp numbers, proven an object or null. */
function is_score(v: unknown): boolean {
  if (kind_of(v) !== "object") return false;
  const s = v as Record<string, unknown>;
  return has(s, [["cp", "number"], ["white_cp", "number"]]) && (s.proven === null || kind_of(s.proven) === "object");
}

function is_line(v: unknown): boolean {
  if (kind_of(v) !== "object") return false;
  const l = v as Record<string, unknown>;
  return has(l, [["pv", "array"], ["pv_notation", "array"], ["depth", "number"]]) && is_score(l.score);
}

function is_chat_line(v: unknown): boolean {
  if (kind_of(v) !== "object") return false;
  const c = v as Record<string, unknown>;
  return has(c, [["id", "number"], ["side", "string"], ["name", "string"], ["text", "string"], ["time_ms", "number"]]);
}

/** The message of one WebSocket frame, or null when it is not one the server sends. */
export function parse_message(text: string): ServerMessage | null {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch {
    return null;
  }
  if (kind_of(v) !== "object") return null;
  const o = v as Record<string, unknown>;
  if (typeof o.type !== "string" || !Object.prototype.hasOwnProperty.call(REQUIRED, o.type)) return null;
  const type = o.type as ServerMessage["type"];
  if (!has(o, REQUIRED[type])) return null;
  if (type === "hint" && !is_score(o.score)) return null;
  if (type === "analysis" && !(o.lines as unknown[]).every(is_line)) return null;
  if (type === "chat" && !is_chat_line(o.message)) return null;
  if (type === "chat_log" && !(o.messages as unknown[]).every(is_chat_line)) return null;
  if (type === "delta") {
    const g = o.game as Record<string, unknown>;
    if (!(o.move === null || kind_of(o.move) === "object") || kind_of(g.ply) !== "number") return null;
  }
  return o as unknown as ServerMessage;
}

/** The state after `d` over `base` (the last state the page has), or null when `d` does not
 * follow it (a gap: a delta was missed, or none came before it), and the page asks for the
 * whole state. A delta with a move makes ply base.ply + 1; one without keeps base.ply. */
export function apply_delta(base: GameState | null, d: DeltaMessage): GameState | null {
  if (!base) return null;
  if (d.game.ply !== (d.move ? base.ply + 1 : base.ply)) return null;
  return { ...base, ...d.game, moves: d.move ? [...base.moves, d.move] : base.moves };
}
