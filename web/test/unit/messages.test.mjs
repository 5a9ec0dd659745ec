// Unit tests of the WebSocket frame parser (src/protocol/messages.ts, compiled by `npm run test:unit`).
import { test } from "node:test";
import assert from "node:assert/strict";
import { parse_message } from "../../node_modules/.toguz-unit/protocol/messages.js";

const score = { cp: 153, white_cp: -153, proven: null, table: null };
const line = { multipv: 1, depth: 9, seldepth: 14, nodes: 4096, pv: [7, 3], pv_notation: ["76", "33x"], score };

test("the messages of the protocol come through with their fields", () => {
  const a = parse_message(JSON.stringify({ type: "analysis", ply: 4, depth: 9, lines: [line], done: false }));
  assert.equal(a.type, "analysis");
  assert.equal(a.lines[0].score.white_cp, -153);
  const h = parse_message(JSON.stringify({ type: "hint", hole: 7, ply: 4, pv: [7], score }));
  assert.equal(h.score.cp, 153);
  assert.equal(parse_message('{"type":"pong"}').type, "pong");
  assert.equal(parse_message('{"type":"presence","spectators":2}').spectators, 2);
  const r = parse_message('{"type":"review","done":false,"progress":0.5,"moves":[]}');
  assert.equal(r.progress, 0.5);
  assert.equal(parse_message('{"type":"rematch","id":"abc","token":null,"side":"spectator"}').token, null);
  assert.equal(parse_message('{"type":"error","message":"move: not your turn","code":"not_your_turn"}').code, "not_your_turn");
});

test("frames that are not a message of the protocol are dropped", () => {
  assert.equal(parse_message("not json"), null);
  assert.equal(parse_message("[1,2]"), null);
  assert.equal(parse_message('{"type":"telepathy"}'), null);
  assert.equal(parse_message('{"type":"toString"}'), null);
  assert.equal(parse_message('{"type":"state"}'), null);
  assert.equal(parse_message('{"type":"presence","spectators":"2"}'), null);
  // a line in the earlier shape (score_cp instead of a score object) is not guessed at
  const old = { pv: [7], pv_notation: ["76"], depth: 3, score_cp: 12, proven: null };
  assert.equal(parse_message(JSON.stringify({ type: "analysis", ply: 0, depth: 3, lines: [old], done: true })), null);
  assert.equal(parse_message(JSON.stringify({ type: "hint", hole: 7, ply: 0, pv: [7], score: { cp: 1 } })), null);
});

test("a delta applies over the state it follows; a gap gives null", async () => {
  const { apply_delta } = await import("../../node_modules/.toguz-unit/protocol/messages.js");
  const mv = (hole) => ({ hole, side: "white", notation: String(hole), captured: 0, tuz: false });
  const base = { id: "g", n: 9, ply: 1, moves: [mv(9)], status: "playing", legal: [1], board: { white: [1] } };
  const d = parse_message(JSON.stringify({ type: "delta", move: mv(3), game: { ply: 2, legal: [], board: { white: [2] }, status: "playing" } }));
  assert.equal(d.type, "delta");
  const next = apply_delta(base, d);
  assert.equal(next.ply, 2);
  assert.deepEqual(next.moves.map((m) => m.hole), [9, 3]);
  assert.deepEqual(next.board.white, [2]);
  assert.equal(next.id, "g"); // what the delta does not carry stays
  assert.equal(base.moves.length, 1); // the earlier state is not changed
  // without a move: the same ply, fields replaced, the move list kept
  const offer = apply_delta(next, { type: "delta", move: null, game: { ply: 2, draw_offer: "black" } });
  assert.equal(offer.draw_offer, "black");
  assert.equal(offer.moves.length, 2);
  // gaps: a move that skips a ply, a move-less delta at another ply, no state yet
  assert.equal(apply_delta(base, { type: "delta", move: mv(3), game: { ply: 3 } }), null);
  assert.equal(apply_delta(base, { type: "delta", move: null, game: { ply: 2 } }), null);
  assert.equal(apply_delta(base, { type: "delta", move: mv(3), game: { ply: 1 } }), null);
  assert.equal(apply_delta(null, d), null);
  // malformed deltas are dropped
  assert.equal(parse_message('{"type":"delta","move":3,"game":{"ply":1}}'), null);
  assert.equal(parse_message('{"type":"delta","move":null,"game":{}}'), null);
  assert.equal(parse_message('{"type":"delta","move":null}'), null);
});
