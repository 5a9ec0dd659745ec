// The classic studies: A. Akshuraev's eight composed studies (1983), each with its task, the
// solver's proven line where it has one, and, where it has not, the engine's best line shown
// as such. The line is stepped through on the board; an analysis board opens from any ply.
//   #/studies            the list      #/studies/<n>   one study
// What it shows is derived in learn_state.ts; the HTTP call is learn_api.ts's.

import "./learn.css";
import { error_text, t, type Key } from "../i18n/index.js";
import { learn_api, type Study } from "./learn_api.js";
import { open_analysis, position_svg } from "../board/learn_board.js";
import { line_ply, line_position, nodes_text, study_differs_text, study_of, study_status_text } from "./learn_state.js";
import { cp_text, move_label, parse_position } from "../board/logic.js";
import { esc, type View } from "../shell/util.js";

export class StudiesView implements View {
  el = document.createElement("div");
  private studies: Study[] | null = null;
  private error = "";
  private ply = 0;
  private keyh: (e: KeyboardEvent) => void;

  constructor(private number: number | null) {
    this.el.className = "studies";
    this.el.innerHTML = `<p class="loading">…</p>`;
    this.el.addEventListener("click", (e) => this.on_click(e));
    this.keyh = (e) => {
      if (e.key === "ArrowLeft") this.go(this.ply - 1);
      else if (e.key === "ArrowRight") this.go(this.ply + 1);
    };
    document.addEventListener("keydown", this.keyh);
    learn_api.studies().then(
      (r) => {
        this.studies = r.studies;
        this.render();
      },
      (e) => {
        this.error = error_text(e);
        this.render();
      },
    );
  }

  destroy() {
    document.removeEventListener("keydown", this.keyh);
  }

  private current(): Study | undefined {
    return study_of(this.studies, this.number);
  }

  private go(ply: number) {
    const s = this.current();
    if (!s) return;
    this.ply = line_ply(ply, s.line.length);
    this.render();
  }

  private on_click(e: Event) {
    const target = e.target as Element;
    const mv = target.closest<HTMLElement>(".study-line .mv[data-ply]");
    if (mv) return this.go(Number(mv.dataset.ply));
    const a = target.closest<HTMLElement>("[data-action]")?.dataset.action;
    const s = this.current();
    if (!s || !a) return;
    if (a === "first") this.go(0);
    else if (a === "prev") this.go(this.ply - 1);
    else if (a === "next") this.go(this.ply + 1);
    else if (a === "last") this.go(s.line.length);
    else if (a === "analysis") void open_analysis(line_position(s.position, s.line, this.ply));
  }

  private list_html(studies: Study[]): string {
    const cards = studies.map(
      (s) => `<a class="card study-card" href="#/studies/${s.study}" data-study="${s.study}">
        <h3>${esc(t("study_n", { n: s.study }))}</h3><p>${esc(t(`task_${s.task}`))}</p>
        <p class="${s.proven ? "status-proven" : "status-open"}">${esc(study_status_text(s))}</p></a>`,
    );
    return `<h2>${esc(t("studies_title"))}</h2><p class="muted">${esc(t("studies_source"))}</p>
      <div class="study-list">${cards.join("")}</div>`;
  }

  private study_html(s: Study): string {
    const first = parse_position(s.position);
    const last = this.ply > 0 ? s.line[this.ply - 1] : null;
    const cells = s.line.map((m, i) => {
      const cur = this.ply === i + 1 ? " current" : "";
      return `<span class="mv${cur}" data-ply="${i + 1}">${esc(move_label(i + 1, first.move_number, first.to_move))} ${esc(m.notation)}</span>`;
    });
    const engine = s.engine
      ? `<p id="study-engine">${esc(t("study_engine_line", { depth: s.engine.depth, score: cp_text(s.engine.cp) }))}</p>`
      : "";
    const nodes = s.proven ? `<p class="muted">${esc(t("study_nodes", { n: nodes_text(s.proven.nodes) }))}</p>` : "";
    const differs = study_differs_text(s);
    const nav = (a: string, label: Key, text: string) =>
      `<button type="button" data-action="${a}" id="study-${a}" aria-label="${esc(t(label))}">${text}</button>`;
    return `<p><a href="#/studies">← ${esc(t("studies_title"))}</a></p>
      <h2>${esc(t("study_n", { n: s.study }))}</h2>
      <div class="learn-grid">
        <div class="board" id="study-board" data-study="${s.study}" data-ply="${this.ply}">${position_svg(
          line_position(s.position, s.line, this.ply),
          "white",
          last,
        )}</div>
        <div class="learn-side card">
          <p id="study-task"><strong>${esc(t(`task_${s.task}`))}</strong></p>
          <p id="study-status" class="${s.proven ? "status-proven" : "status-open"}">${esc(study_status_text(s))}</p>
          ${differs ? `<p id="study-differs">${esc(differs)}</p>` : ""}
          ${nodes}${engine}
          <h3>${esc(t(s.proven ? "study_proven_line" : "study_best_line"))}</h3>
          <div class="study-line"><p>${cells.join(" ")}</p></div>
          <div class="row nav">${nav("first", "start", "«")}${nav("prev", "a_prev", "◀")}${nav("next", "a_next", "▶")}${nav("last", "a_last", "»")}</div>
          <div class="row"><button type="button" data-action="analysis" id="study-analysis">${esc(t("analysis_from_here"))}</button></div>
        </div>
      </div>`;
  }

  render() {
    if (this.error) {
      this.el.innerHTML = `<h2>${esc(t("studies_title"))}</h2><p class="feedback error" id="study-error">${esc(this.error)}</p>`;
      return;
    }
    if (!this.studies) return;
    const s = this.current();
    if (this.number !== null && !s) this.el.innerHTML = `<p>${esc(t("e_no_study"))}</p>`;
    else this.el.innerHTML = s ? this.study_html(s) : this.list_html(this.studies);
  }
}
