// A list of tournaments as links: the tournaments page's and the lobby's, apart from the
// tournament pages so that the lobby (in the main chunk) does not pull in their chunk.

import { t } from "../i18n/index.js";
import { h } from "../shell/util.js";
import type { TournamentSummary } from "./tournaments_api.js";
import { summary_text } from "./tournaments_state.js";

/** A list of tournaments as links (the lobby shows the upcoming and running ones). */
export function tournament_list(items: TournamentSummary[], id = "tn-list"): HTMLElement {
  if (items.length === 0) return h("p", { class: "muted", id }, t("tn_none"));
  return h("ul", { id, class: "tn-list" }, ...items.map((s) =>
    h("li", { "data-tournament": s.id, "data-status": s.status },
      h("a", { href: `#/tournaments/${encodeURIComponent(s.id)}` }, s.name), " ",
      h("span", { class: "tn-status" }, t(`tn_status_${s.status}`)), " ",
      h("span", { class: "muted" }, summary_text(s)))));
}
