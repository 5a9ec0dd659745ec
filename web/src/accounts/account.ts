// Sign-up, log-in and the account page (#/signup, #/login, #/account): forms against the accounts
// API (docs/web-protocol.md). The rules are checked here first, with the server's codes, so the
// reader sees the same text either way; the server checks again. The rules and texts are
// accounts_state.ts's, the HTTP calls accounts_api.ts's.

import "./accounts.css";
import { accounts, am_moderator, moderation, set_me, who_am_i } from "./accounts_api.js";
import { account_error, auth_problem, check_password, player_href } from "./accounts_state.js";
import { t, t_any } from "../i18n/index.js";
import { MailCard } from "./mail.js";
import { SettingsCard } from "./settings_card.js";
import { forget_account_prefs, load_account_prefs } from "../shell/prefs.js";
import { esc, toast, type View } from "../shell/util.js";

/** Tells the header (main.ts) that the logged-in player changed; resolves when a signed-in
 * player's settings are in place (shell/prefs.ts), before the next page is drawn. */
export async function announce_me(name: string | null): Promise<void> {
  set_me(name);
  if (name) await load_account_prefs();
  else forget_account_prefs();
  window.dispatchEvent(new CustomEvent("toguz:me", { detail: name }));
}

export class AuthView implements View {
  el = document.createElement("div");
  private message = "";

  constructor(private mode: "login" | "signup") {
    this.el.className = "auth";
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.render();
  }
  destroy() {}

  render() {
    const signup = this.mode === "signup";
    this.el.innerHTML = `<form class="card auth-form" id="auth-form" novalidate>
      <h2>${esc(t(signup ? "signup" : "login"))}</h2>
      <label>${esc(t("username"))}<input id="auth-username" name="username" autocomplete="username" maxlength="20" required
        autocapitalize="off" spellcheck="false"/>${signup ? `<small>${esc(t("username_rules"))}</small>` : ""}</label>
      <label>${esc(t("password"))}<input id="auth-password" name="password" type="password" required
        autocomplete="${signup ? "new-password" : "current-password"}"/>${signup ? `<small>${esc(t("password_rules"))}</small>` : ""}</label>
      <p class="form-error" id="auth-error" role="alert">${esc(this.message)}</p>
      <button type="submit" class="primary" id="auth-submit">${esc(t(signup ? "signup" : "login"))}</button>
      <p>${esc(t(signup ? "have_account" : "no_account_yet"))} <a href="#/${signup ? "login" : "signup"}">${esc(t(signup ? "login" : "signup"))}</a></p>
      ${signup ? "" : `<p><a href="#/forgot" id="forgot-link">${esc(t("forgot_password"))}</a></p>`}
    </form>`;
  }

  private show(message: string) {
    this.message = message;
    const p = this.el.querySelector("#auth-error");
    if (p) p.textContent = message;
  }

  private async submit() {
    const username = (this.el.querySelector("#auth-username") as HTMLInputElement).value.trim();
    const password = (this.el.querySelector("#auth-password") as HTMLInputElement).value;
    const problem = auth_problem(this.mode, username, password);
    if (problem) return this.show(t_any(problem));
    const button = this.el.querySelector("#auth-submit") as HTMLButtonElement;
    button.disabled = true;
    try {
      const r = this.mode === "signup" ? await accounts.signup(username, password) : await accounts.login(username, password);
      await announce_me(r.username);
      location.hash = player_href(r.username);
    } catch (e) {
      this.show(account_error(e));
    } finally {
      button.disabled = false;
    }
  }
}

export class AccountView implements View {
  el = document.createElement("div");
  private me: string | null | undefined;
  private blocks: string[] = [];
  private moderator = false;
  private mail: MailCard | null = null;
  private settings = new SettingsCard();

  constructor() {
    this.el.className = "auth";
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      const id = (e.target as Element).id;
      if (id === "block-form") void this.block_named();
      else if (id === "password-form") void this.change_password();
    });
    this.el.addEventListener("click", (e) => {
      if ((e.target as Element).closest("#logout")) void this.logout();
      const unblock = (e.target as Element).closest<HTMLElement>("[data-unblock]");
      if (unblock) void this.set_block(unblock.dataset.unblock ?? "", false);
    });
    this.render();
    void who_am_i(true).then(async (me) => {
      this.me = me;
      if (me) {
        this.mail = new MailCard();
        this.moderator = await am_moderator();
        try {
          this.blocks = (await moderation.blocks()).blocks;
        } catch {
          this.blocks = [];
        }
      }
      this.render();
    });
  }

  private async set_block(name: string, block: boolean) {
    try {
      this.blocks = (await moderation.block(name, block)).blocks;
      this.render();
    } catch (e) {
      toast(account_error(e), "error");
    }
  }

  private async block_named() {
    const name = (this.el.querySelector("#block-name") as HTMLInputElement).value.trim();
    if (name) await this.set_block(name, true);
  }

  private blocks_html(): string {
    const rows = this.blocks
      .map((b) => `<li><a href="${esc(player_href(b))}" class="uname">${esc(b)}</a> <button type="button" data-unblock="${esc(b)}">${esc(t("unblock"))}</button></li>`)
      .join("");
    return `<form class="card auth-form" id="block-form" novalidate><h2>${esc(t("blocks"))}</h2>
      <p class="muted">${esc(t("blocks_help"))}</p>
      ${rows ? `<ul id="block-list">${rows}</ul>` : `<p class="muted" id="block-none">${esc(t("block_none"))}</p>`}
      <label>${esc(t("username"))}<input id="block-name" autocomplete="off" maxlength="20" spellcheck="false"/></label>
      <button type="submit">${esc(t("block"))}</button></form>`;
  }
  destroy() {}

  render() {
    if (this.me === undefined) {
      this.el.innerHTML = "";
      return;
    }
    if (this.me === null) {
      this.el.innerHTML = `<div class="card auth-form"><p>${esc(t("not_logged_in"))}</p>
        <p><a class="button primary" href="#/login">${esc(t("login"))}</a> <a class="button" href="#/signup">${esc(t("signup"))}</a></p></div>`;
      return;
    }
    this.el.innerHTML = `<div class="card auth-form">
      <h2>${esc(t("account"))}</h2>
      <p>${esc(t("logged_in_as"))} <a href="${esc(player_href(this.me))}" class="uname">${esc(this.me)}</a></p>
      ${this.moderator ? `<p><a class="button" id="moderation-link" href="#/moderation">${esc(t("moderation"))}</a></p>` : ""}
      <button type="button" id="logout">${esc(t("logout"))}</button></div>
      <form class="card auth-form" id="password-form" novalidate>
      <h2>${esc(t("change_password"))}</h2>
      <label>${esc(t("password"))}<input id="pw-current" type="password" autocomplete="current-password" required/></label>
      <label>${esc(t("new_password"))}<input id="pw-new" type="password" autocomplete="new-password" required/><small>${esc(t("password_rules"))}</small></label>
      <p class="form-error" id="pw-error" role="alert"></p>
      <button type="submit" class="primary">${esc(t("change_password"))}</button></form>
      <div id="settings-card"></div>
      <div id="mail-card"></div>
      ${this.blocks_html()}`;
    this.settings.render();
    this.el.querySelector("#settings-card")!.replaceWith(this.settings.el);
    if (this.mail) {
      this.mail.render();
      this.el.querySelector("#mail-card")!.replaceWith(this.mail.el);
    }
  }

  private async logout() {
    try {
      await accounts.logout();
      await announce_me(null);
      location.hash = "#/";
    } catch (e) {
      toast(account_error(e), "error");
    }
  }

  private async change_password() {
    const current = (this.el.querySelector("#pw-current") as HTMLInputElement).value;
    const next = (this.el.querySelector("#pw-new") as HTMLInputElement).value;
    const out = this.el.querySelector("#pw-error") as HTMLElement;
    const bad = check_password(next);
    if (bad) {
      out.textContent = t_any(`e_${bad}`);
      return;
    }
    try {
      await accounts.change_password(current, next);
      out.textContent = "";
      toast(t("password_changed"));
      (this.el.querySelector("#password-form") as HTMLFormElement).reset();
    } catch (e) {
      out.textContent = account_error(e);
    }
  }
}
