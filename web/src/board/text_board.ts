// The blind mode of a board page (as lichess's): the board as a table in reading order (each
// row from its player's hole 1, then the kazna and the tuz), an input where a move is typed as
// a hole number or in notation, single-key commands in the empty input, and a log that a screen
// reader reads aloud (aria-live) with every move and every answer. Its element is made once and
// kept across the page's redraws, so the focus stays in the input after every move. The texts
// are text_board_state.ts's.

import { pref, set_pref } from "../shell/prefs.js";
import type { Board, MoveRec, Side } from "../protocol/types.js";
import { t } from "../i18n/index.js";
import { esc } from "../shell/util.js";
import {
  clocks_words, kaznas_words, key_command_of, legal_words, move_words, parse_typed, preview_move, preview_words,
  rows_words, typed_mismatch, type Command,
} from "./text_board_state.js";

/** What the page gives the blind mode: a move to play, its status line, the clocks now (null
 * without a clock). */
export interface TextBoardHost {
  play(hole: number): void;
  status(): string;
  clocks(): { white: number; black: number } | null;
}

/** The game (or the puzzle) as the blind mode reads it: the live position, the moves that led to
 * it, whether the reader may move, whether it is over. A new `id` starts again silently. */
export interface TextBoardGame {
  id: string;
  board: Board;
  to_move: Side;
  legal: number[];
  may_move: boolean;
  moves: MoveRec[];
  over: boolean;
  tuz: boolean; // played with tuzes
  you: Side | null;
}

const LOG_KEEP = 12; // announcements kept in the log

export class TextBoard {
  el: HTMLElement;
  private on = pref("blind");
  private cur: TextBoardGame | null = null;
  private last: { id: string; moves: number; over: boolean } | null = null;
  private said = 0; // announcements made (the log's data-count, which the browser tests read)

  constructor(private host: TextBoardHost) {
    this.el = document.createElement("section");
    this.el.className = "text-board";
    this.el.id = "text-board";
    this.el.innerHTML = `<button type="button" id="blind-toggle" class="blind-toggle" aria-pressed="false"></button>
      <div id="blind-body" hidden>
        <p id="blind-intro"></p>
        <label for="blind-input" id="blind-input-label"></label>
        <input id="blind-input" type="text" autocomplete="off" spellcheck="false" aria-describedby="blind-intro"/>
        <div id="blind-live" class="blind-live" role="log" aria-live="polite"></div>
        <table id="blind-table" class="blind-table"><caption id="blind-caption"></caption><thead></thead><tbody></tbody></table>
      </div>`;
    this.q("#blind-toggle").addEventListener("click", () => this.toggle());
    this.q<HTMLInputElement>("#blind-input").addEventListener("keydown", (e) => this.on_key(e));
    this.labels();
  }

  private q<T extends HTMLElement = HTMLElement>(sel: string): T {
    return this.el.querySelector<T>(sel)!;
  }

  /** The texts of the reader's language on the fixed parts (called again after a change). */
  private labels() {
    const toggle = this.q("#blind-toggle");
    toggle.textContent = t("bl_mode");
    toggle.setAttribute("aria-pressed", String(this.on));
    this.q("#blind-body").hidden = !this.on;
    this.q("#blind-intro").textContent = t("bl_intro");
    this.q("#blind-input-label").textContent = t("bl_input");
    this.q("#blind-live").setAttribute("aria-label", t("bl_log"));
    this.q("#blind-caption").textContent = t("bl_board");
  }

  private toggle() {
    this.on = !this.on;
    set_pref("blind", this.on);
    this.labels();
    if (this.cur) this.table(this.cur.board);
    if (this.on) this.q("#blind-input").focus();
  }

  /** Shows the game and says what changed since the last call: the moves made, a takeback, the
   * end of the game. */
  update(v: TextBoardGame) {
    this.cur = v;
    this.labels();
    const last = this.last;
    const n = v.moves.length;
    if (this.on && last?.id !== v.id) this.say(this.host.status()); // a new game or puzzle: its task
    if (last && last.id === v.id && this.on) {
      if (n > last.moves) for (const mv of v.moves.slice(Math.max(last.moves, n - 3))) this.say(move_words(mv));
      else if (n < last.moves) this.say(t("bl_taken_back"));
      if (v.over && !last.over) this.say(this.host.status());
    }
    this.last = { id: v.id, moves: n, over: v.over };
    if (this.on) this.table(v.board);
  }

  /** Adds one announcement to the log, which the screen reader reads as it comes. */
  say(text: string) {
    const log = this.q("#blind-live");
    const p = document.createElement("p");
    p.textContent = text;
    log.appendChild(p);
    log.dataset.count = String(++this.said);
    while (log.childElementCount > LOG_KEEP) log.firstElementChild!.remove();
    log.scrollTop = log.scrollHeight; // the newest in view
  }

  private table(b: Board) {
    const n = b.white.length;
    const th = (s: string | number, scope = "col") => `<th scope="${scope}">${esc(s)}</th>`;
    const holes = Array.from({ length: n }, (_, i) => th(`${t("bl_hole_col")} ${i + 1}`)).join("");
    this.q("#blind-table thead").innerHTML = `<tr><td></td>${holes}${th(t("kazna"))}${th(t("tuz"))}</tr>`;
    const row = (side: Side) => {
      const opp: Side = side === "white" ? "black" : "white";
      const cells = b[side].map((c, i) => `<td>${i + 1 === b.tuz[opp] ? esc(t("tuz")) : c}</td>`).join("");
      const you = this.cur?.you === side ? ` (${t("you")})` : "";
      return `<tr data-side="${side}">${th(t(side) + you, "row")}${cells}<td>${b.kazna[side]}</td><td>${b.tuz[side] || "—"}</td></tr>`;
    };
    this.q("#blind-table tbody").innerHTML = row("white") + row("black");
  }

  private on_key(e: KeyboardEvent) {
    const input = e.target as HTMLInputElement;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const typed = input.value.trim().toLowerCase();
    if (e.key === "Enter") {
      e.preventDefault();
      if (typed) this.submit(typed);
      input.value = "";
    } else if (typed === "" && e.key.length === 1 && key_command_of(e.key)) {
      e.preventDefault();
      this.command(key_command_of(e.key)!);
    } else if (["/", "w", "b"].includes(typed) && /^[1-9]$/.test(e.key)) {
      e.preventDefault();
      this.submit(typed + e.key);
      input.value = "";
    }
  }

  private submit(text: string) {
    const v = this.cur;
    if (!v) return;
    const typed = parse_typed(text, v.board.white.length);
    if (typed.kind === "command") this.command(typed.command);
    else if (typed.kind === "preview") this.say(preview_words(v.board, typed.side ?? v.to_move, typed.hole, v.tuz));
    else if (typed.kind === "bad") this.say(t("bl_bad", { text }));
    else if (!v.may_move) this.say(legal_words(v.legal, false, v.to_move));
    else if (!v.legal.includes(typed.hole)) this.say(t("bl_not_legal", { hole: typed.hole }));
    else {
      const wrong = typed_mismatch(typed, preview_move(v.board, v.to_move, typed.hole, v.tuz));
      if (wrong) this.say(wrong);
      else this.host.play(typed.hole);
    }
  }

  private command(c: Command) {
    const v = this.cur;
    if (!v) return;
    const last = v.moves[v.moves.length - 1];
    const say: Record<Command, () => string> = {
      last: () => (last ? t("bl_last", { move: move_words(last) }) : t("bl_no_last")),
      kaznas: () => kaznas_words(v.board),
      clocks: () => clocks_words(this.host.clocks()),
      legal: () => legal_words(v.legal, v.may_move, v.to_move),
      rows: () => rows_words(v.board),
      status: () => this.host.status(),
      help: () => t("bl_intro"),
    };
    this.say(say[c]());
  }
}
