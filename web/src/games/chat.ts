// The game chat panel (docs/web-protocol.md "Chat"): the messages in a log region, the input of
// a player who may post, the switch "chat in rated games" (kept in this browser), and a report
// button on the opponent's messages. One element kept across the game page's redraws (the page
// puts it back into its side column), so what is being typed stays. Every text is escaped.

import type { GameClientMessage } from "../protocol/client.js";
import type { ChatLogMessage, ChatMessage, GameState } from "../protocol/types.js";
import { error_text, t } from "../i18n/index.js";
import { esc, toast } from "../shell/util.js";
import { moderation } from "../accounts/accounts_api.js";
import { pref, set_pref } from "../shell/prefs.js";
import { chars_left, chat_after, chat_panel_kind, empty_chat, wants_chat_on, type ChatPanelKind, type ChatView } from "./chat_state.js";

export class ChatPanel {
  el: HTMLElement;
  private view: ChatView = empty_chat;
  private game: GameState | null = null;
  private kind: ChatPanelKind = "none";
  private rated_on = pref("chat_rated");
  private asked = false; // chat_on sent on this connection
  private form_post: boolean | null = null; // what the form area shows now

  constructor(private send: (m: GameClientMessage) => boolean) {
    this.el = document.createElement("section");
    this.el.className = "chat";
    this.el.id = "chat";
    this.el.hidden = true;
    this.el.setAttribute("aria-labelledby", "chat-title");
    this.el.addEventListener("click", (e) => this.on_click(e));
    this.el.addEventListener("change", (e) => this.on_change(e));
    this.el.addEventListener("submit", (e) => this.on_submit(e));
    this.el.addEventListener("input", () => this.show_left());
  }

  /** The connection (re)opened: the server forgets a rated game's chat_on with it. */
  on_open() {
    this.asked = false;
    this.ask();
  }

  on_state(g: GameState) {
    this.game = g;
    const kind = chat_panel_kind(g, this.rated_on);
    if (kind !== this.kind) {
      this.kind = kind;
      this.render();
    }
    this.ask();
  }

  on_message(m: ChatLogMessage | ChatMessage) {
    this.view = chat_after(this.view, m);
    if (this.kind !== "chat") return;
    this.render_log();
    if (this.form_post !== this.view.post) this.render_form();
  }

  private ask() {
    if (this.game && !this.asked && wants_chat_on(this.game, this.rated_on)) this.asked = this.send({ type: "chat_on", on: true });
  }

  private render() {
    this.el.hidden = this.kind === "none";
    this.form_post = null;
    if (this.kind === "none") {
      this.el.innerHTML = "";
      return;
    }
    const rated = this.game?.rated
      ? `<label class="chat-rated"><input type="checkbox" id="chat-rated"${this.rated_on ? " checked" : ""}/> ${esc(t("chat_rated"))}</label>`
      : "";
    const body =
      this.kind === "switch"
        ? `<p class="chat-note" id="chat-off">${esc(t("chat_rated_off"))}</p>`
        : `<div class="chat-log" id="chat-log" role="log" aria-live="polite" aria-labelledby="chat-title"></div><div id="chat-form-area"></div>`;
    this.el.innerHTML = `<h3 id="chat-title">${esc(t("chat_title"))}</h3>${rated}${body}`;
    if (this.kind === "chat") {
      this.render_log();
      this.render_form();
    }
  }

  private render_log() {
    const log = this.el.querySelector<HTMLElement>("#chat-log");
    if (!log) return;
    const me = this.game?.you;
    const rows = this.view.lines.map((l) => {
      const report =
        this.view.post && l.side !== me
          ? ` <button type="button" class="chat-report" data-report="${l.id}" title="${esc(t("chat_report"))}" aria-label="${esc(t("chat_report"))}">⚑</button>`
          : "";
      return `<p class="chat-line" data-id="${l.id}" data-side="${esc(l.side)}"><span class="stone-badge ${esc(l.side)}"></span> <b class="chat-name">${esc(l.name)}</b> <span class="chat-text">${esc(l.text)}</span>${report}</p>`;
    });
    log.innerHTML = rows.length ? rows.join("") : `<p class="chat-empty">${esc(t("chat_none"))}</p>`;
    log.scrollTop = log.scrollHeight;
  }

  private render_form() {
    const area = this.el.querySelector<HTMLElement>("#chat-form-area");
    if (!area || !this.view.loaded) return;
    this.form_post = this.view.post;
    if (!this.view.post) {
      const player = this.game?.you === "white" || this.game?.you === "black";
      area.innerHTML = `<p class="chat-note" id="chat-read-only">${esc(t(player ? "chat_sign_in" : "chat_spectator"))}</p>`;
      return;
    }
    area.innerHTML = `<form class="chat-form" id="chat-form">
      <label for="chat-input">${esc(t("chat_input"))}</label>
      <span class="chat-row"><input id="chat-input" type="text" autocomplete="off" maxlength="280"/>
      <button type="submit" id="chat-send">${esc(t("chat_send"))}</button></span>
      <small class="chat-left" id="chat-left" aria-live="polite"></small></form>`;
    this.show_left();
  }

  /** The characters left, shown once the message nears its limit. */
  private show_left() {
    const input = this.el.querySelector<HTMLInputElement>("#chat-input");
    const out = this.el.querySelector<HTMLElement>("#chat-left");
    if (!input || !out) return;
    const left = chars_left(input.value);
    out.textContent = left < 20 ? t("chat_left", { n: left }) : "";
    out.classList.toggle("over", left < 0);
  }

  private on_submit(e: Event) {
    e.preventDefault();
    const input = this.el.querySelector<HTMLInputElement>("#chat-input");
    if (!input || !input.value.trim()) return;
    if (chars_left(input.value) < 0) return toast(t("e_chat_too_long", { n: 140 }), "error");
    if (!this.send({ type: "chat", text: input.value })) return toast(t("reconnecting"), "error");
    input.value = "";
    this.show_left();
  }

  private on_change(e: Event) {
    const box = e.target as HTMLInputElement;
    if (box.id !== "chat-rated" || !this.game) return;
    this.rated_on = box.checked;
    set_pref("chat_rated", box.checked);
    if (box.checked) {
      this.asked = false;
      this.ask();
    } else {
      this.send({ type: "chat_on", on: false });
      this.view = empty_chat;
    }
    this.on_state(this.game);
  }

  private on_click(e: Event) {
    const btn = (e.target as Element).closest<HTMLButtonElement>("[data-report]");
    if (!btn || !this.game) return;
    const line = this.view.lines.find((l) => l.id === Number(btn.dataset.report));
    if (!line) return;
    btn.disabled = true;
    moderation.report_chat(line.name, line.id, this.game.id).then(
      () => toast(t("chat_reported")),
      (err) => {
        btn.disabled = false;
        toast(error_text(err), "error");
      },
    );
  }
}
