// A federation's rating lists (docs/ratings-federation.md "On the site"):
//   #/ratings                          the published lists
//   #/ratings/<list>                   the list: searched by name, sorted by a column, a page
//                                      of rows at a time; its CSV and print page; its events
//   #/ratings/<list>/player/<n>        a player's history: every game of the season
//   #/ratings/<list>/event/<n>         an event's calculation, as the rating reports show it
//   #/ratings/<list>/names             the skipped games and the names the officer must
//                                      settle (moderators only)
// Every name is put into the page as text (textContent), never as HTML. What the list shows
// is derived in ratings_state.ts; the HTTP calls are ratings_api.ts's.

import { am_moderator } from "../accounts/accounts_api.js";
import "./ratings.css";
import { error_text, lang, t } from "../i18n/index.js";
import { h, type View } from "../shell/util.js";
import { print_path, list_path, ratings_api, type HistoryEntry, type RatingList } from "./ratings_api.js";
import {
  SORT_KEYS, first_query, list_page, rating_text, ratings_href, score_text, signed, signed_fixed, sort_by, type ListQuery,
} from "./ratings_state.js";

const num = (text: string) => h("td", { class: "n" }, text);
const th = (text: string, numeric = false) => h("th", numeric ? { class: "n" } : {}, text);
const table = (id: string, head: HTMLElement[], rows: HTMLElement[]) =>
  h("div", { class: "table-wrap" }, h("table", { id }, h("thead", {}, h("tr", {}, ...head)), h("tbody", {}, ...rows)));

/** A view that loads one thing and draws it; a refusal is shown in its place. */
abstract class Loaded<T> implements View {
  el = document.createElement("div");
  protected data: T | null = null;
  constructor(load: Promise<T>) {
    this.el.className = "ratings";
    this.el.replaceChildren(h("p", {}, t("fed_loading")));
    load
      .then((d) => {
        this.data = d;
        this.render();
      })
      .catch((e) => this.el.replaceChildren(h("p", { class: "fed-error", role: "alert" }, error_text(e))));
  }
  destroy() {}
  render() {
    if (this.data) this.el.replaceChildren(...this.draw(this.data));
  }
  abstract draw(d: T): (HTMLElement | string)[];
}

/** #/ratings: the published lists. */
export class RatingsHomeView extends Loaded<{ lists: { id: string; heading: string; players: number }[] }> {
  constructor() {
    super(ratings_api.lists());
  }
  draw(d: { lists: { id: string; heading: string; players: number }[] }) {
    const items = d.lists.map((l) => h("li", {}, h("a", { href: ratings_href(l.id) }, l.heading || l.id), ` · ${t("fed_players_count", { count: l.players })}`));
    return [h("h2", {}, t("fed_title")), h("p", {}, t("fed_intro")), items.length ? h("ul", { id: "fed-lists" }, ...items) : h("p", {}, t("fed_none"))];
  }
}

/** #/ratings/<list>: the list a page at a time, with its search and order. */
export class RatingListView extends Loaded<RatingList> {
  private q: ListQuery = first_query();
  private officer = false;
  private body = h("tbody");
  private pager = h("div", { class: "fed-pager" });
  private lang = lang(); // of the column names fetched
  constructor(private id: string) {
    super(ratings_api.list(id));
    // the names to settle: a link for moderators only (asked of /api/me, so that nobody else's
    // visit costs a refused request)
    void am_moderator().then((yes) => {
      if (!yes) return;
      this.officer = true;
      this.render();
    });
  }
  render() {
    if (this.data && this.lang !== lang()) {
      // another language: the print page's column names in it
      this.lang = lang();
      void ratings_api.list(this.id).then((d) => {
        this.data = d;
        super.render();
      }, () => super.render());
    }
    super.render();
  }
  draw(d: RatingList) {
    const search = h("input", { id: "fed-search", type: "search", placeholder: t("fed_search"), "aria-label": t("fed_search") }) as HTMLInputElement;
    search.value = this.q.search;
    search.addEventListener("input", () => {
      this.q = { ...this.q, search: search.value, page: 0 };
      this.draw_rows(d);
    });
    const head = SORT_KEYS.map((key, i) => {
      const b = h("button", { type: "button", class: "link", "data-sort": key }, d.columns[i] ?? key);
      b.addEventListener("click", () => {
        this.q = sort_by(this.q, key);
        this.render();
      });
      const cell = h("th", i === 1 || i === 2 || i === 3 ? {} : { class: "n" }, b);
      if (this.q.sort === key) cell.setAttribute("aria-sort", this.q.desc ? "descending" : "ascending");
      return cell;
    });
    this.body = h("tbody");
    this.pager = h("div", { class: "fed-pager" });
    this.draw_rows(d);
    const links = h("p", { class: "fed-links no-print" },
      h("a", { id: "fed-csv", href: list_path(this.id, "/list.csv"), download: `${this.id}.csv` }, t("fed_csv")),
      h("a", { id: "fed-print", href: print_path(this.id), target: "_blank", rel: "noopener" }, t("fed_print")),
      this.officer ? h("a", { id: "fed-names", href: ratings_href(this.id, "names") }, t("fed_names")) : null);
    const events = d.events.map((e, i) => h("li", {}, h("a", { href: ratings_href(this.id, "event", i) }, e.name), ` · ${e.date} · ${t("fed_period")} ${e.period}`));
    return [
      h("h2", {}, d.heading || d.id), links, h("label", { class: "fed-search no-print" }, search), this.pager,
      h("div", { class: "table-wrap" }, h("table", { id: "fed-list" }, h("thead", {}, h("tr", {}, ...head)), this.body)),
      h("h3", {}, t("fed_events")), h("ul", { id: "fed-events" }, ...events),
    ];
  }
  /** The rows of the page asked for and the pager: only those rows are in the document. */
  private draw_rows(d: RatingList) {
    const p = list_page(d.list, this.q);
    this.body.replaceChildren(...p.rows.map((r) => h("tr", { "data-player": String(r.player) },
      num(String(r.number)), h("td", {}, h("a", { href: ratings_href(this.id, "player", r.player) }, r.name)),
      h("td", {}, r.region), h("td", {}, r.title), num(rating_text(r.before)), num(r.change === null ? "" : signed(r.change)),
      num(rating_text(r.after)), num(String(r.games)))));
    const go = (page: number, text: string, id: string) => {
      const b = h("button", { type: "button", id }, text) as HTMLButtonElement;
      b.disabled = page < 0 || page >= p.pages || page === p.page;
      b.addEventListener("click", () => {
        this.q = { ...this.q, page };
        this.draw_rows(d);
      });
      return b;
    };
    this.pager.replaceChildren(go(p.page - 1, t("fed_prev"), "fed-prev"),
      h("span", { id: "fed-shown", "aria-live": "polite" }, t("fed_shown", { from: p.from, to: p.to, total: p.total })),
      go(p.page + 1, t("fed_next"), "fed-next"));
  }
}

/** What a game did to the rating: the change, or how it counted. */
function history_change(e: HistoryEntry): string {
  if (e.use === "rated") return signed_fixed(e.change ?? 0);
  return e.use === "initial" ? t("fed_initial") : t("fed_opp_unrated");
}

/** #/ratings/<list>/player/<n>: every game of the player's season. */
export class RatingPlayerView extends Loaded<Awaited<ReturnType<typeof ratings_api.player>>> {
  constructor(private id: string, n: number) {
    super(ratings_api.player(id, n));
  }
  draw(d: Awaited<ReturnType<typeof ratings_api.player>>) {
    const p = d.player;
    const rows = p.history.map((e) => h("tr", {},
      h("td", {}, e.period),
      h("td", {}, e.event_index === null ? e.event : h("a", { href: ratings_href(this.id, "event", e.event_index) }, e.event)),
      h("td", {}, e.date),
      h("td", {}, h("a", { href: ratings_href(this.id, "player", e.opponent) }, e.opponent_name)),
      num(rating_text(e.opponent_rating)), num(score_text(e.score)),
      num(e.use === "rated" ? (e.expected ?? 0).toFixed(2) : ""), num(e.use === "rated" ? String(e.k) : ""),
      h("td", { class: e.use === "rated" ? "n" : "" }, history_change(e))));
    const facts = [p.region, p.title, p.id ? `id ${p.id}` : ""].filter((x) => x).join(" · ");
    return [
      h("p", { class: "no-print" }, h("a", { href: ratings_href(this.id) }, `← ${d.heading || this.id}`)),
      h("h2", { id: "fed-player" }, p.name), facts ? h("p", { class: "fed-meta" }, facts) : "",
      h("p", { id: "fed-player-rating" }, t("fed_player_line", { before: rating_text(p.before) || "—", after: rating_text(p.after) || "—", games: p.games, number: p.number || "—" })),
      h("h3", {}, t("fed_history")),
      table("fed-history", [th(t("fed_period")), th(t("fed_event")), th(t("fed_date")), th(t("fed_opponent")), th(t("fed_opp_rating"), true),
        th(t("fed_result"), true), th(t("fed_expected"), true), th("K", true), th(t("fed_change"), true)], rows),
    ];
  }
}

/** #/ratings/<list>/event/<n>: the event's calculation per player. */
export class RatingEventView extends Loaded<Awaited<ReturnType<typeof ratings_api.event>>> {
  constructor(private id: string, n: number) {
    super(ratings_api.event(id, n));
  }
  draw(d: Awaited<ReturnType<typeof ratings_api.event>>) {
    const e = d.event;
    const rows = e.lines.map((l) => h("tr", {},
      h("td", {}, h("a", { href: ratings_href(this.id, "player", l.player) }, l.region ? `${l.name} (${l.region})` : l.name)),
      num(rating_text(l.rating)), num(String(l.games)), num(score_text(l.score)),
      num(l.games ? l.expected.toFixed(2) : ""), num(l.games ? String(l.k) : ""), num(l.games ? signed_fixed(l.change) : ""),
      num(l.initial_games ? `${score_text(l.initial_score)}/${l.initial_games}` : "")));
    return [
      h("p", { class: "no-print" }, h("a", { href: ratings_href(this.id) }, `← ${d.heading || this.id}`)),
      h("h2", { id: "fed-event" }, e.name),
      h("p", { class: "fed-meta" }, [e.site, e.date, `${t("fed_period")} ${e.period}`, t("fed_games_count", { count: e.games })].filter((x) => x).join(" · ")),
      table("fed-calc", [th(t("fed_player")), th(t("fed_rating"), true), th(t("fed_games"), true), th(t("fed_score"), true),
        th(t("fed_expected"), true), th("K", true), th(t("fed_change"), true), th(t("fed_first"), true)], rows),
    ];
  }
}

/** #/ratings/<list>/names: the rating officer's view. */
export class RatingNamesView extends Loaded<Awaited<ReturnType<typeof ratings_api.names>>> {
  constructor(private id: string) {
    super(ratings_api.names(id));
  }
  draw(d: Awaited<ReturnType<typeof ratings_api.names>>) {
    const skipped = d.skipped.map((s) => h("tr", {}, h("td", {}, s.source), h("td", {}, s.reason), h("td", {}, s.detail)));
    const groups = d.ambiguous.map((g) => h("li", {}, h("span", { class: "fed-meta" }, g.reasons.join(", ")),
      h("ul", {}, ...g.names.map((n) => h("li", {}, n.region ? `${n.name} @ ${n.region}` : n.name, ` · ${t("fed_games_count", { count: n.games })}: ${n.events.join("; ")}`)))));
    return [
      h("p", { class: "no-print" }, h("a", { href: ratings_href(this.id) }, `← ${this.id}`)),
      h("h2", {}, t("fed_names")), h("p", {}, t("fed_names_intro")),
      h("h3", {}, t("fed_skipped")), table("fed-skipped", [th(t("fed_source")), th(t("fed_reason")), th("")], skipped),
      h("h3", {}, t("fed_groups")), groups.length ? h("ol", { id: "fed-groups" }, ...groups) : h("p", {}, "—"),
    ];
  }
}
