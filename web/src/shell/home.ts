// The home screen: play the engine, two players on one device, play a friend online (invite
// link), import a record or a position, and links to the games list and the position editor.
// For a logged-in player, the "your turn" list: the games waiting for his move (correspondence
// ones with the time left), with their count.

import { accounts, type MyGame } from "../accounts/accounts_api.js";
import { time_left_text, clock_label } from "../accounts/accounts_state.js";
import { api, store, type NewGame } from "../games/games_api.js";
import { GamesView } from "../games/games.js";
import { error_text, t } from "../i18n/index.js";
import { esc, toast, type View } from "./util.js";

function variant_select(id: string): string {
  return `<label>${esc(t("variant"))}<select id="${id}" name="variant">
    <option value="standard">${esc(t("v_standard"))}</option>
    <option value="kozdatu">${esc(t("v_kozdatu"))}</option>
    <option value="bestemshi">${esc(t("v_bestemshi"))}</option></select></label>`;
}

function colour_select(id: string): string {
  return `<label>${esc(t("colour"))}<select id="${id}">
    <option value="white">${esc(t("white"))}</option>
    <option value="black">${esc(t("black"))}</option>
    <option value="random">${esc(t("random"))}</option></select></label>`;
}

export class HomeView implements View {
  el = document.createElement("div");
  private games = new GamesView(10);

  private mine: { games: MyGame[]; your_turn: number } | null = null;

  constructor() {
    this.el.className = "home";
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.on_submit(e.target as HTMLFormElement);
    });
    this.render();
    // 401 without an account: no list
    accounts.my_games().then(
      (m) => {
        this.mine = m;
        this.render_mine();
      },
      () => {},
    );
  }

  /** The "your turn" card: the account's games waiting for its move, the nearest deadline first. */
  private render_mine() {
    const box = this.el.querySelector<HTMLElement>("#your-turn");
    if (!box || !this.mine) return;
    const now = Date.now();
    const rows = this.mine.games
      .filter((g) => g.your_turn)
      .map((g) => {
        const left = g.deadline_ms !== null ? time_left_text(g.deadline_ms - now) : null;
        const when = g.deadline_ms !== null ? ` · <span class="left">${esc(left ?? t("time_up"))}</span>` : "";
        return `<li data-game="${esc(g.id)}"><a href="#/game/${encodeURIComponent(g.id)}/${encodeURIComponent(g.token)}">${esc(t("versus", { name: g.opponent }))}</a>
          <span class="muted">${esc(clock_label(null, g.days_per_move))}${when}</span></li>`;
      });
    box.hidden = false;
    box.dataset.count = String(this.mine.your_turn);
    box.innerHTML = `<h2>${esc(t("your_turn"))} <span class="count" id="your-turn-count">${this.mine.your_turn}</span></h2>
      ${rows.length ? `<ul class="your-turn">${rows.join("")}</ul>` : `<p class="muted">${esc(t("your_turn_none"))}</p>`}`;
  }

  destroy() {}

  render() {
    const levels = Array.from({ length: 20 }, (_, i) => `<option value="${i + 1}"${i + 1 === 5 ? " selected" : ""}>${i + 1}</option>`).join("");
    this.el.innerHTML = `
      <p class="subtitle">${esc(t("subtitle"))}</p>
      <section class="card" id="your-turn" hidden></section>
      <div class="cards">
      <form class="card" id="form-engine" data-kind="engine">
        <h2>${esc(t("vs_engine"))}</h2>
        <label>${esc(t("level"))}<select id="engine-level">${levels}</select></label>
        ${colour_select("engine-colour")}
        ${variant_select("engine-variant")}
        <button type="submit" class="primary" id="play-engine">${esc(t("play"))}</button>
      </form>
      <form class="card" id="form-local" data-kind="local">
        <h2>${esc(t("local"))}</h2>
        ${variant_select("local-variant")}
        <button type="submit" class="primary" id="play-local">${esc(t("play"))}</button>
      </form>
      <form class="card" id="form-online" data-kind="online">
        <h2>${esc(t("online"))}</h2>
        <label>${esc(t("your_name"))}<input id="online-name" maxlength="40" required value="${esc(store.name())}" autocomplete="nickname"/></label>
        ${colour_select("online-colour")}
        ${variant_select("online-variant")}
        <label>${esc(t("clock"))}<select id="online-clock">
          <option value="">${esc(t("no_clock"))}</option>
          <option value="180000+2000">3 + 2</option>
          <option value="300000+5000" selected>5 + 5</option>
          <option value="600000+5000">10 + 5</option>
          <option value="900000+10000">15 + 10</option>
          <option value="1800000+20000">30 + 20</option>
          ${[1, 2, 3, 5, 7, 14].map((d) => `<option value="d${d}">${esc(t("days_per_move", { n: d }))}</option>`).join("")}</select></label>
        <label class="check"><input type="checkbox" id="online-rated"/> ${esc(t("rated"))}</label>
        <button type="submit" class="primary" id="create-online">${esc(t("create_game"))}</button>
      </form>
      <form class="card" id="form-import" data-kind="import">
        <h2>${esc(t("import"))}</h2>
        <textarea id="import-text" rows="5" placeholder="${esc(t("import_hint"))}"></textarea>
        <button type="submit" id="import-go">${esc(t("import_btn"))}</button>
        <p><a href="#/editor">${esc(t("open_editor"))}</a> · <a href="#/games">${esc(t("games_list"))}</a></p>
      </form>
      </div>`;
    this.games.render();
    this.el.appendChild(this.games.el);
    this.render_mine();
  }

  private val(id: string): string {
    return (this.el.querySelector(`#${id}`) as HTMLInputElement | HTMLSelectElement).value;
  }

  private async on_submit(form: HTMLFormElement) {
    const kind = form.dataset.kind;
    const btn = form.querySelector<HTMLButtonElement>("button[type=submit]");
    if (btn) btn.disabled = true;
    try {
      if (kind === "import") {
        const text = this.val("import-text").trim();
        // a position string is one line with a "/" between the rows; anything else is a record
        const is_position = !text.includes("\n") && /^[\dxX,]+\/[\dxX,]+\s/.test(text);
        const r = is_position ? await api.import_position(text) : await api.import_record(text);
        store.set_token(r.id, r.token);
        location.hash = `#/game/${r.id}/${r.token}`;
        return;
      }
      const g: NewGame = {
        mode: kind as NewGame["mode"],
        variant: this.val(`${kind}-variant`),
        tuz: this.val(`${kind}-variant`) === "standard",
        play_out: false,
        position: null,
        color: "white",
        level: 5,
        clock: null,
        name: store.name() || "",
      };
      if (kind === "engine") {
        g.level = Number(this.val("engine-level"));
        g.color = this.val("engine-colour") as NewGame["color"];
      } else if (kind === "online") {
        const name = this.val("online-name").trim();
        store.set_name(name);
        g.name = name;
        g.color = this.val("online-colour") as NewGame["color"];
        const c = this.val("online-clock");
        if (c.startsWith("d")) {
          g.days_per_move = Number(c.slice(1)); // correspondence
        } else if (c) {
          const [a, b] = c.split("+").map(Number);
          g.clock = { initial_ms: a, increment_ms: b };
        }
        if ((this.el.querySelector("#online-rated") as HTMLInputElement).checked) g.rated = true;
      }
      const r = await api.create(g);
      store.set_token(r.id, r.token);
      if (r.invite) store.set_invite(r.id, r.invite);
      location.hash = `#/game/${r.id}/${r.token}`;
    } catch (e) {
      toast(error_text(e), "error");
    } finally {
      if (btn) btn.disabled = false;
    }
  }
}

/** #/join/<id>/<invite>: asks for the display name, then takes the free seat. */
export class JoinView implements View {
  el = document.createElement("div");
  constructor(
    private id: string,
    private invite: string,
  ) {
    this.el.className = "join";
    this.el.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.join();
    });
    this.render();
  }
  destroy() {}
  render() {
    this.el.innerHTML = `<form class="card" id="form-join"><h2>${esc(t("join_title"))}</h2>
      <label>${esc(t("your_name"))}<input id="join-name" maxlength="40" required value="${esc(store.name())}" autocomplete="nickname"/></label>
      <button type="submit" class="primary" id="join-go">${esc(t("join"))}</button>
      <p><a href="#/game/${encodeURIComponent(this.id)}">${esc(t("spectator_link"))}</a></p></form>`;
  }
  private async join() {
    const name = (this.el.querySelector("#join-name") as HTMLInputElement).value.trim();
    store.set_name(name);
    try {
      const r = await api.join(this.id, this.invite, name);
      store.set_token(this.id, r.token);
      location.hash = `#/game/${this.id}/${r.token}`;
    } catch (e) {
      toast(error_text(e), "error");
    }
  }
}
