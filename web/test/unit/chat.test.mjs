// The game chat's pure part (src/games/chat_state.ts): who sees the panel, the rated setting,
// the messages kept, the characters left.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chars_left, chat_after, chat_panel_kind, empty_chat, wants_chat_on,
} from "../../node_modules/.toguz-unit/games/chat_state.js";

const line = (id, text = "hi", side = "white") => ({ id, side, name: "Aigerim", text, time_ms: id });

test("the panel: online games only; in a rated one a switch for players, nothing for spectators", () => {
  assert.equal(chat_panel_kind({ mode: "engine", rated: false, you: "white" }, true), "none");
  assert.equal(chat_panel_kind({ mode: "online", rated: false, you: "spectator" }, false), "chat");
  assert.equal(chat_panel_kind({ mode: "online", rated: false, you: "black" }, false), "chat");
  assert.equal(chat_panel_kind({ mode: "online", rated: true, you: "spectator" }, true), "none");
  assert.equal(chat_panel_kind({ mode: "online", rated: true, you: "white" }, false), "switch");
  assert.equal(chat_panel_kind({ mode: "online", rated: true, you: "white" }, true), "chat");
  assert.equal(wants_chat_on({ mode: "online", rated: true, you: "white" }, true), true);
  assert.equal(wants_chat_on({ mode: "online", rated: false, you: "white" }, true), false);
  assert.equal(wants_chat_on({ mode: "online", rated: true, you: "white" }, false), false);
});

test("the log replaces the messages, a new one is added once", () => {
  let v = chat_after(empty_chat, { type: "chat_log", messages: [line(1)], post: true });
  assert.deepEqual(v, { lines: [line(1)], post: true, loaded: true });
  v = chat_after(v, { type: "chat", message: line(2, "<b>") });
  v = chat_after(v, { type: "chat", message: line(2, "<b>") });
  assert.deepEqual(v.lines.map((l) => l.id), [1, 2]);
  v = chat_after(v, { type: "chat_log", messages: [], post: false });
  assert.deepEqual(v, { lines: [], post: false, loaded: true });
});

test("characters left count code points, not UTF-16 units", () => {
  assert.equal(chars_left(""), 140);
  assert.equal(chars_left("ә".repeat(140)), 0);
  assert.equal(chars_left("😀".repeat(141)), -1);
});
