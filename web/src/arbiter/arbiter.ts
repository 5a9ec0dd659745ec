// The arbiter page of an over-the-board event (docs/web-protocol.md "Over-the-board events"):
// create the event, enter the players, pair each round, enter the results (optionally each
// game's moves as typed from the scoresheet, checked by the server's referee), the standings;
// links to the print-friendly pairings and standings pages and the event's TGK file; for the
// arbiter the event's exchange file (TRF), and on #/arbiter an event imported from one.
//   #/arbiter                 a new event or an imported one, and the events this browser arbitrates
//   #/arbiter/<id>[/<key>]    the event; with its arbiter key (kept in this browser) to change it
//   #/arbiter/team/<id>[/<key>]  a team event (arbiter_teams.ts)
// The arbiter may correct a player (a typo), withdraw one, enter late players in a Swiss, and
// pair the last round again while it has no result. What is typed into a board and not saved
// stays across the redraws (BoardDrafts). The print pages come in the page's language.
// Every name is put into the page as text (textContent), never as HTML. What the pages show is
// derived in arbiter_state.ts; the HTTP calls and the kept keys are arbiter_api.ts's.

import "./arbiter.css";
import { error_text, lang, t } from "../i18n/index.js";
import { field, h, option, toast, type View } from "../shell/util.js";
import { arbiter_api, event_path, keep_key, keys, team_api, type ArbiterEvent, type Live } from "./arbiter_api.js";
import {
  BoardDrafts, arbiter_link, edit_player_body, event_date, event_meta, keeper_link, may_enter_players, may_repair, new_event_body,
  is_team_trf, new_player_body, player_label, print_path, result_label, round_index, tie_break_text, titled_name,
} from "./arbiter_state.js";
import { edit_buttons, key_note, pair_button, player_inputs, result_entry, round_heading, send_change, take_key, trf_link } from "./arbiter_parts.js";
import { rules_part } from "./arbiter_rules.js";
import { new_team_part } from "./arbiter_teams.js";

/** #/arbiter: the form of a new event and the events whose keys this browser keeps. */
export class ArbiterHomeView implements View {
  el = document.createElement("div");
  constructor() {
    this.el.className = "arbiter";
    this.render();
  }
  destroy() {}

  render() {
    const system = h("select", { id: "arb-system" },
      option("swiss", t("sys_swiss"), true), option("round-robin", t("sys_round_robin")), option("double-round-robin", t("sys_double_round_robin")));
    const rounds = h("input", { id: "arb-rounds", type: "number", min: "1", max: "50", value: "5" }) as HTMLInputElement;
    system.addEventListener("change", () => (rounds.disabled = (system as HTMLSelectElement).value !== "swiss"));
    const name = h("input", { id: "arb-name", maxlength: "120" }) as HTMLInputElement;
    const site = h("input", { id: "arb-site", maxlength: "120" }) as HTMLInputElement;
    const date = h("input", { id: "arb-date", value: event_date(new Date()), placeholder: "2026.12.01" }) as HTMLInputElement;
    const form = h("form", { id: "arb-new", class: "arb-form" },
      field(t("arb_name"), name), field(t("arb_site"), site), field(t("arb_date"), date),
      field(t("arb_system"), system), field(t("arb_rounds"), rounds),
      h("button", { type: "submit", id: "arb-create" }, t("arb_create")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void arbiter_api
        .create(new_event_body({ name: name.value, site: site.value, date: date.value, system: (system as HTMLSelectElement).value, rounds: rounds.value }))
        .then((r) => {
          keep_key(r.id, r.key, r.event.name);
          location.hash = `#/arbiter/${encodeURIComponent(r.id)}`;
        })
        .catch((err) => toast(error_text(err), "error"));
    });
    const mine = Object.entries(keys());
    const list = mine.length
      ? h("ul", { id: "arb-mine" }, ...mine.map(([id, k]) => h("li", {}, h("a", { href: `#/arbiter/${k.team ? "team/" : ""}${encodeURIComponent(id)}` }, k.name || id))))
      : null;
    this.el.replaceChildren(h("h2", {}, t("arb_title")), h("p", {}, t("arb_intro")), h("h3", {}, t("arb_new")), form, ...new_team_part(), ...import_part());
    if (list) this.el.append(h("h3", {}, t("arb_my_events")), list);
  }
}

/** An event read from an exchange file (TRF) of another pairing program, chosen or pasted: a
 * file with team lines (013) becomes a team event, any other an individual one; the server's
 * refusal (the line and the field) shown under the form. */
function import_part(): HTMLElement[] {
  const file = h("input", { id: "arb-trf-file", type: "file", accept: ".trf,.txt,text/plain" }) as HTMLInputElement;
  const text = h("textarea", { id: "arb-trf-text", rows: "4", cols: "60", spellcheck: "false" }) as HTMLTextAreaElement;
  const error = h("p", { id: "arb-import-error", class: "arb-board-error", role: "alert" });
  const form = h("form", { id: "arb-import", class: "arb-form" }, field(t("arb_import_file"), file), field(t("arb_import_text"), text),
    h("button", { type: "submit", id: "arb-import-go" }, t("arb_import_go")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    const chosen = file.files?.[0];
    void (chosen ? chosen.text() : Promise.resolve(text.value))
      .then(async (trf) => {
        const team = is_team_trf(trf);
        const r = await (team ? team_api.import_trf(trf) : arbiter_api.import_trf(trf));
        keep_key(r.id, r.key, r.event.name, team);
        location.hash = `#/arbiter/${team ? "team/" : ""}${encodeURIComponent(r.id)}`;
      })
      .catch((err) => (error.textContent = error_text(err)));
  });
  return [h("h3", {}, t("arb_import")), h("p", {}, t("arb_import_intro"), " ", t("arb_import_team")), form, error];
}

/** #/arbiter/<id>[/<key>]: one event. */
export class ArbiterEventView implements View {
  el = document.createElement("div");
  private ev: ArbiterEvent | null = null;
  private key: string;
  private shown_round = 0; // 1-based; 0: the latest
  private drafts = new BoardDrafts();
  private editing = -1; // the player whose row is being corrected
  private live: Live | null = null; // the round being played, as the broadcast shows it
  private keeper_links = new Map<string, string>(); // "round.board" -> a keeper's link handed out
  private follow_timer = 0; // while a file is followed: its report read again every 3 s

  constructor(private id: string, key_in_url?: string) {
    this.el.className = "arbiter";
    this.key = take_key(id, key_in_url, `#/arbiter/${encodeURIComponent(id)}`);
    this.el.replaceChildren(h("p", {}, t("arb_loading")));
    void arbiter_api
      .live(id)
      .then((r) => this.show(r.event, r.live))
      .catch((err) => {
        this.el.replaceChildren(h("p", { id: "arb-error" }, error_text(err)));
      });
  }
  destroy() {
    clearInterval(this.follow_timer);
  }

  private show(ev: ArbiterEvent, live?: Live) {
    this.ev = ev;
    if (live) this.live = live;
    if (this.key) keep_key(ev.id, this.key, ev.name);
    this.render();
  }

  /** Sends one change with the key; the event comes back and is drawn again. */
  private change(action: string, body: Record<string, unknown>, error_box?: HTMLElement): Promise<boolean> {
    return send_change(() => arbiter_api.post(this.id, action, { ...body, key: this.key }), (r) => {
      if (r.token) this.keeper_links.set(`${r.event.played.length}.${Number(body.board)}`, keeper_link(`${location.origin}${location.pathname}`, this.id, r.token));
      this.show(r.event, r.live);
    }, error_box);
  }

  render() {
    const ev = this.ev;
    if (!ev) return;
    const arbiter = this.key !== "";
    const n_played = ev.played.length;
    const links = h("p", { class: "arb-links no-print" },
      n_played ? h("a", { href: print_path(event_path(ev.id, `/pairings?round=${this.round_index() + 1}`), lang()), target: "_blank", id: "arb-print-pairings" }, t("arb_print_pairings")) : null,
      h("a", { href: print_path(event_path(ev.id, "/standings"), lang()), target: "_blank", id: "arb-print-standings" }, t("arb_print_standings")),
      h("a", { href: event_path(ev.id, "/tgk"), download: `event-${ev.id}.tgk`, id: "arb-tgk" }, t("arb_tgk")),
      arbiter ? trf_link(() => arbiter_api.trf(this.id, this.key), `event-${this.id}.trf`) : null,
      h("a", { href: `#/broadcast/${encodeURIComponent(ev.id)}`, id: "arb-broadcast" }, t("bc_watch")));
    const parts: (HTMLElement | null)[] = [
      h("h2", { id: "arb-event-name" }, ev.name || t("arb_untitled")),
      h("p", { class: "arb-meta" }, event_meta(ev)),
      links,
      arbiter ? key_note(arbiter_link(`${location.origin}${location.pathname}`, this.id, this.key)) : h("p", { class: "arb-note no-print" }, t("arb_read_only")),
      this.players_part(arbiter),
      this.round_part(arbiter),
      arbiter && n_played ? this.follow_part() : null,
      arbiter ? this.eval_part() : null,
      this.standings_part(),
      rules_part(ev, arbiter, (action, body, box) => this.change(action, body, box)),
    ];
    this.el.replaceChildren(...parts.filter((p): p is HTMLElement => p !== null));
  }

  private players_part(arbiter: boolean): HTMLElement {
    const ev = this.ev!;
    const rows = ev.players.map((_, i) => (arbiter && this.editing === i ? this.edit_row(i) : this.player_row(i, arbiter)));
    const table = h("table", { id: "arb-players" },
      h("thead", {}, h("tr", {}, h("th", {}, "#"), h("th", {}, t("arb_title_field")), h("th", {}, t("arb_player_name")), h("th", {}, t("arb_rating")),
        ...(arbiter ? [h("th", { class: "no-print" }, "")] : []))),
      h("tbody", {}, ...rows));
    const box = h("section", { class: "arb-players" }, h("h3", {}, `${t("arb_players")} (${ev.players.length})`), h("div", { class: "table-wrap" }, table));
    if (arbiter && may_enter_players(ev)) {
      const name = h("input", { id: "arb-player-name", maxlength: "40", required: "" }) as HTMLInputElement;
      const rating = h("input", { id: "arb-player-rating", type: "number", min: "0", max: "9999", value: "" }) as HTMLInputElement;
      const title = h("input", { id: "arb-player-title", maxlength: "10", size: "4" }) as HTMLInputElement;
      const form = h("form", { id: "arb-add-player", class: "arb-form no-print" },
        field(t("arb_player_name"), name), field(t("arb_rating"), rating), field(t("arb_title_field"), title),
        h("button", { type: "submit", id: "arb-add" }, t("arb_add_player")));
      form.addEventListener("submit", (e) => {
        e.preventDefault();
        void this.change("players", new_player_body(name.value, rating.value, title.value)).then((ok) => {
          if (ok) (this.el.querySelector("#arb-player-name") as HTMLInputElement | null)?.focus();
        });
      });
      box.append(form);
    }
    const pair = arbiter ? pair_button(ev.next === "pair", may_repair(ev), ev.played.length, (action) => this.change(action, {}), () => (this.shown_round = 0)) : null;
    if (pair) {
      box.append(pair);
    } else if (arbiter && ev.next === "players") {
      box.append(h("p", { class: "no-print" }, t("arb_need_players")));
    }
    return box;
  }

  /** A player's row; the arbiter's has the buttons to correct him and to withdraw him. */
  private player_row(i: number, arbiter: boolean): HTMLElement {
    const p = this.ev!.players[i];
    const name = h("td", { class: "name" }, p.name);
    if (p.withdrawn) name.append(h("span", { class: "arb-withdrawn" }, ` (${t("arb_withdrawn")})`));
    const row = h("tr", { "data-player": String(i), "data-withdrawn": p.withdrawn ? "1" : "0" },
      h("td", { class: "n" }, String(i + 1)), h("td", {}, p.title), name, h("td", { class: "n" }, p.rating > 0 ? String(p.rating) : ""));
    if (!arbiter) return row;
    const edit = h("button", { type: "button", class: "arb-edit" }, t("arb_edit"));
    edit.addEventListener("click", () => {
      this.editing = i;
      this.render();
      (this.el.querySelector(".arb-edit-name") as HTMLInputElement | null)?.focus();
    });
    const withdraw = h("button", { type: "button", class: "arb-withdraw" }, t(p.withdrawn ? "arb_return" : "arb_withdraw"));
    withdraw.addEventListener("click", () => void this.change("withdraw", { player: i + 1, withdrawn: !p.withdrawn }));
    row.append(h("td", { class: "no-print" }, edit, " ", withdraw));
    return row;
  }

  /** A player's row being corrected: his name, rating and title in fields. */
  private edit_row(i: number): HTMLElement {
    const { title, name, rating } = player_inputs(this.ev!.players[i]);
    const buttons = edit_buttons((error) => this.change("player", edit_player_body(i, name.value, rating.value, title.value), error), () => {
      this.editing = -1;
      this.render();
    });
    return h("tr", { "data-player": String(i), class: "arb-editing" },
      h("td", { class: "n" }, String(i + 1)), h("td", {}, title), h("td", { class: "name" }, name), h("td", { class: "n" }, rating),
      h("td", {}, ...buttons));
  }

  private round_index(): number {
    return round_index(this.ev!.played.length, this.shown_round);
  }

  private round_part(arbiter: boolean): HTMLElement | null {
    const ev = this.ev!;
    if (ev.played.length === 0) return null;
    const r = this.round_index();
    const round = ev.played[r];
    const rows: HTMLElement[] = [];
    round.boards.forEach((b, i) => {
      const white = ev.players[b.white];
      const black = ev.players[b.black];
      const result_cell = h("td", { class: "res" });
      const row = h("tr", { "data-board": String(i + 1), "data-result": b.result },
        h("td", { class: "n" }, String(i + 1)), h("td", { class: "name" }, player_label(white)), result_cell, h("td", { class: "name" }, player_label(black)),
        h("td", { class: "n" }, b.moves ? t("arb_n_moves", { n: b.moves }) : ""));
      rows.push(row);
      if (!arbiter) {
        result_cell.textContent = result_label(b.result);
        return;
      }
      const entry = result_entry(this.drafts, r + 1, i + 1, b.result, result_cell, (result, moves, error) =>
        this.change("result", { round: r + 1, board: i + 1, result, moves }, error));
      const keeper = r === ev.played.length - 1 && b.result === "*" ? this.keeper_part(i + 1) : null;
      rows.push(h("tr", { class: "arb-entry no-print", "data-entry": String(i + 1) }, h("td", {}), h("td", { colspan: "4" }, ...entry, keeper)));
    });
    const byes: [number[] | undefined, string][] = [[round.byes, t("arb_bye")], [round.half_byes, t("arb_half_bye")], [round.zero_byes, t("arb_zero_bye")]];
    for (const [list, word] of byes)
      for (const p of list ?? [])
        rows.push(h("tr", { class: "bye" }, h("td", {}), h("td", { class: "name" }, player_label(ev.players[p])), h("td", { class: "res" }, word), h("td", {}), h("td", {})));
    return h("section", { class: "arb-round" },
      round_heading(ev.played.length, r, ev.rounds, (n) => {
        this.shown_round = n;
        this.render();
      }),
      h("div", { class: "table-wrap" }, h("table", { id: "arb-pairings", "data-round": String(r + 1) },
        h("thead", {}, h("tr", {}, h("th", {}, t("arb_board")), h("th", {}, t("white")), h("th", {}, t("result")), h("th", {}, t("black")), h("th", {}, t("moves")))),
        h("tbody", {}, ...rows))));
  }

  /** A board's keeper: the link to hand out (kept while the page is open), how many hold one,
   * and the button that revokes them all. */
  private keeper_part(board: number): HTMLElement {
    const round = this.ev!.played.length;
    const link = this.keeper_links.get(`${round}.${board}`);
    const give = h("button", { type: "button", class: "arb-keeper" }, t("bc_keeper_link"));
    give.addEventListener("click", () => void this.change("keeper", { board }));
    const revoke = h("button", { type: "button", class: "arb-revoke" }, t("bc_revoke"));
    revoke.addEventListener("click", () => {
      this.keeper_links.delete(`${round}.${board}`);
      void this.change("revoke", { board });
    });
    const n = this.live?.round === round ? this.live.boards[board - 1]?.keepers ?? 0 : 0;
    return h("div", { class: "arb-keepers" }, give, " ", revoke, " ", h("span", { class: "arb-keeper-count" }, t("bc_keepers", { n })),
      link ? h("input", { class: "arb-keeper-link", readonly: "", value: link, "aria-label": t("bc_keeper_link") }) : null);
  }

  /** Following a TGK or PGN file that another program rewrites, and what went wrong with it. */
  private follow_part(): HTMLElement {
    const path = h("input", { id: "arb-follow-path", maxlength: "1000" }) as HTMLInputElement;
    const start = h("button", { type: "submit", id: "arb-follow" }, t("bc_follow_start"));
    const form = h("form", { class: "arb-form" }, field(t("bc_follow_path"), path), start);
    const error = h("p", { id: "arb-follow-error", class: "arb-board-error", role: "alert" });
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.change("follow", { path: path.value.trim() }, error);
    });
    const live = this.live;
    const box = h("section", { class: "arb-follow no-print" }, h("h3", {}, t("bc_follow")), form, error);
    if (live?.follow_error) error.textContent = t("bc_follow_error", { line: live.follow_error.line, detail: live.follow_error.detail });
    clearInterval(this.follow_timer);
    if (live?.following) {
      // Only the report is updated in place: what the arbiter is typing stays.
      this.follow_timer = window.setInterval(() => void arbiter_api.live(this.id).then((r) => {
        const e = r.live.follow_error;
        error.textContent = e ? t("bc_follow_error", { line: e.line, detail: e.detail }) : "";
      }).catch(() => undefined), 3000);
      const stop = h("button", { type: "button", id: "arb-follow-stop" }, t("bc_follow_stop"));
      stop.addEventListener("click", () => void this.change("follow", { path: "" }));
      box.append(h("p", { id: "arb-following" }, t("bc_following"), " ", stop));
    }
    return box;
  }

  /** The spectators' evaluation: off, or of the position some half-moves before the current. */
  private eval_part(): HTMLElement {
    const delay = h("input", { id: "arb-eval-delay", type: "number", min: "0", max: "40", value: String(this.live?.eval_delay ?? 0) }) as HTMLInputElement;
    const error = h("p", { id: "arb-eval-error", class: "arb-board-error", role: "alert" });
    const form = h("form", { class: "arb-form" }, field(t("bc_eval_delay"), delay), h("button", { type: "submit", id: "arb-eval-save" }, t("arb_save")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.change("settings", { eval_delay: Number(delay.value) }, error);
    });
    return h("section", { class: "arb-eval no-print" }, h("h3", {}, t("bc_eval_title")), form, error);
  }

  private standings_part(): HTMLElement | null {
    const ev = this.ev!;
    if (ev.players.length === 0) return null;
    const rows = ev.standings.map((s) => {
      const p = ev.players[s.player];
      return h("tr", { "data-player": String(s.player) },
        h("td", { class: "n" }, String(s.rank)), h("td", { class: "name" }, titled_name(p)),
        h("td", { class: "n" }, p.rating > 0 ? String(p.rating) : ""), h("td", { class: "n pts" }, s.points),
        ...s.tie_breaks.map((v, k) => h("td", { class: "n" }, s.tie_break_texts?.[k] ?? tie_break_text(v))));
    });
    return h("section", { class: "arb-standings" },
      h("h3", {}, t("arb_standings")),
      h("div", { class: "table-wrap" }, h("table", { id: "arb-standings" },
        h("thead", {}, h("tr", {}, h("th", {}, t("arb_rank")), h("th", {}, t("arb_player_name")), h("th", {}, t("arb_rating")), h("th", {}, t("arb_points")),
          ...ev.tie_breaks.map((tb) => h("th", {}, tb)))),
        h("tbody", {}, ...rows))));
  }
}
