// The player's settings for the whole page (prefs_state.ts): read from this browser's
// localStorage at load, replaced by the signed-in account's (load_account_prefs, before the
// first page is drawn and after a sign-in), and on a change kept in both this browser and the
// account. A change is announced with the window event "toguz:prefs" (main.ts applies the
// theme and redraws the header; the pages read the settings when they draw).

import { accounts } from "../accounts/accounts_api.js";
import { PREF_SPECS, changed_prefs, encode_pref, merge_prefs, prefs_from, type PrefKey, type Prefs } from "./prefs_state.js";

/** localStorage.getItem, null when storage is unavailable (a private window, node). */
function stored(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

let current: Prefs = prefs_from(stored);
let account = false; // whether the settings are the signed-in account's (a change is saved there)

/** The setting `key` now. */
export function pref<K extends PrefKey>(key: K): Prefs[K] {
  return current[key];
}

/** Every setting now. */
export function prefs(): Prefs {
  return { ...current };
}

/** Keeps `next` in this browser and announces what changed. */
function apply(next: Prefs): PrefKey[] {
  const changed = changed_prefs(current, next);
  current = next;
  for (const k of changed) {
    try {
      globalThis.localStorage?.setItem(PREF_SPECS[k].storage, encode_pref(k, next[k]));
    } catch {
      /* storage refused: the setting lasts for this page */
    }
  }
  if (changed.length) globalThis.dispatchEvent?.(new CustomEvent("toguz:prefs", { detail: changed }));
  return changed;
}

/** Sets some settings (the others stay), in this browser and, when signed in, in the account;
 * resolves when the account has them (rejects with the server's refusal). */
export async function set_prefs(some: Partial<Prefs>): Promise<void> {
  apply(merge_prefs(current, some));
  if (account) await accounts.save_settings(current);
}

/** Sets one setting; a failure to save it in the account leaves it in this browser. */
export function set_pref<K extends PrefKey>(key: K, v: Prefs[K]): void {
  set_prefs({ [key]: v } as Partial<Prefs>).catch(() => {
    /* kept in this browser; the next change saves it in the account again */
  });
}

/** After a sign-in, or at load when signed in: the account's settings replace this browser's
 * (those it never stored stay), and changes are saved there from now on. Resolves when they are
 * in place; a failure leaves this browser's. */
export async function load_account_prefs(): Promise<void> {
  try {
    const r = await accounts.settings();
    account = true;
    apply(merge_prefs(current, r.settings));
  } catch {
    account = false;
  }
}

/** Signed out: changes stay in this browser. */
export function forget_account_prefs(): void {
  account = false;
}
