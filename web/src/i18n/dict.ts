// The types of the texts: en.ts's keys are the keys of every language, and a text en.ts gives
// in plural forms is given in plural forms by every language, in that language's categories.

import type { en } from "./en.js";

/** A text's key: a key en.ts lacks fails the type check where it is used. */
export type Key = keyof typeof en;

/** A counted text: one string per plural category (CLDR, as Intl.PluralRules selects them) of
 * the language; t() picks the form by the text's {n}. */
export type Forms<C extends Intl.LDMLPluralRule> = { [F in C]: string };

/** English's categories; every counted text of en.ts has both. */
export type EnForms = Forms<"one" | "other">;

/** Any language's text: a string, or its plural forms. */
export type Text = string | Partial<Forms<Intl.LDMLPluralRule>>;

/** A language's texts: every key of en.ts, no index signature, so an object literal of this
 * type that lacks a key or has one en.ts lacks fails `tsc --noEmit`; a text that is counted in
 * en.ts must give every category C of the language (Russian one, few, many, other; Kazakh and
 * Kyrgyz one, other), a plain text must stay plain. */
export type Dict<C extends Intl.LDMLPluralRule> = { [K in Key]: (typeof en)[K] extends string ? string : Forms<C> };
