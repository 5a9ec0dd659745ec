// The game chat's pure part (docs/web-protocol.md "Chat"): who sees the panel, the messages
// kept from the server's chat_log and chat, and the characters left in the input. The server
// decides who may read and post; the page only follows it.

import type { ChatLine, ChatLogMessage, ChatMessage, GameState } from "../protocol/types.js";

export const CHAT_MAX_CHARS = 140;
const KEEP = 500; // messages kept on the page, as many as the server stores per game

/** The panel of a game: none (not an online game, or a spectator of a rated one), the switch
 * of a rated game's player who has the chat off, or the chat. */
export type ChatPanelKind = "none" | "switch" | "chat";

export function chat_panel_kind(g: Pick<GameState, "mode" | "rated" | "you">, rated_on: boolean): ChatPanelKind {
  if (g.mode !== "online") return "none";
  const player = g.you === "white" || g.you === "black";
  if (!g.rated) return "chat";
  if (!player) return "none";
  return rated_on ? "chat" : "switch";
}

/** Whether the page should ask for the chat of this game on its connection (chat_on): a
 * player of a rated game who has it on. */
export function wants_chat_on(g: Pick<GameState, "mode" | "rated" | "you">, rated_on: boolean): boolean {
  return chat_panel_kind(g, rated_on) === "chat" && g.rated === true;
}

export interface ChatView {
  lines: ChatLine[];
  post: boolean; // the server lets this connection post
  loaded: boolean; // a chat_log came
}

export const empty_chat: ChatView = { lines: [], post: false, loaded: false };

/** The chat after a server message: the log replaces everything, a message is added once. */
export function chat_after(v: ChatView, m: ChatLogMessage | ChatMessage): ChatView {
  if (m.type === "chat_log") return { lines: m.messages.slice(-KEEP), post: m.post, loaded: true };
  if (v.lines.some((l) => l.id === m.message.id)) return v;
  return { ...v, lines: [...v.lines, m.message].slice(-KEEP) };
}

/** Characters (code points) left in a message being typed; below 0 it is too long. */
export function chars_left(text: string): number {
  return CHAT_MAX_CHARS - [...text].length;
}
