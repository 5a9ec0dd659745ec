// Mail on the site (docs/accounts.md "E-mail"): the forgotten password (#/forgot), the mailed
// reset link (#/reset/<token>) and verification link (#/verify/<token>), and the account page's
// address and notices card. Every text is escaped; the server checks everything again.

import { call } from "../protocol/api.js";
import { lang, t, t_any } from "../i18n/index.js";
import { esc, toast, type View } from "../shell/util.js";
import { account_error, check_password } from "./accounts_state.js";

/** GET /api/account/mail: the account's address and notices. */
export interface AccountMail {
  email: string;
  verified: boolean;
  usable: boolean;
  your_turn: boolean;
  tournaments: boolean;
  available: boolean;
  verification: boolean;
}

export const mail_api = {
  status: () => call<{ available: boolean; verification: boolean }>("GET", "/api/mail"),
  account: () => call<AccountMail>("GET", "/api/account/mail"),
  set_email: (email: string, password: string) =>
    call<{ ok: boolean; verified: boolean; verification_sent: boolean }>("POST", "/api/account/email", { email, password, lang: lang() }),
  set_notices: (your_turn: boolean, tournaments: boolean) => call<{ ok: boolean }>("POST", "/api/account/notices", { your_turn, tournaments }),
  request_reset: (email: string) => call<{ ok: boolean }>("POST", "/api/password-reset", { email }),
  confirm_reset: (token: string, new_password: string) =>
    call<{ ok: boolean; username: string }>("POST", "/api/password-reset/confirm", { token, new_password }),
  verify: (token: string) => call<{ ok: boolean }>("POST", "/api/email/verify", { token }),
  resend: () => call<{ ok: boolean; verification_sent: boolean }>("POST", "/api/email/resend", {}),
};

/** The link's minutes as the server's default says (docs/operations.md "Mail"). */
const kResetMinutes = 30;

/** #/forgot: an address in, the same answer whatever it is; or, without mail, why not. */
export class ForgotView implements View {
  el = document.createElement("div");
  private available: boolean | undefined;
  private sent = false;

  constructor() {
    this.el.className = "auth";
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.render();
    mail_api.status().then(
      (s) => {
        this.available = s.available;
        this.render();
      },
      () => {
        this.available = false;
        this.render();
      },
    );
  }
  destroy() {}

  render() {
    if (this.available === undefined) return void (this.el.innerHTML = "");
    const body = !this.available
      ? `<p id="forgot-unavailable">${esc(t("reset_unavailable"))}</p>`
      : this.sent
        ? `<p id="forgot-sent" role="status">${esc(t("reset_sent", { minutes: kResetMinutes }))}</p>`
        : `<p class="muted">${esc(t("forgot_help"))}</p>
      <label>${esc(t("email"))}<input id="forgot-email" type="email" autocomplete="email" maxlength="254" required/></label>
      <p class="form-error" id="forgot-error" role="alert"></p>
      <button type="submit" class="primary" id="forgot-submit">${esc(t("send_link"))}</button>`;
    this.el.innerHTML = `<form class="card auth-form" id="forgot-form" novalidate><h2>${esc(t("forgot_password"))}</h2>${body}
      <p><a href="#/login">${esc(t("login"))}</a></p></form>`;
  }

  private async submit() {
    const email = (this.el.querySelector("#forgot-email") as HTMLInputElement | null)?.value.trim() ?? "";
    if (!email.includes("@")) return void ((this.el.querySelector("#forgot-error") as HTMLElement).textContent = t("e_email_invalid"));
    try {
      await mail_api.request_reset(email);
      this.sent = true;
      this.render();
    } catch (e) {
      (this.el.querySelector("#forgot-error") as HTMLElement).textContent = account_error(e);
    }
  }
}

/** #/reset/<token>: a new password under the sign-up's rules. */
export class ResetView implements View {
  el = document.createElement("div");
  private done = false;

  constructor(private token: string) {
    this.el.className = "auth";
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.submit();
    });
    this.render();
  }
  destroy() {}

  render() {
    this.el.innerHTML = this.done
      ? `<div class="card auth-form"><h2>${esc(t("reset_title"))}</h2><p id="reset-done" role="status">${esc(t("reset_done"))}</p>
        <p><a class="button primary" href="#/login">${esc(t("login"))}</a></p></div>`
      : `<form class="card auth-form" id="reset-form" novalidate><h2>${esc(t("reset_title"))}</h2>
      <label>${esc(t("new_password"))}<input id="reset-password" type="password" autocomplete="new-password" required/><small>${esc(t("password_rules"))}</small></label>
      <p class="form-error" id="reset-error" role="alert"></p>
      <button type="submit" class="primary" id="reset-submit">${esc(t("change_password"))}</button></form>`;
  }

  private async submit() {
    const password = (this.el.querySelector("#reset-password") as HTMLInputElement).value;
    const out = this.el.querySelector("#reset-error") as HTMLElement;
    const bad = check_password(password);
    if (bad) return void (out.textContent = t_any(`e_${bad}`));
    try {
      await mail_api.confirm_reset(this.token, password);
      this.done = true;
      this.render();
    } catch (e) {
      out.textContent = account_error(e);
    }
  }
}

/** #/verify/<token>: the address confirmed on arrival. */
export class VerifyView implements View {
  el = document.createElement("div");
  private message = "";

  constructor(token: string) {
    this.el.className = "auth";
    this.render();
    mail_api.verify(token).then(
      () => this.show(t("verify_done")),
      (e) => this.show(account_error(e)),
    );
  }
  destroy() {}

  private show(message: string) {
    this.message = message;
    this.render();
  }

  render() {
    this.el.innerHTML = `<div class="card auth-form"><h2>${esc(t("verify_title"))}</h2><p id="verify-result" role="status">${esc(this.message)}</p>
      <p><a href="#/account">${esc(t("account"))}</a></p></div>`;
  }
}

/** The account page's card: the address (changed with the password) and the notices. */
export class MailCard {
  el = document.createElement("div");
  private state: AccountMail | null = null;

  constructor() {
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      const id = (e.target as Element).id;
      if (id === "email-form") void this.save_email();
      else if (id === "notices-form") void this.save_notices();
    });
    this.el.addEventListener("click", (e) => {
      if ((e.target as Element).id === "email-resend") void this.resend();
    });
    mail_api.account().then(
      (s) => {
        this.state = s;
        this.render();
      },
      () => undefined,
    );
  }

  render() {
    const s = this.state;
    if (!s) return void (this.el.innerHTML = "");
    if (!s.available) {
      this.el.innerHTML = `<div class="card auth-form"><h2>${esc(t("email_section"))}</h2><p class="muted">${esc(t("email_none_site"))}</p></div>`;
      return;
    }
    const resend = s.verification && !s.verified ? ` <button type="button" id="email-resend">${esc(t("email_resend"))}</button>` : "";
    const unverified = s.email && !s.usable ? `<p class="muted" id="email-unverified">${esc(t("email_unverified"))}${resend}</p>` : "";
    this.el.innerHTML = `<form class="card auth-form" id="email-form" novalidate><h2>${esc(t("email_section"))}</h2>
      <p class="muted">${esc(t("email_help"))}</p>
      <label>${esc(t("email"))}<input id="email-address" type="email" autocomplete="email" maxlength="254" value="${esc(s.email)}"/></label>
      ${unverified}
      <label>${esc(t("password"))}<input id="email-password" type="password" autocomplete="current-password" required/></label>
      <p class="form-error" id="email-error" role="alert"></p>
      <button type="submit" id="email-submit">${esc(t("save"))}</button></form>
      <form class="card auth-form" id="notices-form" novalidate><h2>${esc(t("mail_notices"))}</h2>
      <label class="check"><input type="checkbox" id="mail-notice-your-turn"${s.your_turn ? " checked" : ""}/> ${esc(t("mail_notice_your_turn"))}</label>
      <label class="check"><input type="checkbox" id="notice-tournaments"${s.tournaments ? " checked" : ""}/> ${esc(t("notice_tournaments"))}</label>
      <button type="submit" id="notices-submit">${esc(t("save"))}</button></form>`;
  }

  private async save_email() {
    const email = (this.el.querySelector("#email-address") as HTMLInputElement).value.trim();
    const password = (this.el.querySelector("#email-password") as HTMLInputElement).value;
    const out = this.el.querySelector("#email-error") as HTMLElement;
    try {
      const r = await mail_api.set_email(email, password);
      toast(t(r.verification_sent ? "email_verify_sent" : "email_saved"));
      this.state = await mail_api.account();
      this.render();
    } catch (e) {
      out.textContent = account_error(e);
    }
  }

  private async resend() {
    try {
      await mail_api.resend();
      toast(t("email_verify_sent"));
    } catch (e) {
      toast(account_error(e), "error");
    }
  }

  private async save_notices() {
    const on = (id: string) => (this.el.querySelector(id) as HTMLInputElement).checked;
    try {
      await mail_api.set_notices(on("#mail-notice-your-turn"), on("#notice-tournaments"));
      toast(t("notices_saved"));
    } catch (e) {
      toast(account_error(e), "error");
    }
  }
}
