// The arbiter's rules of one event (docs/tournaments.md): the tie-breaks in their order, the
// half-point byes' limit, Baku acceleration, whether a forfeit withdraws the absent player,
// whether the finished event goes to the federation's rating list, the byes players asked for, and the pairs who must not meet (a Swiss). arbiter.ts places the
// section and passes `change`, which sends one POST with the key and redraws the event.

import { t } from "../i18n/index.js";
import { field, h, option } from "../shell/util.js";
import type { ArbiterEvent } from "./arbiter_api.js";
import { TIE_BREAKS, tie_break_list, titled_name } from "./arbiter_state.js";

type Change = (action: string, body: Record<string, unknown>, error_box?: HTMLElement) => Promise<boolean>;

function player_select(ev: ArbiterEvent, cls: string): HTMLSelectElement {
  return h("select", { class: cls }, ...ev.players.map((p, i) => option(String(i + 1), `${i + 1}. ${titled_name(p)}`))) as HTMLSelectElement;
}

function settings_form(ev: ArbiterEvent, change: Change): HTMLElement {
  const swiss = ev.system === "swiss";
  const tbs = h("input", { id: "arb-tie-breaks", value: ev.tie_breaks.join(", "), size: "24" }) as HTMLInputElement;
  const max = h("input", { id: "arb-max-half-byes", type: "number", min: "0", max: "50", value: String(ev.max_half_byes ?? 2) }) as HTMLInputElement;
  const last = h("input", { id: "arb-half-bye-last", type: "checkbox" }) as HTMLInputElement;
  last.checked = ev.half_bye_last_round ?? false;
  const acc = h("input", { id: "arb-accelerated", type: "number", min: "0", max: "50", value: String(ev.accelerated_rounds ?? 0) }) as HTMLInputElement;
  const forfeit = h("input", { id: "arb-forfeit-withdraws", type: "checkbox" }) as HTMLInputElement;
  forfeit.checked = ev.forfeit_withdraws ?? true;
  const rated = h("input", { id: "arb-rated", type: "checkbox" }) as HTMLInputElement;
  rated.checked = ev.rated ?? false;
  const error = h("span", { class: "arb-board-error", role: "alert" });
  const form = h("form", { id: "arb-settings", class: "arb-form" },
    field(`${t("arb_tie_breaks")} (${TIE_BREAKS.join(", ")})`, tbs),
    swiss ? field(t("arb_max_half_byes"), max) : null, swiss ? field(t("arb_half_bye_last"), last) : null,
    swiss ? field(t("arb_accelerated"), acc) : null, field(t("arb_forfeit_withdraws"), forfeit),
    field(t("arb_rated"), rated), h("button", { type: "submit", id: "arb-settings-save" }, t("arb_save")), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    const body: Record<string, unknown> = { tie_breaks: tie_break_list(tbs.value), forfeit_withdraws: forfeit.checked, rated: rated.checked };
    if (swiss) Object.assign(body, { max_half_byes: Number(max.value), half_bye_last_round: last.checked, accelerated_rounds: Number(acc.value) });
    void change("settings", body, error);
  });
  return form;
}

function bye_form(ev: ArbiterEvent, change: Change): HTMLElement {
  const who = player_select(ev, "arb-bye-player");
  const round = h("input", { id: "arb-bye-round", type: "number", min: "1", max: String(ev.rounds), value: String(Math.min(ev.rounds, ev.played.length + 1)) }) as HTMLInputElement;
  const kind = h("select", { id: "arb-bye-kind" }, option("half", t("arb_half_bye"), true), option("zero", t("arb_zero_bye"))) as HTMLSelectElement;
  const error = h("span", { class: "arb-board-error", role: "alert" });
  const form = h("form", { id: "arb-bye", class: "arb-form" }, field(t("arb_player_name"), who), field(t("arb_round_no"), round), field(t("arb_bye_kind"), kind),
    h("button", { type: "submit", id: "arb-bye-save" }, t("arb_request_bye")), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    void change("bye", { player: Number(who.value), round: Number(round.value), kind: kind.value }, error);
  });
  const list = h("ul", { id: "arb-bye-requests" }, ...(ev.bye_requests ?? []).map((q) => {
    const cancel = h("button", { type: "button", class: "arb-bye-cancel" }, t("cancel"));
    cancel.addEventListener("click", () => void change("bye", { player: q.player + 1, round: q.round, cancel: true }));
    return h("li", {}, `${titled_name(ev.players[q.player])}: ${t("arb_round_no")} ${q.round}, ${t(q.kind === "half" ? "arb_half_bye" : "arb_zero_bye")} `, cancel);
  }));
  return h("div", {}, h("h4", {}, t("arb_requested_byes")), form, list);
}

function forbid_form(ev: ArbiterEvent, change: Change): HTMLElement {
  const a = player_select(ev, "arb-forbid-a");
  const b = player_select(ev, "arb-forbid-b");
  const error = h("span", { class: "arb-board-error", role: "alert" });
  const form = h("form", { id: "arb-forbid", class: "arb-form" }, field(t("arb_player_name"), a), field(t("arb_player_name"), b),
    h("button", { type: "submit", id: "arb-forbid-save" }, t("arb_forbid")), error);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    error.textContent = "";
    void change("forbid", { player: Number(a.value), other: Number(b.value) }, error);
  });
  const list = h("ul", { id: "arb-forbidden" }, ...(ev.forbidden ?? []).map(([x, y]) => {
    const remove = h("button", { type: "button", class: "arb-forbid-remove" }, t("arb_allow"));
    remove.addEventListener("click", () => void change("forbid", { player: x + 1, other: y + 1, remove: true }));
    return h("li", {}, `${titled_name(ev.players[x])} — ${titled_name(ev.players[y])} `, remove);
  }));
  return h("div", {}, h("h4", {}, t("arb_forbidden")), h("p", {}, t("arb_forbidden_note")), form, list);
}

/** The section of the event's rules; the forms only for the arbiter. */
export function rules_part(ev: ArbiterEvent, arbiter: boolean, change: Change): HTMLElement | null {
  if (!arbiter) return null;
  const swiss = ev.system === "swiss";
  const box = h("section", { class: "arb-rules no-print" }, h("h3", {}, t("arb_rules")), settings_form(ev, change));
  if (swiss && ev.players.length >= 2) box.append(bye_form(ev, change), forbid_form(ev, change));
  return box;
}
