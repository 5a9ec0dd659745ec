// The home screen: play the engine, two players on one device, play a friend online (invite
// link), import a record or a position, and links to the games list and the position editor.
// For a logged-in player, the "your turn" list: the games waiting for his move (correspondence
// ones with the time left), with their count; a logged-in player plays under his account's
// name, so the forms ask for no name then. What the forms ask for and the list are
// shell_state.ts's; the HTTP calls are games_api.ts's and accounts_api.ts's.

import { accounts, who_am_i, type MyGame } from "../accounts/accounts_api.js";
import { clock_label } from "../accounts/accounts_state.js";
import { api, store } from "../games/games_api.js";
import { GamesView } from "../games/games.js";
import { error_text, t } from "../i18n/index.js";
import { is_position_text, new_game_of, your_turn_rows } from "./shell_state.js";
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

/** Replaces the name field `id` by the account's name (the server plays the account's name). */
function show_account_name(root: HTMLElement, id: string, me: string): void {
  const input = root.querySelector<HTMLInputElement>(`#${id}`);
  const label = input?.closest("label");
  if (!input || !label) return;
  input.value = me;
  const p = document.createElement("p");
  p.className = "playing-as";
  p.id = `${id}-account`;
  p.innerHTML = `${esc(t("logged_in_as"))} <a class="uname" href="#/@/${encodeURIComponent(me)}">${esc(me)}</a>`;
  p.appendChild(input);
  input.type = "hidden";
  label.replaceWith(p);
}

/** Whether the name field `id` holds the account's name (kept apart from a guest's name). */
function is_account_name(root: HTMLElement, id: string): boolean {
  return root.querySelector<HTMLInputElement>(`#${id}`)?.type === "hidden";
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
    void who_am_i().then((me) => {
      if (!me) return; // anonymous: no name to show, no games of an account to ask for
      show_account_name(this.el, "online-name", me);
      accounts.my_games().then(
        (m) => {
          this.mine = m;
          this.render_mine();
        },
        () => {},
      );
    });
  }

  /** The "your turn" card: the account's games waiting for its move, the nearest deadline first. */
  private render_mine() {
    const box = this.el.querySelector<HTMLElement>("#your-turn");
    if (!box || !this.mine) return;
    const rows = your_turn_rows(this.mine.games, Date.now()).map(({ game: g, deadline }) => {
      const when = deadline ? ` · <span class="left">${esc(deadline.left ?? t("time_up"))}</span>` : "";
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
        const r = is_position_text(text) ? await api.import_position(text) : await api.import_record(text);
        store.set_token(r.id, r.token);
        if (!is_position_text(text)) store.set_imported(r.id, text); // its variations, for the board
        location.hash = `#/game/${r.id}/${r.token}`;
        return;
      }
      const mode = kind as "engine" | "local" | "online";
      const form =
        mode === "engine"
          ? { variant: this.val("engine-variant"), level: this.val("engine-level"), colour: this.val("engine-colour") }
          : mode === "online"
            ? {
                variant: this.val("online-variant"),
                name: this.val("online-name"),
                colour: this.val("online-colour"),
                clock: this.val("online-clock"),
                rated: (this.el.querySelector("#online-rated") as HTMLInputElement).checked,
              }
            : { variant: this.val(`${mode}-variant`) };
      const g = new_game_of(mode, form, store.name());
      if (mode === "online" && !is_account_name(this.el, "online-name")) store.set_name(g.name);
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
    void who_am_i().then((me) => {
      if (me) show_account_name(this.el, "join-name", me);
    });
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
    if (!is_account_name(this.el, "join-name")) store.set_name(name);
    try {
      const r = await api.join(this.id, this.invite, name);
      store.set_token(this.id, r.token);
      location.hash = `#/game/${this.id}/${r.token}`;
    } catch (e) {
      toast(error_text(e), "error");
    }
  }
}
