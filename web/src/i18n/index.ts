// The four languages of the app, with the game's own terms in each: the store is the kazna
// (казан / қазан / казан), the captured hole the tuz (туздык / тұздық / түз), a hole is a
// "house" in Kazakh and Kyrgyz (отау / үй), the stones are korgool / kumalak.
// The texts are one file per language (en.ts defines the keys, dict.ts types the others), each
// loaded by a dynamic import(), so vite makes it a chunk of its own and a visitor downloads only
// the language he reads: the page awaits load_lang() before its first render, and set_lang()
// loads the chosen one. The choice is kept in localStorage.

import type { Key, Text } from "./dict.js";

export type { Key } from "./dict.js";
export type Lang = "en" | "ru" | "kk" | "ky";
export const LANGS: { code: Lang; name: string }[] = [
  { code: "en", name: "English" },
  { code: "ru", name: "Русский" },
  { code: "kk", name: "Қазақша" },
  { code: "ky", name: "Кыргызча" },
];

type Texts = Record<Key, Text>;

// One import() per language, written out, so that the bundler sees each module.
const LOADERS: Record<Lang, () => Promise<Texts>> = {
  en: () => import("./en.js").then((m) => m.en),
  ru: () => import("./ru.js").then((m) => m.ru),
  kk: () => import("./kk.js").then((m) => m.kk),
  ky: () => import("./ky.js").then((m) => m.ky),
};

const KEY = "toguz.lang";

function is_lang(l: string | null | undefined): l is Lang {
  return !!l && Object.prototype.hasOwnProperty.call(LOADERS, l);
}

/** The language to show first: the one chosen here before (localStorage), else the browser's,
 * else English. */
export function initial_lang(): Lang {
  try {
    const saved = localStorage.getItem(KEY);
    if (is_lang(saved)) return saved;
  } catch {
    /* storage may be unavailable */
  }
  const nav = (globalThis.navigator?.language || "en").slice(0, 2);
  return is_lang(nav) ? nav : "en";
}

let current: Lang = "en";
let texts: Texts | null = null; // the current language's, once loaded
let loading = 0; // the latest load asked for: an older one that ends later is dropped

export function lang(): Lang {
  return current;
}

/** Loads the texts of `l` and makes it the current language; resolves false when a later call
 * asked for another language before this one arrived (that one wins). Rejects when the chunk
 * cannot be fetched, leaving the language as it was. */
export async function load_lang(l: Lang): Promise<boolean> {
  const ticket = ++loading;
  const loaded = await LOADERS[l]();
  if (ticket !== loading) return false;
  texts = loaded;
  current = l;
  if (typeof document !== "undefined") document.documentElement.lang = l;
  return true;
}

/** Loads and sets the language the reader chose and keeps it in localStorage; resolves true
 * once the caller may re-render in it. */
export async function set_lang(l: Lang): Promise<boolean> {
  if (!(await load_lang(l))) return false;
  try {
    localStorage.setItem(KEY, l);
  } catch {
    /* storage may be unavailable */
  }
  return true;
}

export type Vars = Record<string, string | number>;

const rules = new Map<string, Intl.PluralRules>();

/** The plural category of the count `n` in the current language. A count written with decimals
 * ("1.0") takes the category of its written form, as CLDR says (English "1.0 stones"); spaces
 * between thousands are ignored. */
export function plural_category(n: string | number | undefined): Intl.LDMLPluralRule {
  const written = String(n ?? "").replace(/\s/g, "");
  if (written === "") return "other"; // no count: the general form
  const decimals = /\.(\d+)$/.exec(written)?.[1].length ?? 0;
  const id = `${current}:${decimals}`;
  let r = rules.get(id);
  if (!r) rules.set(id, (r = new Intl.PluralRules(current, { minimumFractionDigits: decimals })));
  const count = Number(written);
  return Number.isFinite(count) ? r.select(count) : "other";
}

/** The text for key in the current language, with {name} placeholders filled from vars; a
 * counted text in the form for vars.n. The key itself before any language is loaded, or for a
 * key no language has, which only an untyped caller can pass. */
export function t(key: Key, vars: Vars = {}): string {
  const text: Text = texts?.[key] ?? key;
  const s = typeof text === "string" ? text : (text[plural_category(vars.n)] ?? text.other ?? key);
  return s.replace(/\{(\w+)\}/g, (_, k) => String(vars[k] ?? ""));
}

/** Whether a key made at run time (from a server's code, a reason, a side) is one of en.ts's:
 * every language has the same keys (dict.ts), so the loaded one answers for all. */
export function is_key(key: string): key is Key {
  return texts !== null && Object.prototype.hasOwnProperty.call(texts, key);
}

/** The one lookup of keys made at run time: the text of `key` when it is one, else the
 * `fallback` key's text, else the key itself (as a text missing from every language showed). */
export function t_any(key: string, vars: Vars = {}, fallback?: Key): string {
  if (is_key(key)) return t(key, vars);
  return fallback === undefined ? key : t(fallback, vars);
}

/** A refusal from the server in the reader's language: the server's `code` and `params`
 * (src/site/texts.json) through "e_<code>", else "Error: <the server's English message>". A
 * fetch that never reached the server says so. */
export function error_text(e: unknown): string {
  const err = (e ?? {}) as { code?: string | null; params?: Vars; message?: string; name?: string };
  if (err.code && is_key(`e_${err.code}`)) return t_any(`e_${err.code}`, err.params ?? {});
  if (err.name === "TypeError") return t("e_network"); // fetch() failed: no answer at all
  return `${t("error")}: ${err.message ?? String(e)}`;
}

/** A player's name as shown: the server's own default names (`code`: player, guest, white,
 * black, engine) in the reader's language, any other name as given. */
export function player_name(name: string, code: string | null | undefined, level?: number | null): string {
  if (code && is_key(`name_${code}`)) return t_any(`name_${code}`, { n: level ?? "" });
  return name;
}
