// Unit tests of the game socket's liveness (src/protocol/liveness.ts, compiled by `npm run test:unit`):
// a ping every 5 s, a pong due within 4 s, and moves refused while the socket is not open.
import { test } from "node:test";
import assert from "node:assert/strict";
import { PING_EVERY_MS, PONG_WITHIN_MS, PingClock, move_refusal } from "../../node_modules/.toguz-unit/protocol/liveness.js";

test("the stated times: a ping every 5 s, its pong within 4 s", () => {
  assert.equal(PING_EVERY_MS, 5000);
  assert.equal(PONG_WITHIN_MS, 4000);
});

test("a ping goes out every 5 s while each is answered", () => {
  const c = new PingClock(0);
  assert.equal(c.step(4999), null);
  assert.equal(c.step(5000), "ping");
  assert.equal(c.step(5100), null, "one ping at a time");
  c.answered();
  assert.equal(c.step(9999), null, "5 s from the last ping, not from the pong");
  assert.equal(c.step(10000), "ping");
  c.answered();
  assert.equal(c.step(15000), "ping");
});

test("a pong 4 s late gives the connection up as stalled", () => {
  const c = new PingClock(0);
  assert.equal(c.step(5000), "ping");
  assert.equal(c.step(8999), null);
  assert.equal(c.step(9000), "stalled");
  assert.equal(c.step(60000), "stalled", "and stays so until the socket is replaced");
});

test("a pong in time keeps the connection", () => {
  const c = new PingClock(0);
  c.step(5000);
  c.answered();
  assert.equal(c.step(8999 + 4000), "ping");
  assert.equal(c.step(12999 + 3999), null);
});

test("a move is refused unless the socket is open", () => {
  assert.equal(move_refusal("open"), null);
  assert.equal(move_refusal("connecting"), "move_offline");
  assert.equal(move_refusal("closed"), "move_offline");
});
