// The puzzle page: a position from a real game where one move is clearly best; the player
// plays the solution against its forced replies, with feedback on every move, and sees the
// solution after a miss. A choice by theme, a streak mode (one miss ends it), an analysis
// board from the position shown. Works without an account, unrated; with one, the first attempt
// at each puzzle in practice mode is rated (POST /api/puzzles/<id>/attempt, Glicko-2 for the
// player and the puzzle) and the page shows both ratings with the change. Streak puzzles are not
// rated (a streak is played for itself, as lichess's puzzle streak).
//   #/puzzles            the next puzzle      #/puzzles/<id>   that puzzle
// What it shows is derived in learn_state.ts; the HTTP calls and what it keeps in this browser
// are learn_api.ts's.

import "./learn.css";
import { ApiError } from "../protocol/api.js";
import { error_text, t, t_any } from "../i18n/index.js";
import { diff_text, rating_text } from "../accounts/accounts_state.js";
import { learn_api, puzzle_store, type AttemptAnswer, type Puzzle, type PuzzleSummary } from "./learn_api.js";
import { open_analysis, position_svg } from "../board/learn_board.js";
import {
  after_answer, give_up, legal_now, new_trial, play_reply, played_holes, remember, should_report, streak_after, streak_shown,
  shown_position, theme_choices, try_move, unrated_note, viewed_move, viewed_position, type PuzzleMode, type Streak, type Trial,
} from "./learn_state.js";
import { move_label, parse_position } from "../board/logic.js";
import { TextBoard } from "../board/text_board.js";
import { esc, type View } from "../shell/util.js";

const REPLY_MS = 450; // the forced reply follows after this pause

type Feedback = { kind: "task" | "right" | "solved" | "wrong" | "gave_up" | "error"; text: string };

export class PuzzlesView implements View {
  el = document.createElement("div");
  private body = document.createElement("div"); // redrawn by render(); the blind mode stays beside it
  private blind = new TextBoard({
    play: (hole) => this.play(hole),
    status: () => this.el.querySelector("#puzzle-feedback")?.textContent ?? "",
    clocks: () => null,
  });
  private summary: PuzzleSummary | null = null;
  private trial: Trial | null = null;
  private feedback: Feedback = { kind: "task", text: "" };
  private theme: string = puzzle_store.theme();
  private mode: PuzzleMode = puzzle_store.mode();
  private streak: Streak = puzzle_store.streak();
  private view_ply: number | null = null; // a solution move looked at, null: the attempt's board
  private reported = ""; // the puzzle whose attempt was sent (a retry is not sent again)
  private answer: AttemptAnswer | null = null; // the server's answer to that attempt
  private timer = 0;
  private alive = true;
  private keyh = (e: KeyboardEvent) => {
    // 1-9 play that hole, as on the game screen
    if (/^[1-9]$/.test(e.key) && !(e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement)) this.play(Number(e.key));
  };

  constructor(id?: string) {
    this.el.className = "puzzles";
    this.body.innerHTML = `<p class="loading">…</p>`;
    this.el.append(this.blind.el, this.body);
    this.el.addEventListener("click", (e) => this.on_click(e));
    this.el.addEventListener("change", (e) => this.on_change(e.target as HTMLSelectElement));
    document.addEventListener("keydown", this.keyh);
    void learn_api.summary().then(
      (s) => {
        this.summary = s;
        this.render();
      },
      () => {},
    );
    void (id ? this.open(learn_api.puzzle(id)) : this.next());
  }

  destroy() {
    document.removeEventListener("keydown", this.keyh);
    this.alive = false;
    window.clearTimeout(this.timer);
  }

  private async next() {
    const recent = puzzle_store.recent();
    try {
      await this.open(learn_api.next(this.theme, recent), true);
    } catch (e) {
      // every puzzle of the theme seen: start the round again
      if (e instanceof ApiError && e.code === "no_puzzle" && recent.length) {
        puzzle_store.set_recent([]);
        await this.open(learn_api.next(this.theme, []));
      }
    }
  }

  private async open(p: Promise<Puzzle>, rethrow_missing = false) {
    window.clearTimeout(this.timer);
    try {
      const puzzle = await p;
      if (!this.alive) return;
      this.trial = new_trial(puzzle);
      this.view_ply = null;
      this.reported = "";
      this.answer = null;
      this.feedback = { kind: "task", text: this.task_text(puzzle) };
      puzzle_store.set_recent(remember(puzzle_store.recent(), puzzle.id));
      if (location.hash !== `#/puzzles/${puzzle.id}`) history.replaceState(null, "", `#/puzzles/${puzzle.id}`);
    } catch (e) {
      if (rethrow_missing && e instanceof ApiError && e.code === "no_puzzle") throw e;
      this.trial = null;
      this.feedback = { kind: "error", text: error_text(e) };
    }
    this.render();
  }

  private task_text(p: Puzzle): string {
    return t("puzzle_find", { side: t(p.side) });
  }

  private on_change(el: HTMLSelectElement) {
    if (el.id === "puzzle-theme") {
      this.theme = el.value;
      puzzle_store.set_theme(this.theme);
      void this.next();
    }
  }

  private on_click(e: Event) {
    const target = e.target as Element;
    const g = target.closest<SVGGElement>("#puzzle-board g.hole.legal");
    if (g) {
      this.play(Number(g.dataset.hole));
      return;
    }
    const mv = target.closest<HTMLElement>(".solution .mv[data-ply]");
    if (mv) {
      this.view_ply = Number(mv.dataset.ply);
      this.render();
      return;
    }
    const a = target.closest<HTMLElement>("[data-action]")?.dataset.action;
    if (a === "next") void this.next();
    else if (a === "give-up") this.give_up();
    else if (a === "retry" && this.trial) {
      this.trial = new_trial(this.trial.puzzle);
      this.view_ply = null;
      this.feedback = { kind: "task", text: this.task_text(this.trial.puzzle) };
      this.render();
    } else if (a === "analysis") void open_analysis(this.board_position());
    else if (a === "mode-practice" || a === "mode-streak") {
      this.mode = a === "mode-streak" ? "streak" : "practice";
      puzzle_store.set_mode(this.mode);
      if (this.mode === "streak" && this.streak.over) this.new_streak();
      this.render();
    } else if (a === "new-streak") {
      this.new_streak();
      void this.next();
    }
  }

  private new_streak() {
    this.streak = { current: 0, best: this.streak.best, over: false };
    puzzle_store.set_streak(this.streak);
  }

  /** The attempt is over: the streak counts it (a retried puzzle counts once); in practice mode
   * with an account it is sent to be rated, once per puzzle shown. */
  private finish(solved: boolean) {
    if (this.mode === "streak") {
      this.streak = streak_after(this.streak, solved);
      puzzle_store.set_streak(this.streak);
      return;
    }
    const tr = this.trial;
    if (!tr || !should_report(this.mode, this.summary, tr, this.reported)) return;
    const id = tr.puzzle.id;
    this.reported = id;
    learn_api.attempt(id, played_holes(tr)).then(
      (a) => {
        if (!this.alive || this.trial?.puzzle.id !== id) return;
        this.answer = a;
        ({ summary: this.summary, trial: this.trial } = after_answer(this.summary, this.trial, a));
        this.render();
      },
      (e) => {
        if (!this.alive) return;
        this.feedback = { kind: "error", text: error_text(e) };
        this.render();
      },
    );
  }

  /** The player's puzzle rating line: the rating, and the change by the last attempt. */
  private rating_html(): string {
    const s = this.summary;
    if (!s) return `<p class="muted" id="puzzle-unrated"></p>`;
    if (!s.rated || !s.player) return `<p class="muted" id="puzzle-unrated">${esc(t("puzzle_unrated"))}</p>`;
    const a = this.answer;
    const change =
      a?.player && a.rated
        ? ` <span class="rating-change ${a.player.diff >= 0 ? "up" : "down"}" id="puzzle-rating-change">${esc(diff_text(a.player.diff))}</span>`
        : "";
    const streak = this.mode === "streak" ? ` · ${esc(t("puzzle_streak_unrated"))}` : "";
    return `<p id="puzzle-player-rating">${esc(t("puzzle_your_rating"))}: <b class="rating">${esc(rating_text(s.player))}</b>${change}${streak}</p>`;
  }

  /** The puzzle's own rating and whether this attempt counts. */
  private puzzle_rating_html(tr: Trial): string {
    const r = tr.puzzle.rating;
    const a = this.answer;
    const change =
      a && a.rated ? ` <span class="rating-change" id="puzzle-own-change">${esc(diff_text(a.puzzle.diff))}</span>` : "";
    const note = unrated_note(this.summary, tr, a, this.mode);
    const again = note ? `<p class="muted" id="puzzle-not-rated">${esc(t(note))}</p>` : "";
    return `<p class="muted" id="puzzle-rating">${esc(t("puzzle_rating"))}: <span class="rating">${esc(rating_text(r))}</span>${change}</p>${again}`;
  }

  private play(hole: number) {
    if (!this.trial) return;
    const { trial, verdict } = try_move(this.trial, hole);
    if (verdict === "ignored") return;
    this.trial = trial;
    this.view_ply = null;
    if (verdict === "wrong") {
      this.feedback = { kind: "wrong", text: t("puzzle_wrong", { move: trial.wrong?.notation ?? String(hole) }) };
      this.finish(false);
    } else if (verdict === "solved") {
      this.feedback = { kind: "solved", text: t("puzzle_solved") };
      this.finish(true);
    } else {
      this.feedback = { kind: "right", text: t("puzzle_right") };
      this.timer = window.setTimeout(() => {
        if (!this.alive || !this.trial) return;
        this.trial = play_reply(this.trial);
        this.feedback = { kind: "right", text: t("puzzle_right_more") };
        this.render();
      }, REPLY_MS);
    }
    this.render();
  }

  private give_up() {
    if (!this.trial || this.trial.state !== "playing") return;
    window.clearTimeout(this.timer);
    this.trial = give_up(this.trial);
    this.feedback = { kind: "gave_up", text: t("puzzle_gave_up") };
    this.finish(false);
    this.render();
  }

  /** The position on the board: a solution move looked at, else the attempt's. */
  private board_position(): string {
    return viewed_position(this.trial!, this.view_ply);
  }

  private solution_html(tr: Trial): string {
    const first = parse_position(tr.puzzle.position);
    const cells = tr.puzzle.line.map((m, i) => {
      const cur = this.view_ply === i + 1 ? " current" : "";
      return `<span class="mv${cur}" data-ply="${i + 1}">${esc(move_label(i + 1, first.move_number, first.to_move))} ${esc(m.notation)}</span>`;
    });
    const wrong = tr.wrong ? `<p>${esc(t("puzzle_your_move"))}: <span class="mv wrong">${esc(tr.wrong.notation)}</span></p>` : "";
    return `<div class="solution" id="puzzle-solution"><h3>${esc(t("puzzle_solution"))}</h3>${wrong}
      <p>${cells.join(" ")}</p></div>`;
  }

  render() {
    const themes = this.summary?.themes ?? {};
    const opts = [`<option value="">${esc(t("theme_any"))}</option>`]
      .concat(
        theme_choices(themes, this.theme).map(
          (c) => `<option value="${c.theme}"${c.selected ? " selected" : ""}>${esc(t_any(`theme_${c.theme}`))} (${c.count})</option>`,
        ),
      )
      .join("");
    const mode = (m: "practice" | "streak") =>
      `<button type="button" data-action="mode-${m}" id="puzzle-mode-${m}" aria-pressed="${this.mode === m}"${this.mode === m ? ' class="active"' : ""}>${esc(t(`puzzle_mode_${m}`))}</button>`;
    const streak =
      this.mode === "streak"
        ? `<span class="streak" id="puzzle-streak">${esc(t("streak_count", { n: streak_shown(this.streak) }))} · ${esc(t("streak_best", { n: this.streak.best }))}</span>`
        : "";
    const tr = this.trial;
    let board = "";
    let side = `<p class="feedback ${this.feedback.kind}" id="puzzle-feedback">${esc(this.feedback.text)}</p>`;
    if (tr) {
      const looking = this.view_ply !== null;
      const last = viewed_move(tr, this.view_ply);
      board = `<div class="board" id="puzzle-board" data-state="${tr.state}" data-ply="${tr.ply}">${position_svg(
        this.board_position(),
        tr.puzzle.side,
        last,
        looking ? [] : legal_now(tr),
      )}</div>`;
      const over = tr.state !== "playing";
      const theme_names = tr.puzzle.themes.map((x) => t_any(`theme_${x}`)).join(", ");
      const streak_over =
        this.mode === "streak" && this.streak.over && over
          ? `<p id="puzzle-streak-over">${esc(t("streak_over", { n: this.streak.current }))}</p>
             <button type="button" class="primary" data-action="new-streak" id="puzzle-new-streak">${esc(t("streak_new"))}</button>`
          : "";
      side += `${this.puzzle_rating_html(tr)}<p class="muted">${esc(t("puzzle_difficulty", { n: tr.puzzle.difficulty }))}${tr.puzzle.proven ? ` · ${esc(t("puzzle_proven"))}` : ""}</p>
        <p class="muted" id="puzzle-themes">${esc(theme_names)}</p>
        ${over ? this.solution_html(tr) : ""}
        ${streak_over}
        <div class="row">
          ${over ? "" : `<button type="button" data-action="give-up" id="puzzle-give-up">${esc(t("puzzle_show_solution"))}</button>`}
          ${tr.state === "missed" && this.mode === "practice" ? `<button type="button" data-action="retry" id="puzzle-retry">${esc(t("puzzle_retry"))}</button>` : ""}
          ${this.mode === "streak" && this.streak.over && over ? "" : `<button type="button" class="primary" data-action="next" id="puzzle-next">${esc(t("puzzle_next"))}</button>`}
        </div>
        <div class="row"><button type="button" data-action="analysis" id="puzzle-analysis">${esc(t("analysis_from_here"))}</button>
          <a href="#/puzzles/${esc(tr.puzzle.id)}" id="puzzle-link">${esc(t("puzzle_link"))}</a></div>`;
    } else if (this.feedback.kind === "error") {
      side += `<div class="row"><button type="button" class="primary" data-action="next" id="puzzle-next">${esc(t("puzzle_next"))}</button></div>`;
    }
    this.body.innerHTML = `<h2>${esc(t("puzzles"))}</h2>
      <div class="row puzzle-controls">
        <label>${esc(t("puzzle_theme"))} <select id="puzzle-theme">${opts}</select></label>
        <span role="group" class="row">${mode("practice")}${mode("streak")}</span>
        ${streak}
      </div>
      ${this.rating_html()}
      <div class="learn-grid">${board || "<div></div>"}<div class="learn-side card">${side}</div></div>`;
    if (tr) this.blind_update(tr);
  }

  /** The attempt as the blind mode reads it: the position after the moves played. */
  private blind_update(tr: Trial) {
    const shown = parse_position(shown_position(tr));
    const moves = tr.puzzle.line.slice(0, tr.ply).concat(tr.wrong ? [tr.wrong] : []);
    const legal = legal_now(tr);
    const over = tr.state !== "playing";
    this.blind.update({ id: tr.puzzle.id, board: shown.board, to_move: shown.to_move, legal, may_move: legal.length > 0, moves, over, tuz: true, you: tr.puzzle.side });
  }
}
