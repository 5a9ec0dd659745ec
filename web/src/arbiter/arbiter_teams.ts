// The arbiter page of a team event (docs/web-protocol.md "Over-the-board events", team events):
// the form of a new one on #/arbiter, and the event:
//   #/arbiter/team/<id>[/<key>]   with its arbiter key (kept in this browser) to change it
// The key holder enters the teams with their rosters (before round 1), corrects a player,
// withdraws a team, pairs each round (again while it has no result), sets each team's lineup
// (roster players in roster order; none: the team did not come) and each board's result with the
// moves as typed from the scoresheet; everyone sees the matches, the team standings with their
// tie-breaks, the board prizes and the links to the print pages and the TGK file; the key
// holder also the exchange file (TRF). Every name is
// put in as text; what is derived lives in arbiter_state.ts, the calls in arbiter_api.ts, the
// pieces both arbiter pages draw in arbiter_parts.ts.

import { error_text, lang, t } from "../i18n/index.js";
import { field, h, option, toast, type View } from "../shell/util.js";
import { keep_key, team_api, team_event_path, type TeamEvent, type TeamMatch } from "./arbiter_api.js";
import { edit_buttons, key_note, pair_button, player_inputs, result_entry, round_heading, send_change, take_key, trf_link } from "./arbiter_parts.js";
import {
  BoardDrafts, TEAM_TIE_BREAKS, board_member, edit_player_body, event_date, event_meta, extra_tie_breaks, lineup_body, may_repair_team, new_team_event_body,
  player_label, round_index, print_path, result_label, roster_lines, team_arbiter_link, tie_break_list, titled_name,
} from "./arbiter_state.js";

/** The form of a new team event (on #/arbiter). */
export function new_team_part(): HTMLElement[] {
  const system = h("select", { id: "arb-team-system" },
    option("swiss", t("sys_swiss")), option("round-robin", t("sys_round_robin"), true), option("double-round-robin", t("sys_double_round_robin"))) as HTMLSelectElement;
  const rounds = h("input", { id: "arb-team-rounds", type: "number", min: "1", max: "50", value: "5", disabled: "" }) as HTMLInputElement;
  system.addEventListener("change", () => (rounds.disabled = system.value !== "swiss"));
  const name = h("input", { id: "arb-team-name", maxlength: "120" }) as HTMLInputElement;
  const site = h("input", { id: "arb-team-site", maxlength: "120" }) as HTMLInputElement;
  const date = h("input", { id: "arb-team-date", value: event_date(new Date()), placeholder: "2026.12.01" }) as HTMLInputElement;
  const boards = h("input", { id: "arb-team-boards", type: "number", min: "1", max: "10", value: "4" }) as HTMLInputElement;
  const scoring = h("select", { id: "arb-team-scoring" },
    option("match-points", t("arb_scoring_mp"), true), option("board-points", t("arb_scoring_bp"))) as HTMLSelectElement;
  const form = h("form", { id: "arb-new-team", class: "arb-form" },
    field(t("arb_name"), name), field(t("arb_site"), site), field(t("arb_date"), date), field(t("arb_system"), system),
    field(t("arb_rounds"), rounds), field(t("arb_boards"), boards), field(t("arb_scoring"), scoring),
    h("button", { type: "submit", id: "arb-create-team" }, t("arb_create_team")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const body = new_team_event_body({ name: name.value, site: site.value, date: date.value, system: system.value, rounds: rounds.value, boards: boards.value, scoring: scoring.value });
    void team_api
      .create(body)
      .then((r) => {
        keep_key(r.id, r.key, r.event.name, true);
        location.hash = `#/arbiter/team/${encodeURIComponent(r.id)}`;
      })
      .catch((err) => toast(error_text(err), "error"));
  });
  return [h("h3", {}, t("arb_new_team")), form];
}

/** #/arbiter/team/<id>[/<key>]: one team event. */
export class TeamEventView implements View {
  el = document.createElement("div");
  private ev: TeamEvent | null = null;
  private key: string;
  private shown_round = 0; // 1-based; 0: the latest
  private drafts = new BoardDrafts();
  private editing = ""; // "team.player" being corrected

  constructor(private id: string, key_in_url?: string) {
    this.el.className = "arbiter";
    this.key = take_key(id, key_in_url, `#/arbiter/team/${encodeURIComponent(id)}`, true);
    this.el.replaceChildren(h("p", {}, t("arb_loading")));
    void team_api
      .get(id)
      .then((r) => this.show(r.event))
      .catch((err) => this.el.replaceChildren(h("p", { id: "arb-error" }, error_text(err))));
  }
  destroy() {}

  private show(ev: TeamEvent) {
    this.ev = ev;
    if (this.key) keep_key(ev.id, this.key, ev.name, true);
    this.render();
  }

  /** Sends one change with the key; the event comes back and is drawn again. */
  private change(action: string, body: Record<string, unknown>, error_box?: HTMLElement): Promise<boolean> {
    return send_change(() => team_api.post(this.id, action, { ...body, key: this.key }), (r) => this.show(r.event), error_box);
  }

  private round_index(): number {
    return round_index(this.ev!.played.length, this.shown_round);
  }

  render() {
    const ev = this.ev;
    if (!ev) return;
    const arbiter = this.key !== "";
    const links = h("p", { class: "arb-links no-print" },
      ev.played.length ? h("a", { href: print_path(team_event_path(ev.id, `/pairings?round=${this.round_index() + 1}`), lang()), target: "_blank", id: "arb-print-pairings" }, t("arb_print_pairings")) : null,
      h("a", { href: print_path(team_event_path(ev.id, "/standings"), lang()), target: "_blank", id: "arb-print-standings" }, t("arb_print_standings")),
      h("a", { href: team_event_path(ev.id, "/tgk"), download: `team-event-${ev.id}.tgk`, id: "arb-tgk" }, t("arb_tgk")),
      arbiter ? trf_link(() => team_api.trf(this.id, this.key), `team-event-${this.id}.trf`) : null);
    const parts: (HTMLElement | null)[] = [
      h("h2", { id: "arb-event-name" }, ev.name || t("arb_untitled")),
      h("p", { class: "arb-meta" }, event_meta(ev)),
      links,
      arbiter ? key_note(team_arbiter_link(`${location.origin}${location.pathname}`, this.id, this.key)) : h("p", { class: "arb-note no-print" }, t("arb_read_only")),
      this.teams_part(arbiter),
      this.round_part(arbiter),
      this.standings_part(),
      this.prizes_part(),
      arbiter ? this.settings_part() : null,
    ];
    this.el.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  /** The teams with their rosters; the key holder's forms: a new team, a player added or
   * corrected, a team withdrawn, the round paired. */
  private teams_part(arbiter: boolean): HTMLElement {
    const ev = this.ev!;
    const grid = h("div", { class: "arb-team-grid" });
    const box = h("section", { class: "arb-teams" }, h("h3", {}, `${t("arb_teams")} (${ev.teams.length})`), grid);
    ev.teams.forEach((team, ti) => {
      const head = h("h4", { "data-team": String(ti) }, `${ti + 1}. ${team.name}`, team.rating > 0 ? ` (${team.rating})` : "");
      if (team.withdrawn) head.append(h("span", { class: "arb-withdrawn" }, ` (${t("arb_withdrawn")})`));
      if (arbiter) {
        const w = h("button", { type: "button", class: "arb-withdraw no-print" }, t(team.withdrawn ? "arb_return" : "arb_withdraw"));
        w.addEventListener("click", () => void this.change("withdraw", { team: ti + 1, withdrawn: !team.withdrawn }));
        head.append(" ", w);
      }
      const list = h("ol", { class: "arb-roster", "data-team": String(ti) },
        ...team.roster.map((_, pi) => (arbiter && this.editing === `${ti}.${pi}` ? this.edit_member(ti, pi) : this.member(ti, pi, arbiter))));
      const card = h("div", { class: "arb-team" }, head, list);
      if (arbiter && ev.played.length === 0) card.append(this.add_member_form(ti));
      grid.append(card);
    });
    if (arbiter && ev.played.length === 0) box.append(this.add_team_form());
    const pair = arbiter ? pair_button(ev.next === "pair", may_repair_team(ev), ev.played.length, (action) => this.change(action, {}), () => (this.shown_round = 0)) : null;
    if (pair) {
      box.append(pair);
    } else if (arbiter && ev.next === "teams") {
      box.append(h("p", { class: "no-print" }, t("arb_need_teams")));
    }
    return box;
  }

  private member(ti: number, pi: number, arbiter: boolean): HTMLElement {
    const li = h("li", {}, player_label(this.ev!.teams[ti].roster[pi]));
    if (!arbiter) return li;
    const edit = h("button", { type: "button", class: "arb-edit no-print" }, t("arb_edit"));
    edit.addEventListener("click", () => {
      this.editing = `${ti}.${pi}`;
      this.render();
    });
    li.append(" ", edit);
    return li;
  }

  /** A roster player being corrected: name, rating and title. */
  private edit_member(ti: number, pi: number): HTMLElement {
    const { title, name, rating } = player_inputs(this.ev!.teams[ti].roster[pi]);
    const buttons = edit_buttons((error) => this.change("player", { team: ti + 1, ...edit_player_body(pi, name.value, rating.value, title.value) }, error), () => {
      this.editing = "";
      this.render();
    });
    return h("li", { class: "arb-editing" }, title, " ", name, " ", rating, " ", ...buttons);
  }

  private add_member_form(ti: number): HTMLElement {
    const name = h("input", { class: "arb-member-name", maxlength: "40", "aria-label": t("arb_player_name") }) as HTMLInputElement;
    const rating = h("input", { class: "arb-member-rating", type: "number", min: "0", max: "9999", "aria-label": t("arb_rating") }) as HTMLInputElement;
    const error = h("span", { class: "arb-board-error", role: "alert" });
    const form = h("form", { class: "arb-form arb-add-member no-print", "data-team": String(ti) }, name, rating,
      h("button", { type: "submit" }, t("arb_add_member")), error);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.change("player", { team: ti + 1, name: name.value, rating: rating.value ? Number(rating.value) : 0 }, error);
    });
    return form;
  }

  private add_team_form(): HTMLElement {
    const name = h("input", { id: "arb-team-entry", maxlength: "40", required: "" }) as HTMLInputElement;
    const players = h("textarea", { id: "arb-team-players", rows: "4", cols: "40" }) as HTMLTextAreaElement;
    const error = h("p", { class: "arb-board-error", role: "alert" });
    const form = h("form", { id: "arb-add-team", class: "arb-form no-print" },
      field(t("arb_team"), name), field(t("arb_team_players"), players), h("button", { type: "submit", id: "arb-add-team-go" }, t("arb_add_team")), error);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.change("teams", { name: name.value, players: roster_lines(players.value) }, error).then((ok) => {
        if (ok) (this.el.querySelector("#arb-team-entry") as HTMLInputElement | null)?.focus();
      });
    });
    return form;
  }

  private round_part(arbiter: boolean): HTMLElement | null {
    const ev = this.ev!;
    if (ev.played.length === 0) return null;
    const r = this.round_index();
    const round = ev.played[r];
    const box = h("section", { class: "arb-round", id: "arb-matches", "data-round": String(r + 1) },
      round_heading(ev.played.length, r, ev.rounds, (n) => {
        this.shown_round = n;
        this.render();
      }));
    round.matches.forEach((m, mi) => box.append(this.match_part(r, mi, m, arbiter)));
    for (const team of round.byes) box.append(h("p", { class: "bye" }, `${ev.teams[team].name}: ${t("arb_bye")}`));
    return box;
  }

  /** A match: its score, a row per board (the result select and the moves for the key holder),
   * and each team's lineup form. */
  private match_part(r: number, mi: number, m: TeamMatch, arbiter: boolean): HTMLElement {
    const ev = this.ev!;
    const rows: HTMLElement[] = [];
    m.boards.forEach((b, bi) => {
      const label = (home: boolean) => {
        const p = board_member(ev, m, home, bi);
        return p ? player_label(p) : t("arb_empty_board");
      };
      const [white, black] = b.home_white ? [label(true), label(false)] : [label(false), label(true)];
      const cell = h("td", { class: "res" });
      rows.push(h("tr", { "data-board": String(bi + 1), "data-result": b.result },
        h("td", { class: "n" }, String(bi + 1)), h("td", { class: "name" }, white), cell, h("td", { class: "name" }, black),
        h("td", { class: "n" }, b.moves ? t("arb_n_moves", { n: b.moves }) : "")));
      if (!arbiter || b.forced) {
        cell.textContent = result_label(b.result);
        return;
      }
      rows.push(this.board_entry(r, mi, bi, b.result, cell));
    });
    const title = h("h4", { class: "arb-match-title" }, `${t("arb_match", { n: mi + 1 })}: ${ev.teams[m.home].name} ${m.home_points} – ${m.away_points} ${ev.teams[m.away].name}`);
    const table = h("div", { class: "table-wrap" }, h("table", { class: "arb-match", "data-match": String(mi + 1) },
      h("thead", {}, h("tr", {}, h("th", {}, t("arb_board")), h("th", {}, t("white")), h("th", {}, t("result")), h("th", {}, t("black")), h("th", {}, t("moves")))),
      h("tbody", {}, ...rows)));
    const lineups = arbiter && r === ev.played.length - 1 ? [this.lineup_form(m, true), this.lineup_form(m, false)] : [];
    return h("div", { class: "arb-match-box" }, title, table, ...lineups);
  }

  /** A board's result select and moves, drawn into `cell` and a row below it (drafts by
   * round and match * 100 + board). */
  private board_entry(r: number, mi: number, bi: number, result: string, cell: HTMLElement): HTMLElement {
    const entry = result_entry(this.drafts, r + 1, mi * 100 + bi, result, cell, (res, moves, error) =>
      this.change("result", { round: r + 1, match: mi + 1, board: bi + 1, result: res, moves }, error));
    return h("tr", { class: "arb-entry no-print", "data-entry": String(bi + 1) }, h("td", {}), h("td", { colspan: "4" }, ...entry));
  }

  /** A team's lineup: its roster players checked in board order; none checked: did not come. */
  private lineup_form(m: TeamMatch, home: boolean): HTMLElement {
    const ev = this.ev!;
    const ti = home ? m.home : m.away;
    const lineup = home ? m.home_lineup : m.away_lineup;
    const boxes = ev.teams[ti].roster.map((p, pi) => {
      const c = h("input", { type: "checkbox", class: "arb-lineup-player", value: String(pi + 1) }) as HTMLInputElement;
      c.checked = lineup.includes(pi);
      return { c, label: h("label", {}, c, " ", titled_name(p)) };
    });
    const error = h("span", { class: "arb-board-error", role: "alert" });
    const save = h("button", { type: "button", class: "arb-lineup-save" }, t("arb_save_lineup"));
    save.addEventListener("click", () => void this.change("lineup", lineup_body(ti, boxes.map((b) => b.c.checked)), error));
    const absent = h("button", { type: "button", class: "arb-lineup-absent" }, t("arb_absent"));
    absent.addEventListener("click", () => void this.change("lineup", { team: ti + 1, absent: true }, error));
    return h("fieldset", { class: "arb-lineup no-print", "data-team": String(ti) },
      h("legend", {}, `${t("arb_lineup")}: ${ev.teams[ti].name}`), ...boxes.map((b) => b.label), save, absent, error);
  }

  private standings_part(): HTMLElement | null {
    const ev = this.ev!;
    if (ev.teams.length === 0) return null;
    const extra = extra_tie_breaks(ev.tie_breaks);
    const rows = ev.standings.map((s) => {
      const team = ev.teams[s.team];
      const name = h("td", { class: "name" }, team.name);
      if (team.withdrawn) name.append(h("span", { class: "arb-withdrawn" }, ` (${t("arb_withdrawn")})`));
      return h("tr", { "data-team": String(s.team) },
        h("td", { class: "n" }, String(s.rank)), name, h("td", { class: "n pts" }, String(s.match_points)), h("td", { class: "n" }, s.board_points),
        ...extra.map((k) => h("td", { class: "n" }, s.tie_break_texts[k])));
    });
    return h("section", { class: "arb-standings" }, h("h3", {}, t("arb_standings")),
      h("div", { class: "table-wrap" }, h("table", { id: "arb-team-standings" },
        h("thead", {}, h("tr", {}, h("th", { class: "n" }, t("arb_rank")), h("th", {}, t("arb_team")), h("th", { class: "n" }, "MP"), h("th", { class: "n" }, "BP"),
          ...extra.map((k) => h("th", { class: "n" }, ev.tie_breaks[k])))),
        h("tbody", {}, ...rows))));
  }

  /** Per board number, the players who had a result there, best first. */
  private prizes_part(): HTMLElement | null {
    const ev = this.ev!;
    if (ev.played.length === 0) return null;
    const box = h("section", { class: "arb-prizes", id: "arb-board-prizes" }, h("h3", {}, t("arb_board_prizes")));
    ev.board_prizes.forEach((rows, b) => {
      box.append(h("h4", {}, t("arb_board_n", { n: b + 1 })), h("div", { class: "table-wrap" }, h("table", { "data-board": String(b + 1) },
        h("thead", {}, h("tr", {}, h("th", { class: "n" }, t("arb_rank")), h("th", {}, t("arb_player_name")), h("th", {}, t("arb_team")), h("th", { class: "n" }, t("arb_points")),
          h("th", { class: "n" }, t("arb_boards_scored")), h("th", { class: "n" }, t("arb_games")))),
        h("tbody", {}, ...rows.map((r, i) => h("tr", {}, h("td", { class: "n" }, String(i + 1)), h("td", { class: "name" }, player_label(ev.teams[r.team].roster[r.player])),
          h("td", {}, ev.teams[r.team].name), h("td", { class: "n pts" }, r.points), h("td", { class: "n" }, String(r.scored)), h("td", { class: "n" }, String(r.games))))))));
    });
    return box;
  }

  /** The tie-breaks (in order), before round 1 the scoring, and whether the event is rated. */
  private settings_part(): HTMLElement {
    const ev = this.ev!;
    const tbs = h("input", { id: "arb-team-tie-breaks", value: ev.tie_breaks.join(", "), placeholder: TEAM_TIE_BREAKS.join(", ") }) as HTMLInputElement;
    const scoring = h("select", { id: "arb-team-scoring-set" },
      option("match-points", t("arb_scoring_mp"), ev.scoring === "match-points"), option("board-points", t("arb_scoring_bp"), ev.scoring === "board-points")) as HTMLSelectElement;
    scoring.disabled = ev.played.length > 0;
    const rated = h("input", { id: "arb-team-rated", type: "checkbox" }) as HTMLInputElement;
    rated.checked = ev.rated ?? false;
    const error = h("p", { class: "arb-board-error", role: "alert" });
    const form = h("form", { class: "arb-form" }, field(t("arb_tie_breaks"), tbs), field(t("arb_scoring"), scoring), field(t("arb_rated"), rated),
      h("button", { type: "submit", id: "arb-team-settings" }, t("arb_save")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const body: Record<string, unknown> = { tie_breaks: tie_break_list(tbs.value, TEAM_TIE_BREAKS), rated: rated.checked };
      if (!scoring.disabled) body.scoring = scoring.value;
      void this.change("settings", body, error);
    });
    return h("section", { class: "arb-rules no-print" }, h("h3", {}, t("arb_rules")), form, error);
  }
}
