// The player's settings (preferences) as the page keeps them, pure (no DOM): the theme, the
// sounds, blind mode, the evaluation view, move confirmation on touch and the chat of rated
// games, each with its
// default, the values it may take, and its entry in this browser's localStorage. An account
// keeps the same settings on the server (GET and PUT /api/me/settings, docs/accounts.md
// "Settings", whose catalogue src/site/accounts/settings.cpp repeats); the account's win over
// the browser's (merge_prefs). prefs.ts keeps them for the page. Unit-tested in
// test/unit/prefs.test.mjs.

import type { EvalView } from "../games/eval_view_state.js";

export type ThemeChoice = "auto" | "light" | "dark";

export interface Prefs {
  theme: ThemeChoice; // "auto": as the system (shell_state.ts theme_of)
  sound: boolean;
  blind: boolean; // the text board (board/text_board.ts)
  eval_view: EvalView; // games/eval_view_state.ts
  confirm_touch: boolean; // games/touch_confirm_state.ts
  chat_rated: boolean; // the chat of rated games (games/chat.ts), off unless switched on
}
export type PrefKey = keyof Prefs;

/** One setting: its default, its choices (none: true or false) and its localStorage key. */
interface PrefSpec<K extends PrefKey> {
  def: Prefs[K];
  choices?: readonly Prefs[K][];
  storage: string;
}

export const PREF_SPECS: { [K in PrefKey]: PrefSpec<K> } = {
  theme: { def: "auto", choices: ["auto", "light", "dark"], storage: "toguz.theme" },
  sound: { def: true, storage: "toguz.sound" },
  blind: { def: false, storage: "toguz.blind" },
  eval_view: { def: "chance", choices: ["chance", "margin"], storage: "toguz.eval_view" },
  confirm_touch: { def: false, storage: "toguz.confirm_touch" },
  chat_rated: { def: false, storage: "toguz.chat_rated" },
};

export const PREF_KEYS = Object.keys(PREF_SPECS) as PrefKey[];

/** Every setting at its default. */
export function default_prefs(): Prefs {
  const out = {} as Record<PrefKey, unknown>;
  for (const k of PREF_KEYS) out[k] = PREF_SPECS[k].def;
  return out as unknown as Prefs;
}

/** Whether `v` is a value setting `key` may take. */
export function pref_valid<K extends PrefKey>(key: K, v: unknown): v is Prefs[K] {
  const choices = PREF_SPECS[key].choices as readonly unknown[] | undefined;
  return choices ? choices.includes(v) : typeof v === "boolean";
}

/** A setting as this browser stores it: a choice as itself, a flag as "1" or "0". */
export function encode_pref<K extends PrefKey>(key: K, v: Prefs[K]): string {
  return PREF_SPECS[key].choices ? String(v) : v ? "1" : "0";
}

/** A setting from this browser's stored text (null: none); anything it cannot be is the
 * default. Flags read "1"/"on" as on and "0"/"off" as off, as the page once wrote them. */
export function decode_pref<K extends PrefKey>(key: K, stored: string | null): Prefs[K] {
  const spec = PREF_SPECS[key];
  if (spec.choices) return pref_valid(key, stored) ? (stored as Prefs[K]) : spec.def;
  if (stored === "1" || stored === "on") return true as Prefs[K];
  if (stored === "0" || stored === "off") return false as Prefs[K];
  return spec.def;
}

/** The settings this browser keeps, read with `get` (a localStorage getItem). */
export function prefs_from(get: (storage_key: string) => string | null): Prefs {
  const out = default_prefs() as unknown as Record<PrefKey, unknown>;
  for (const k of PREF_KEYS) out[k] = decode_pref(k, get(PREF_SPECS[k].storage));
  return out as unknown as Prefs;
}

/** `base` with the settings of `over` (an account's object, as the server answers it) put
 * over it: the known keys with values they may take; anything else is left out. */
export function merge_prefs(base: Prefs, over: unknown): Prefs {
  const out = { ...base } as Record<PrefKey, unknown>;
  if (over === null || typeof over !== "object" || Array.isArray(over)) return base;
  for (const k of PREF_KEYS) {
    const v = (over as Record<string, unknown>)[k];
    if (Object.prototype.hasOwnProperty.call(over, k) && pref_valid(k, v)) out[k] = v;
  }
  return out as unknown as Prefs;
}

/** The settings whose values differ between a and b. */
export function changed_prefs(a: Prefs, b: Prefs): PrefKey[] {
  return PREF_KEYS.filter((k) => a[k] !== b[k]);
}
