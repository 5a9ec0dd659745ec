// The account page's settings (shell/prefs_state.ts): a form with a labelled control for each
// (a choice as a select, a flag as a checkbox), saved in the account and this browser by its
// button. Native controls only, so it is usable with the keyboard and a screen reader.

import { prefs, set_prefs } from "../shell/prefs.js";
import { PREF_KEYS, PREF_SPECS, type PrefKey, type Prefs } from "../shell/prefs_state.js";
import { account_error } from "./accounts_state.js";
import { t, type Key } from "../i18n/index.js";
import { esc, toast } from "../shell/util.js";

// Each setting's label, and each choice's.
const LABELS: Record<PrefKey, Key> = {
  theme: "settings_theme",
  sound: "sound",
  blind: "bl_mode",
  eval_view: "settings_eval_view",
  confirm_touch: "confirm_touch",
  chat_rated: "chat_rated",
};
const CHOICES: Record<string, Key> = {
  auto: "settings_theme_auto",
  light: "settings_theme_light",
  dark: "settings_theme_dark",
  chance: "settings_eval_chance",
  margin: "settings_eval_margin",
};

/** One setting's control, showing `v`. */
function control_html(k: PrefKey, v: Prefs[PrefKey]): string {
  const id = `set-${k.replace("_", "-")}`;
  const choices = PREF_SPECS[k].choices as readonly string[] | undefined;
  if (!choices) return `<label class="check"><input type="checkbox" id="${id}" name="${k}"${v ? " checked" : ""}/> ${esc(t(LABELS[k]))}</label>`;
  const opts = choices.map((c) => `<option value="${c}"${c === v ? " selected" : ""}>${esc(t(CHOICES[c]))}</option>`).join("");
  return `<label>${esc(t(LABELS[k]))}<select id="${id}" name="${k}">${opts}</select></label>`;
}

export class SettingsCard {
  el = document.createElement("form");

  constructor() {
    this.el.className = "card auth-form";
    this.el.id = "settings-form";
    this.el.noValidate = true;
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.save();
    });
  }

  render() {
    const now = prefs();
    this.el.innerHTML = `<h2>${esc(t("settings"))}</h2><p class="muted">${esc(t("settings_help"))}</p>
      ${PREF_KEYS.map((k) => control_html(k, now[k])).join("")}
      <p class="form-error" id="settings-error" role="alert"></p>
      <button type="submit" id="settings-submit">${esc(t("save"))}</button>`;
  }

  /** The form's values, saved; the page says whether they were. */
  private async save() {
    const form = new FormData(this.el);
    const next: Record<string, unknown> = {};
    for (const k of PREF_KEYS) next[k] = PREF_SPECS[k].choices ? form.get(k) : form.get(k) === "on";
    const out = this.el.querySelector("#settings-error") as HTMLElement;
    try {
      await set_prefs(next as Partial<Prefs>);
      out.textContent = "";
      toast(t("settings_saved"));
    } catch (e) {
      out.textContent = account_error(e);
    }
  }
}
