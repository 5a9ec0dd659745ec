// The arbiter pages' pure part (arbiter/arbiter.ts draws it): the results an arbiter enters,
// how players, tie-breaks and the event's line read, which round is shown, the arbiter's link
// and the requests of the forms. No DOM access and no fetch here (unit-tested in
// test/unit/arbiter.test.mjs).

import { t, t_any } from "../i18n/index.js";
import type { ArbiterEvent, EventPlayer, LiveBoard, TeamEvent, TeamMatch } from "./arbiter_api.js";

/** The results of a board, as the server writes them and as the page shows them. */
export const RESULTS: [string, string][] = [
  ["*", "—"],
  ["1-0", "1-0"],
  ["1/2-1/2", "½-½"],
  ["0-1", "0-1"],
  ["+-", "+ −"],
  ["-+", "− +"],
  ["--", "− −"],
];

/** The tie-breaks the server knows, by their short names, in the documented order. */
export const TIE_BREAKS = ["BH-1", "BH", "BH-M1", "SB", "W", "DE"];

/** "bh-1, BH sb" typed by the arbiter as the list the server takes; unknown names kept for the
 * server to refuse. */
export function tie_break_list(text: string, known: string[] = TIE_BREAKS): string[] {
  return text.split(/[\s,]+/).filter((w) => w !== "").map((w) => known.find((k) => k.toLowerCase() === w.toLowerCase()) ?? w);
}

/** A result as the page shows it (an unknown one as it is). */
export function result_label(result: string): string {
  return RESULTS.find(([v]) => v === result)?.[1] ?? result;
}

/** A player's name with his title before it. */
export function titled_name(p: EventPlayer): string {
  return p.title ? `${p.title} ${p.name}` : p.name;
}

/** A player on a pairing: his titled name and his rating when he has one. */
export function player_label(p: EventPlayer): string {
  const name = titled_name(p);
  return p.rating > 0 ? `${name} (${p.rating})` : name;
}

/** A tie-break: whole numbers as they are, halves with one decimal, others with two. */
export function tie_break_text(v: number): string {
  return Number.isInteger(v) ? String(v) : Number.isInteger(v * 2) ? v.toFixed(1) : v.toFixed(2);
}

/** A date as the event's form takes it: 2026.12.01 (UTC). */
export function event_date(d: Date): string {
  return d.toISOString().slice(0, 10).replace(/-/g, ".");
}

/** The body of POST /api/events: the rounds only for a Swiss event. */
export function new_event_body(f: { name: string; site: string; date: string; system: string; rounds: string }): Record<string, unknown> {
  return { name: f.name, site: f.site, date: f.date.trim(), system: f.system, rounds: f.system === "swiss" ? Number(f.rounds) : null };
}

/** The body of a player entered: no rating typed is 0 (none). */
export function new_player_body(name: string, rating: string, title: string): Record<string, unknown> {
  return { name, rating: rating ? Number(rating) : 0, title };
}

/** The 0-based index of the round shown: the one picked (1-based), else the latest. */
export function round_index(played: number, shown_round: number): number {
  return shown_round >= 1 && shown_round <= played ? shown_round - 1 : played - 1;
}

/** The event's line under its name: site and date, the pairing system, the round or the end. */
export function event_meta(ev: Pick<ArbiterEvent, "site" | "date" | "system" | "rounds"> & { played: unknown[]; next: string }): string {
  const head = [ev.site, ev.date].filter((s) => s).join(", ");
  const n = ev.played.length;
  const status = ev.next === "done" ? t("arb_done") : n ? t("arb_round", { n, total: ev.rounds }) : "";
  return [head, t_any(`sys_${ev.system.replace(/-/g, "_")}`), status].filter((s) => s).join(" · ");
}

/** The link that gives its holder the arbiter's rights (`base`: the page's address without the
 * hash). */
export function arbiter_link(base: string, id: string, key: string): string {
  return `${base}#/arbiter/${encodeURIComponent(id)}/${encodeURIComponent(key)}`;
}

/** Whether players may be entered now: before round 1, and in a Swiss also later (a late entry,
 * paired from the next round); a round robin's table is fixed once paired. */
export function may_enter_players(ev: ArbiterEvent): boolean {
  return ev.played.length === 0 || ev.system === "swiss";
}

/** Whether the last round may be paired again: it has no result yet (a forfeit the pairing made
 * against a withdrawn player aside). */
export function may_repair(ev: ArbiterEvent): boolean {
  const last = ev.played[ev.played.length - 1];
  if (!last) return false;
  return last.boards.every((b) => b.result === "*" || (ev.players[b.white]?.withdrawn || ev.players[b.black]?.withdrawn) === true);
}

/** The body of a player corrected (`i`: his 0-based index; the server numbers from 1). */
export function edit_player_body(i: number, name: string, rating: string, title: string): Record<string, unknown> {
  return { player: i + 1, ...new_player_body(name, rating, title) };
}

/** A print page's address (`rest`: "/pairings?round=2", "/standings") in the page's language. */
export function print_path(path: string, lang: string): string {
  return `${path}${path.includes("?") ? "&" : "?"}lang=${encodeURIComponent(lang)}`;
}

/** What the arbiter typed into a board and has not saved, by round and board: kept across the
 * redraws of the page (saving one board redraws it), dropped once that board is saved. */
export class BoardDrafts {
  private drafts = new Map<string, { moves?: string; result?: string }>();
  private static key(round: number, board: number): string {
    return `${round}.${board}`;
  }
  get(round: number, board: number): { moves?: string; result?: string } {
    return this.drafts.get(BoardDrafts.key(round, board)) ?? {};
  }
  set(round: number, board: number, part: { moves?: string; result?: string }) {
    const k = BoardDrafts.key(round, board);
    this.drafts.set(k, { ...this.drafts.get(k), ...part });
  }
  saved(round: number, board: number) {
    this.drafts.delete(BoardDrafts.key(round, board));
  }
}

/** The secret link of a board keeper (`base`: the page's address without the hash). */
export function keeper_link(base: string, id: string, token: string): string {
  return `${base}#/keeper/${encodeURIComponent(id)}/${encodeURIComponent(token)}`;
}

/** What a broadcast board shows, as one string: a board is drawn again only when it changed. */
export function live_signature(b: LiveBoard): string {
  return JSON.stringify([b.white, b.black, b.result, b.moves, b.clocks, b.eval]);
}

/** The moves as numbered pairs: "1. 65 87", "2. 55". */
export function move_pairs(moves: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < moves.length; i += 2) out.push(`${i / 2 + 1}. ${moves.slice(i, i + 2).join(" ")}`);
  return out;
}

/** A team event's tie-breaks the server knows, by their short names, in the documented order. */
export const TEAM_TIE_BREAKS = ["MP", "BP", "TSB", "DE", "BH"];

/** The body of POST /api/team-events: the individual event's fields, the boards and the scoring. */
export function new_team_event_body(f: { name: string; site: string; date: string; system: string; rounds: string; boards: string; scoring: string }): Record<string, unknown> {
  return { ...new_event_body(f), boards: Number(f.boards), scoring: f.scoring };
}

/** A roster as typed: a player a line in board order, a rating (digits) after the name. */
export function roster_lines(text: string): { name: string; rating: number }[] {
  return text.split("\n").map((l) => l.trim()).filter((l) => l !== "").map((l) => {
    const m = /^(.*\S)\s+(\d{1,4})$/.exec(l);
    return m ? { name: m[1], rating: Number(m[2]) } : { name: l, rating: 0 };
  });
}

/** The link that gives its holder a team event's arbiter rights. */
export function team_arbiter_link(base: string, id: string, key: string): string {
  return `${base}#/arbiter/team/${encodeURIComponent(id)}/${encodeURIComponent(key)}`;
}

/** The player of one side of a match on board `b` (0-based), null for an empty board. */
export function board_member(ev: TeamEvent, m: TeamMatch, home: boolean, b: number): EventPlayer | null {
  const lineup = home ? m.home_lineup : m.away_lineup;
  const i = lineup[b];
  return i === undefined ? null : ev.teams[home ? m.home : m.away]?.roster[i] ?? null;
}

/** The standings' tie-break columns after match and board points: their indexes. */
export function extra_tie_breaks(tie_breaks: string[]): number[] {
  return tie_breaks.flatMap((tb, i) => (tb === "MP" || tb === "BP" ? [] : [i]));
}

/** Whether a team event's last round may be paired again: no board has a result but an empty
 * board's forfeit. */
export function may_repair_team(ev: TeamEvent): boolean {
  const last = ev.played[ev.played.length - 1];
  return last !== undefined && last.matches.every((m) => m.boards.every((b) => b.forced || b.result === "*"));
}

/** The body of a lineup: the checked roster players (1-based, in roster order); none checked: absent. */
export function lineup_body(team: number, checked: boolean[]): Record<string, unknown> {
  const players = checked.flatMap((c, i) => (c ? [i + 1] : []));
  return players.length ? { team: team + 1, players } : { team: team + 1, absent: true };
}

/** Whether an exchange file is a team event's: it has team lines (013). */
export function is_team_trf(text: string): boolean {
  return /^013/m.test(text);
}
