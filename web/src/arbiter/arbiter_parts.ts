// The pieces the arbiter pages of individual events (arbiter.ts) and of team events
// (arbiter_teams.ts) both draw and do: the key holder's note and the key taken from the
// address, a player's fields being corrected, the pair buttons, the round's heading, a board's
// result entry, a change sent, the exchange file's download. What they send is the caller's.

import { error_text, t } from "../i18n/index.js";
import { field, h, option, toast } from "../shell/util.js";
import { keep_key, keys, type EventPlayer } from "./arbiter_api.js";
import { BoardDrafts, RESULTS } from "./arbiter_state.js";

/** The key holder's note: the link that opens the event with its key on another device. */
export function key_note(link: string): HTMLElement {
  const input = h("input", { id: "arb-key-link", readonly: "", value: link }) as HTMLInputElement;
  return h("div", { class: "arb-note no-print" }, h("p", {}, t("arb_key_note")), field(t("arb_arbiter_link"), input));
}

/** The fields of a player being corrected, filled with his title, name and rating. */
export function player_inputs(p: EventPlayer) {
  const title = h("input", { class: "arb-edit-title", maxlength: "10", size: "4", value: p.title, "aria-label": t("arb_title_field") }) as HTMLInputElement;
  const name = h("input", { class: "arb-edit-name", maxlength: "40", value: p.name, "aria-label": t("arb_player_name") }) as HTMLInputElement;
  const rating = h("input", { class: "arb-edit-rating", type: "number", min: "0", max: "9999", value: p.rating > 0 ? String(p.rating) : "", "aria-label": t("arb_rating") }) as HTMLInputElement;
  return { title, name, rating };
}

/** Save and cancel of a player being corrected: `save` sends (its refusal shown in the
 * error), `done` ends the editing once saved or cancelled. */
export function edit_buttons(save: (error: HTMLElement) => Promise<boolean>, done: () => void): HTMLElement[] {
  const error = h("span", { class: "arb-board-error", role: "alert" });
  const ok = h("button", { type: "button", class: "arb-edit-save primary" }, t("arb_save"));
  ok.addEventListener("click", () => void save(error).then((saved) => saved && done()));
  const cancel = h("button", { type: "button", class: "arb-edit-cancel" }, t("cancel"));
  cancel.addEventListener("click", done);
  return [ok, cancel, error];
}

/** The key holder's button that pairs round `n_played + 1` (`can_pair`), or else pairs the
 * last round again (`can_repair`: taken back and paired); null when neither. */
export function pair_button(can_pair: boolean, can_repair: boolean, n_played: number, change: (action: string) => Promise<boolean>, before: () => void): HTMLElement | null {
  if (can_pair) {
    const pair = h("button", { id: "arb-pair", type: "button", class: "no-print" }, t("arb_pair", { n: n_played + 1 }));
    pair.addEventListener("click", () => {
      before();
      void change("pair");
    });
    return h("p", {}, pair);
  }
  if (!can_repair) return null;
  const again = h("button", { id: "arb-repair", type: "button", class: "no-print" }, t("arb_repair", { n: n_played }));
  again.addEventListener("click", () => {
    before();
    void change("unpair").then((ok) => ok && change("pair"));
  });
  return h("p", {}, again);
}

/** A board's result entry: the result select (put into `cell`), the moves typed and the save
 * button with its error; what is typed stays in `drafts` (round, `board` as the caller numbers
 * them) until saved. `send` sends the result and moves. Returns what goes below the board. */
export function result_entry(drafts: BoardDrafts, round: number, board: number, result: string, cell: HTMLElement,
  send: (result: string, moves: string, error: HTMLElement) => Promise<boolean>): HTMLElement[] {
  const draft = drafts.get(round, board);
  const shown = draft.result ?? result;
  const sel = h("select", { class: "arb-result", "aria-label": t("result") }, ...RESULTS.map(([v, text]) => option(v, text, v === shown))) as HTMLSelectElement;
  sel.addEventListener("change", () => drafts.set(round, board, { result: sel.value }));
  cell.append(sel);
  const moves = h("textarea", { class: "arb-moves", rows: "2", placeholder: t("arb_moves") }) as HTMLTextAreaElement;
  moves.value = draft.moves ?? "";
  moves.addEventListener("input", () => drafts.set(round, board, { moves: moves.value }));
  const error = h("p", { class: "arb-board-error", role: "alert" });
  const save = h("button", { type: "button", class: "arb-save" }, t("arb_save"));
  save.addEventListener("click", () => {
    error.textContent = "";
    const sent = { result: sel.value, moves: moves.value };
    drafts.saved(round, board); // before the redraw: this board shows what was saved
    void send(sent.result, sent.moves, error).then((ok) => {
      if (!ok) drafts.set(round, board, sent);
    });
  });
  return [moves, save, error];
}

/** The heading of the round shown (`r`, 0-based, of `played` rounds of `total`): a picker of
 * every round once there are two, `pick` told the round picked (1-based). */
export function round_heading(played: number, r: number, total: number, pick: (round: number) => void): HTMLElement {
  if (played < 2) return h("h3", {}, t("arb_round", { n: r + 1, total }));
  const select = h("select", { id: "arb-round-pick", class: "no-print" },
    ...Array.from({ length: played }, (_, i) => option(String(i + 1), t("arb_round", { n: i + 1, total }), i === r))) as HTMLSelectElement;
  select.addEventListener("change", () => pick(Number(select.value)));
  return h("h3", {}, select);
}

/** The arbiter key of event `id` for this page: the one in the address (kept in this browser
 * and taken out of the address bar, which becomes `hash`), else the one kept, else none. */
export function take_key(id: string, key_in_url: string | undefined, hash: string, team = false): string {
  if (!key_in_url) return keys()[id]?.key ?? "";
  keep_key(id, key_in_url, "", team);
  history.replaceState(null, "", hash);
  return key_in_url;
}

/** Sends one change (`post`); its answer to `show`. A refusal goes into `error_box`, or a toast
 * without one. Whether it was taken. */
export async function send_change<T>(post: () => Promise<T>, show: (answer: T) => void, error_box?: HTMLElement): Promise<boolean> {
  try {
    show(await post());
    return true;
  } catch (err) {
    const text = error_text(err);
    if (error_box) error_box.textContent = text;
    else toast(text, "error");
    return false;
  }
}

/** Saves `text` as a file named `name` in the browser's downloads. */
function download_text(text: string, name: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/plain;charset=utf-8" }));
  const a = h("a", { href: url, download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** The key holder's link to the exchange file: `fetch` gets it with the key (it holds the
 * players' ids), and it is saved as `name`. */
export function trf_link(fetch: () => Promise<string>, name: string): HTMLElement {
  const a = h("a", { href: "#", id: "arb-trf" }, t("arb_trf"));
  a.addEventListener("click", (e) => {
    e.preventDefault();
    void fetch()
      .then((text) => download_text(text, name))
      .catch((err) => toast(error_text(err), "error"));
  });
  return a;
}
