// Online tournaments (docs/web-protocol.md "Online tournaments"):
//   #/tournaments        the upcoming, running and finished ones, and the form of a new one
//   #/tournaments/<id>   one tournament: join / withdraw (a running arena: pause) / resume, the
//                        countdown to its start or end, the podium once over, the standings, the
//                        games being played (watch) and the finished ones (replay with the
//                        review); its creator's start now, edit and cancel before the start
// The tournament page asks the server again every 2 seconds (that request also keeps its
// player counted as connected) and redraws only what shows data, never the entry code field
// being typed into; when the player's own game starts it opens that game once.
// Every name is put into the page as text (textContent), never as HTML. What the pages show is
// derived in tournaments_state.ts; the HTTP calls are tournaments_api.ts's.

import "../arbiter/arbiter.css";
import "./tournaments.css";
import { who_am_i } from "../accounts/accounts_api.js";
import { error_text, t } from "../i18n/index.js";
import { field, h, option, toast, type View } from "../shell/util.js";
import { tournament_list } from "./tournament_list.js";
import { opened_before, tournament_path, tournaments_api, type TGame, type Tournament, type TournamentSummary } from "./tournaments_api.js";
import {
  actions_key, actions_of, countdown_of, countdown_text, edit_tournament_body, game_link_kind, game_result_text, game_to_open, max_players_of, new_tournament_body,
  open_and_done, playing_and_done, podium_of, summary_text, tie_break_text,
} from "./tournaments_state.js";

/** #/tournaments: the lists and the form of a new tournament. */
export class TournamentsHomeView implements View {
  el = document.createElement("div");
  private items: TournamentSummary[] = [];
  private me: string | null = null;
  private form_el: HTMLElement | null = null;
  // The page's parts: only the lists and the titles are redrawn; the form, once made, is never
  // taken out of the page, so a field being typed into keeps its focus and its text.
  private title = h("h2", {});
  private intro = h("p", {});
  private lists = h("div", {});
  private new_title = h("h3", {});
  private form_slot = h("div", {});
  constructor() {
    this.el.className = "arbiter tournaments";
    this.el.append(this.title, this.intro, this.lists, this.new_title, this.form_slot);
    this.render();
    void who_am_i().then((me) => {
      this.me = me;
      this.render();
    });
    void this.load();
  }
  destroy() {}

  private async load() {
    try {
      this.items = (await tournaments_api.list()).tournaments;
      this.render();
    } catch (e) {
      toast(error_text(e), "error");
    }
  }

  private form(): HTMLElement {
    const num = (id: string, min: number, max: number, value: number) =>
      h("input", { id, type: "number", min: String(min), max: String(max), value: String(value) }) as HTMLInputElement;
    const name = h("input", { id: "tn-name", maxlength: "120", required: "" }) as HTMLInputElement;
    const system = h("select", { id: "tn-system" }, option("arena", t("tn_arena"), true), option("swiss", t("sys_swiss")),
      option("round-robin", t("sys_round_robin")), option("double-round-robin", t("sys_double_round_robin"))) as HTMLSelectElement;
    const minutes = num("tn-minutes", 0.25, 180, 3);
    minutes.step = "0.25";
    const inc = num("tn-increment", 0, 180, 2);
    const starts = num("tn-starts", 0, 43200, 5);
    const duration = num("tn-duration", 1, 720, 45);
    const rounds = num("tn-rounds", 1, 30, 5);
    const first_move = num("tn-first-move", 10, 120, 30);
    const code = h("input", { id: "tn-code", maxlength: "40", autocomplete: "off" }) as HTMLInputElement;
    const max = num("tn-max", 2, max_players_of("arena").most, max_players_of("arena").initial);
    let max_typed = false; // a number typed stays, unless the system takes fewer
    max.addEventListener("input", () => (max_typed = true));
    const rated = h("input", { id: "tn-rated", type: "checkbox" }) as HTMLInputElement;
    const sync = () => {
      duration.disabled = system.value !== "arena";
      rounds.disabled = system.value !== "swiss";
      const { most, initial } = max_players_of(system.value);
      max.max = String(most);
      if (!max_typed || Number(max.value) > most) max.value = String(initial);
    };
    system.addEventListener("change", sync);
    sync();
    const form = h("form", { id: "tn-new", class: "arb-form" },
      field(t("tn_name"), name), field(t("tn_system"), system), field(t("tn_minutes"), minutes), field(t("tn_increment"), inc),
      field(t("tn_starts_in"), starts), field(t("tn_duration"), duration), field(t("tn_rounds"), rounds),
      field(t("tn_first_move"), first_move), field(t("tn_max"), max), field(t("tn_code"), code),
      h("label", { class: "check" }, rated, ` ${t("rated")}`),
      h("button", { type: "submit", id: "tn-create", class: "primary" }, t("tn_create")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const body = new_tournament_body({
        name: name.value, system: system.value, minutes: minutes.value, increment: inc.value, starts_in: starts.value,
        duration: duration.value, rounds: rounds.value, max_players: max.value, code: code.value, rated: rated.checked, first_move: first_move.value,
      }, Date.now());
      void tournaments_api
        .create(body)
        .then((r) => (location.hash = `#/tournaments/${encodeURIComponent(r.id)}`))
        .catch((err) => toast(error_text(err), "error"));
    });
    return form;
  }

  render() {
    const { open, done } = open_and_done(this.items);
    this.title.textContent = t("tournaments");
    this.intro.textContent = t("tn_intro");
    this.new_title.textContent = t("tn_new");
    this.lists.replaceChildren(tournament_list(open, "tn-open"));
    if (done.length) this.lists.append(h("h3", {}, t("tn_status_finished")), tournament_list(done, "tn-done"));
    if (!this.me) {
      this.form_slot.replaceChildren(h("p", { class: "muted", id: "tn-login" }, h("a", { href: "#/login" }, t("tn_login"))));
      return;
    }
    this.form_el ??= this.form();
    if (this.form_el.parentNode !== this.form_slot) this.form_slot.replaceChildren(this.form_el);
  }
}

/** #/tournaments/<id>: one tournament, kept current. */
export class TournamentView implements View {
  el = document.createElement("div");
  private tn: Tournament | null = null;
  private timer = 0;
  private stopped = false;
  private me: string | null = null;
  // The page's parts: the head and the body (standings, games) are redrawn at every refresh,
  // the actions only when they change; the entry code field is made once.
  private head = h("div", {});
  private act_slot = h("div", {});
  private body = h("div", {});
  private act_key = "";
  private code_input = h("input", { id: "tn-code-entry", placeholder: t("tn_code"), autocomplete: "off" }) as HTMLInputElement;
  // The creator's edit form while open (made from the tournament when opened, not redrawn).
  private edit_slot = h("div", {});
  // The countdown to the start or the end, by the server's clock (skew: server minus local).
  private countdown = h("span", { id: "tn-countdown" });
  private skew = 0;
  private ticker = 0;
  constructor(private id: string) {
    this.el.className = "arbiter tournament";
    this.el.addEventListener("click", (e) => this.on_click(e.target as Element));
    this.ticker = window.setInterval(() => this.draw_countdown(), 1000);
    void who_am_i().then((me) => {
      this.me = me;
      this.render();
    });
    void this.poll();
  }
  destroy() {
    this.stopped = true;
    window.clearTimeout(this.timer);
    window.clearInterval(this.ticker);
  }

  private draw_countdown() {
    const c = this.tn ? countdown_of(this.tn, Date.now() + this.skew) : null;
    this.countdown.hidden = !c;
    this.countdown.textContent = c ? t(c.key, { time: countdown_text(c.ms) }) : "";
    if (c) this.countdown.dataset.ms = String(c.ms);
  }

  private async poll() {
    try {
      this.show((await tournaments_api.get(this.id)).tournament);
    } catch (e) {
      toast(error_text(e), "error");
    }
    if (!this.stopped && this.tn?.status !== "finished" && this.tn?.status !== "cancelled")
      this.timer = window.setTimeout(() => void this.poll(), 2000);
  }

  private show(tn: Tournament) {
    this.tn = tn;
    this.skew = tn.now_ms - Date.now();
    this.render();
    this.el.dataset.refreshes = String(Number(this.el.dataset.refreshes ?? 0) + 1); // the browser tests count them
    const game = game_to_open(tn);
    if (game && !this.stopped && !opened_before(game, tn.id)) location.hash = `#/game/${encodeURIComponent(game)}`;
  }

  private on_click(el: Element) {
    const b = el.closest<HTMLElement>("[data-action]");
    if (!b || !this.tn) return;
    if (b.dataset.action === "edit-open") {
      this.edit_slot.replaceChildren(...(this.edit_slot.firstChild ? [] : [this.edit_form(this.tn)]));
      return;
    }
    if (b.dataset.action === "cancel" && !window.confirm(t("tn_cancel"))) return;
    const action = b.dataset.action as "join" | "withdraw" | "start" | "cancel";
    const code = this.code_input.value;
    void tournaments_api
      .post(this.id, action, action === "join" ? { code } : {})
      .then((r) => this.show(r.tournament))
      .catch((err) => toast(error_text(err), "error"));
  }

  private actions(tn: Tournament): HTMLElement | null {
    const actions = actions_of(tn, this.me);
    if (actions === null) return null;
    if (actions === "login") return h("p", { class: "muted", id: "tn-login" }, h("a", { href: "#/login" }, t("tn_login")));
    const box = h("p", { id: "tn-actions" });
    for (const a of actions) {
      if (a === "start") box.append(h("button", { "data-action": "start", id: "tn-start" }, t("tn_start")), " ");
      else if (a === "edit") box.append(h("button", { "data-action": "edit-open", id: "tn-edit" }, t("tn_edit")), " ");
      else if (a === "cancel") box.append(h("button", { "data-action": "cancel", id: "tn-cancel" }, t("tn_cancel")), " ");
      else if (a === "pause") box.append(h("button", { "data-action": "withdraw", id: "tn-pause" }, t("tn_pause")));
      else if (a === "code") box.append(this.code_input, " ");
      else if (a === "join") box.append(h("button", { "data-action": "join", id: "tn-join", class: "primary" }, t("tn_join")));
      else if (a === "paused") box.append(h("span", { id: "tn-paused" }, t("tn_paused")), " ");
      else if (a === "resume") box.append(h("button", { "data-action": "join", id: "tn-resume", class: "primary" }, t("tn_resume")));
      else if (a === "my_game") box.append(h("a", { id: "tn-my-game", href: `#/game/${encodeURIComponent(tn.me!.game!)}` }, t("tn_your_game")), " ");
      else box.append(h("button", { "data-action": "withdraw", id: "tn-withdraw" }, t("tn_withdraw")));
    }
    return box;
  }

  /** The creator's form to change the name, clock, start, duration or rounds and first move. */
  private edit_form(tn: Tournament): HTMLElement {
    const num = (id: string, min: number, max: number, value: number) =>
      h("input", { id, type: "number", min: String(min), max: String(max), value: String(value) }) as HTMLInputElement;
    const name = h("input", { id: "tn-edit-name", maxlength: "120", required: "", value: tn.name }) as HTMLInputElement;
    const minutes = num("tn-edit-minutes", 0.25, 180, tn.initial_ms / 60000);
    minutes.step = "0.25";
    const inc = num("tn-edit-increment", 0, 180, tn.increment_ms / 1000);
    const starts = num("tn-edit-starts", 0, 43200, Math.max(0, Math.round((tn.starts_ms - tn.now_ms) / 60000)));
    const duration = num("tn-edit-duration", 1, 720, Math.round((tn.duration_ms ?? 0) / 60000));
    const rounds = num("tn-edit-rounds", 1, 30, tn.rounds ?? 1);
    const first_move = num("tn-edit-first-move", 10, 120, tn.first_move_seconds || 30);
    const form = h("form", { id: "tn-edit-form", class: "arb-form" }, field(t("tn_name"), name), field(t("tn_minutes"), minutes),
      field(t("tn_increment"), inc), field(t("tn_starts_in"), starts),
      ...(tn.system === "arena" ? [field(t("tn_duration"), duration)] : tn.system === "swiss" ? [field(t("tn_rounds"), rounds)] : []),
      field(t("tn_first_move"), first_move), h("button", { type: "submit", id: "tn-edit-save", class: "primary" }, t("tn_save")));
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const body = edit_tournament_body({
        name: name.value, system: tn.system, minutes: minutes.value, increment: inc.value, starts_in: starts.value, duration: duration.value,
        rounds: rounds.value, max_players: "0", code: "", rated: false, first_move: first_move.value,
      }, Date.now() + this.skew);
      void tournaments_api
        .post(this.id, "edit", body)
        .then((r) => {
          this.edit_slot.replaceChildren();
          this.show(r.tournament);
        })
        .catch((err) => toast(error_text(err), "error"));
    });
    return form;
  }

  /** The first three of a finished tournament, best first. */
  private podium(tn: Tournament): HTMLElement[] {
    const top = podium_of(tn);
    if (!top.length) return [];
    return [h("h3", {}, t("tn_podium")), h("ol", { id: "tn-podium", class: "tn-podium" },
      ...top.map((s, i) => h("li", { "data-place": String(i + 1), "data-name": s.name }, h("b", {}, s.name), ` · ${s.points}`)))];
  }

  private standings(tn: Tournament): HTMLElement {
    const arena = tn.system === "arena";
    const tbs = tn.tie_breaks ?? [];
    const n = (text: string) => h("th", { class: "n" }, text);
    const head = h("tr", {}, n("#"), h("th", {}, t("name_player")), n(t("rating")), n(t("tn_points")),
      ...(arena ? [n(t("tn_games_col")), n(t("tn_streak"))] : tbs.map((x) => n(x))));
    const rows = tn.standings.map((s) => {
      const name = h("td", { class: "name" }, s.name);
      if (s.withdrawn) name.append(` (${t("tn_withdrawn")})`);
      return h("tr", { "data-player": String(s.player), "data-name": s.name, "data-points": s.points },
        h("td", { class: "n" }, String(s.rank)), name, h("td", { class: "n" }, s.rating ? String(s.rating) : "—"), h("td", { class: "n pts" }, s.points),
        ...(arena ? [h("td", { class: "n" }, String(s.games ?? 0)), h("td", { class: "n" }, String(s.streak ?? 0))]
          : (s.tie_breaks ?? []).map((v) => h("td", { class: "n" }, tie_break_text(v)))));
    });
    return h("div", { class: "table-wrap" }, h("table", { id: "tn-standings" }, h("thead", {}, head), h("tbody", {}, ...rows)));
  }

  private games_table(games: TGame[], id: string, rounds: boolean): HTMLElement {
    const rows = games.map((g) => {
      const kind = game_link_kind(g);
      const link = g.id
        ? h("a", { href: `#/game/${encodeURIComponent(g.id)}`, class: "tn-game-link" }, t(kind === "watch" ? "tn_watch" : "tn_replay"))
        : h("span", { class: "muted" }, t("tn_forfeit"));
      return h("tr", { "data-game": g.id ?? "", "data-result": g.result, "data-called-off": g.called_off ? "1" : "0", "data-white": g.white_name, "data-black": g.black_name },
        h("td", { class: "n" }, rounds ? `${g.round}.${g.board}` : String(g.board)), h("td", {}, g.white_name),
        h("td", { class: "res" }, game_result_text(g)), h("td", {}, g.black_name), h("td", {}, link));
    });
    return h("div", { class: "table-wrap" }, h("table", { id }, h("tbody", {}, ...rows)));
  }

  render() {
    const tn = this.tn;
    if (!tn) {
      this.el.replaceChildren(h("p", { class: "muted" }, "…"));
      return;
    }
    if (this.head.parentNode !== this.el) this.el.replaceChildren(this.head, this.act_slot, this.edit_slot, this.body);
    const rounds = tn.system !== "arena";
    const { playing, done } = playing_and_done(tn.games);
    this.head.replaceChildren(
      h("h2", { id: "tn-title" }, tn.name),
      h("p", { class: "arb-meta" }, h("span", { id: "tn-status", "data-status": tn.status }, t(`tn_status_${tn.status}`)), " · ", summary_text(tn), " · ",
        t("tn_by", { name: tn.creator }), " ", this.countdown),
    );
    this.draw_countdown();
    if (tn.status !== "upcoming") this.edit_slot.replaceChildren();
    // the actions are made again only when they change: the entry code being typed keeps its
    // text and its focus across the refreshes
    const key = actions_key(actions_of(tn, this.me), tn);
    if (key !== this.act_key) {
      this.act_key = key;
      const act = this.actions(tn);
      this.act_slot.replaceChildren(...(act ? [act] : []));
    }
    this.body.replaceChildren(...this.podium(tn), h("h3", {}, t("tn_standings")), this.standings(tn));
    if (playing.length) this.body.append(h("h3", {}, t("tn_status_running")), this.games_table(playing, "tn-playing", rounds));
    if (done.length) this.body.append(h("h3", {}, t("tn_games")), this.games_table(done, "tn-games", rounds));
    this.body.append(h("p", { class: "arb-links" }, t("tn_download"), " ",
      h("a", { id: "tn-pgn", href: tournament_path(tn.id, "/pgn"), download: "" }, "PGN"), " ",
      h("a", { id: "tn-tgk", href: tournament_path(tn.id, "/tgk"), download: "" }, "TGK")));
  }
}
