// The tournament pages' pure part (tournaments/tournaments.ts draws it): a tournament's summary
// line, which lists and tables it goes in, its games' results and links, the actions the reader
// may take, the game to open for him and the request of a new tournament from its form. No DOM
// access and no fetch here (unit-tested in test/unit/tournaments.test.mjs).

import { clock_label } from "../accounts/accounts_state.js";
import { t } from "../i18n/index.js";
import type { TGame, Tournament, TournamentSummary } from "./tournaments_api.js";

/** A pairing system in words. */
export function system_text(s: TournamentSummary["system"]): string {
  return s === "arena" ? t("tn_arena") : s === "swiss" ? t("sys_swiss") : s === "round-robin" ? t("sys_round_robin") : t("sys_double_round_robin");
}

function when(ms: number): string {
  return new Date(ms).toLocaleString();
}

/** "Arena · 3+2 · rated · 12 players · Starts …" */
export function summary_text(s: TournamentSummary): string {
  const parts = [system_text(s.system), clock_label({ initial_ms: s.initial_ms, increment_ms: s.increment_ms }), s.rated ? t("rated") : t("casual"),
    t("tn_players_n", { n: s.players })];
  if (s.status === "upcoming") parts.push(t("tn_starts_at", { time: when(s.starts_ms) }));
  else if (s.status === "running" && s.ends_ms) parts.push(t("tn_ends_at", { time: when(s.ends_ms) }));
  else if (s.status === "running" && s.rounds) parts.push(t("tn_round_of", { n: s.round ?? 0, m: s.rounds }));
  return parts.join(" · ");
}

/** Whether a tournament is still to be played or being played (not finished or cancelled). */
export function is_open(s: TournamentSummary): boolean {
  return s.status === "upcoming" || s.status === "running";
}

/** The tournaments list's two parts: the open ones and the finished or cancelled ones. */
export function open_and_done(items: TournamentSummary[]): { open: TournamentSummary[]; done: TournamentSummary[] } {
  return { open: items.filter(is_open), done: items.filter((s) => !is_open(s)) };
}

/** A tournament's games in two tables: those being played, and those over (the newest first; a
 * game called off at an arena's end is over). */
export function playing_and_done(games: TGame[]): { playing: TGame[]; done: TGame[] } {
  return {
    playing: games.filter((g) => g.result === "*" && g.id && !g.called_off),
    done: games.filter((g) => g.result !== "*" || g.called_off).reverse(),
  };
}

/** A game's result cell: "—" when called off, ½-½ for a draw. */
export function game_result_text(g: TGame): string {
  return g.called_off ? "—" : g.result === "1/2-1/2" ? "½-½" : g.result;
}

/** What a game's link does: watch it being played, replay it, or none (a forfeit has no game). */
export function game_link_kind(g: TGame): "watch" | "replay" | "forfeit" {
  if (!g.id) return "forfeit";
  return g.result === "*" && !g.called_off ? "watch" : "replay";
}

/** A tie-break in the standings as every page writes it (the print pages, the arbiter's page,
 * `toguz tournament`): whole numbers as they are, halves with one decimal, others with two. */
export function tie_break_text(v: number): string {
  return Number.isInteger(v) ? String(v) : Number.isInteger(v * 2) ? v.toFixed(1) : v.toFixed(2);
}

/** What the reader may do on a tournament's page: start, edit or cancel it (its creator, before
 * it starts), type its entry code and join, resume after a pause, open his game, withdraw (in a
 * running arena: pause, he may come back). */
export type TournamentAction = "start" | "edit" | "cancel" | "code" | "join" | "paused" | "resume" | "my_game" | "withdraw" | "pause";

/** The reader's actions in order; "login" without an account, null when there is nothing to
 * show (the tournament is over, or a round-based one runs without him). */
export function actions_of(tn: Tournament, me: string | null): TournamentAction[] | "login" | null {
  if (tn.status === "finished" || tn.status === "cancelled") return null;
  if (!me) return "login";
  const out: TournamentAction[] = [];
  if (tn.status === "upcoming" && me === tn.creator) out.push("start", "edit", "cancel");
  const mine = tn.me;
  if (!mine) {
    if (tn.status === "running" && tn.system !== "arena") return out.length ? out : null;
    if (tn.entry === "code") out.push("code");
    out.push("join");
  } else if (mine.paused) {
    out.push("paused", "resume");
  } else if (!mine.withdrawn) {
    if (mine.game) out.push("my_game");
    out.push(tn.status === "running" && tn.system === "arena" ? "pause" : "withdraw");
  }
  return out;
}

/** What the actions' part of the page shows, as one string: the page makes that part again
 * only when it changes (a field being typed into keeps its text and focus otherwise). */
export function actions_key(actions: TournamentAction[] | "login" | null, tn: Tournament): string {
  return JSON.stringify([actions, tn.me?.game ?? null]);
}

/** The most players a system takes (src/tournament: a round robin plays everyone against
 * everyone, so at most 20) and the form's default for it. */
export function max_players_of(system: string): { most: number; initial: number } {
  return system === "round-robin" || system === "double-round-robin" ? { most: 20, initial: 10 } : { most: 256, initial: 100 };
}

/** The reader's game to open: his game of a running tournament, null when none. */
export function game_to_open(tn: Tournament): string | null {
  return tn.status === "running" ? (tn.me?.game ?? null) : null;
}

/** The new tournament form's fields as typed: minutes of the clock, seconds of increment,
 * minutes until the start, the arena's minutes, the Swiss rounds. */
export interface TournamentForm {
  name: string;
  system: string;
  minutes: string;
  increment: string;
  starts_in: string;
  duration: string;
  rounds: string;
  max_players: string;
  code: string;
  rated: boolean;
  first_move?: string; // seconds; absent: the server's default
}

/** The body of POST /api/tournaments from the form, `now` ms since the epoch: the times in ms,
 * the arena's duration or the Swiss rounds only for those systems. */
export function new_tournament_body(f: TournamentForm, now: number): Record<string, unknown> {
  const body: Record<string, unknown> = {
    name: f.name, system: f.system, initial_ms: Math.round(Number(f.minutes) * 60000), increment_ms: Math.round(Number(f.increment) * 1000),
    rated: f.rated, starts_at: now + Math.round(Number(f.starts_in) * 60000), max_players: Number(f.max_players), entry_code: f.code,
  };
  if (f.first_move) body.first_move_seconds = Number(f.first_move);
  if (f.system === "arena") body.duration_minutes = Number(f.duration);
  if (f.system === "swiss") body.rounds = Number(f.rounds);
  return body;
}

/** After the reader's game `game` of tournament `tn` ended: his next game's id once it has
 * started, "over" when none will come (the tournament is over, or he is not in it, or paused),
 * null while he waits for it. */
export function next_game_of(tn: Tournament, game: string): string | "over" | null {
  if (tn.status !== "running" || !tn.me || tn.me.paused || tn.me.withdrawn) return "over";
  return tn.me.game && tn.me.game !== game ? tn.me.game : null;
}

/** The body of POST .../edit from the edit form: the same fields as a new tournament's, less
 * the system, the entry code, the players and rated, which stay. */
export function edit_tournament_body(f: TournamentForm, now: number): Record<string, unknown> {
  const { system: _s, max_players: _m, entry_code: _c, rated: _r, ...rest } = new_tournament_body(f, now);
  return rest;
}

/** What the page counts down to: the start of an upcoming tournament, the end of a running
 * arena (its key and the ms left, by the server's clock `server_now`); null for none. */
export function countdown_of(tn: Tournament, server_now: number): { key: "tn_countdown_start" | "tn_countdown_end"; ms: number } | null {
  if (tn.status === "upcoming") return { key: "tn_countdown_start", ms: Math.max(0, tn.starts_ms - server_now) };
  if (tn.status === "running" && tn.ends_ms) return { key: "tn_countdown_end", ms: Math.max(0, tn.ends_ms - server_now) };
  return null;
}

/** A time left as h:mm:ss, or m:ss under an hour (whole seconds, rounded up). */
export function countdown_text(ms: number): string {
  const all = Math.ceil(ms / 1000);
  const h = Math.floor(all / 3600), m = Math.floor((all % 3600) / 60), sec = all % 60;
  const two = (n: number) => String(n).padStart(2, "0");
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

/** The podium of a finished tournament: the first three of its standings (fewer with fewer
 * players), empty before its end. */
export function podium_of(tn: Tournament): Tournament["standings"] {
  return tn.status === "finished" ? tn.standings.slice(0, 3) : [];
}
