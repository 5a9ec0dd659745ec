// The types of the texts: en.ts's keys are the keys of every language.

import type { en } from "./en.js";

/** A text's key: a key en.ts lacks fails the type check where it is used. */
export type Key = keyof typeof en;

/** A language's texts: every key of en.ts, no index signature, so an object literal of this
 * type that lacks a key or has one en.ts lacks fails `tsc --noEmit`. */
export type Dict = { [K in Key]: string };
