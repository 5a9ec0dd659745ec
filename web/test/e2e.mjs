// Browser end-to-end tests: Debian's chromium (headless, driven by playwright-core) against a
// real `toguz serve --port 0 --db <tmp>/t.db --static web/dist-e2e` (the test build, `make web-e2e`,
// whose window.__toguz hooks the tests use).
//   node test/e2e.mjs --toguz <binary> [--dist <web/dist-e2e>] [--out <folder for failure shots>]
//                     [--only <name>] [--shard <k>/<n>] [--shots <folder>]
//   --shots: the README screenshots; --shard k/n: only the tests whose position in the list is
//   k modulo n (1 <= k <= n), so that ctest runs the suite as n tests side by side.
// Exit 0: all passed; 1: a test failed (a screenshot of every page is kept in --out);
// 77: cannot run here (no chromium or no built front end), which ctest reports as skipped.
// Every wait is on a DOM condition with a generous timeout; there are no fixed sleeps.

import { spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { AxeBuilder } from "@axe-core/playwright";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const toguz = args.toguz;
const dist = path.resolve(args.dist ?? path.join(here, "..", "dist-e2e"));
const out = path.resolve(args.out ?? path.join(process.cwd(), "web-e2e"));
const T = 60_000; // default wait

function skip(why) {
  console.log(`web.e2e: SKIPPED: ${why}`);
  process.exit(77);
}
if (!toguz || !existsSync(toguz)) {
  console.error("web.e2e: --toguz <path of the built toguz> is required");
  process.exit(2);
}
if (!existsSync(path.join(dist, "index.html"))) skip(`no built front end in ${dist} (run: make web-e2e)`);
const chrome = [args.chromium, "/usr/lib/chromium/chromium", "/usr/bin/chromium"].find((p) => p && existsSync(p));
if (!chrome) skip("Debian's chromium is not installed (run: scripts/install-deps web)");

/** Starts `toguz serve` on `port` (0: a free one) with the database in `dir` (made when new);
 * resolves to {proc, base}. */
function start_server(dir, extra = [], port = 0) {
  return new Promise((resolve, reject) => {
    // The tests sign many players up from one address: no sign-up limit here.
    const limits = ["--signups-per-hour", "1000000"];
    const proc = spawn(toguz, ["serve", "--host", "127.0.0.1", "--port", String(port), "--db", path.join(dir, "t.db"), "--static", dist, ...limits, ...extra], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let buf = "";
    let err = "";
    const timer = setTimeout(() => reject(new Error(`toguz serve did not print its URL in 30 s; stderr: ${err}`)), 30_000);
    proc.stdout.on("data", (d) => {
      buf += d;
      const m = /toguz serve: listening on (http:\/\/[^\s/]+:\d+)\//.exec(buf);
      if (m) {
        clearTimeout(timer);
        resolve({ proc, base: m[1] });
      }
    });
    proc.stderr.on("data", (d) => {
      err += d;
      if (process.env.TOGUZ_E2E_VERBOSE) process.stderr.write(d);
    });
    proc.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`toguz serve exited (${code}) before listening; stderr: ${err}`));
    });
  });
}

// ---- helpers on a page ---------------------------------------------------------------------

/** Waits until the board of the page shows a game and returns its data attributes. */
async function board_data(page) {
  await page.waitForSelector("#board[data-ply]", { timeout: T });
  return page.$eval("#board", (b) => ({ ...b.dataset }));
}

/** Waits until this page may move (legal holes drawn) or the game is over; returns "move"/"over". */
async function wait_turn(page, timeout = T) {
  const h = await page.waitForFunction(
    () => {
      if (document.querySelector("#game-over")) return "over";
      const b = document.querySelector("#board");
      if (b && b.dataset.canMove === "1" && document.querySelector("#board g.hole.legal")) return "move";
      return false;
    },
    null,
    { timeout, polling: 50 },
  );
  return h.jsonValue();
}

/** Plays one legal hole (by click or by its number key) and waits until the ply changed. */
async function play_one(page, how = "click", pick = 0) {
  const before = Number((await board_data(page)).ply);
  const holes = await page.$$eval("#board g.hole.legal", (gs) => gs.map((g) => Number(g.dataset.hole)));
  if (holes.length === 0) throw new Error("no legal hole to play");
  const hole = holes[pick % holes.length];
  if (how === "key") await page.keyboard.press(String(hole));
  else await page.locator(`#board g.hole.legal[data-hole="${hole}"]`).click();
  await page.waitForFunction(
    (p) => Number(document.querySelector("#board")?.dataset.ply) > p || !!document.querySelector("#game-over"),
    before,
    { timeout: T, polling: 50 },
  );
  return hole;
}

async function wait_ply(page, ply) {
  await page.waitForFunction(
    (p) => Number(document.querySelector("#board")?.dataset.ply) === p && document.querySelector("#board")?.dataset.animating === "0",
    ply,
    { timeout: T, polling: 50 },
  );
}

async function move_texts(page) {
  return page.$$eval("#moves .mv[data-ply]", (els) => els.map((e) => e.textContent));
}

function check(cond, what) {
  if (!cond) throw new Error(`check failed: ${what}`);
}

// ---- the tests -----------------------------------------------------------------------------

/** A whole game against the engine at level 1, to the game-over panel; keys and clicks both
 * play; the move list is navigated with the arrow keys and by clicking. */
async function engine_game(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/`);
  await page.selectOption("#engine-level", "1");
  await page.selectOption("#engine-colour", "white");
  await page.selectOption("#engine-variant", "standard");
  await page.click("#play-engine");
  await page.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  const d = await board_data(page);
  check(d.you === "white", `engine game: you = ${d.you}, expected white`);
  check(await page.locator("#board g.hole").count() === 18, "18 holes drawn");
  // a hint marks one of the legal holes; a takeback undoes our move and the engine's answer
  check((await wait_turn(page)) === "move", "White moves first");
  await page.click('[data-action="hint"]');
  await page.waitForSelector("#board g.hole.hint.legal", { timeout: T });
  const hint = await page.textContent("#hint");
  check(/White: win chance \d+%|White: wins in/.test(hint), `the hint's score says its unit (the win chance by default): ${hint}`);
  // the evaluation's number is written across, in a readable size, above the bar
  await page.click('[data-action="analyse"]');
  await page.waitForFunction(() => /(White|Black) \d+%|wins|loses|draw/.test(document.querySelector("#eval-label")?.textContent ?? ""), null, { timeout: T, polling: 50 });
  // (one evaluate: the bar is redrawn with every analysis message)
  const label = await page.evaluate(() => {
    const e = document.querySelector("#eval-label");
    const cs = getComputedStyle(e);
    const r = e.getBoundingClientRect();
    return { size: parseFloat(cs.fontSize), mode: cs.writingMode, w: r.width, h: r.height, text: e.textContent };
  });
  check(label.size >= 12 && label.mode === "horizontal-tb" && label.w > label.h, `eval label readable: ${JSON.stringify(label)}`);
  check((await page.textContent("#analysis .units")).includes("chance to win"), "the analysis says its numbers are win chances");
  check(/win chance \d+%|wins|loses|draw/.test(await page.textContent("#analysis li.line b")), "the best line shows its win chance");
  // the reader may prefer the stone margin: the choice is kept in this browser
  await page.click('#analysis [data-action="eval-view"]');
  await page.waitForFunction(() => /\d\.\d\d|wins|loses|draw/.test(document.querySelector("#eval-label")?.textContent ?? ""), null, { timeout: T, polling: 50 });
  check((await page.textContent("#analysis .units")).includes("stones"), "the margin view says its numbers are stones");
  check((await page.evaluate(() => localStorage.getItem("toguz.eval_view"))) === "margin", "the margin view kept");
  await page.click('[data-action="analyse"]');
  await play_one(page, "click", 0);
  check((await wait_turn(page)) === "move", "our turn after the engine answered");
  check(Number((await board_data(page)).ply) === 2, "the engine answered our first move");
  await page.click('[data-action="takeback"]');
  await wait_ply(page, 0);
  check((await move_texts(page)).length === 0, "the takeback emptied the move list");
  let plies = 0;
  for (let i = 0; i < 400; i++) {
    const what = await wait_turn(page, 120_000);
    if (what === "over") break;
    await play_one(page, i % 2 === 0 ? "key" : "click", i);
    plies++;
  }
  await page.waitForSelector("#game-over", { timeout: T });
  const over = await page.$eval("#game-over", (e) => ({ text: e.textContent, reason: e.dataset.reason, winner: e.dataset.winner }));
  check(/\d+\s*-\s*\d+/.test(over.text), `the game-over panel shows the score: ${over.text}`);
  check(["decided", "no-move", "repetition", "resign", "agreement"].includes(over.reason), `reason ${over.reason}`);
  const final = await board_data(page);
  const n = Number(final.ply);
  const list = await move_texts(page);
  check(list.length === n, `move list has ${list.length} moves, ply is ${n}`);
  check(list.every((m) => /^[1-9][1-9]X?(\(\d+\))?$/.test(m)), `notation like 65(10) / 27X: ${list.slice(0, 6)}`);
  console.log(`  engine game over after ${n} plies (${plies} ours): ${over.winner} by ${over.reason}`);
  // navigation: close the panel, step back with the arrow key, jump by clicking the first move
  await page.click('[data-action="close-panel"]');
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((p) => document.querySelector("#board")?.dataset.shown === String(p - 1), n, { timeout: T, polling: 50 });
  await page.click('#moves .mv[data-ply="1"]');
  await page.waitForFunction(() => document.querySelector("#board")?.dataset.shown === "1", null, { timeout: T, polling: 50 });
  const shown = await page.$eval('#moves .mv.current', (e) => e.dataset.ply);
  check(shown === "1", "the first move is highlighted");
  // the player bars show the kaznas of the position on the board, not the live ones
  const kaznas = async () => page.evaluate(() => ["white", "black"].map((s) => [
    document.querySelector(`.player[data-side="${s}"] .kz b`)?.textContent,
    document.querySelector(`#board .kazna-${s}`)?.getAttribute("data-count"),
  ]));
  const at1 = await kaznas();
  check(at1.every(([bar, board]) => bar === board), `kazna in the bars = the board's after move 1: ${JSON.stringify(at1)}`);
  const live = await page.evaluate(() => window.__toguz.state().board.kazna);
  check(Number(at1[0][0]) !== live.white || Number(at1[1][0]) !== live.black, "the first move's kaznas differ from the final ones");
  await page.keyboard.press("End");
  await page.waitForFunction((p) => document.querySelector("#board")?.dataset.shown === String(p), n, { timeout: T, polling: 50 });
  // Export PGN: the link gives the record with the moves of the list, its date, time control
  // and how it ended, and never a move number apart from its move
  const href = await page.getAttribute('#controls a[download]', "href");
  const pgn = await (await page.request.get(`${base}${href}`)).text();
  check(pgn.includes("[Result ") && pgn.includes(`1. ${list[0]}`), `the PGN export holds the game: ${pgn.slice(0, 200)}`);
  // the game began today (UTC), or yesterday when the test runs across midnight
  const day = (ms) => new Date(ms).toISOString().slice(0, 10).replaceAll("-", ".");
  const dated = [day(Date.now()), day(Date.now() - 86_400_000)].some((d) => pgn.includes(`[Date "${d}"]`));
  check(dated && pgn.includes('[TimeControl "-"]') && /\[Termination "normal"\]/.test(pgn), `PGN tags: ${pgn.slice(0, 300)}`);
  const moves_lines = pgn.split("\n\n")[1].trim().split("\n");
  check(moves_lines.every((l) => !/\d\.$/.test(l)), `no line ends with a move number: ${moves_lines.find((l) => /\d\.$/.test(l))}`);
  // the review: totals per player, mistakes by move number with the best move's notation
  await page.click('#controls [data-action="review"]');
  await page.waitForSelector('#review[data-done="1"]', { timeout: 180_000 });
  const summary = await page.$$eval("#review-summary tbody tr", (rows) => rows.map((r) => [r.dataset.side, ...[...r.querySelectorAll("td")].map((c) => c.textContent)]));
  check(summary.length === 2 && summary.every((r) => r.length === 6 && /^\d+$/.test(r[1]) && /^\d+\.\d\d$/.test(r[2])), `review summary: ${JSON.stringify(summary)}`);
  const mistakes = await page.$$eval(".mistakes li", (lis) => lis.map((li) => ({ ply: Number(li.dataset.ply), num: li.querySelector(".mnum").textContent, best: li.querySelector(".best").textContent })));
  for (const m of mistakes) {
    const want = `${Math.floor((m.ply - 1) / 2) + 1}${m.ply % 2 ? "." : "…"}`;
    check(m.num === want, `mistake at ply ${m.ply} numbered ${m.num}, expected ${want}`);
    check(/^[1-9][1-9]X?(\(\d+\))?$/.test(m.best), `best move in notation: ${m.best}`);
  }
  console.log(`  review: ${mistakes.length} marked moves, summary ${JSON.stringify(summary)}`);
  // the game is listed on the games page and opens from there for replay
  await page.goto(`${base}/#/games`);
  await page.waitForSelector("#games-table tbody tr", { timeout: T });
  await page.locator("#games-table tbody tr").first().locator("a").click();
  await wait_ply(page, n);
  // a game that does not exist says so
  await page.goto(`${base}/#/game/no-such-game`);
  await page.waitForSelector("#not-found", { timeout: T });
  await ctx.close();
}

/** Says something in the blind mode's input (keys typed, then Enter unless `enter` is false)
 * and returns what the log announced in answer (the first announcement since; `all`: every
 * one of them, as a move and the engine's answer may come together). */
async function blind_say(page, keys, enter = true, all = false) {
  const before = Number((await page.getAttribute("#blind-live", "data-count")) ?? 0);
  await page.keyboard.type(keys);
  if (enter) await page.keyboard.press("Enter");
  await page.waitForFunction((n) => Number(document.querySelector("#blind-live")?.dataset.count ?? 0) > n, before, { timeout: T, polling: 50 });
  // (the count and the texts read at once: another announcement may come meanwhile)
  const said = await page.$eval("#blind-live", (log, n) => [...log.children].slice(-(Number(log.dataset.count) - n)).map((p) => p.textContent), before);
  return all ? said : said[0];
}

async function blind_focus_kept(page, what) {
  const id = await page.evaluate(() => document.activeElement?.id);
  check(id === "blind-input", `${what}: the focus stays in the blind mode's input (it is on #${id})`);
}

/** A whole game against the engine at level 1 played from the keyboard alone in blind mode: the
 * board is a table in reading order in the accessibility tree, every move is announced in the
 * live log, the commands answer, and the focus never leaves the input. Before that, without
 * blind mode: the drawn board's holes in reading order, and the focus kept on the board after
 * a hole played with Enter. The player is signed in: blind mode follows his account to a fresh
 * browser where he logs in (another computer), on from the first page. */
async function blind_game(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  const name = "Blind_player";
  const signed = await ctx.request.post(`${base}/api/signup`, { data: { username: name, password: `password of ${name}` }, headers: { Origin: base } });
  check(signed.ok(), `signed up: ${signed.status()}`);
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/`);
  await page.selectOption("#engine-level", "1");
  await page.selectOption("#engine-colour", "white");
  await page.selectOption("#engine-variant", "standard");
  await page.click("#play-engine");
  await page.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  await board_data(page);
  // without blind mode: a hole played by Enter keeps the keyboard on the board, through the
  // engine's answer, on a legal hole again; a takeback undoes both moves
  check((await wait_turn(page)) === "move", "White moves first");
  await page.focus('#board g.hole.legal[data-hole="6"]');
  await page.keyboard.press("Enter");
  await wait_ply(page, 2);
  await wait_turn(page);
  const on = await page.evaluate(() => document.activeElement?.matches("#board g.hole.legal") ?? false);
  check(on, "the focus is on a legal hole after a keyboard move and the answer");
  await page.click('[data-action="takeback"]');
  await wait_ply(page, 0);
  // the drawn board in the accessibility tree: the top row from its hole 1, then ours, then the kaznas
  const drawn = await page.locator("#board").ariaSnapshot();
  const names = [...drawn.matchAll(/(img|button) "(White|Black) Hole (\d): 9"/g)].map((m) => `${m[1]} ${m[2]} ${m[3]}`);
  const want = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((h) => `img Black ${h}`).concat([1, 2, 3, 4, 5, 6, 7, 8, 9].map((h) => `button White ${h}`));
  check(JSON.stringify(names) === JSON.stringify(want) && /group "Board"/.test(drawn) && /img "Kazna White: 0"/.test(drawn), `the drawn board in reading order: ${drawn}`);
  await page.focus("#blind-toggle");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => document.activeElement?.id === "blind-input", null, { timeout: T, polling: 50 });
  check((await page.getAttribute("#blind-toggle", "aria-pressed")) === "true", "the toggle says blind mode is on");
  // the screen reader's view: the input, the log, and the board's rows from each player's hole 1
  const tree = await page.locator("#blind-body").ariaSnapshot();
  const rows = [/row "White \(you\) 9 9 9 9 9 9 9 9 9 0 —"/, /row "Black 9 9 9 9 9 9 9 9 9 0 —"/];
  check(rows.every((r) => r.test(tree)) && tree.search(rows[0]) < tree.search(rows[1]), `the board in reading order: ${tree}`);
  check(/textbox "Your move or a command"/.test(tree) && /log "Announcements"/.test(tree), `input and log named: ${tree}`);
  check(/No move yet/.test(await blind_say(page, "l", false)), "l: no move yet");
  check(/White kazna 0, needs 82 more for 82; Black kazna 0, needs 82/.test(await blind_say(page, "k", false)), "k: the kaznas");
  check((await blind_say(page, "c", false)) === "No clock", "c: the clocks");
  const pv = await blind_say(page, "/6", false);
  check(pv === "White 6: 9 stones, the last lands in 5 on Black's row, captures 10, kazna 10", `/6: ${pv}`);
  check((await blind_say(page, "64")) === "That hole plays 65 (10)", "a move in wrong notation is refused");
  check(Number((await board_data(page)).ply) === 0, "the refused move was not played");
  let plies = 0;
  for (let i = 0; i < 400; i++) {
    const what = await wait_turn(page, 120_000);
    if (what === "over") break;
    await blind_focus_kept(page, `before move ${i + 1}`);
    if (i > 0) {
      const heard = await page.$$eval("#blind-live p", (ps) => ps.map((p) => p.textContent));
      check(heard.some((h) => /^Black [1-9] to [1-9] on (White|Black)'s row/.test(h)), `the engine's move was announced: ${heard.slice(-3)}`);
    }
    const legal = /^Legal holes: ([\d, ]+)$/.exec(await blind_say(page, "m", false));
    check(legal, "m: the legal holes");
    const holes = legal[1].split(", ").map(Number);
    const hole = holes[i % holes.length];
    // every other move in notation, the landing hole taken from the hole's preview
    let typed = String(hole);
    if (i % 2) typed += /lands in ([1-9])/.exec(await blind_say(page, `/${hole}`, false))[1];
    const said = await blind_say(page, typed, true, true);
    check(new RegExp(`^White ${hole} to [1-9] on (White|Black)'s row`).test(said[0]), `our move ${typed} announced: ${said} (log: ${await page.$$eval("#blind-live p", (ps) => ps.map((p) => p.textContent).join(" | "))})`);
    await blind_focus_kept(page, `after move ${i + 1}`);
    plies++;
  }
  await page.waitForSelector("#game-over", { timeout: T });
  const heard = await page.$$eval("#blind-live p", (ps) => ps.map((p) => p.textContent));
  const title = await page.textContent("#status");
  check(heard.includes(title), `the end was announced (${title}): ${heard.slice(-3)}`);
  await blind_focus_kept(page, "after the end");
  console.log(`  blind game over after ${plies} moves of ours: ${title}`);
  // the setting is kept in this browser
  await page.reload();
  await page.waitForSelector('#blind-toggle[aria-pressed="true"]', { timeout: T });
  const game_id = location_hash(page.url()).split("/")[2];
  await ctx.close();
  // and in the account: logged in on a fresh browser, the game opens in blind mode
  const other = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  const p2 = await other.newPage();
  pages.push(p2);
  await p2.goto(`${base}/#/login`);
  await p2.fill("#auth-username", name);
  await p2.fill("#auth-password", `password of ${name}`);
  await p2.click("#auth-submit");
  await p2.waitForFunction((n) => location.hash === `#/@/${n}`, name, { timeout: T, polling: 50 });
  await p2.evaluate((id) => (location.hash = `#/game/${id}`), game_id);
  await p2.waitForSelector("#blind-table tbody tr", { timeout: T });
  check((await p2.getAttribute("#blind-toggle", "aria-pressed")) === "true" && (await p2.isVisible("#blind-input")), "blind mode on from the account");
  await other.close();
}

/** A rated game between two accounts, one played in blind mode from the keyboard alone: blind
 * mode comes from the account's settings, the game is created from the home form by the
 * keyboard, every move of ours is typed and announced, the opponent's moves are announced, the
 * focus never leaves the input, and the end (the opponent resigns) with both rating changes is
 * announced and in the accessibility tree. The opponent plays on the drawn board. */
async function blind_rated_game(browser, base, pages) {
  const { ctx: ca, page: a } = await signed_up(browser, base, pages, "Blind_rated");
  const { page: b } = await signed_up(browser, base, pages, "Sighted_b");
  const put = await ca.request.put(`${base}/api/me/settings`, { data: { blind: true }, headers: { Origin: base } });
  check(put.ok(), `blind mode kept in the account: ${put.status()}`);
  await a.goto(`${base}/#/`);
  await a.reload(); // the account's settings are read at load
  await a.waitForSelector("#online-name-account .uname", { timeout: T });
  await a.selectOption("#online-colour", "white");
  await a.selectOption("#online-clock", "180000+2000");
  await a.focus("#online-rated");
  await a.keyboard.press("Space");
  check(await a.isChecked("#online-rated"), "rated checked from the keyboard");
  await a.focus("#create-online");
  await a.keyboard.press("Enter");
  await a.waitForSelector("#invite-link", { timeout: T });
  await b.goto(await a.inputValue("#invite-link"));
  await b.waitForSelector("#join-go", { timeout: T });
  await b.click("#join-go");
  await a.waitForSelector("#blind-table tbody tr", { timeout: T });
  check((await a.getAttribute("#blind-toggle", "aria-pressed")) === "true", "blind mode on from the account");
  check((await a.evaluate(() => window.__toguz.state().rated)) === true, "the game is rated");
  await a.focus("#blind-input");
  // eight moves each (a game played to its last move is blind_game's, against the engine), then
  // the opponent resigns: a rated result decided by play
  let ours = 0;
  for (let i = 0; i < 8; i++) {
    if ((await wait_turn(a)) === "over") break;
    await blind_focus_kept(a, `before move ${i + 1}`);
    const legal = /^Legal holes: ([\d, ]+)$/.exec(await blind_say(a, "m", false));
    check(legal, "m: the legal holes");
    const hole = Number(legal[1].split(", ").at(-1));
    const said = await blind_say(a, String(hole), true, true);
    check(new RegExp(`^White ${hole} to [1-9] on (White|Black)'s row`).test(said[0]), `our move ${hole} announced: ${said}`);
    ours++;
    if ((await wait_turn(b)) === "over") break;
    const heard_before = Number((await a.getAttribute("#blind-live", "data-count")) ?? 0);
    await play_one(b, "click", 0);
    // the opponent's move is announced (or the end, when it ended the game)
    await a.waitForFunction((n) => Number(document.querySelector("#blind-live")?.dataset.count ?? 0) > n, heard_before, { timeout: T, polling: 50 });
  }
  if (!(await b.$("#game-over"))) {
    await b.click('[data-action="resign"]');
    await b.click('[data-action="resign-confirm"]');
  }
  await a.waitForSelector('#game-over .rating-change[data-side="black"]', { timeout: T });
  await blind_focus_kept(a, "after the end");
  const heard = await a.$$eval("#blind-live p", (ps) => ps.map((p) => p.textContent));
  check(heard.some((h) => /^Black [1-9] to [1-9] on (White|Black)'s row/.test(h)), `the opponent's moves were announced: ${heard.slice(-3)}`);
  const title = await a.textContent("#status");
  check(heard.includes(title), `the end was announced (${title}): ${heard.slice(-3)}`);
  const tree = await a.locator("#game-over").ariaSnapshot();
  check(/Blind_rated/.test(tree) && /Sighted_b/.test(tree) && /[+−]\d+/.test(tree), `the rating changes in the accessibility tree: ${tree}`);
  console.log(`  blind rated game over after ${ours} moves of ours: ${title}`);
}

/** A puzzle solved in blind mode (the setting kept from an earlier visit) from the keyboard: the
 * task is announced, each move of the solution is typed in notation, the forced replies and the
 * end are announced, and the focus stays in the input. */
async function blind_puzzle(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: "reduce" });
  await ctx.addInitScript(() => localStorage.setItem("toguz.blind", "1"));
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/puzzles`);
  await page.waitForSelector('#puzzle-board[data-state="playing"]', { timeout: T });
  await page.waitForFunction(() => /^#\/puzzles\/./.test(location.hash), null, { timeout: T, polling: 50 });
  const id = decodeURIComponent(location_hash(page.url()).split("/")[2]);
  const puzzle = await (await page.request.get(`${base}/api/puzzles/${encodeURIComponent(id)}`)).json();
  const heard = () => page.$$eval("#blind-live p", (ps) => ps.map((p) => p.textContent));
  const task = await page.textContent("#puzzle-feedback");
  check((await heard()).includes(task), `the task was announced: ${task}`);
  await page.focus("#blind-input");
  const side = puzzle.side === "white" ? "White" : "Black";
  for (let i = 0; i < puzzle.line.length; i += 2) {
    const mv = puzzle.line[i];
    const said = await blind_say(page, mv.notation, true, true);
    check(said[0].startsWith(`${side} ${mv.hole} to ${mv.to.hole} on`), `the move ${mv.notation} announced: ${said}`);
    await blind_focus_kept(page, `puzzle move ${mv.notation}`);
    if (i + 1 < puzzle.line.length) {
      const reply = puzzle.line[i + 1];
      await page.waitForSelector(`#puzzle-board[data-ply="${i + 2}"]`, { timeout: T });
      check((await heard()).some((h) => h.startsWith(`${side === "White" ? "Black" : "White"} ${reply.hole} to ${reply.to.hole}`)), `the reply ${reply.notation} announced: ${await heard()}`);
    }
  }
  await page.waitForSelector('#puzzle-board[data-state="solved"]', { timeout: T });
  check((await heard()).includes("Solved!"), `the solution announced: ${await heard()}`);
  await blind_focus_kept(page, "the puzzle solved");
  console.log(`  blind puzzle ${id} solved in ${puzzle.line.length} plies`);
  await ctx.close();
}

/** Every page of the site, each with what shows it drawn: the fixed pages, an online
 * tournament's, an over-the-board event's, the game pages given ([hash, ready, what to do
 * first]) and a player's. */
function site_routes(tournament, event, name, games) {
  return [
    ["#/", "#play-engine"],
    ["#/games", "#games-table tbody tr"],
    ["#/editor", "#editor-board g.hole"],
    ["#/lobby", "#pools [data-pool]"],
    ["#/tournaments", "#tn-new"],
    [`#/tournaments/${tournament}`, "#tn-title"],
    ["#/puzzles", "#puzzle-board[data-state]"],
    ["#/studies", ".study-card"],
    ["#/studies/1", "#study-board[data-ply]"],
    ["#/explorer", "#explorer-analysis"],
    [`#/explorer/${encodeURIComponent("9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9 10 0 b 1")}`, "#explorer-evals tbody tr"],
    ["#/arbiter", "#arb-create"],
    [`#/arbiter/${event}`, "#arb-pairings tbody tr[data-board]"],
    ...games,
    [`#/@/${name}`, ".ratings"],
    ["#/leaderboard/blitz", ".leaders tbody tr"],
    ["#/account", "#logout"],
    ["#/login", "#auth-submit"],
    ["#/signup", "#auth-submit"],
  ];
}

/** The serious and critical WCAG 2.1 A and AA violations axe-core finds on the page, one line
 * each: the rule, its impact and the first elements it names. */
async function axe_violations(page) {
  // (resultTypes: only the violations are reported in full, which makes a run much faster)
  const r = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]).options({ resultTypes: ["violations"] }).analyze();
  return r.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}, ${v.nodes.length}): ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join("; ")}`);
}

/** An over-the-board event with `players` and round 1 paired, and an online tournament, made by
 * `page` (logged in); their ids. */
async function event_and_tournament(page, base, event_name, players, tournament_name) {
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-name", event_name);
  await page.click("#arb-create");
  await page.waitForURL(/#\/arbiter\/[a-z0-9]+$/, { timeout: T });
  const event = new URL(page.url()).hash.split("/")[2];
  for (const [i, player] of players.entries()) {
    await page.fill("#arb-player-name", player);
    await page.click("#arb-add");
    await page.waitForFunction((n) => document.querySelectorAll("#arb-players tbody tr").length === n, i + 1, { timeout: T, polling: 50 });
  }
  await page.click("#arb-pair");
  await page.waitForSelector("#arb-pairings tbody tr[data-board]", { timeout: T });
  await page.goto(`${base}/#/tournaments`);
  await page.fill("#tn-name", tournament_name);
  await page.click("#tn-create");
  await page.waitForURL(/#\/tournaments\/[a-z0-9]+$/, { timeout: T });
  return { event, tournament: new URL(page.url()).hash.split("/")[2] };
}

/** The automated WCAG 2.1 AA audit (axe-core) of every page in light mode, signed in, with a
 * game against the engine, an analysis board with its lines, the blind mode, an online
 * tournament and an over-the-board event: no serious or critical violation anywhere. */
async function a11y_audit(browser, base, pages) {
  const name = "Auditor";
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: "light", reducedMotion: "reduce" });
  const signed = await ctx.request.post(`${base}/api/signup`, { data: { username: name, password: `password of ${name}` }, headers: { Origin: base } });
  check(signed.ok(), `signed up: ${signed.status()}`);
  const post = async (url, data) => (await ctx.request.post(`${base}${url}`, { data, headers: { Origin: base } })).json();
  const engine = await post("/api/games", { mode: "engine", variant: "standard", tuz: true, play_out: false, position: null, color: "white", level: 1, clock: { initial_ms: 300000, increment_ms: 2000 }, name: "" });
  const analysis = await post("/api/import", { record: '[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. 76(10) 98 *\n' });
  check(engine.id && analysis.id, `made the games: ${JSON.stringify([engine, analysis])}`);
  const page = await ctx.newPage();
  pages.push(page);
  const { event, tournament } = await event_and_tournament(page, base, "Audit cup", ["Eleusizov, Nurlan", "Aktayev, Serik"], "Audit arena");
  // each page with what shows it drawn, and what to do there before the audit
  const game = `#/game/${engine.id}/${engine.token}`;
  const routes = site_routes(tournament, event, name, [
    [game, "#board[data-ply]"],
    [`${game}?blind`, "#blind-table tbody tr", async () => page.click("#blind-toggle")],
    [`#/game/${analysis.id}/${analysis.token}`, "#analysis .line", async () => page.click('[data-action="analyse"]')],
    [`#/game/${analysis.id}/${analysis.token}?review`, '#review[data-done="1"] #review-summary', async () => page.click('#controls [data-action="review"]')],
  ]);
  const found = [];
  for (const [hash, ready, before] of routes) {
    await page.goto(`${base}/${hash}`);
    if (before) {
      await page.waitForSelector("#board[data-ply]", { timeout: T });
      await before();
    }
    await page.waitForSelector(ready, { timeout: T });
    const v = await axe_violations(page);
    console.log(`  ${hash}: ${v.length ? v.join(" | ") : "no serious violation"}`);
    for (const line of v) found.push(`${hash}: ${line}`);
  }
  // the pages an anonymous visitor sees differently, in the light theme and the dark one
  for (const scheme of ["light", "dark"]) {
    const anon = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: scheme });
    const visitor = await anon.newPage();
    pages.push(visitor);
    const seen = [["#/", "#play-engine"], ["#/lobby", "#pools [data-pool]"], ["#/puzzles", "#puzzle-board[data-state]"], ["#/login", "#auth-submit"]];
    if (scheme === "dark") seen.push([`#/game/${engine.id}`, "#board[data-ply]"], ["#/tournaments", "main h2"], [`#/arbiter/${event}`, "#arb-pairings tbody tr[data-board]"]);
    for (const [hash, ready] of seen) {
      await visitor.goto(`${base}/${hash}`);
      await visitor.waitForSelector(ready, { timeout: T });
      const v = await axe_violations(visitor);
      console.log(`  anonymous ${scheme} ${hash}: ${v.length ? v.join(" | ") : "no serious violation"}`);
      for (const line of v) found.push(`anonymous ${scheme} ${hash}: ${line}`);
    }
    await anon.close();
  }
  check(found.length === 0, `serious or critical WCAG 2.1 AA violations:\n${found.join("\n")}`);
  await ctx.close();
}

/** Creates an online game in context A (name, colour white); B joins through the invite link.
 * Returns both pages, A's board as white, B's as black. */
async function online_pair(browser, base, pages, clock = "300000+5000") {
  const ca = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const cb = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const a = await ca.newPage();
  const b = await cb.newPage();
  pages.push(a, b);
  await a.goto(`${base}/#/`);
  await a.fill("#online-name", "Aigerim");
  await a.selectOption("#online-colour", "white");
  await a.selectOption("#online-clock", clock);
  await a.click("#create-online");
  await a.waitForSelector("#invite-link", { timeout: T });
  const invite = await a.inputValue("#invite-link");
  check(/#\/join\/[^/]+\/[^/]+$/.test(invite), `invite link ${invite}`);
  check((await a.inputValue("#spectator-link")).includes("#/game/"), "spectator link shown");
  await b.goto(invite);
  await b.waitForSelector("#join-name", { timeout: T });
  await b.fill("#join-name", "Bolat");
  await b.click("#join-go");
  await b.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  const db = await board_data(b);
  check(db.you === "black", `B sits as black, got ${db.you}`);
  // both see both names once B has joined
  for (const p of [a, b]) {
    await p.waitForFunction(
      () => document.querySelector('.player[data-side="black"] .pname')?.textContent === "Bolat" &&
        document.querySelector('.player[data-side="white"] .pname')?.textContent === "Aigerim",
      null,
      { timeout: T, polling: 50 },
    );
  }
  return { a, b, ca, cb };
}

/** Two browsers play a few moves through the invite link, then Black resigns: both see it. */
async function online_resign(browser, base, pages) {
  const { a, b, ca, cb } = await online_pair(browser, base, pages);
  // a spectator follows through the spectator link
  const cs = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const spec = await cs.newPage();
  pages.push(spec);
  await spec.goto(await a.evaluate(() => `${location.origin}/#/game/${window.__toguz.state().id}`));
  check((await board_data(spec)).you === "spectator", "the spectator link watches");
  // the own row is at the bottom: A (white) sees White's row at the bottom, B Black's
  const bottom_side = (p) => p.$eval('.player.bottom', (e) => e.dataset.side);
  check((await bottom_side(a)) === "white" && (await bottom_side(b)) === "black", "own row at the bottom");
  check(await a.locator('.clock[data-side="white"]').count() === 1, "clocks shown");
  let ply = 0;
  for (let i = 0; i < 4; i++) {
    const mover = i % 2 === 0 ? a : b;
    const watcher = i % 2 === 0 ? b : a;
    check((await wait_turn(mover)) === "move", `ply ${ply}: the side to move may move`);
    await play_one(mover, i === 1 ? "key" : "click", i + 2);
    ply++;
    await wait_ply(watcher, ply);
    check(JSON.stringify(await move_texts(a)) === JSON.stringify(await move_texts(b)), "both move lists agree");
  }
  check((await wait_turn(a)) === "move", "White to move after four plies");
  await wait_ply(spec, ply);
  // (after the end anyone may play variations on the board: not while the game goes on)
  check((await spec.locator("#board g.hole.legal").count()) === 0, "a spectator has no legal holes");
  await b.click('[data-action="resign"]');
  await b.click('[data-action="resign-confirm"]');
  await wait_ply(spec, ply);
  check(JSON.stringify(await move_texts(spec)) === JSON.stringify(await move_texts(a)), "the spectator saw every move");
  for (const p of [a, b, spec]) {
    await p.waitForSelector('#game-over[data-reason="resign"]', { timeout: T });
    const w = await p.$eval("#game-over", (e) => e.dataset.winner);
    check(w === "white", `the resignation makes White the winner, got ${w}`);
  }
  console.log("  online game: 4 plies through the invite link, Black resigned; both players and a spectator saw it");
  await cs.close();
  await ca.close();
  await cb.close();
}

/** A's socket drops; B moves while A is away; A reconnects and shows B's move (full resync);
 * then a reload of A's page (token in the URL) also comes back to the same game. */
async function reconnect(browser, base, pages) {
  const { a, b, ca, cb } = await online_pair(browser, base, pages, "");
  await wait_turn(a);
  await play_one(a, "click", 0);
  await wait_ply(b, 1);
  await a.evaluate(() => window.__toguz.drop());
  await a.waitForSelector("#conn-banner:not([hidden])", { timeout: T });
  // B sees White go offline (the server noticed the closed socket)
  await b.waitForSelector('.player[data-side="white"] .dot.off', { timeout: T });
  check((await wait_turn(b)) === "move", "Black may move while White is away");
  await play_one(b, "click", 1);
  await wait_ply(b, 2);
  check(Number((await board_data(a)).ply) === 1, "A still shows ply 1 while disconnected");
  await a.evaluate(() => window.__toguz.resume());
  await wait_ply(a, 2);
  await a.waitForSelector("#conn-banner[hidden]", { state: "attached", timeout: T });
  check(JSON.stringify(await move_texts(a)) === JSON.stringify(await move_texts(b)), "A resynced the move list");
  const pos = async (p) => p.evaluate(() => window.__toguz.state().position);
  check((await pos(a)) === (await pos(b)), "A resynced the position");
  await b.waitForSelector('.player[data-side="white"] .dot.on', { timeout: T });
  // A moves again after the resync, then reloads the page: the game comes back
  check((await wait_turn(a)) === "move", "A may move after the resync");
  await play_one(a, "key", 2);
  await wait_ply(b, 3);
  await a.reload();
  await wait_ply(a, 3);
  check((await board_data(a)).you === "white", "after a reload A is White again");
  // A loses a delta (B's move never arrives); the next one (B's draw offer) does not follow
  // what A has, so A asks for the whole state and shows both
  await a.evaluate(() => window.__toguz.lose_delta());
  check((await wait_turn(b)) === "move", "Black to move after the reload");
  await play_one(b, "click", 0);
  await wait_ply(b, 4);
  check(Number((await board_data(a)).ply) === 3, "A missed Black's move");
  await b.evaluate(() => window.__toguz.send({ type: "offer_draw" }));
  await wait_ply(a, 4);
  check((await a.evaluate(() => window.__toguz.syncs())) === 1, "A asked for the whole state once");
  check(JSON.stringify(await move_texts(a)) === JSON.stringify(await move_texts(b)), "A has every move after the gap");
  await a.waitForFunction(() => window.__toguz.state().draw_offer === "black", null, { timeout: T });
  console.log("  reconnect: B moved while A was away; A resynced (again after a reload, and after a lost delta)");
  await ca.close();
  await cb.close();
}

/** A's network stalls without the socket closing (the page's test hook: nothing goes out or
 * comes in). A's page misses a pong (5 s ping, 4 s answer) and shows "reconnecting"; the
 * server, having heard nothing for 15 s, closes its end and B sees A "away"; A's click on a
 * legal hole is refused on the page at once, the board unchanged; when the network comes back
 * the move was never sent, and A may play it again. */
async function stalled_connection(browser, base, pages) {
  const { a, b, ca, cb } = await online_pair(browser, base, pages, "");
  await play_plies(a, b, 2);
  check((await wait_turn(a)) === "move", "White to move at ply 2");
  const before = await a.evaluate(() => window.__toguz.state().position);
  await a.evaluate(() => window.__toguz.stall());
  await a.waitForSelector("#conn-banner:not([hidden])", { timeout: T });
  await b.waitForSelector('.player[data-side="white"] .away-tag', { timeout: T });
  await b.waitForSelector('.player[data-side="white"] .dot.off', { timeout: T });
  // a click on a legal hole while disconnected: refused at once, nothing changes
  const hole = await a.$eval("#board g.hole.legal", (g) => g.dataset.hole);
  await a.locator(`#board g.hole.legal[data-hole="${hole}"]`).click();
  await a.waitForFunction(() => [...document.querySelectorAll(".toast.error")].some((e) => /not connected/i.test(e.textContent)), null, { timeout: T, polling: 50 });
  check(Number((await board_data(a)).ply) === 2, "the refused move left the board at ply 2");
  check((await a.evaluate(() => window.__toguz.state().position)) === before, "the refused move left the position");
  await a.evaluate(() => window.__toguz.resume());
  await a.waitForSelector("#conn-banner[hidden]", { state: "attached", timeout: T });
  await b.waitForSelector('.player[data-side="white"] .dot.on', { timeout: T });
  check((await b.locator('.player[data-side="white"] .away-tag').count()) === 0, "A is no longer away");
  // the refused move was never queued: both still at ply 2, White to move
  check((await wait_turn(a)) === "move", "White may still move after the reconnect");
  check(Number((await board_data(b)).ply) === 2 && Number((await board_data(a)).ply) === 2, "no move applied late");
  await play_one(a, "click", 0);
  await wait_ply(b, 3);
  console.log("  stalled connection: reconnecting shown, the opponent saw away, a move refused and never applied later");
  await ca.close();
  await cb.close();
}

/** A draw offer declined (the offerer is told, and may not offer again at once), one offered
 * and accepted, a rematch with colours swapped, and that game aborted. */
async function draw_rematch_abort(browser, base, pages) {
  const { a, b, ca, cb } = await online_pair(browser, base, pages);
  await wait_turn(a);
  await play_one(a, "click", 4);
  await wait_ply(b, 1);
  // two moves each first: an agreement before them would call the game off (fair play)
  await play_one(b, "click", 0);
  await wait_ply(a, 2);
  await play_one(a, "click", 0);
  await wait_ply(b, 3);
  await play_one(b, "click", 0);
  await wait_ply(a, 4);
  await a.click('[data-action="offer_draw"]');
  await b.waitForSelector('[data-action="decline_draw"]', { timeout: T });
  await b.click('[data-action="decline_draw"]');
  await a.waitForSelector("#draw-declined", { timeout: T });
  check((await a.locator('[data-action="offer_draw"]').count()) === 0, "no new offer right after a declined one");
  // the server refuses a repeated offer too (a page that ignores the missing button)
  const refused = await a.evaluate(() => window.__toguz.state().can_offer_draw);
  check(refused === false, `can_offer_draw after the decline: ${refused}`);
  await a.evaluate(() => window.__toguz.send({ type: "offer_draw" }));
  await a.waitForFunction(() => [...document.querySelectorAll(".toast.error")].some((e) => /offer a draw again in \d+ moves/.test(e.textContent)), null, { timeout: T, polling: 50 });
  check((await b.locator('[data-action="accept_draw"]').count()) === 0, "the refused offer did not reach Black");
  // Black has offered nothing: he may, and White accepts
  await b.click('[data-action="offer_draw"]');
  await a.waitForSelector('[data-action="accept_draw"]', { timeout: T });
  await a.click('[data-action="accept_draw"]');
  for (const p of [a, b]) {
    await p.waitForSelector('#game-over[data-reason="agreement"]', { timeout: T });
    check((await p.$eval("#game-over", (e) => e.dataset.winner)) === "draw", "an agreed draw");
  }
  const first = await a.evaluate(() => window.__toguz.state().id);
  await a.click('#game-over [data-action="rematch"]');
  await b.waitForSelector('#controls .offer', { timeout: T }); // "your opponent wants a rematch"
  await b.click('#game-over [data-action="rematch"]');
  for (const [p, side] of [[a, "black"], [b, "white"]]) {
    await p.waitForFunction(
      ([old, want]) => {
        const st = window.__toguz?.state();
        return st && st.id !== old && st.you === want && st.ply === 0 && document.querySelector("#board")?.dataset.you === want;
      },
      [first, side],
      { timeout: T, polling: 50 },
    );
  }
  // the new game: nobody has moved, so either side may abort
  await a.click('[data-action="abort"]');
  for (const p of [a, b]) {
    await p.waitForFunction(() => window.__toguz?.state()?.status === "aborted" && !!document.querySelector("#game-over"), null, { timeout: T, polling: 50 });
  }
  console.log("  draw agreed, rematch with colours swapped, the rematch aborted");
  await ca.close();
  await cb.close();
}

/** Plays `n` plies from the start (White on page `a`, Black on `b`), each waiting for its turn. */
async function play_plies(a, b, n) {
  for (let i = 0; i < n; i++) {
    const mover = i % 2 === 0 ? a : b;
    check((await wait_turn(mover)) === "move", `ply ${i}: the side to move may move`);
    await play_one(mover, "click", i);
    await wait_ply(i % 2 === 0 ? b : a, i + 1);
  }
}

/** Against the engine at level 1: a hole picked while the engine thinks is shown, a click
 * elsewhere cancels it, and picked again it is played as soon as the turn comes back (or
 * dropped when the engine's move emptied it). */
async function premove(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/`);
  const g = await page.evaluate(async () => {
    const r = await fetch("/api/games", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ mode: "engine", level: 1, color: "white" }) });
    return r.json();
  });
  await page.goto(`${base}/#/game/${g.id}/${g.token}`);
  check((await wait_turn(page)) === "move", "White moves first");
  // the engine's answer waits (a test hook) so that the pick surely falls in its turn
  await page.evaluate(() => window.__toguz.hold_turn(true));
  await play_one(page);
  await page.waitForFunction(() => document.querySelector("#board")?.dataset.toMove === "black" && document.querySelector("#board")?.dataset.animating === "0", null, { timeout: T, polling: 50 });
  const hole = await page.$eval("#board", () => {
    const holes = [...document.querySelectorAll('#board g.hole[data-side="white"]')];
    return Number(holes.reduce((a, b) => (Number(b.dataset.count) > Number(a.dataset.count) ? b : a)).dataset.hole);
  });
  const pick = `#board g.hole[data-side="white"][data-hole="${hole}"]`;
  await page.click(pick);
  await page.waitForSelector(`${pick}.premove`, { timeout: T });
  await page.$eval(".game", (e) => e.click()); // a click elsewhere on the page
  await page.waitForFunction(() => document.querySelector("#board")?.dataset.premove === "", null, { timeout: T, polling: 50 });
  await page.click(pick);
  check((await page.$eval("#board", (b) => b.dataset.premove)) === String(hole), "the premove is shown");
  await page.evaluate(() => window.__toguz.hold_turn(false));
  const played = await page.waitForFunction(() => {
    const s = window.__toguz.state();
    if (s.moves.length >= 3) return { hole: s.moves[2].hole, side: s.moves[2].side };
    // dropped: his turn, nothing marked and nothing sent (a sent move stops the board)
    const b = document.querySelector("#board");
    if (s.to_move === "white" && b?.dataset.premove === "" && b?.dataset.canMove === "1") return { dropped: s.board.white };
    return false;
  }, null, { timeout: T, polling: 50 });
  const r = await played.jsonValue();
  if (r.dropped) check(r.dropped[hole - 1] === 0, `a premove still legal was dropped: ${JSON.stringify(r)}`);
  else check(r.side === "white" && r.hole === hole, `the premove was played: ${JSON.stringify(r)}`);
  console.log(`  premove: hole ${hole} picked in the engine's turn, ${r.dropped ? "dropped (emptied)" : "played when the turn came"}`);
  await ctx.close();
}

/** Two players of a casual game: White proposes a takeback after Black's reply, Black accepts;
 * both boards go back two plies. */
async function takeback_chat(browser, base, pages) {
  const { a, b, ca, cb } = await online_pair(browser, base, pages);
  await play_plies(a, b, 2);
  await a.click('[data-action="takeback"]');
  await a.waitForSelector("#takeback-sent", { timeout: T });
  await b.waitForSelector("#takeback-offered", { timeout: T });
  await b.click('[data-action="accept_takeback"]');
  for (const p of [a, b]) await wait_ply(p, 0);
  check((await move_texts(a)).length === 0 && (await move_texts(b)).length === 0, "both move lists are empty");
  check((await wait_turn(a)) === "move", "White to move again");
  console.log("  takeback: proposed after the reply, accepted, both boards back two plies");
  // guests read the chat but do not post: the panel says to sign in
  await a.waitForSelector("#chat #chat-read-only", { timeout: T });
  check((await a.locator("#chat-input").count()) === 0, "a guest has no chat input");
  await ca.close();
  await cb.close();
  await chat_between_accounts(browser, base, pages);
}

/** Two signed-in players chat in a casual game; a spectator on a phone reads it (no input, no
 * horizontal scroll); a message of markup is shown as text; the chat is back after a reload. */
async function chat_between_accounts(browser, base, pages) {
  const { ctx: ca, page: a } = await signed_up(browser, base, pages, "Aibek");
  const { ctx: cb, page: b } = await signed_up(browser, base, pages, "Zarina");
  await a.goto(`${base}/#/`);
  await a.waitForSelector("#online-name-account .uname", { timeout: T });
  await a.selectOption("#online-colour", "white");
  await a.click("#create-online");
  await a.waitForSelector("#invite-link", { timeout: T });
  await b.goto(await a.inputValue("#invite-link"));
  await b.waitForSelector("#join-name-account .uname", { timeout: T });
  await b.click("#join-go");
  await b.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  const cs = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const spec = await cs.newPage();
  pages.push(spec);
  await spec.goto(await a.evaluate(() => `${location.origin}/#/game/${window.__toguz.state().id}`));
  await spec.waitForSelector("#chat #chat-read-only", { timeout: T });
  const evil = "<img src=x onerror=window.__xss=1>";
  await a.waitForSelector("#chat-input", { timeout: T });
  await a.fill("#chat-input", evil);
  await a.press("#chat-input", "Enter");
  const line_shown = (p, text) =>
    p.waitForFunction((t) => [...document.querySelectorAll("#chat-log .chat-text")].some((e) => e.textContent === t), text, { timeout: T, polling: 50 });
  for (const p of [a, b, spec]) {
    await line_shown(p, evil);
    check((await p.locator("#chat-log img").count()) === 0, "the markup is shown as text");
    check((await p.evaluate(() => window.__xss)) === undefined, "no script ran");
  }
  check((await spec.locator("#chat-input").count()) === 0, "a spectator has no chat input");
  check((await b.locator('#chat-log [data-report]').count()) === 1, "the opponent's message has a report button");
  await b.fill("#chat-input", "сәлем");
  await b.click("#chat-send");
  await line_shown(a, "сәлем");
  await line_shown(spec, "сәлем");
  const wide = await spec.evaluate(() => document.documentElement.scrollWidth);
  check(wide <= 390, `no horizontal scroll on a phone (${wide} px)`);
  await a.reload();
  await line_shown(a, "сәлем");
  check((await a.locator("#chat-log .chat-line").count()) === 2, "the chat is back after a reload");
  console.log("  chat: two accounts talk, a spectator on a phone reads, markup shown as text, kept on reload");
  await cs.close();
  await ca.close();
  await cb.close();
}

/** A game between two people appears in the games page's current games (with its moves, kept
 * up to date) and its link opens it as a spectator. */
async function current_games(browser, base, pages) {
  const { a, b, ca, cb } = await online_pair(browser, base, pages);
  const id = await a.evaluate(() => window.__toguz.state().id);
  await play_plies(a, b, 1);
  const cs = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  const spec = await cs.newPage();
  pages.push(spec);
  await spec.goto(`${base}/#/games`);
  const row = `#current-games tr[data-id="${id}"]`;
  await spec.waitForSelector(row, { timeout: T });
  const names = await spec.$eval(row, (tr) => [tr.cells[0].textContent, tr.cells[1].textContent, tr.cells[2].textContent]);
  check(names.join() === "Aigerim,Bolat,5+5", `the row names the players and clock, got ${names}`);
  // a move later the same row says 2 moves (the next poll updates it in place)
  await play_plies_from(a, b, 1, 1);
  await spec.waitForFunction((r) => document.querySelector(r)?.cells[3].textContent === "2", row, { timeout: T, polling: 100 });
  await spec.click(`${row} a`);
  check((await board_data(spec)).you === "spectator", "the current game opens for a spectator");
  await wait_ply(spec, 2);
  console.log("  current games: a live game listed, updated and opened as a spectator");
  await cs.close();
  await ca.close();
  await cb.close();
}

/** Plays `n` plies from ply `from` (White on page `a`, Black on `b`), each waiting for its turn. */
async function play_plies_from(a, b, from, n) {
  for (let i = from; i < from + n; i++) {
    const mover = i % 2 === 0 ? a : b;
    check((await wait_turn(mover)) === "move", `ply ${i}: the side to move may move`);
    await play_one(mover, "click", i);
    await wait_ply(i % 2 === 0 ? b : a, i + 1);
  }
}

/** With a 1 s abandon delay (a second server): after two moves each (before them leaving calls
 * the game off, docs/accounts.md "Fair play") Black closes his browser; White may claim. */
async function claim_win(browser, _base, pages) {
  const dir = mkdtempSync(path.join(tmpdir(), "toguz-e2e-claim-"));
  const srv = await start_server(dir, ["--abandon-seconds", "1"]);
  try {
    const { a, b, ca, cb } = await online_pair(browser, srv.base, pages, "");
    await play_plies(a, b, 4);
    await cb.close();
    // the away counter counts on between states
    await a.waitForSelector("#away", { timeout: T });
    await a.waitForFunction(() => parseInt(document.querySelector("#away")?.textContent ?? "0", 10) >= 3, null, { timeout: T, polling: 100 });
    await a.waitForSelector('[data-action="claim_win"]', { timeout: T });
    await a.click('[data-action="claim_win"]');
    await a.waitForSelector('#game-over[data-reason="abandon"]', { timeout: T });
    check((await a.$eval("#game-over", (e) => e.dataset.winner)) === "white", "the claim makes White the winner");
    console.log("  claim win: Black left, White claimed after the abandon delay");
    await ca.close();
  } finally {
    srv.proc.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
}

/** On a phone (390 px, touch): the games list fits the screen with a long name in it, and the
 * editor takes stones away by touch. */
async function phone_pages(browser, base, pages) {
  const long = "Айгерим".repeat(5) + "Bolatbek"; // 43 characters, no space to break at
  for (const name of [long, "Bolat"]) {
    const r = await fetch(`${base}/api/games`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base },
      body: JSON.stringify({ mode: "online", variant: "standard", tuz: true, play_out: false, position: null, color: "white", level: 5, clock: null, name }),
    });
    check(r.ok, `created a game for ${name}: ${r.status}`);
  }
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/games`);
  await page.waitForSelector("#games-table tbody tr", { timeout: T });
  const fit = await page.evaluate(() => ({
    width: innerWidth,
    scroll: document.documentElement.scrollWidth,
    table: document.querySelector(".table-wrap").scrollWidth,
    links: [...document.querySelectorAll("#games-table td.open a")].map((a) => a.getBoundingClientRect().right),
    names: [...document.querySelectorAll("#games-table td.name")].map((td) => td.getBoundingClientRect().right),
  }));
  check(fit.scroll <= fit.width && fit.table <= fit.width, `the games list fits the phone: ${JSON.stringify(fit)}`);
  check(fit.links.length >= 2 && fit.links.every((x) => x <= fit.width), `every Open link on screen: ${fit.links}`);
  check(fit.names.every((x) => x <= fit.width), `long names cut inside the screen: ${fit.names}`);
  // the editor by touch: a tap adds a stone, in the "−1" mode a tap takes one away
  await page.goto(`${base}/#/editor`);
  const hole = '#editor-board g.hole[data-side="white"][data-hole="1"]';
  const count = async () => Number(await page.getAttribute(hole, "data-count"));
  await page.waitForSelector(hole, { timeout: T });
  check((await count()) === 9, "the start position");
  await page.tap(hole);
  await page.waitForFunction((h) => document.querySelector(h)?.getAttribute("data-count") === "10", hole, { timeout: T, polling: 50 });
  await page.tap("#editor-remove-mode");
  await page.tap(hole);
  await page.tap(hole);
  await page.waitForFunction((h) => document.querySelector(h)?.getAttribute("data-count") === "8", hole, { timeout: T, polling: 50 });
  check((await page.getAttribute("#editor-remove-mode", "aria-pressed")) === "true", "the remove mode shows as pressed");
  console.log("  phone: the games list fits 390 px with a 43-character name; the editor removes stones by touch");
  await ctx.close();
}

/** In a real 390 x 844 window (not phone emulation, where the window grows with a page too wide
 * for it), signed in (the header's widest), in each of the four languages: no page is wider than
 * the window, the header's menu is folded behind its button (aria-expanded, aria-controls), which
 * opens it by click or by key, and every item of the open menu is on screen; a link followed,
 * another page and Escape close it. A window wider than the phone's shows the whole menu. */
/** An anonymous visitor's pages ask nothing that needs an account: no answer is a 401, so the
 * browser's console stays clean (the home page used to ask for the account's games). */
async function anonymous_quiet(browser, base, pages) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  pages.push(page);
  const refused = [];
  page.on("response", (r) => {
    if (r.status() === 401) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
  });
  const routes = [
    ["#/", "#play-engine"],
    ["#/games", "#games-search"],
    ["#/lobby", "#pools"],
    ["#/tournaments", "main h2"],
    ["#/puzzles", "#puzzle-board[data-state]"],
    ["#/studies", ".study-card"],
    ["#/explorer", "#explorer-analysis"],
    ["#/arbiter", "#arb-create"],
    ["#/editor", "#editor-board g.hole"],
    ["#/login", "#auth-submit"],
  ];
  for (const [hash, ready] of routes) {
    await page.goto(`${base}/${hash}`);
    await page.waitForSelector(ready, { timeout: T });
    // every request the page started has been answered
    await page.waitForLoadState("networkidle", { timeout: T });
  }
  check(refused.length === 0, `anonymous pages got 401s: ${refused.join(", ")}`);
  await page.goto(`${base}/#/`);
  await page.waitForLoadState("networkidle", { timeout: T });
  check((await page.$("#online-name:not([type=hidden])")) !== null, "an anonymous visitor is asked for a name");
  await ctx.close();
  console.log(`  anonymous: ${routes.length} pages, no 401 answered`);
}

/** The dark theme: the header's button switches it (the page's colours change at once, the
 * button says it is pressed), it stays after a reload, and a browser that prefers dark starts
 * dark without a choice. */
async function dark_theme(browser, base, pages) {
  const ctx = await browser.newContext({ colorScheme: "light" });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/`);
  await page.waitForSelector("#theme-toggle[aria-pressed=false]", { timeout: T });
  const colours = () => page.evaluate(() => ({
    theme: document.documentElement.dataset.theme,
    bg: getComputedStyle(document.documentElement).backgroundColor,
    card: getComputedStyle(document.querySelector(".card")).backgroundColor,
  }));
  const light = await colours();
  check(light.theme === "light", `starts light: ${JSON.stringify(light)}`);
  await page.click("#theme-toggle");
  await page.waitForSelector("#theme-toggle[aria-pressed=true]", { timeout: T });
  const dark = await colours();
  const lum = (c) => c.match(/\d+/g).slice(0, 3).map(Number).reduce((a, b) => a + b, 0);
  check(dark.theme === "dark" && lum(dark.bg) < 150 && lum(dark.card) < 150 && lum(light.bg) > 600,
    `dark colours: ${JSON.stringify(dark)} after ${JSON.stringify(light)}`);
  await page.reload();
  await page.waitForSelector("#theme-toggle[aria-pressed=true]", { timeout: T });
  check((await colours()).theme === "dark", "the choice stays after a reload");
  await ctx.close();
  const night = await browser.newContext({ colorScheme: "dark" });
  const p2 = await night.newPage();
  pages.push(p2);
  await p2.goto(`${base}/#/`);
  await p2.waitForSelector("#theme-toggle[aria-pressed=true]", { timeout: T });
  await night.close();
  console.log("  dark theme: switched by the header's button, kept after a reload, the system's by default");
}

/** Sounds: a game against the engine sounds each move (the test build notes every sound it
 * plays in window.__toguz_sounds); the header's sound button silences them, and stays off. */
async function sounds(browser, base, pages) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/`);
  await page.selectOption("#engine-level", "1");
  await page.click("#play-engine");
  await page.waitForSelector("#sound-toggle[aria-pressed=true]", { timeout: T });
  check((await wait_turn(page)) === "move", "our move first");
  await play_one(page, "click", 0);
  await wait_ply(page, 2); // ours and the engine's
  const heard = await page.evaluate(() => window.__toguz_sounds ?? []);
  check(heard.length >= 2 && heard.every((k) => ["move", "capture", "tuz"].includes(k)), `two moves heard: ${JSON.stringify(heard)}`);
  await page.click("#sound-toggle");
  await page.waitForSelector("#sound-toggle[aria-pressed=false]", { timeout: T });
  await wait_turn(page);
  await play_one(page, "click", 1);
  await wait_ply(page, 4);
  const after = await page.evaluate(() => window.__toguz_sounds.length);
  check(after === heard.length, `silent once off: ${after} sounds, was ${heard.length}`);
  await page.reload();
  await page.waitForSelector("#sound-toggle[aria-pressed=false]", { timeout: T });
  await ctx.close();
  console.log(`  sounds: ${heard.join(", ")} heard; none once switched off, and off after a reload`);
}

async function phone_menu(browser, base, pages) {
  const name = "Phone390";
  const made = await fetch(`${base}/api/games`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ mode: "online", variant: "standard", tuz: true, play_out: false, position: null, color: "white", level: 5, clock: null, name: "Aigerim" }),
  });
  check(made.ok, `created a game: ${made.status}`);
  const game = (await made.json()).id;
  const window390 = { viewport: { width: 390, height: 844 } };
  // the account, an over-the-board event and an online tournament, made at this width
  const first = await browser.newContext(window390);
  const signed = await first.request.post(`${base}/api/signup`, { data: { username: name, password: `password of ${name}` }, headers: { Origin: base } });
  check(signed.ok(), `signed up: ${signed.status()}`);
  const cookies = await first.cookies();
  const maker = await first.newPage();
  pages.push(maker);
  const { event, tournament } = await event_and_tournament(maker, base, "Кубок Алатау", ["Eleusizov, Nurlan", "Кажгалиев Темірлан", "Aktayev, Serik"], "Арена Нарын");
  await first.close();
  // every page, each with what shows it drawn
  const routes = site_routes(tournament, event, name, [[`#/game/${game}`, "#board[data-ply]"]]);
  const toggle = "#menu-toggle";
  const expanded = (p) => p.getAttribute(toggle, "aria-expanded");
  const wait_expanded = (p, v) => p.waitForFunction((v) => document.querySelector("#menu-toggle")?.getAttribute("aria-expanded") === v, v, { timeout: T, polling: 50 });
  /** The window's width, the document's and where each item of the menu is. */
  const measure = (p) => p.evaluate(() => ({
    width: innerWidth,
    scroll: document.documentElement.scrollWidth,
    // what sticks out, when something does: the innermost such elements
    out: document.documentElement.scrollWidth <= innerWidth ? [] : [...document.querySelectorAll("body *")]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 0.5 && ![...e.children].some((c) => c.getBoundingClientRect().right > innerWidth + 0.5))
      .slice(0, 6).map((e) => `${e.tagName.toLowerCase()}${e.id ? `#${e.id}` : ""}${e.classList.length ? `.${[...e.classList].join(".")}` : ""} ${Math.round(e.getBoundingClientRect().right)}`),
    items: [...document.querySelectorAll("#top-menu a, #top-menu select")].map((e) => {
      const r = e.getBoundingClientRect();
      return { item: e.textContent.slice(0, 20), shown: e.checkVisibility() && r.width > 0 && r.height > 0, left: Math.round(r.left), right: Math.round(r.right) };
    }),
  }));
  let n = 0;
  for (const lang of ["en", "ru", "kk", "ky"]) {
    const ctx = await browser.newContext(window390);
    await ctx.addCookies(cookies);
    await ctx.addInitScript((l) => localStorage.setItem("toguz.lang", l), lang);
    const page = await ctx.newPage();
    pages.push(page);
    for (const [hash, ready] of routes) {
      const where = `${lang} ${hash}`;
      const by_menu = (await page.$(`#top-menu a[href="${hash}"]`)) !== null;
      if (by_menu) {
        // the page's own link in the menu: opened by its button (by click, or by key), followed
        if (n % 2 === 0) await page.click(toggle);
        else {
          await page.focus(toggle);
          await page.keyboard.press(n % 4 === 1 ? "Enter" : "Space");
        }
        await wait_expanded(page, "true");
        await page.click(`#top-menu a[href="${hash}"]`);
      } else await page.goto(`${base}/${hash}`);
      n++;
      await page.waitForSelector(ready, { timeout: T });
      await page.waitForFunction(
        ([l, me]) => document.documentElement.lang === l && document.querySelector("#me-link")?.textContent === me,
        [lang, name],
        { timeout: T, polling: 50 },
      );
      const at = location_hash(page.url()); // (the puzzles page goes on to its puzzle's own)
      check(at === hash || at.startsWith(`${hash}/`), `${where}: on the page (${page.url()})`);
      const closed = await measure(page);
      check(closed.width === 390 && closed.scroll <= closed.width, `${where}: the page fits the window: ${JSON.stringify({ width: closed.width, scroll: closed.scroll, out: closed.out })}`);
      check((await expanded(page)) === "false", `${where}: the menu closed on the way here`);
      check((await page.getAttribute(toggle, "aria-controls")) === "top-menu", `${where}: the button controls the menu`);
      check(closed.items.every((i) => !i.shown), `${where}: the menu is folded: ${JSON.stringify(closed.items.filter((i) => i.shown))}`);
      check(await page.isVisible(toggle), `${where}: the menu button shown`);
      // open: every item on screen, the page still as wide as the window; Escape closes it
      await page.click(toggle);
      await wait_expanded(page, "true");
      const open = await measure(page);
      check(open.scroll <= open.width, `${where}: with the menu open the page fits: ${JSON.stringify({ width: open.width, scroll: open.scroll, out: open.out })}`);
      check(open.items.length === 12 && open.items.every((i) => i.shown && i.left >= 0 && i.right <= open.width),
        `${where}: every item of the open menu on screen: ${JSON.stringify(open.items)}`);
      if (n % 2 === 0) {
        await page.keyboard.press("Escape");
        await wait_expanded(page, "false");
        check(await page.evaluate(() => document.activeElement?.id === "menu-toggle"), `${where}: Escape gave the focus back to the button`);
      } else {
        await page.click(toggle);
        await wait_expanded(page, "false");
      }
    }
    // a wider window: the whole menu, no button, and still nothing wider than the window
    await page.setViewportSize({ width: 900, height: 844 });
    await page.waitForFunction(() => innerWidth === 900, null, { timeout: T, polling: 50 });
    const wide = await measure(page);
    check(!(await page.isVisible(toggle)), `${lang}: no menu button in a wide window`);
    check(wide.scroll <= wide.width && wide.items.every((i) => i.shown && i.right <= wide.width), `${lang}: the whole menu in a wide window: ${JSON.stringify(wide)}`);
    await ctx.close();
  }
  console.log(`  phone menu: ${routes.length} pages in four languages fit a 390 px window; the menu opens by click and key, closes by link, page and Escape`);
}

/** The other languages leave no English: the server's default names, its refusals, the
 * editor's labels and the dates; and a toast does not outlive its page. */
async function languages(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  await ctx.addInitScript(() => localStorage.getItem("toguz.lang") || localStorage.setItem("toguz.lang", "ru"));
  const page = await ctx.newPage();
  pages.push(page);
  // a record that cannot be read: the refusal in Russian; it is gone on the next page
  await page.goto(`${base}/#/`);
  await page.fill("#import-text", "1. 65(10) 99(3)\n");
  await page.click("#import-go");
  await page.waitForSelector(".toast.error", { timeout: T });
  const refusal = await page.textContent(".toast.error");
  check(/^Не удалось прочитать запись|^В тексте не найдено партии/.test(refusal), `import refusal in Russian: ${refusal}`);
  await page.click('a[href="#/games"]');
  await page.waitForSelector("#games-search", { timeout: T });
  check((await page.locator(".toast").count()) === 0, "the home page's toast is gone on the games page");
  // an engine game: both names are the server's own, written in Russian
  await page.goto(`${base}/#/`);
  await page.selectOption("#engine-level", "1");
  await page.click("#play-engine");
  await page.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  await board_data(page);
  const names = await page.$$eval(".player .pname", (els) => els.map((e) => e.textContent));
  check(names.includes("toguz (уровень 1)") && names.includes("Игрок"), `names in Russian: ${names}`);
  const labels = await page.$$eval(".game [aria-label]", (els) => els.map((e) => e.getAttribute("aria-label")).filter((l) => /^[A-Za-z ]+$/.test(l)));
  check(labels.length === 0, `labels for screen readers in Russian: ${labels}`);
  const id = await page.evaluate(() => window.__toguz.state().id);
  // a wrong invite code: the server's refusal in Russian
  const online = await (await fetch(`${base}/api/games`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ mode: "online", variant: "standard", tuz: true, play_out: false, position: null, color: "white", level: 5, clock: null, name: "" }),
  })).json();
  await page.goto(`${base}/#/join/${online.id}/wrongcode`);
  await page.fill("#join-name", "Болат");
  await page.click("#join-go");
  await page.waitForSelector(".toast.error", { timeout: T });
  const wrong = await page.textContent(".toast.error");
  check(wrong === "Ссылка-приглашение неверна или устарела", `join refusal in Russian: ${wrong}`);
  // the editor's labels
  await page.goto(`${base}/#/editor`);
  await page.waitForSelector("#editor-position", { timeout: T });
  const editor = await page.textContent(".editor");
  check(editor.includes("Строка позиции") && !/Position/.test(editor), "the editor in Russian");
  // the games list in Kyrgyz: names and dates
  await page.evaluate(() => localStorage.setItem("toguz.lang", "ky"));
  await page.goto(`${base}/#/games`);
  await page.reload();
  await page.waitForSelector(`#games-table tr[data-id="${id}"]`, { timeout: T });
  const row = await page.$eval(`#games-table tr[data-id="${id}"]`, (tr) => tr.textContent);
  check(row.includes("Оюнчу") && row.includes("toguz (1-деңгээл)"), `names in Kyrgyz: ${row}`);
  check(/\d\d\.\d\d\.20\d\d \d\d:\d\d/.test(row), `a date in Kyrgyz: ${row}`);
  console.log("  languages: names, refusals, editor and dates without English");
  await ctx.close();
}

/** Only the reader's language is downloaded: a browser set to Russian fetches the Russian chunk
 * of the texts (src/i18n/ru.ts, built as ru-<hash>.js) and not the English, Kazakh or Kyrgyz
 * ones, and the page reads in Russian; choosing Kazakh then fetches that one chunk. */
async function language_chunks(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: "ru-RU" });
  const page = await ctx.newPage();
  pages.push(page);
  const fetched = [];
  page.on("request", (r) => fetched.push(new URL(r.url()).pathname));
  const chunk = (lang) => fetched.some((p) => new RegExp(`^/assets/${lang}-[\\w-]+\\.js$`).test(p));
  await page.goto(`${base}/#/`);
  await page.waitForSelector("#play-engine", { timeout: T });
  check(await page.evaluate(() => navigator.language) === "ru-RU", "the browser reads Russian");
  check(chunk("ru"), `the Russian chunk fetched: ${fetched.join(" ")}`);
  for (const other of ["en", "kk", "ky"]) check(!chunk(other), `no ${other} chunk fetched: ${fetched.join(" ")}`);
  // the pages a first visit does not need are chunks of their own, not fetched for home
  const pages_chunk = (name) => fetched.some((p) => new RegExp(`^/assets/${name}_routes-[\\w-]+\\.js$`).test(p));
  for (const name of ["account", "learn", "arbiter", "ratings", "tournament"]) check(!pages_chunk(name), `no ${name} chunk for home: ${fetched.join(" ")}`);
  const nav = await page.textContent("#top nav");
  check(nav.includes("Партии") && nav.includes("Турниры") && !/Games|Tournaments/.test(nav), `the header in Russian: ${nav}`);
  check((await page.getAttribute("html", "lang")) === "ru", "the document says Russian");
  // the reader picks Kazakh: its chunk comes, the page is drawn again in it, still no English
  await page.selectOption("#lang-select", "kk");
  await page.waitForFunction(() => document.documentElement.lang === "kk" && document.querySelector("#top nav")?.textContent?.includes("Ойындар"), null, { timeout: T });
  check(chunk("kk") && !chunk("en") && !chunk("ky"), `the Kazakh chunk alone fetched: ${fetched.join(" ")}`);
  check((await page.evaluate(() => localStorage.getItem("toguz.lang"))) === "kk", "the choice kept");
  await page_chunks(page, fetched, pages_chunk);
  console.log("  language chunks: a Russian browser fetched ru alone and read Russian; Kazakh chosen fetched kk");
  await ctx.close();
}

/** language_chunks' page chunks (the page reads Kazakh): #/arbiter fetches its chunk, and a failed
 * fetch says so with a button that fetches it again; a chunk that comes once the reader has gone
 * elsewhere (#/ratings, then home) is not shown and its view not made (no /api/ratings). */
async function page_chunks(page, fetched, pages_chunk) {
  const arbiter_js = /\/assets\/arbiter_routes-[\w-]+\.js$/;
  await page.route(arbiter_js, (r) => r.abort());
  await page.evaluate(() => { location.hash = "#/arbiter"; });
  await page.waitForSelector("#page-failed #page-retry", { timeout: T });
  const said = await page.textContent("#page-failed");
  check(said.includes("Бетті жүктеу") && pages_chunk("arbiter"), `the failed fetch said in Kazakh: ${said}`);
  await page.unroute(arbiter_js);
  await page.click("#page-retry");
  await page.waitForSelector("#arb-create", { timeout: T });
  check(!pages_chunk("ratings"), `the arbiter's page fetched no ratings chunk: ${fetched.join(" ")}`);
  // the ratings chunk held back until the reader is home again
  const ratings_js = /\/assets\/ratings_routes-[\w-]+\.js$/;
  let release;
  const held = new Promise((r) => (release = r));
  await page.route(ratings_js, async (r) => {
    await held;
    await r.continue();
  });
  const asked = page.waitForRequest(ratings_js, { timeout: T });
  await page.evaluate(() => { location.hash = "#/ratings"; });
  const url = (await asked).url();
  await page.evaluate(() => { location.hash = "#/"; });
  await page.waitForSelector("#play-engine", { timeout: T });
  release();
  // the page's own import of the chunk settles after the router's (one module, same microtasks)
  await page.evaluate((u) => import(u).then(() => true), url);
  check(await page.isVisible("#play-engine"), "home still shown once the late chunk came");
  check((await page.evaluate(() => document.body.dataset.route)) === "home", "the route is home's");
  check(!fetched.includes("/api/ratings") && !(await page.$("#fed-lists")), `the late view not made: ${fetched.join(" ")}`);
  await page.unroute(ratings_js);
}

/** The README screenshots (not a test): home, engine game, online game, review, phone. */
async function screenshots(browser, base, dir) {
  mkdirSync(dir, { recursive: true });
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await ctx.newPage();
  await page.goto(`${base}/#/`);
  await page.waitForSelector("#play-engine");
  await page.screenshot({ path: path.join(dir, "home.png") });
  await page.selectOption("#engine-level", "1");
  await page.click("#play-engine");
  for (let i = 0; i < 8; i++) {
    if ((await wait_turn(page)) === "over") break;
    await play_one(page, "click", (i * 5) % 7);
  }
  await wait_turn(page);
  await page.click('[data-action="analyse"]');
  await page.waitForSelector("#analysis .line", { timeout: T });
  await page.click('[data-action="hint"]');
  await page.waitForSelector("#hint", { timeout: T });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, "game-engine.png") });
  await page.click('[data-action="analyse"]');
  // the rest of the game: mostly the engine's hint, every fifth move a weaker one (a story to review)
  for (let i = 0; i < 400; i++) {
    if ((await wait_turn(page, 120_000)) === "over") break;
    if (i % 5 !== 4) {
      await page.click('[data-action="hint"]');
      await page.waitForSelector("#board g.hole.hint.legal", { timeout: T });
      const ply = Number((await board_data(page)).ply);
      await page.click("#board g.hole.hint.legal");
      await page.waitForFunction((p) => Number(document.querySelector("#board")?.dataset.ply) > p, ply, { timeout: T, polling: 50 });
    } else {
      await play_one(page, "click", i);
    }
  }
  await page.click('#game-over [data-action="review"]');
  await page.waitForSelector('#review[data-done="1"]', { timeout: 180_000 });
  // show the position after the first marked mistake
  const mistake = page.locator(".mistakes li").first();
  if (await mistake.count()) await mistake.click();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: path.join(dir, "review.png"), fullPage: true });
  await ctx.close();

  const pages = [];
  const { a, b, ca, cb } = await online_pair(browser, base, pages);
  for (let i = 0; i < 6; i++) {
    const mover = i % 2 === 0 ? a : b;
    await wait_turn(mover);
    await play_one(mover, "click", i * 3);
    await wait_ply(i % 2 === 0 ? b : a, i + 1);
  }
  await a.click('[data-action="offer_draw"]');
  await b.waitForSelector('[data-action="accept_draw"]', { timeout: T });
  await b.screenshot({ path: path.join(dir, "game-online.png") });
  await ca.close();
  await cb.close();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await phone.addInitScript(() => localStorage.setItem("toguz.lang", "kk"));
  const pp = await phone.newPage();
  await pp.goto(`${base}/#/`);
  await pp.selectOption("#engine-level", "1");
  await pp.click("#play-engine");
  for (let i = 0; i < 6; i++) {
    await wait_turn(pp);
    await pp.locator(`#board g.hole.legal`).nth(i % 3).tap();
    await pp.waitForFunction((p) => Number(document.querySelector("#board")?.dataset.ply) > p, 2 * i, { timeout: T, polling: 50 });
  }
  await wait_turn(pp);
  await pp.screenshot({ path: path.join(dir, "phone.png") });
  await phone.close();
  await blind_shot(browser, base, dir);
}

/** The README's picture of the blind mode: a game against the engine after a few moves typed
 * into the input, the kaznas asked for with k. */
async function blind_shot(browser, base, dir) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 860 }, reducedMotion: "reduce" });
  await ctx.addInitScript(() => localStorage.setItem("toguz.blind", "1"));
  const page = await ctx.newPage();
  await page.goto(`${base}/#/`);
  await page.selectOption("#engine-level", "1");
  await page.click("#play-engine");
  await page.waitForSelector("#blind-input", { timeout: T });
  await page.focus("#blind-input");
  for (let i = 0; i < 4; i++) {
    if ((await wait_turn(page)) === "over") break;
    const legal = /([\d, ]+)$/.exec(await blind_say(page, "m", false))[1].split(", ");
    await blind_say(page, legal[(i * 3) % legal.length]);
  }
  await wait_turn(page);
  await blind_say(page, "k", false);
  await page.screenshot({ path: path.join(dir, "blind.png") });
  await ctx.close();
}

/** The account, player and lobby pages against the contract of docs/web-protocol.md ("Accounts,
 * ratings and the lobby"), which the server does not implement yet: the browser answers for it
 * (page.route, routeWebSocket). Sign-up refusals and success, a player page, a name with markup
 * shown as text everywhere, a seek accepted from the lobby, a challenge from a player page, the
 * leaderboard, and a server without accounts. */
async function accounts_pages(browser, base, pages) {
  const evil = `<img src=x onerror="window.__xss=1">`;
  const user = (username) => ({
    username, online: true, ratings: {
      blitz: { rating: 1623.4, rd: 74.1, volatility: 0.06, games: 41, provisional: false },
      bullet: { rating: 1500, rd: 350, volatility: 0.06, games: 0, provisional: true } },
    counts: { all: { win: 20, draw: 3, loss: 18 }, white: { win: 11, draw: 1, loss: 8 }, black: { win: 9, draw: 2, loss: 10 } },
  });
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  let signed = null;
  let me = null;
  let challenged = null;
  const json = (route, status, body) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  await page.route("**/api/me", (r) => json(r, 200, { username: me }));
  await page.route("**/api/signup", (r) => {
    signed = r.request().postDataJSON();
    me = signed.username;
    return json(r, 201, { username: signed.username });
  });
  await page.route("**/api/users/**", (r) => {
    const m = /\/api\/users\/([^/?]+)(\/history)?/.exec(r.request().url());
    if (m[2]) return json(r, 200, { blitz: [[0, 1500], [86400000, 1580], [172800000, 1623]] });
    return json(r, 200, user(decodeURIComponent(m[1])));
  });
  await page.route("**/api/leaderboard/**", (r) => json(r, 200, { category: "rapid", players: [{ username: evil, rating: 1900, rd: 50, games: 80 }] }));
  await page.route("**/api/games?account=*", (r) => json(r, 200, { total: 1, games: [{ id: "g0", mode: "online", white: "Aigerim", black: evil,
    white_account: "Aigerim", black_account: evil, result: "white", reason: "resign", score: null, moves: 40,
    created: "2026-11-30T21:05:26Z", updated: "2026-11-30T21:25:26Z", rated: true, speed: "blitz", white_diff: 7, black_diff: -7 }] }));
  await page.routeWebSocket(/\/ws\/lobby$/, (ws) => {
    ws.send(JSON.stringify({ type: "lobby", you: me, online: { players: 7, games: 2 },
      pools: [{ id: "3+2", initial_ms: 180000, increment_ms: 2000, speed: "blitz", waiting: 3 }],
      seeks: [{ id: "s1", username: evil, rating: 1550, provisional: false, variant: "standard", clock: { initial_ms: 180000, increment_ms: 2000 },
        days_per_move: null, speed: "blitz", rated: true, color: "random", range: null, mine: false }] }));
    ws.onMessage((m) => {
      const msg = JSON.parse(String(m));
      if (msg.type === "accept" && msg.id === "s1") ws.send(JSON.stringify({ type: "start", game: "g1", token: "tok1", side: "black" }));
      if (msg.type === "challenge") {
        challenged = msg;
        ws.send(JSON.stringify({ type: "challenge_created", id: "c1" }));
      }
    });
  });
  // sign-up: the rules are checked before anything is sent, in the server's words
  await page.goto(`${base}/#/signup`);
  await page.fill("#auth-username", "a");
  await page.fill("#auth-password", "correct horse");
  await page.click("#auth-submit");
  await page.waitForFunction(() => document.querySelector("#auth-error")?.textContent?.includes("too short"), null, { timeout: T });
  await page.fill("#auth-username", "admin");
  await page.click("#auth-submit");
  await page.waitForFunction(() => document.querySelector("#auth-error")?.textContent?.includes("reserved"), null, { timeout: T });
  check(signed === null, "nothing was sent for a refused name");
  await page.fill("#auth-username", "Aigerim");
  await page.click("#auth-submit");
  await page.waitForFunction(() => location.hash === "#/@/Aigerim" && document.querySelector(".ratings [data-speed=blitz] .rating"), null, { timeout: T });
  check(signed?.password === "correct horse" && signed?.username === "Aigerim", `the sign-up body: ${JSON.stringify(signed)}`);
  check((await page.textContent(".ratings [data-speed=blitz] .rating")).trim() === "1623", "the blitz rating rounded");
  await page.waitForFunction(() => document.querySelector("#me-link")?.textContent === "Aigerim", null, { timeout: T });
  await page.waitForSelector(".player-games tbody tr", { timeout: T });
  check((await page.textContent(".player-games .who")) === evil, "the opponent's name as text in the games list");
  check(await page.$("svg.history polyline.blitz"), "the rating graph");
  // a player page of a name with markup: text, and nothing ran
  await page.goto(`${base}/#/@/${encodeURIComponent(evil)}`);
  await page.waitForSelector(".player-name .uname", { timeout: T });
  check((await page.textContent(".player-name .uname")) === evil, "the name shown as text");
  // the lobby: the seek of that name, accepted, opens the game's seat
  await page.goto(`${base}/#/lobby`);
  await page.waitForSelector('[data-accept="s1"]', { timeout: T });
  check((await page.textContent('[data-seek="s1"] .who')) === evil, "the seeker's name as text");
  check((await page.textContent("#lobby-online")).includes("7"), "players online");
  check(await page.$('[data-pool="3+2"]'), "the quick-pairing pool");
  await page.click('[data-accept="s1"]');
  await page.waitForFunction(() => location.hash === "#/game/g1/tok1", null, { timeout: T });
  // a challenge from the player page's link, and the leaderboard
  await page.goto(`${base}/#/@/Bolat`);
  await page.click("#challenge-link");
  await page.waitForFunction(() => document.querySelector("#seek-to")?.value === "Bolat", null, { timeout: T });
  await page.click("#seek-create");
  await page.waitForFunction(() => document.querySelector(".toast")?.textContent === "Challenge sent", null, { timeout: T });
  check(challenged?.to === "Bolat" && challenged?.clock?.initial_ms === 180000, `the challenge: ${JSON.stringify(challenged)}`);
  await page.goto(`${base}/#/leaderboard/rapid`);
  await page.waitForSelector(".leaders tbody tr .who a", { timeout: T });
  check((await page.textContent(".leaders .who a")) === evil, "the leader's name as text");
  check((await page.evaluate(() => window.__xss)) === undefined, "no markup of a name ran");
  await ctx.close();
  // a server without the accounts API: the log-in page says so (in Russian here)
  const bare = await browser.newContext();
  await bare.addInitScript(() => localStorage.setItem("toguz.lang", "ru"));
  const p2 = await bare.newPage();
  pages.push(p2);
  await p2.goto(`${base}/#/login`);
  await p2.fill("#auth-username", "Aigerim");
  await p2.fill("#auth-password", "correct horse");
  await p2.click("#auth-submit");
  // an unknown name on the real server: refused in the page's language
  await p2.waitForFunction(() => document.querySelector("#auth-error")?.textContent === "Неверное имя или пароль", null, { timeout: T });
  check((await p2.textContent("#me-link")) === "Войти", "anonymous in the header");
  console.log("  accounts: sign-up refusals and success, a player page, a marked-up name as text, a seek accepted, a challenge, the leaderboard, a login refused");
  await bare.close();
}

/** Accounts on the real server: two people sign up in two browser contexts, play a rated game by
 * link (created rated, joined), Black resigns; the end-of-game panel shows both rating changes and
 * both player pages the new ratings. A guest named with markup plays a casual game against one
 * of them: the name shows as text on the player page and nothing runs. */
async function rated_game(browser, base, pages) {
  const { ctx: ca, page: a } = await signed_up(browser, base, pages, "Asel");
  const { ctx: cb, page: b } = await signed_up(browser, base, pages, "Dana");
  await a.goto(`${base}/#/`);
  // logged in, the forms ask for no name: they show the account's
  await a.waitForSelector("#online-name-account .uname", { timeout: T });
  check((await a.textContent("#online-name-account .uname")) === "Asel", "home shows the account's name");
  await a.selectOption("#online-colour", "white");
  await a.selectOption("#online-clock", "180000+2000");
  await a.check("#online-rated");
  await a.click("#create-online");
  await a.waitForSelector("#invite-link", { timeout: T });
  const invite = await a.inputValue("#invite-link");
  await b.goto(invite);
  await b.waitForSelector("#join-name-account .uname", { timeout: T });
  check((await b.textContent("#join-name-account .uname")) === "Dana", "the join form shows the account's name");
  await b.click("#join-go");
  await b.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  for (const p of [a, b]) {
    await p.waitForFunction(
      () => document.querySelector('.player[data-side="black"] .pname')?.textContent === "Dana" &&
        document.querySelector('.player[data-side="white"] .pname')?.textContent === "Asel",
      null,
      { timeout: T, polling: 50 },
    );
  }
  check((await a.evaluate(() => window.__toguz.state().rated)) === true, "the game is rated");
  check((await wait_turn(a)) === "move", "White to move");
  // two moves each: before them a resignation calls the game off, unrated
  await play_plies(a, b, 4);
  await b.click('[data-action="resign"]');
  await b.click('[data-action="resign-confirm"]');
  for (const p of [a, b]) {
    await p.waitForSelector('#game-over[data-reason="resign"] .rating-change[data-side="black"]', { timeout: T });
    const changes = await p.$$eval("#game-over .rating-change", (es) => es.map((e) => e.textContent));
    check(changes.length === 2 && changes[0].includes("Asel") && changes[0].includes("+162") && changes[1].includes("Dana") && changes[1].includes("−162"),
      `the rating changes: ${JSON.stringify(changes)}`);
  }
  // both player pages: the new blitz ratings (still provisional after one game)
  for (const [p, name, shown] of [[a, "Dana", "1338?"], [b, "Asel", "1662?"]]) {
    await p.goto(`${base}/#/@/${name}`);
    await p.waitForSelector(".ratings [data-speed=blitz] .rating", { timeout: T });
    const r = (await p.textContent(".ratings [data-speed=blitz] .rating")).trim();
    check(r === shown, `${name}'s blitz rating ${r}, expected ${shown}`);
    await p.waitForSelector(".player-games tbody tr", { timeout: T });
  }
  // a guest with markup in the name plays Asel (casual); her page shows the name as text
  const evil = `<script>window.__xss=1</script>`;
  await a.goto(`${base}/#/`);
  await a.waitForSelector("#online-name-account", { timeout: T });
  await a.selectOption("#online-colour", "white");
  await a.uncheck("#online-rated");
  await a.click("#create-online");
  await a.waitForSelector("#invite-link", { timeout: T });
  const invite2 = await a.inputValue("#invite-link");
  const cg = await browser.newContext();
  const guest = await cg.newPage();
  pages.push(guest);
  await guest.goto(invite2);
  await guest.waitForSelector("#join-name", { timeout: T });
  await guest.fill("#join-name", evil);
  await guest.click("#join-go");
  await guest.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  await a.waitForFunction((n) => document.querySelector('.player[data-side="black"] .pname')?.textContent === n, evil, { timeout: T, polling: 50 });
  await guest.click('[data-action="resign"]');
  await guest.click('[data-action="resign-confirm"]');
  // resigned before two moves each: called off (docs/accounts.md "Fair play")
  await a.waitForSelector('#game-over[data-reason="aborted"]', { timeout: T });
  check((await a.$$("#game-over .rating-change")).length === 0, "no rating change in a casual game");
  await b.goto(`${base}/#/`); // B shows Asel's page already: open it afresh
  await b.goto(`${base}/#/@/Asel`);
  await b.waitForFunction((n) => [...document.querySelectorAll(".player-games .who")].some((e) => e.textContent === n), evil, { timeout: T });
  for (const p of [a, b, guest]) check((await p.evaluate(() => window.__xss)) === undefined, "no markup of a name ran");
  console.log("  rated game: two accounts, created rated and joined by link, resigned; ±162 on the panel and 1662?/1338? on the player pages; a marked-up guest name as text");
  await cg.close();
  await ca.close();
  await cb.close();
}

/** The puzzle and study pages against the contract of docs/web-protocol.md ("Puzzles, studies
 * and the opening explorer"). The studies come from the server; the puzzles and the explorer are
 * answered in the browser (page.route) from test/fixtures/learn.json (the service's own answers,
 * tests/unit/site/learn_api_test.cpp) so the puzzles come in a known order and an explorer index
 * needs no build, after a check that the server itself serves puzzles. A puzzle solved move by move against its forced reply, a puzzle missed with the solution shown,
 * the streak, an analysis board from the puzzle (the real server), a proven study stepped to its
 * end and an unproven one shown as such. */
async function learn_pages(browser, base, pages) {
  const fx = JSON.parse(readFileSync(path.join(here, "fixtures", "learn.json"), "utf8"));
  const evil = `<img src=x onerror="window.__xss=1">`;
  const solve = { ...fx.solve, themes: [...fx.solve.themes, evil] };
  const by_id = { [solve.id]: solve, [fx.miss.id]: fx.miss };
  const order = [solve, fx.miss, solve];
  let nexts = 0;
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  const json = (route, status, body) => route.fulfill({ status, contentType: "application/json", body: JSON.stringify(body) });
  await page.route("**/api/puzzles**", (r) => {
    const u = new URL(r.request().url());
    if (u.pathname === "/api/puzzles") return json(r, 200, fx.summary);
    if (u.pathname === "/api/puzzles/next") return json(r, 200, order[nexts++ % order.length]);
    const p = by_id[decodeURIComponent(u.pathname.slice("/api/puzzles/".length))];
    return p ? json(r, 200, p) : json(r, 404, { error: "no such puzzle", code: "no_puzzle_id", params: {} });
  });
  const served = await (await page.request.get(`${base}/api/puzzles`)).json();
  check(served.count > 0 && served.rated === false, `the server's puzzles: ${JSON.stringify(served)}`);
  const asked = [];
  await page.route("**/api/explorer**", (r) => {
    const u = new URL(r.request().url());
    if (u.pathname === "/api/explorer/eval") return r.continue(); // the real server's engine
    asked.push(u.search);
    return json(r, 200, u.searchParams.get("position") === fx.explorer_after.position ? fx.explorer_after : fx.explorer_start);
  });
  const state = (s) => page.waitForSelector(`#puzzle-board[data-state="${s}"]`, { timeout: T });
  const click_hole = (h) => page.locator(`#puzzle-board g.hole.legal[data-hole="${h}"]`).click();
  // solved: the first move, the forced reply played by the page, the last move
  await page.goto(`${base}/#/puzzles`);
  await state("playing");
  check((await page.textContent("#puzzle-unrated")).includes("Not rated"), "unrated without accounts");
  check((await page.textContent("#puzzle-themes")).includes(evil), "a theme's markup shown as text");
  await click_hole(solve.line[0].hole);
  await page.waitForFunction(() => document.querySelector("#puzzle-feedback")?.classList.contains("right"), null, { timeout: T });
  await page.waitForSelector('#puzzle-board[data-ply="2"]', { timeout: T });
  await page.keyboard.press(String(solve.line[2].hole)); // the number key plays that hole
  await state("solved");
  check((await page.textContent("#puzzle-feedback")) === "Solved!", "solved feedback");
  check((await page.$$("#puzzle-solution .mv[data-ply]")).length === 3, "the solution's three moves listed");
  check(location_hash(await page.url()) === `#/puzzles/${solve.id}`, "the puzzle's own link");
  // missed: another legal move; the solution shown, its move on the board when clicked
  await page.click("#puzzle-next");
  await page.waitForFunction((id) => location.hash === `#/puzzles/${id}`, fx.miss.id, { timeout: T });
  await state("playing");
  const wrong = fx.miss.choices[0].moves.find((m) => m.hole !== fx.miss.line[0].hole);
  await click_hole(wrong.hole);
  await state("missed");
  check((await page.textContent("#puzzle-feedback")).includes(wrong.notation), "the missed move named");
  check((await page.textContent("#puzzle-solution .mv.wrong")) === wrong.notation, "the wrong move struck out");
  await page.click('#puzzle-solution .mv[data-ply="1"]');
  await page.waitForSelector("#puzzle-solution .mv.current", { timeout: T });
  check((await page.textContent("#puzzle-solution .mv.current")).includes(fx.miss.line[0].notation), "the solution's move shown");
  // the streak: a solve counts one
  await page.click("#puzzle-mode-streak");
  await page.click("#puzzle-next");
  await state("playing");
  await click_hole(solve.line[0].hole);
  await page.waitForSelector('#puzzle-board[data-ply="2"]', { timeout: T });
  await click_hole(solve.line[2].hole);
  await state("solved");
  check((await page.textContent("#puzzle-streak")).startsWith("Streak: 1"), "the streak counted");
  // an analysis board from the position shown (the server's own import)
  const shown = solve.line[2].position;
  await page.click("#puzzle-analysis");
  await page.waitForFunction(() => /^#\/game\/[^/]+\/[^/]+$/.test(location.hash), null, { timeout: T });
  await board_data(page);
  const white = shown.split(" ")[0].split("/")[0].split(",").map((c) => (c === "x" ? "0" : c));
  const counts = await page.$$eval('#board g.hole[data-side="white"]', (gs) =>
    gs.sort((a, b) => Number(a.dataset.hole) - Number(b.dataset.hole)).map((g) => g.dataset.count));
  check(JSON.stringify(counts) === JSON.stringify(white), `the analysis board's White row ${counts} is the puzzle's ${white}`);
  // the studies: the list, study 7 (the book says draw, the solver proves a White win) to its end
  await page.goto(`${base}/#/studies`);
  await page.waitForSelector(".study-card", { timeout: T });
  check((await page.$$(".study-card")).length === 8, "eight studies");
  await page.click('.study-card[data-study="7"]');
  await page.waitForSelector('#study-board[data-study="7"]', { timeout: T });
  const s7 = fx.studies.studies.find((s) => s.study === 7);
  check((await page.textContent("#study-task")) === "White to move and draw", "study 7's task");
  check((await page.textContent("#study-status")) === "Proven: White wins", "study 7 proven");
  check(await page.$("#study-differs"), "the book's draw named as differing");
  await page.click("#study-next");
  await page.waitForSelector('#study-board[data-ply="1"]', { timeout: T });
  await page.click("#study-last");
  await page.waitForSelector(`#study-board[data-ply="${s7.line.length}"]`, { timeout: T });
  // study 3 is not proven: said so, with the engine's line
  await page.goto(`${base}/#/studies/3`);
  await page.waitForSelector('#study-board[data-study="3"]', { timeout: T });
  check((await page.textContent("#study-status")).startsWith("Not yet proven"), "study 3 not proven");
  check((await page.textContent("#study-engine")).includes("depth"), "the engine's line named as such");
  // the opening explorer from the editor's position: a move clicked, a rating filter
  await page.goto(`${base}/#/editor`);
  await page.click("#editor-explorer");
  await page.waitForSelector("#explorer-moves tbody tr", { timeout: T });
  const first = fx.explorer_start.moves[0];
  check((await page.textContent("#explorer-moves tbody tr .mv")) === first.move, "the most played move first");
  check(new URLSearchParams(asked[0]).get("position") === fx.explorer_start.position, `the editor's position asked: ${asked[0]}`);
  // the engine's column, from the real server: the first move's score once searched
  await page.waitForFunction((h) => /\d/.test(document.querySelector(`#explorer-moves td.eval[data-eval-hole="${h}"]`)?.textContent ?? ""), first.hole, { timeout: T });
  await page.click(`#explorer-moves tr[data-hole="${first.hole}"]`);
  await page.waitForFunction((p) => document.querySelector("#explorer-board")?.dataset.position === p, first.after, { timeout: T });
  check(await page.$("#explorer-back"), "a way back");
  const filtered = page.waitForRequest((q) => new URL(q.url()).searchParams.get("min_rating") === "1500", { timeout: T });
  await page.fill("#explorer-min_rating", "1500");
  await page.press("#explorer-min_rating", "Enter");
  await filtered;
  check(new URL(page.url()).hash === `#/explorer/${encodeURIComponent(first.after)}`, "the explorer's address follows the position");
  // the request is seen before its route handler records it
  const filter_asked = () => asked.some((q) => new URLSearchParams(q).get("min_rating") === "1500");
  for (let i = 0; i < 100 && !filter_asked(); i++) await page.waitForTimeout(20);
  check(filter_asked(), `the filter asked: ${asked.join(" ")}`);
  check((await page.evaluate(() => window.__xss)) === undefined, "no markup ran");
  console.log("  learn: a puzzle solved, a puzzle missed, a streak, an analysis board from a puzzle, a proven study, an unproven one, the explorer from the editor");
  await ctx.close();
}

/** The opening explorer from a game's review, at the move shown; the server has no index here
 * (its counts answered 404 as by such a server), so every legal move is listed with the real
 * engine's evaluation (GET /api/explorer/eval). Then an endgame the tables hold (a server
 * started with --tables, building its 4-stone tables at start): the evaluation bar and the
 * lines say who wins and by how much, not a number of stones. */
async function explorer_from_review(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  await page.route("**/api/explorer?**", (r) =>
    r.fulfill({ status: 404, contentType: "application/json", body: JSON.stringify({ error: "explorer: this server has no opening index", code: "no_explorer", params: {} }) }),
  );
  const created = await (await page.request.post(`${base}/api/import`, { data: { record: '[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. 76(10) 98 *\n' } })).json();
  check(created.id && created.token, `imported: ${JSON.stringify(created)}`);
  await page.goto(`${base}/#/game/${created.id}/${created.token}`);
  await board_data(page);
  await page.click('#controls [data-action="review"]');
  await page.waitForSelector('#review[data-done="1"]', { timeout: T });
  await page.click('#moves .mv[data-goto="1"]');
  await page.waitForSelector('#board[data-shown="1"]', { timeout: T });
  await page.click("#game-explorer");
  const after76 = "9,9,9,9,9,9,1,10,10/10,10,10,10,10,0,9,9,9 10 0 b 1";
  await page.waitForFunction((p) => document.querySelector("#explorer-board")?.dataset.position === p, after76, { timeout: T });
  check(location_hash(page.url()) === `#/explorer/${encodeURIComponent(after76)}`, `the explorer at the move shown: ${page.url()}`);
  await page.waitForSelector("#explorer-evals tbody tr", { timeout: T });
  const rows = await page.$$eval("#explorer-evals tbody tr", (trs) => trs.map((tr) => [tr.dataset.hole, tr.querySelector("td.eval")?.textContent ?? ""]));
  check(rows.length === 8, `every legal move of Black listed (his hole 6 is empty): ${JSON.stringify(rows)}`);
  check(rows.every(([, e]) => /^[+\-−]?\d+\.\d\d$/.test(e)), `each with the engine's score: ${JSON.stringify(rows)}`);
  check((await page.textContent("#explorer-no-index")).length > 0, "the missing collection said");
  // a move clicked goes on from its position
  await page.click(`#explorer-evals tr[data-hole="${rows[0][0]}"]`);
  await page.waitForFunction((p) => { const b = document.querySelector("#explorer-board"); return b && b.dataset.position !== p; }, after76, { timeout: T });
  await ctx.close();

  // the endgame tables: a server of its own with --tables (4 stones, built at its start)
  const dir = mkdtempSync(path.join(tmpdir(), "toguz-e2e-tables-"));
  const tables = await start_server(dir, ["--tables", path.join(dir, "tables"), "--tables-stones", "4"]);
  try {
    const ctx2 = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    const p2 = await ctx2.newPage();
    pages.push(p2);
    // 4 stones on the board, White's tuz on Black's hole 2: the tables know the end
    const endgame = "0,0,0,0,0,0,1,0,1/0,x,0,1,0,0,1,0,0 77 81 w 60";
    // the tables are built in the background: ask until the engine's answer is theirs
    let lines = null;
    for (let i = 0; i < 600 && !lines; i++) {
      const r = await (await p2.request.get(`${tables.base}/api/explorer/eval?position=${encodeURIComponent(endgame)}`)).json();
      if (r.moves?.length && r.moves.every((m) => m.score.table || m.score.proven)) lines = r.moves;
      else await new Promise((ok) => setTimeout(ok, 100));
    }
    check(lines, "the tables' results in the engine's answer");
    const made = await (await p2.request.post(`${tables.base}/api/import`, { data: { position: endgame } })).json();
    await p2.goto(`${tables.base}/#/game/${made.id}/${made.token}`);
    await board_data(p2);
    await p2.click('#controls [data-action="analyse"]');
    await p2.waitForFunction(() => /wins|Draw/.test(document.querySelector("#eval-label")?.textContent ?? ""), null, { timeout: T });
    const label = await p2.textContent("#eval-label");
    check(/^(White|Black) wins( by \d+)?$|^Draw$/.test(label), `the evaluation bar says the result: ${label}`);
    const first = await p2.textContent("#analysis li.line b");
    check(/wins|Draw|win in|loses in|draw/.test(first), `the first line says the result: ${first}`);
    await ctx2.close();
  } finally {
    tables.proc.kill("SIGTERM");
    rmSync(dir, { recursive: true, force: true });
  }
  console.log("  explorer from a review: every move with the engine's evaluation; an endgame the tables hold shown as its result");
}

// The lobby against the real server: two people sign up in two browser contexts, one creates a
// rated seek, the other accepts it from the lobby, both pages open the game, they play four
// plies and Black resigns; both see the result, and their player pages show the new ratings.
async function lobby_game(browser, base, pages) {
  // Without the accounts' server side sign-up answers 404: then there is nothing to test here.
  const probe = await fetch(`${base}/api/me`);
  if (probe.status === 404) {
    console.log("  lobby: skipped, the server has no accounts (GET /api/me is 404)");
    return;
  }
  const names = ["LobbyAi", "LobbyBo"];
  const ps = [];
  for (const name of names) ps.push((await signed_up(browser, base, pages, name)).page);
  const [a, b] = ps;
  // A seeks a rated 3+2 game as White; B sees it live in the lobby and accepts it.
  await a.goto(`${base}/#/lobby`);
  await b.goto(`${base}/#/lobby`);
  await a.waitForFunction((n) => document.querySelector("#lobby-who .uname")?.textContent === n, names[0], { timeout: T });
  await a.selectOption("#seek-clock", "3");
  await a.selectOption("#seek-colour", "white");
  await a.check("#seek-rated");
  await a.click("#seek-create");
  await a.waitForSelector("tr.mine[data-seek]", { timeout: T });
  const seek = await b.waitForSelector("[data-accept]", { timeout: T });
  check((await b.textContent("tr[data-seek] .who")).includes(names[0]), "the seeker's name in B's lobby");
  check(seek !== null, "the seek's accept button");
  await b.click("[data-accept]");
  for (const p of [a, b]) await p.waitForFunction(() => location.hash.startsWith("#/game/"), null, { timeout: T });
  check((await board_data(a)).you === "white" && (await board_data(b)).you === "black", "the seek's colours");
  let ply = 0;
  for (let i = 0; i < 4; i++) {
    const mover = i % 2 === 0 ? a : b;
    check((await wait_turn(mover)) === "move", `ply ${ply}: the side to move may move`);
    await play_one(mover, "click", i + 1);
    ply++;
    await wait_ply(i % 2 === 0 ? b : a, ply);
  }
  await wait_turn(a);
  await b.click('[data-action="resign"]');
  await b.click('[data-action="resign-confirm"]');
  for (const p of [a, b]) {
    await p.waitForSelector('#game-over[data-reason="resign"]', { timeout: T });
    check((await p.$eval("#game-over", (e) => e.dataset.winner)) === "white", "White won by resignation");
  }
  // The player pages: A's blitz rating went up from the start, B's down, one game each.
  const rating = async (p, name) => {
    await p.goto(`${base}/#/@/${name}`);
    await p.waitForSelector(".ratings [data-speed=blitz] .rating", { timeout: T });
    return (await p.textContent(".ratings [data-speed=blitz] .rating")).trim();
  };
  const ra = await rating(a, names[0]);
  const rb = await rating(b, names[1]);
  check(parseFloat(ra) > 1500 && parseFloat(rb) < 1500, `the new ratings: ${ra}, ${rb}`);
  console.log(`  lobby: two sign-ups, a rated seek accepted from the lobby, 4 plies, a resignation; ratings ${ra} and ${rb}`);
  for (const p of [a, b]) await p.context().close();
}

function location_hash(url) {
  return new URL(url).hash;
}

/** The arbiter page: an over-the-board Swiss created, four players entered (one whose name is
 * markup, shown as text), round 1 paired, a typed game with an error named and then entered
 * right, a draw, the standings and the print pages; a second browser without the key only
 * reads. */
async function arbiter_page(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  const evil = `<img src=x onerror="window.__xss=1">`;
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-name", "Кубок <b>РК</b>");
  await page.fill("#arb-site", "Astana");
  await page.fill("#arb-date", "2026.12.01");
  await page.selectOption("#arb-system", "swiss");
  await page.fill("#arb-rounds", "3");
  await page.click("#arb-create");
  await page.waitForURL(/#\/arbiter\/[a-z0-9]+$/, { timeout: T });
  const id = new URL(page.url()).hash.split("/")[2];
  await page.waitForSelector("#arb-event-name", { timeout: T });
  check((await page.textContent("#arb-event-name")) === "Кубок <b>РК</b>", "the event's name shown as text");
  check((await page.$("#arb-event-name b")) === null, "no markup from the name");
  const players = [["Eleusiz, Nurlan", "2200", "GM"], ["Aktayev, Serik", "2100", ""], ["Кажгалиев Темірлан", "2050", "MS"], [evil, "", ""]];
  for (const [i, [name, rating, title]] of players.entries()) {
    await page.fill("#arb-player-name", name);
    await page.fill("#arb-player-rating", rating);
    await page.fill("#arb-player-title", title);
    await page.click("#arb-add");
    await page.waitForFunction((n) => document.querySelectorAll("#arb-players tbody tr").length === n, i + 1, { timeout: T, polling: 50 });
  }
  check((await page.textContent('#arb-players tr[data-player="3"] .name')) === evil, "the markup name shown as text");
  await page.click("#arb-pair");
  await page.waitForFunction(() => document.querySelectorAll("#arb-pairings tbody tr[data-board]").length === 2, null, { timeout: T, polling: 50 });
  check((await page.$("#arb-add-player")) !== null, "a Swiss takes late players after round 1 is paired");
  // board 1: the moves as typed with a wrong kazna, named; then typed right
  await page.selectOption('#arb-pairings tr[data-board="1"] select.arb-result', "0-1");
  await page.fill('#arb-pairings tr[data-entry="1"] textarea', "1. 65 87 2. 55 99(12) 3. 34(21)");
  await page.click('#arb-pairings tr[data-entry="1"] .arb-save');
  await page.waitForFunction(() => (document.querySelector('tr[data-entry="1"] .arb-board-error')?.textContent ?? "").includes("34(21)"), null, { timeout: T, polling: 50 });
  const said = await page.textContent('tr[data-entry="1"] .arb-board-error');
  check(said.startsWith("Move 3") && said.includes("22"), `the typed move's error named: ${said}`);
  check((await page.getAttribute('#arb-pairings tr[data-board="1"]', "data-result")) === "*", "nothing entered on an error");
  await page.fill('#arb-pairings tr[data-entry="1"] textarea', "1. 65 87 2. 55 99(12) 3. 34(22)");
  await page.click('#arb-pairings tr[data-entry="1"] .arb-save');
  await page.waitForSelector('#arb-pairings tr[data-board="1"][data-result="0-1"]', { timeout: T });
  await page.selectOption('#arb-pairings tr[data-board="2"] select.arb-result', "1/2-1/2");
  await page.click('#arb-pairings tr[data-entry="2"] .arb-save');
  await page.waitForSelector('#arb-pairings tr[data-board="2"][data-result="1/2-1/2"]', { timeout: T });
  // the standings: the winner of board 1 first with 1 point, the draw's players with ½
  await page.waitForSelector("#arb-pair", { timeout: T }); // round 2 may be paired now
  const table = await page.$$eval("#arb-standings tbody tr", (rows) => rows.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent)));
  check(table.length === 4, `four players in the standings: ${JSON.stringify(table)}`);
  check(JSON.stringify(table.map((r) => r[3])) === JSON.stringify(["1", "0.5", "0.5", "0"]), `points: ${JSON.stringify(table)}`);
  const black1 = await page.textContent('#arb-pairings tr[data-board="1"] td:nth-child(4)');
  check(black1.includes(table[0][1].replace(/^(GM|MS) /, "")), `board 1's Black (${black1}) leads: ${table[0][1]}`);
  // the print-friendly pages and the TGK file
  const standings = await (await page.request.get(`${base}${await page.getAttribute("#arb-print-standings", "href")}`)).text();
  check(standings.includes("Crosstable") && standings.includes("&lt;img") && !standings.includes("<img"), "the standings page, names escaped");
  const pairings = await (await page.request.get(`${base}${await page.getAttribute("#arb-print-pairings", "href")}`)).text();
  check(pairings.includes("Round 1 of 3") && pairings.includes("0-1"), "the pairings page");
  const tgk = await (await page.request.get(`${base}${await page.getAttribute("#arb-tgk", "href")}`)).text();
  check(tgk.includes('[Event "Кубок <b>РК</b>"]') && tgk.includes('[Round "1"]') && tgk.includes('[Result "0-1"]'), `the TGK file: ${tgk.slice(0, 300)}`);
  // another browser, without the key: reads only
  const ctx2 = await browser.newContext();
  const reader = await ctx2.newPage();
  pages.push(reader);
  await reader.goto(`${base}/#/arbiter/${id}`);
  await reader.waitForSelector("#arb-standings tbody tr", { timeout: T });
  check((await reader.$("#arb-pair")) === null && (await reader.$("select.arb-result")) === null, "no changes without the key");
  check((await reader.textContent('#arb-pairings tr[data-board="1"] .res')) === "0-1", "the result shown");
  check((await page.evaluate(() => window.__xss)) === undefined && (await reader.evaluate(() => window.__xss)) === undefined, "no markup ran");
  console.log("  arbiter: a Swiss created, four players, round 1 paired, a typed move's error named, results, standings, print pages, TGK");
  await ctx2.close();
  await ctx.close();
}

/** A live broadcast: the arbiter pairs two boards and hands out a keeper's link for each; two
 * keepers on phones enter moves (a wrong one refused, the board unchanged) and clocks; a
 * spectator sees both boards change in place (no redraw of the page) and the standings after a
 * result, with no engine evaluation anywhere. */
async function broadcast(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-name", "Live cup");
  await page.click("#arb-create");
  await page.waitForURL(/#\/arbiter\/[a-z0-9]+$/, { timeout: T });
  const id = new URL(page.url()).hash.split("/")[2];
  for (const [i, name] of ["Asan", "Bolot", "Chyngyz", "Daniyar"].entries()) {
    await page.fill("#arb-player-name", name);
    await page.click("#arb-add");
    await page.waitForFunction((n) => document.querySelectorAll("#arb-players tbody tr").length === n, i + 1, { timeout: T, polling: 50 });
  }
  await page.click("#arb-pair");
  const links = [];
  for (const n of [1, 2]) {
    await page.click(`tr[data-entry="${n}"] .arb-keeper`);
    links.push(await (await page.waitForSelector(`tr[data-entry="${n}"] .arb-keeper-link`, { timeout: T })).inputValue());
  }
  check(links[0] !== links[1] && links.every((l) => l.includes("#/keeper/")), "a link of its own for each board");
  const keepers = [];
  for (const link of links) {
    const phone = await (await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true })).newPage();
    pages.push(phone);
    await phone.goto(link);
    await phone.waitForSelector("#kp-move", { timeout: T });
    keepers.push(phone);
  }
  const spectator = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  pages.push(spectator);
  await spectator.goto(`${base}/#/broadcast/${id}`);
  await spectator.waitForSelector('.bc-board[data-board="2"]', { timeout: T });
  await spectator.evaluate(() => document.querySelectorAll(".bc-board").forEach((c) => (c.dataset.kept = "1")));
  const enter = async (p, move, n) => {
    await p.fill("#kp-move", move);
    await p.click("#kp-enter");
    await p.waitForSelector(`#kp-moves[data-moves="${n}"]`, { timeout: T });
  };
  await enter(keepers[0], "65", 1);
  await enter(keepers[1], "65", 1);
  await keepers[0].fill("#kp-move", "99(30)");
  await keepers[0].click("#kp-enter");
  await keepers[0].waitForFunction(() => (document.querySelector("#kp-error")?.textContent ?? "").includes("99(30)"), null, { timeout: T, polling: 50 });
  check((await keepers[0].getAttribute("#kp-moves", "data-moves")) === "1", "the wrong move refused, the board unchanged");
  await enter(keepers[0], "87", 2);
  await keepers[0].fill("#kp-clock-white", "1:29:30");
  await keepers[0].fill("#kp-clock-black", "1:28:05");
  await keepers[0].click("#kp-set-clocks");
  await spectator.waitForSelector('.bc-board[data-board="1"][data-moves="2"][data-kept="1"]', { timeout: T });
  await spectator.waitForSelector('.bc-board[data-board="2"][data-moves="1"][data-kept="1"]', { timeout: T });
  await spectator.waitForFunction(() => (document.querySelector('.bc-board[data-board="1"] .bc-head')?.textContent ?? "").includes("1:28:05"), null, { timeout: T, polling: 50 });
  await keepers[1].selectOption("#kp-result", "1-0");
  await keepers[1].click("#kp-finish");
  await spectator.waitForSelector('.bc-board[data-board="2"][data-result="1-0"]', { timeout: T });
  await spectator.waitForFunction(() => document.querySelector("#bc-standings tbody tr .pts")?.textContent === "1", null, { timeout: T, polling: 50 });
  await spectator.click('.bc-board[data-board="1"]');
  await spectator.waitForSelector('#bc-big[data-board="1"] .bc-moves li', { timeout: T });
  check((await spectator.textContent("#bc-big .bc-moves")).includes("1. 65(10) 87"), "the large board's moves");
  check((await spectator.$('#evalbar, .evalbar, .eval-view, .eval-label, .bc-eval')) === null, "no evaluation shown");
  // The arbiter delays the evaluation by 2 half-moves: board 1 (2 moves) shows the start's, board 2 (1 move) none.
  await page.fill("#arb-eval-delay", "2");
  await page.click("#arb-eval-save");
  await spectator.waitForSelector('.bc-board[data-board="1"] .bc-eval[data-ply="0"]', { timeout: T });
  check((await spectator.$('.bc-board[data-board="2"] .bc-eval')) === null, "no evaluation before the delay's moves");
  check((await spectator.textContent("#bc-note")).includes("2"), "the note tells the delay");
  console.log("  broadcast: two keepers on phones, a wrong move refused, clocks, a result; the spectator's boards and standings live; the delayed evaluation");
  for (const p of [page, spectator, ...keepers]) await p.context().close();
}

/** The event's rules on the arbiter page: tie-breaks chosen and shown in their order, a
 * requested half-point bye (one in the last round refused with its reason), a forbidden pair
 * kept apart by the pairing, and a forfeit that withdraws the absent player. */
async function arbiter_rules(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  const made = await (await page.request.post(`${base}/api/events`, { data: { name: "Rules", system: "swiss", rounds: 3 } })).json();
  const names = ["Ana", "Bek", "Cem", "Dan", "Eva"];
  for (const name of names) await page.request.post(`${base}/api/events/${made.id}/players`, { data: { key: made.key, name, rating: 0, title: "" } });
  await page.goto(`${base}/#/arbiter/${made.id}/${made.key}`);
  await page.waitForSelector("#arb-settings", { timeout: T });
  await page.fill("#arb-tie-breaks", "w, bh-m1");
  await page.click("#arb-settings-save");
  await page.waitForFunction(() => [...document.querySelectorAll("#arb-standings th")].slice(4).map((e) => e.textContent).join(" ") === "W BH-M1", null, { timeout: T, polling: 50 });
  await page.selectOption(".arb-bye-player", "1");
  await page.fill("#arb-bye-round", "3");
  await page.click("#arb-bye-save");
  await page.waitForFunction(() => (document.querySelector("#arb-bye .arb-board-error")?.textContent ?? "").includes("last round"), null, { timeout: T, polling: 50 });
  await page.fill("#arb-bye-round", "1");
  await page.click("#arb-bye-save");
  await page.waitForFunction(() => document.querySelectorAll("#arb-bye-requests li").length === 1, null, { timeout: T, polling: 50 });
  await page.selectOption(".arb-forbid-a", "2");
  await page.selectOption(".arb-forbid-b", "4"); // the fold would pair them in round 1
  await page.click("#arb-forbid-save");
  await page.waitForFunction(() => document.querySelectorAll("#arb-forbidden li").length === 1, null, { timeout: T, polling: 50 });
  await page.click("#arb-pair");
  await page.waitForFunction(() => document.querySelectorAll("#arb-pairings tbody tr[data-board]").length === 2, null, { timeout: T, polling: 50 });
  const byes = await page.$$eval("#arb-pairings tbody tr.bye", (rs) => rs.map((r) => r.textContent));
  check(byes.length === 1 && byes[0].includes("Ana") && byes[0].includes("½"), `Ana's half-point bye: ${JSON.stringify(byes)}`);
  const boards = await page.$$eval("#arb-pairings tbody tr[data-board]", (rs) => rs.map((r) => r.textContent));
  check(boards.every((b) => !(b.includes("Bek") && b.includes("Dan"))), `Bek and Dan kept apart: ${JSON.stringify(boards)}`);
  const black = await page.textContent('#arb-pairings tr[data-board="1"] td:nth-child(4)');
  await page.selectOption('#arb-pairings tr[data-board="1"] select.arb-result', "+-");
  await page.click('#arb-pairings tr[data-entry="1"] .arb-save');
  const absent = names.indexOf(black.trim());
  await page.waitForSelector(`#arb-players tr[data-player="${absent}"][data-withdrawn="1"]`, { timeout: T });
  // the exchange file: downloaded with the key, then imported as a new event (a damaged one
  // refused with its line first)
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: T }), page.click("#arb-trf")]);
  const trf = readFileSync(await download.path(), "utf8");
  check(download.suggestedFilename() === `event-${made.id}.trf` && trf.startsWith("012 Rules") && trf.split("\n").filter((l) => l.startsWith("001")).length === 5, `the TRF download: ${trf.slice(0, 200)}`);
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-trf-text", `012 Broken\n001    1${" ".repeat(6)}${"Ana".padEnd(33)} <i>1\n`); // the rating (columns 49-52) is not a number
  await page.click("#arb-import-go");
  await page.waitForFunction(() => /line 2, .*<i>1/.test(document.querySelector("#arb-import-error")?.textContent ?? ""), null, { timeout: T, polling: 50 });
  check((await page.$("#arb-import-error i")) === null, "the refusal is shown as text");
  await page.fill("#arb-trf-text", trf);
  await page.click("#arb-import-go");
  await page.waitForFunction(() => document.querySelectorAll("#arb-players tbody tr").length === 5 && document.querySelectorAll("#arb-pairings tbody tr[data-board]").length === 2, null, { timeout: T, polling: 50 });
  check((await page.$("#arb-trf")) !== null, "the importer holds the new event's key");
  console.log(`  arbiter rules: tie-breaks W, BH-M1; a half-point bye; a pair kept apart; ${black} withdrawn after a forfeit; the TRF exported and imported`);
  await ctx.close();
}

/** The arbiter corrects and withdraws players, enters a late one, pairs a round again before
 * any result, and keeps what is typed into one board while another is saved; a reader whose
 * page is in Russian gets print pages in Russian. */
async function arbiter_changes(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-name", "Кубок области");
  await page.fill("#arb-site", "Тараз");
  await page.selectOption("#arb-system", "swiss");
  await page.fill("#arb-rounds", "3");
  await page.click("#arb-create");
  await page.waitForURL(/#\/arbiter\/[a-z0-9]+$/, { timeout: T });
  const id = new URL(page.url()).hash.split("/")[2];
  const rows = (n) => page.waitForFunction((k) => document.querySelectorAll("#arb-players tbody tr").length === k, n, { timeout: T, polling: 50 });
  const add = async (name, rating, n) => {
    await page.fill("#arb-player-name", name);
    await page.fill("#arb-player-rating", rating);
    await page.click("#arb-add");
    await rows(n);
  };
  const names = ["Әлиев Нұрлан", "Актаев Серик", "Жумабаев Бекзат", "Исаева Гүлнар"];
  for (const [i, name] of names.entries()) await add(name, String(2200 - i * 50), i + 1);
  // a typo corrected: the name and the rating
  await page.click('#arb-players tr[data-player="1"] .arb-edit');
  await page.fill('#arb-players tr[data-player="1"] .arb-edit-name', "Актаев Серикбол");
  await page.fill('#arb-players tr[data-player="1"] .arb-edit-rating', "2155");
  await page.click('#arb-players tr[data-player="1"] .arb-edit-save');
  await page.waitForFunction(() => document.querySelector('#arb-players tr[data-player="1"] .name')?.textContent === "Актаев Серикбол", null, { timeout: T, polling: 50 });
  check((await page.textContent('#arb-players tr[data-player="1"] td:nth-child(4)')) === "2155", "the rating corrected");
  // round 1 paired, then a late player, then the round paired again (no result yet)
  await page.click("#arb-pair");
  await page.waitForFunction(() => document.querySelectorAll("#arb-pairings tbody tr[data-board]").length === 2, null, { timeout: T, polling: 50 });
  await add("Сейітов Арман", "2000", 5);
  await page.click("#arb-repair");
  await page.waitForFunction(() => document.querySelectorAll("#arb-pairings tbody tr.bye").length === 1 && document.querySelectorAll("#arb-pairings tbody tr[data-board]").length === 2, null, { timeout: T, polling: 50 });
  // moves typed into both boards; board 1 saved; board 2 keeps its text and its result
  await page.fill('#arb-pairings tr[data-entry="2"] textarea', "1. 65 87");
  await page.selectOption('#arb-pairings tr[data-board="2"] select.arb-result', "1-0");
  await page.selectOption('#arb-pairings tr[data-board="1"] select.arb-result', "0-1");
  await page.fill('#arb-pairings tr[data-entry="1"] textarea', "1. 65 87 2. 55 99(12) 3. 34(22)");
  await page.click('#arb-pairings tr[data-entry="1"] .arb-save');
  await page.waitForSelector('#arb-pairings tr[data-board="1"][data-result="0-1"]', { timeout: T });
  check((await page.inputValue('#arb-pairings tr[data-entry="2"] textarea')) === "1. 65 87", "board 2 kept the moves typed");
  check((await page.inputValue('#arb-pairings tr[data-board="2"] select.arb-result')) === "1-0", "board 2 kept the result picked");
  check((await page.inputValue('#arb-pairings tr[data-entry="1"] textarea')) === "", "board 1 saved, its field empty");
  check((await page.$("#arb-repair")) === null, "no new pairing once a result is in");
  // a player withdrawn: marked so, and left out of round 2
  const bye = Number(await page.$eval("#arb-pairings tbody tr.bye", (r) => {
    const name = r.querySelector(".name").textContent;
    return [...document.querySelectorAll("#arb-players tbody tr")].find((p) => name.includes(p.querySelector(".name").firstChild.textContent)).dataset.player;
  }));
  const out = bye === 0 ? 1 : 0;
  await page.click(`#arb-players tr[data-player="${out}"] .arb-withdraw`);
  await page.waitForSelector(`#arb-players tr[data-player="${out}"][data-withdrawn="1"] .arb-withdrawn`, { timeout: T });
  await page.click('#arb-pairings tr[data-entry="2"] .arb-save');
  await page.waitForSelector('#arb-pairings tr[data-board="2"][data-result="1-0"]', { timeout: T });
  await page.click("#arb-pair");
  await page.waitForFunction(() => document.querySelector("#arb-pairings")?.dataset.round === "2", null, { timeout: T, polling: 50 });
  const round2 = await page.$$eval("#arb-pairings tbody tr", (rs) => rs.map((r) => r.textContent).join("|"));
  const out_name = names[out] === "Актаев Серик" ? "Актаев Серикбол" : names[out];
  check(!round2.includes(out_name), `the withdrawn player is not paired: ${round2}`);
  check((await page.$$("#arb-pairings tbody tr[data-board]")).length === 2 && (await page.$$("#arb-pairings tbody tr.bye")).length === 0, "four players left: two boards, no bye");
  // a reader in Russian: the print pages have no English
  const ctx2 = await browser.newContext();
  await ctx2.addInitScript(() => localStorage.setItem("toguz.lang", "ru"));
  const reader = await ctx2.newPage();
  pages.push(reader);
  await reader.goto(`${base}/#/arbiter/${id}`);
  await reader.waitForSelector("#arb-print-standings", { timeout: T });
  for (const link of ["#arb-print-standings", "#arb-print-pairings"]) {
    const href = await reader.getAttribute(link, "href");
    check(href.includes("lang=ru"), `${link} in Russian: ${href}`);
    const html = await (await reader.request.get(`${base}${href}`)).text();
    check(html.includes('<html lang="ru">'), `${link}: the page's language`);
    const text = html.replace(/<style>[\s\S]*?<\/style>/, "").replace(/<[^>]*>/g, " ").replace(/&[a-z]+;|&#\d+;/g, " ");
    const latin = text.match(/[A-Za-z]+/g);
    check(latin === null, `${link}: no English on the Russian print page: ${JSON.stringify(latin)}`);
  }
  console.log("  arbiter changes: a name corrected, a late player, a round paired again, a draft kept, a withdrawal, print pages in Russian");
  await ctx2.close();
  await ctx.close();
}

/** The tournament page redraws every 2 s: an entry code typed slowly, across several of those
 * redraws, keeps its text and its focus and joins. A round robin is created with the form's
 * defaults (its number of players fits its limit). */
async function tournament_forms(browser, base, pages) {
  const probe = await fetch(`${base}/api/me`);
  if (probe.status === 404) {
    console.log("  tournament forms: skipped, the server has no accounts (GET /api/me is 404)");
    return;
  }
  const a = (await signed_up(browser, base, pages, "FormsAi")).page;
  const b = (await signed_up(browser, base, pages, "FormsBo")).page;
  await a.goto(`${base}/#/tournaments`);
  await a.waitForSelector("#tn-new", { timeout: T });
  await a.fill("#tn-name", "Круговой");
  await a.selectOption("#tn-system", "round-robin");
  check(Number(await a.inputValue("#tn-max")) <= Number(await a.getAttribute("#tn-max", "max")) && (await a.getAttribute("#tn-max", "max")) === "20", "a round robin's number of players within 20");
  await a.fill("#tn-code", "тайна-42");
  await a.click("#tn-create");
  await a.waitForURL(/#\/tournaments\/[a-z0-9]+$/, { timeout: T });
  const url = a.url();
  await b.goto(url);
  await b.waitForSelector("#tn-code-entry", { timeout: T });
  const refreshes = () => b.evaluate(() => Number(document.querySelector(".tournament")?.dataset.refreshes ?? 0));
  const after_refreshes = async (n) => {
    const from = await refreshes();
    await b.waitForFunction(([f, k]) => Number(document.querySelector(".tournament")?.dataset.refreshes ?? 0) >= f + k, [from, n], { timeout: T, polling: 100 });
  };
  await b.click("#tn-code-entry");
  for (const part of ["тай", "на-", "42"]) {
    await b.keyboard.type(part, { delay: 50 });
    await after_refreshes(2);
  }
  check((await b.inputValue("#tn-code-entry")) === "тайна-42", `the code typed kept: ${await b.inputValue("#tn-code-entry")}`);
  check(await b.evaluate(() => document.activeElement?.id === "tn-code-entry"), "the field kept its focus");
  await b.click("#tn-join");
  await b.waitForSelector("#tn-withdraw", { timeout: T });
  check(!(await b.$("#tn-edit")) && !(await b.$("#tn-cancel")), "only the creator edits and cancels");
  // the creator: a countdown to the start, the edit (name and clock), then the cancel
  await a.waitForFunction(() => /^Starts in [45]:\d\d$/.test(document.querySelector("#tn-countdown")?.textContent ?? ""), null, { timeout: T, polling: 100 });
  await a.click("#tn-edit");
  await a.fill("#tn-edit-name", "Круговой 2+1");
  await a.fill("#tn-edit-minutes", "2");
  await a.fill("#tn-edit-increment", "1");
  await a.fill("#tn-edit-starts", "60");
  await a.click("#tn-edit-save");
  await a.waitForFunction(() => document.querySelector("#tn-title")?.textContent === "Круговой 2+1" && !document.querySelector("#tn-edit-form"), null, { timeout: T, polling: 100 });
  const edited = (await (await fetch(`${base}/api/tournaments/${new URL(url).hash.split("/")[2]}`)).json()).tournament;
  check(edited.initial_ms === 120000 && edited.increment_ms === 1000 && edited.entrants.length === 1, `the edit kept: ${edited.initial_ms}+${edited.increment_ms}, ${edited.entrants.length} player`);
  check(/^Starts in 1:0\d:\d\d$|^Starts in 59:\d\d$/.test(await a.textContent("#tn-countdown")), `the countdown follows: ${await a.textContent("#tn-countdown")}`);
  a.once("dialog", (d) => void d.accept());
  await a.click("#tn-cancel");
  await a.waitForSelector('#tn-status[data-status="cancelled"]', { timeout: T });
  console.log("  tournament forms: a round robin with the defaults, an entry code typed across redraws kept its text and focus; edited and cancelled by its creator");
}

/** A short online arena: four accounts join a one-minute arena with a 1+0 clock and play it to
 * the end (White resigns at once in every other game he has White, else he moves and Black
 * resigns), each player taken from the tournament page to his first game, and from each game
 * over on to his next by the game's page itself (with its sound); then the podium and the
 * standings shown are checked against the games: each game's result as its own page has it, and
 * the arena points recomputed from those results (2 a win, 1 a draw, doubled after two wins in a
 * row; a game called off before two moves each gives nobody anything). */
/** A finished game's result as a tournament counts it (docs/accounts.md "Fair play"): an aborted
 * game is the forfeit of the side that called it off, "*" when nobody did. */
function tournament_result(st) {
  if (st.status === "aborted")
    return st.result.aborted_by === "white" ? "-+" : st.result.aborted_by === "black" ? "+-" : "*";
  const winner = st.result.winner;
  return winner === "white" ? "1-0" : winner === "black" ? "0-1" : "1/2-1/2";
}

async function arena_tournament(browser, base, pages) {
  const probe = await fetch(`${base}/api/me`);
  if (probe.status === 404) {
    console.log("  arena: skipped, the server has no accounts (GET /api/me is 404)");
    return;
  }
  const names = ["ArenaAi", "ArenaBo", "ArenaCe", "ArenaDa"];
  const ps = [];
  for (const name of names) ps.push((await signed_up(browser, base, pages, name)).page);
  const a = ps[0];
  await a.goto(`${base}/#/tournaments`);
  await a.waitForSelector("#tn-new", { timeout: T });
  await a.fill("#tn-name", "Арена <i>1+0</i>");
  await a.selectOption("#tn-system", "arena");
  await a.fill("#tn-minutes", "1");
  await a.fill("#tn-increment", "0");
  await a.fill("#tn-starts", "0");
  await a.fill("#tn-duration", "1");
  await a.click("#tn-create");
  await a.waitForURL(/#\/tournaments\/[a-z0-9]+$/, { timeout: T });
  const url = a.url();
  const id = new URL(url).hash.split("/")[2];
  await a.waitForSelector("#tn-title", { timeout: T });
  check((await a.textContent("#tn-title")) === "Арена <i>1+0</i>" && (await a.$("#tn-title i")) === null, "the name shown as text");
  await a.waitForFunction(() => /^Ends in (0:[0-5]\d|1:00)$/.test(document.querySelector("#tn-countdown")?.textContent ?? ""), null, { timeout: T, polling: 100 });
  // the lobby lists it
  await ps[1].goto(`${base}/#/lobby`);
  await ps[1].waitForSelector(`#lobby-tournaments li[data-tournament="${id}"]`, { timeout: T });
  for (const p of ps) {
    if (p !== a) await p.goto(url);
    await p.waitForSelector("#tn-join", { timeout: T });
    await p.click("#tn-join");
  }
  // Resigns, unless the game ends first (the arena's end calls off a game with no move).
  const resign_unless_over = async (p) => {
    if (await p.$("#game-over")) return;
    await p.click('[data-action="resign"]', { timeout: T }).catch(() => {});
    const h = await p.waitForFunction(
      () => (document.querySelector("#game-over") ? "over" : document.querySelector('[data-action="resign-confirm"]') ? "confirm" : false),
      null, { timeout: T, polling: 50 });
    if ((await h.jsonValue()) === "confirm") await p.click('[data-action="resign-confirm"]', { timeout: T }).catch(() => {});
  };
  // Each player: from the tournament page to his first game, play it out, and on from its page
  // to the next one by itself; until the arena is over.
  const played = names.map(() => []);
  const play = async (p, i) => {
    let whites = 0;
    let game = "";
    for (;;) {
      const where = await p.waitForFunction(async ([last, tid]) => {
        if (location.hash.startsWith("#/game/") && location.hash !== `#/game/${last}`) return "game";
        if (!last) return false;
        const tn = (await (await fetch(`/api/tournaments/${tid}`)).json()).tournament;
        return tn.status === "finished" ? "finished" : false;
      }, [game, id], { timeout: 3 * T, polling: 1000 });
      if ((await where.jsonValue()) === "finished") return;
      game = new URL(p.url()).hash.split("/")[2];
      const here = () => p.url().endsWith(`#/game/${game}`);
      // The game's page goes on to the next game by itself once this one is over, which may be
      // at any moment (the opponent resigns): a step that finds the page gone on is no failure.
      try {
        const me = (await board_data(p)).you;
        if (me === "white") {
          whites++;
          if ((await wait_turn(p, 3 * T)) === "move") {
            if (whites % 2 === 1) {
              await resign_unless_over(p);
            } else {
              await play_one(p, "click", i);
            }
          }
        } else if ((await wait_turn(p, 3 * T)) === "move") {
          await resign_unless_over(p);
        }
        // The opponent's loop may lag behind his page on a loaded machine: the game still ends
        // within its clock (1+0) or the first-move rule's time.
        await p.waitForFunction((g) => document.querySelector("#game-over") || location.hash !== `#/game/${g}`, game, { timeout: 3 * T, polling: 50 });
      } catch (e) {
        if (here()) throw e;
      }
      let st = null;
      for (const t0 = Date.now(); (st?.status ?? "playing") === "playing" && Date.now() - t0 < T; ) {
        if (st) await new Promise((r) => setTimeout(r, 300)); // the end being written: wait for its state, not a time
        const r = await fetch(`${base}/api/games/${game}`);
        if (r.status === 404) break; // called off unstarted at the arena's end: no game kept
        st = r.ok ? (await r.json()).game : { status: "playing" };
      }
      if (!st?.players) continue;
      const me = st.players.white?.name === names[i] ? "white" : "black";
      played[i].push([game, me, tournament_result(st)]);
    }
  };
  await Promise.all(ps.map((p, i) => play(p, i)));
  const moved_on = played.filter((list) => list.length > 1).length;
  check(moved_on > 0, "someone played more than one game");
  for (const [i, p] of ps.entries())
    if (played[i].length > 1) check(await p.evaluate(() => (window.__toguz_sounds ?? []).includes("start")), `${names[i]}: the next game's sound`);
  await a.goto(url);
  await a.waitForSelector('#tn-status[data-status="finished"]', { timeout: T });
  // The standings against the games.
  const games = (await a.$$eval("#tn-games tbody tr", (rows) => rows.map((r) => ({ ...r.dataset })))).reverse();
  check(games.length >= 2, `games were played: ${games.length}`);
  const shown = Object.fromEntries(await a.$$eval("#tn-standings tbody tr", (rows) => rows.map((r) => [r.dataset.name, r.dataset.points])));
  const pts = {};
  const streak = {};
  for (const g of games) {
    const st = (await (await fetch(`${base}/api/games/${g.game}`)).json()).game;
    const result = st ? tournament_result(st) : "*"; // none kept: called off unstarted at the end
    // a game nobody started by the end is called off: no result, no points
    check(g.result === result, `game ${g.game}: ${g.result} shown, ${result} from its page`);
    check((g.calledOff === "1") === (result === "*"), `game ${g.game}: called off only without a result`);
    if (result === "*") continue;
    // a forfeit (a game called off before two moves each: docs/accounts.md "Fair play") is
    // nobody's win: the one who called it off loses it for nothing, and his streak
    if (result === "+-" || result === "-+") {
      streak[result === "+-" ? g.black : g.white] = 0;
      continue;
    }
    const white_half = result === "1-0" ? 2 : result === "1/2-1/2" ? 1 : 0;
    for (const [who, half] of [[g.white, white_half], [g.black, 2 - white_half]]) {
      pts[who] = (pts[who] ?? 0) + ((streak[who] ?? 0) >= 2 ? 2 * half : half);
      streak[who] = half === 2 ? (streak[who] ?? 0) + 1 : 0;
    }
  }
  for (const n of names) check(String(pts[n] ?? 0) === shown[n], `${n}: ${shown[n]} points shown, ${pts[n] ?? 0} from the games`);
  const podium = await a.$$eval("#tn-podium li", (items) => items.map((li) => li.dataset.name));
  const top = await a.$$eval("#tn-standings tbody tr", (rows) => rows.slice(0, 3).map((r) => r.dataset.name));
  check(podium.length === 3 && podium.join() === top.join(), `the podium: ${podium.join()}, the standings: ${top.join()}`);
  // every game a player saw ended is in the tournament with the same result
  for (const [i, list] of played.entries())
    for (const [game, , result] of list) {
      const g = games.find((x) => x.game === game);
      check(g && (g.white === names[i] || g.black === names[i]), `${names[i]}'s game ${game} is the tournament's`);
      check(g.result === result, `${game}: ${result} on the board, ${g.result} in the tournament`);
    }
  const pgn = await (await fetch(`${base}/api/tournaments/${id}/pgn`)).text();
  check(pgn.includes('[Event "Арена <i>1+0</i>"]') && (pgn.match(/\[Event /g) ?? []).length === games.length, "the PGN has every game");
  const order = names.slice().sort((x, y) => Number(shown[y]) - Number(shown[x]));
  console.log(`  arena: four accounts, ${games.length} games in one minute; standings ${order.map((n) => `${n} ${shown[n]}`).join(", ")} agree with the games`);
  for (const p of ps) await p.context().close();
}

/** Signs `name` up in a fresh browser context; resolves to {ctx, page} on the player's page. */
async function signed_up(browser, base, pages, name) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  await page.goto(`${base}/#/signup`);
  await page.fill("#auth-username", name);
  await page.fill("#auth-password", `password of ${name}`);
  await page.click("#auth-submit");
  await page.waitForFunction((n) => location.hash === `#/@/${n}` && document.querySelector("#me-link")?.textContent === n, name, { timeout: T });
  return { ctx, page };
}

/** Puzzle ratings on the real server: a logged-in player solves the puzzle the server picks
 * (near his rating) and sees his rating go up with the change (+n) and the puzzle's own rating
 * change, misses the next one and sees it go down (−n); a retry of that puzzle sends nothing;
 * after a reload the rating is the server's. */
async function puzzle_rating(browser, base, pages) {
  const { ctx, page } = await signed_up(browser, base, pages, "Tolkun");
  const attempts = [];
  page.on("request", (q) => {
    if (q.method() === "POST" && /\/api\/puzzles\/[0-9a-f]+\/attempt$/.test(new URL(q.url()).pathname)) attempts.push(q.url());
  });
  const state = (st) => page.waitForSelector(`#puzzle-board[data-state="${st}"]`, { timeout: T });
  const click_hole = (h) => page.locator(`#puzzle-board g.hole.legal[data-hole="${h}"]`).click();
  const shown_id = () => decodeURIComponent(location_hash(page.url()).slice("#/puzzles/".length));
  const rating = async () => (await page.textContent("#puzzle-player-rating .rating")).trim();
  await page.goto(`${base}/#/puzzles`);
  await state("playing");
  await page.waitForSelector("#puzzle-player-rating", { timeout: T });
  check((await rating()) === "1500?", `a new player's puzzle rating: ${await rating()}`);
  check(!(await page.$("#puzzle-unrated")), "no unrated note with an account");
  // solved: each of the solver's moves, the page plays the forced replies
  const first = await (await page.request.get(`${base}/api/puzzles/${shown_id()}`)).json();
  check(first.rated === true, "the first attempt is rated");
  check((await page.textContent("#puzzle-rating .rating")).trim().startsWith(String(first.rating.rating)), "the puzzle's rating shown");
  for (let i = 0; i < first.line.length; i += 2) {
    await page.waitForSelector(`#puzzle-board[data-ply="${i}"]`, { timeout: T });
    await click_hole(first.line[i].hole);
  }
  await state("solved");
  await page.waitForSelector("#puzzle-rating-change", { timeout: T });
  const up = (await page.textContent("#puzzle-rating-change")).trim();
  check(/^\+\d+$/.test(up), `the change after a solve: ${up}`);
  const after_solve = 1500 + Number(up.slice(1));
  check((await rating()).replace("?", "") === String(after_solve), `the new rating ${await rating()} is 1500 ${up}`);
  check((await page.textContent("#puzzle-own-change")).trim().startsWith("\u2212"), "the puzzle's own rating went down");
  // missed: another legal move than the solution's
  await page.click("#puzzle-next");
  await page.waitForFunction((id) => location.hash.startsWith("#/puzzles/") && !location.hash.endsWith(id), first.id, { timeout: T });
  await state("playing");
  const second = await (await page.request.get(`${base}/api/puzzles/${shown_id()}`)).json();
  check(second.rated === true && second.id !== first.id, "a new puzzle, rated");
  check(Math.abs(second.rating.rating - after_solve) <= 200, `the next puzzle (${second.rating.rating}) near the player's rating (${after_solve})`);
  const wrong = second.choices[0].moves.find((m) => m.hole !== second.line[0].hole);
  await click_hole(wrong.hole);
  await state("missed");
  await page.waitForFunction(() => document.querySelector("#puzzle-rating-change")?.textContent.trim().startsWith("\u2212"), null, { timeout: T });
  const down = (await page.textContent("#puzzle-rating-change")).trim();
  const after_miss = after_solve - Number(down.slice(1));
  check((await rating()).replace("?", "") === String(after_miss), `the rating after the miss ${await rating()} is ${after_solve} ${down}`);
  check(attempts.length === 2, `two attempts sent: ${attempts.length}`);
  // a retry of the missed puzzle: solved, but not sent again
  await page.click("#puzzle-retry");
  await state("playing");
  for (let i = 0; i < second.line.length; i += 2) {
    await page.waitForSelector(`#puzzle-board[data-ply="${i}"]`, { timeout: T });
    await click_hole(second.line[i].hole);
  }
  await state("solved");
  check(attempts.length === 2, "a retry is not sent");
  // the server kept it: after a reload the same rating, and the puzzle marked as tried
  await page.reload();
  await state("playing");
  await page.waitForSelector("#puzzle-player-rating", { timeout: T });
  check((await rating()).replace("?", "") === String(after_miss), `after a reload: ${await rating()}`);
  await page.goto(`${base}/#/puzzles/${first.id}`);
  await page.waitForSelector("#puzzle-not-rated", { timeout: T });
  console.log(`  puzzle rating: solved ${up} (1500 to ${after_solve}), missed ${down} (to ${after_miss}), a retry unsent, kept after a reload`);
  await ctx.close();
}

/** Correspondence games on a server of their own (so it can be restarted): two accounts play a
 * game of one day per move by link; the home page's "your turn" list shows it to the player to
 * move only, with the time left; the server is stopped and started again on the same port and
 * the game goes on; then, with the server down, the deadline is put in the past in its SQLite
 * file (sqlite3), and after the restart the opponent's "claim the win on time" ends the game. */
async function correspondence(browser, _base, pages) {
  const dir2 = mkdtempSync(path.join(tmpdir(), "toguz-e2e-corr-"));
  let srv = await start_server(dir2);
  const port = Number(new URL(srv.base).port);
  const base = srv.base;
  const restart = async (between = () => {}) => {
    const gone = new Promise((r) => srv.proc.once("exit", r));
    srv.proc.kill("SIGTERM");
    await gone;
    between();
    srv = await start_server(dir2, [], port);
  };
  try {
    const { ctx: ca, page: a } = await signed_up(browser, base, pages, "Aruuke");
    const { ctx: cb, page: b } = await signed_up(browser, base, pages, "Bakyt");
    await a.goto(`${base}/#/`);
    await a.waitForSelector("#online-name-account", { timeout: T }); // logged in: no name asked
    await a.selectOption("#online-colour", "white");
    await a.selectOption("#online-clock", "d1");
    await a.click("#create-online");
    await a.waitForSelector("#invite-link", { timeout: T });
    const invite = await a.inputValue("#invite-link");
    const a_game = a.url();
    await b.goto(invite);
    await b.waitForSelector("#join-name-account", { timeout: T }); // logged in: his own name
    await b.click("#join-go");
    await b.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
    const b_game = b.url();
    const id = location_hash(b_game).split("/")[2];
    for (const p of [a, b]) await p.waitForSelector("#corr-deadline", { timeout: T });
    check(/23 h 5\d min/.test(await a.textContent("#corr-left")), `the time left to move: ${await a.textContent("#corr-left")}`);
    check((await wait_turn(a)) === "move", "White to move");
    await play_one(a, "click", 0);
    await wait_ply(b, 1);
    await play_one(b, "click", 0);
    await wait_ply(a, 2);
    // the "your turn" lists: White's move now
    const your_turn = async (p) => {
      await p.goto(`${base}/#/`);
      await p.reload(); // the list as the server has it now
      await p.waitForSelector("#your-turn:not([hidden])", { timeout: T });
      return {
        count: Number(await p.getAttribute("#your-turn", "data-count")),
        ids: await p.$$eval("#your-turn li[data-game]", (ls) => ls.map((l) => l.dataset.game)),
      };
    };
    let ya = await your_turn(a);
    let yb = await your_turn(b);
    check(ya.count === 1 && ya.ids.length === 1 && ya.ids[0] === id, `White's list: ${JSON.stringify(ya)}`);
    check(yb.count === 0 && yb.ids.length === 0, `Black's list: ${JSON.stringify(yb)}`);
    check((await a.textContent("#your-turn-count")).trim() === "1", "the count shown");
    // the server restarts; the game waits and goes on from the list's link
    await restart();
    ya = await your_turn(a);
    check(ya.count === 1 && ya.ids[0] === id, `White's list after the restart: ${JSON.stringify(ya)}`);
    await a.click(`#your-turn li[data-game="${id}"] a`);
    await a.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
    await wait_ply(a, 2);
    check((await wait_turn(a)) === "move", "White to move after the restart");
    await play_one(a, "click", 0);
    await b.goto(b_game);
    await wait_ply(b, 3);
    yb = await your_turn(b);
    check(yb.count === 1 && yb.ids[0] === id, `Black's turn now: ${JSON.stringify(yb)}`);
    await b.goto(b_game);
    await wait_ply(b, 3);
    // Black's day runs out while the server is down: White claims the win on time
    const sqlite = ["/usr/bin/sqlite3", "/bin/sqlite3"].find((x) => existsSync(x));
    if (!sqlite) {
      console.log("  correspondence: the deadline part needs sqlite3 (scripts/install-deps web); skipped");
    } else {
      await restart(() => {
        const r = spawnSync(sqlite, [path.join(dir2, "t.db"), `UPDATE games SET move_deadline_ms = 1000 WHERE id = '${id}'`]);
        check(r.status === 0, `sqlite3: ${r.stderr}`);
      });
      await a.goto(`${base}/#/`);
      await a.goto(a_game);
      await wait_ply(a, 3);
      await a.waitForSelector("#claim-on-time", { timeout: T });
      check((await a.textContent("#corr-left")).includes("up"), `the deadline passed: ${await a.textContent("#corr-left")}`);
      await b.goto(`${base}/#/`);
      await b.goto(b_game);
      await wait_ply(b, 3);
      check(!(await b.$("#claim-on-time")), "no claim for the player out of time");
      await a.click("#claim-on-time");
      // at ply 3 Black has not made two moves: the claim calls the game off (fair play)
      for (const p of [a, b]) await p.waitForSelector('#game-over[data-reason="aborted"]', { timeout: T });
    }
    console.log("  correspondence: 1 day a move by link, the your-turn list for the player to move only, a restart, the game went on, called off on time before two moves each");
    await ca.close();
    await cb.close();
  } finally {
    srv.proc.kill("SIGTERM");
    rmSync(dir2, { recursive: true, force: true });
  }
}

/** The game page's context: two accounts in a rated 3+2 game by link see each other's names
 * linked to their pages with their ratings and "Rated · Blitz 3+2"; a spectator raises the
 * count the players see. */
async function game_context(browser, base, pages) {
  const { ctx: ca, page: a } = await signed_up(browser, base, pages, "GcAida");
  const { ctx: cb, page: b } = await signed_up(browser, base, pages, "GcBerik");
  await a.goto(`${base}/#/`);
  await a.waitForSelector("#online-name-account", { timeout: T });
  await a.selectOption("#online-colour", "white");
  await a.selectOption("#online-clock", "180000+2000");
  await a.check("#online-rated");
  await a.click("#create-online");
  await a.waitForSelector("#invite-link", { timeout: T });
  await b.goto(await a.inputValue("#invite-link"));
  await b.waitForSelector("#join-go", { timeout: T });
  await b.click("#join-go");
  await b.waitForURL(/#\/game\/[^/]+\/[^/]+$/, { timeout: T });
  for (const p of [a, b]) {
    await p.waitForFunction(() => document.querySelector('.prating[data-side="black"]')?.textContent === "1500?", null, { timeout: T, polling: 50 });
    check((await p.textContent("#tc-line")) === "Rated · Blitz 3+2", `the time-control line: ${await p.textContent("#tc-line")}`);
    check((await p.textContent('.prating[data-side="white"]')) === "1500?", "White's rating");
    check((await p.getAttribute('.player[data-side="black"] a.pname', "href")) === "#/@/GcBerik", "Black's name links to his page");
  }
  const id = location_hash(b.url()).split("/")[2];
  const ctx = await browser.newContext();
  const watcher = await ctx.newPage();
  pages.push(watcher);
  await watcher.goto(`${base}/#/game/${id}`);
  await watcher.waitForSelector("#tc-line", { timeout: T });
  await a.waitForFunction(() => document.querySelector("#watching")?.textContent === "1 watching", null, { timeout: T, polling: 50 });
  console.log("  game_context: ratings and linked names on both sides, \"Rated · Blitz 3+2\", a spectator counted");
  for (const c of [ca, cb, ctx]) await c.close();
}

/** Notices on every page: a challenge sent while the other player is on the puzzles page shows
 * in his header and the tab's title; accepting it there opens the game for both. */
async function notices(browser, base, pages) {
  const { ctx: ca, page: a } = await signed_up(browser, base, pages, "NtAsan");
  const { ctx: cb, page: b } = await signed_up(browser, base, pages, "NtBolat");
  await b.goto(`${base}/#/puzzles`);
  await a.goto(`${base}/#/lobby/challenge/NtBolat`);
  await a.waitForFunction(() => document.querySelector("#lobby-who .uname")?.textContent === "NtAsan", null, { timeout: T });
  await a.click("#seek-create");
  await b.waitForSelector("#notices [data-notice-accept]", { timeout: T });
  check((await b.textContent("#notices")).includes("NtAsan"), "the challenger named in the notice");
  check((await b.title()).startsWith("(1) "), `the tab's title: ${await b.title()}`);
  check(location_hash(b.url()).startsWith("#/puzzles"), "still on the puzzles page");
  await b.click("#notices [data-notice-accept]");
  for (const p of [a, b]) await p.waitForFunction(() => location.hash.startsWith("#/game/"), null, { timeout: T });
  await b.waitForSelector("#board[data-you]", { timeout: T });
  const you = [(await board_data(a)).you, (await board_data(b)).you].sort();
  check(JSON.stringify(you) === JSON.stringify(["black", "white"]), `both seated: ${you}`);
  await b.waitForFunction(() => !document.title.startsWith("("), null, { timeout: T, polling: 50 });
  console.log("  notices: a challenge shown on the puzzles page and in the title, accepted there, the game opened for both");
  for (const c of [ca, cb]) await c.close();
}

// ---- runner --------------------------------------------------------------------------------

/** A local SMTP server on a free loopback port that keeps every mail's text (no TLS, no AUTH):
 * resolves to {url, next(), close()}; next() waits for the next mail. */
function smtp_sink() {
  const mails = [];
  const waiting = [];
  const server = createServer((sock) => {
    sock.setEncoding("utf8");
    let buf = "";
    let msg = null; // the DATA being read
    sock.on("error", () => {});
    sock.write("220 sink\r\n");
    sock.on("data", (d) => {
      buf += d;
      for (let i = buf.indexOf("\r\n"); i >= 0; i = buf.indexOf("\r\n")) {
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        if (msg !== null) {
          if (line !== ".") msg += line + "\n";
          else {
            (waiting.shift() ?? ((m) => mails.push(m)))(msg);
            msg = null;
            sock.write("250 queued\r\n");
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "DATA") msg = "";
        if (verb === "QUIT") sock.end("221 bye\r\n");
        else sock.write(verb === "DATA" ? "354 go on\r\n" : "250 ok\r\n");
      }
    });
  });
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () =>
      resolve({
        url: `smtp://127.0.0.1:${server.address().port}`,
        next: () => (mails.length ? Promise.resolve(mails.shift()) : new Promise((r) => waiting.push(r))),
        close: () => server.close(),
      }),
    ),
  );
}

/** The forgotten password: without mail the page says resets are not available; with a local
 * SMTP sink (a second server) a player gives his address on the account page, asks for a reset
 * from the login page, follows the mailed link, sets a new password and logs in with it. */
async function forgot_password(browser, base, pages) {
  const anon = await browser.newPage();
  pages.push(anon);
  await anon.goto(`${base}/#/forgot`);
  await anon.waitForSelector("#forgot-unavailable", { timeout: T });
  await anon.close();
  const sink = await smtp_sink();
  const dir = mkdtempSync(path.join(tmpdir(), "toguz-e2e-mail-"));
  const srv = await start_server(dir, ["--smtp-url", sink.url, "--smtp-tls", "none"]);
  try {
    const { ctx, page } = await signed_up(browser, srv.base, pages, "Mailer");
    await page.goto(`${srv.base}/#/account`);
    await page.waitForSelector("#email-form", { timeout: T });
    await page.fill("#email-address", "mailer@example.org");
    await page.fill("#email-password", "password of Mailer");
    await page.click("#email-submit");
    await page.waitForFunction(() => document.querySelector("#email-password")?.value === "" && document.querySelector("#email-address")?.value === "mailer@example.org", null, { timeout: T });
    await ctx.close();
    const ctx2 = await browser.newContext();
    const p = await ctx2.newPage();
    pages.push(p);
    await p.goto(`${srv.base}/#/login`);
    await p.click("#forgot-link");
    await p.fill("#forgot-email", "Mailer@example.org");
    await p.click("#forgot-submit");
    await p.waitForSelector("#forgot-sent", { timeout: T });
    const mail = await sink.next();
    const link = /http:\/\/\S+\/#\/reset\/\S+/.exec(mail)?.[0];
    check(link, "the mail has the reset link");
    await p.goto(link);
    await p.fill("#reset-password", "a brand new password");
    await p.click("#reset-submit");
    await p.waitForSelector("#reset-done", { timeout: T });
    await p.goto(`${srv.base}/#/login`);
    await p.fill("#auth-username", "Mailer");
    await p.fill("#auth-password", "a brand new password");
    await p.click("#auth-submit");
    await p.waitForFunction(() => location.hash === "#/@/Mailer", null, { timeout: T });
    console.log("  forgot password: the mailed link set a new password that logs in");
    await ctx2.close();
  } finally {
    srv.proc.kill("SIGTERM");
    sink.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A federation's rating list on the site: `toguz ratings compute` on the test season, a server
 * with --ratings-dir; the list searched, a player's history, an event, numbers against the CSV. */
async function rating_list(browser, _base, pages) {
  const data = path.join(here, "..", "..", "tests", "data", "ratings");
  const lists = path.join(dir, "rating-lists");
  const made = spawnSync(toguz, ["ratings", "compute", path.join(data, "cup.tgk"), path.join(data, "open.pgn"), "--list", path.join(data, "list.csv"),
    "--profile", path.join(data, "profile.txt"), "--names", path.join(data, "names.txt"), "--out", path.join(lists, "2026-03"), "--heading", "Рейтинг <2026>"], { encoding: "utf8" });
  check(made.status === 0, `toguz ratings compute: ${made.stderr}`);
  const csv = readFileSync(path.join(lists, "2026-03", "list.csv"), "utf8");
  const kali = csv.split("\n").find((l) => l.includes("Кали Айдана")).split(",");
  const own = await start_server(path.join(dir, "rating-site"), ["--ratings-dir", lists]);
  try {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await ctx.newPage();
    pages.push(page);
    await page.goto(`${own.base}/#/ratings`);
    await page.click('#fed-lists a[href="#/ratings/2026-03"]', { timeout: T });
    await page.waitForFunction(() => document.querySelectorAll("#fed-list tbody tr").length === 5, null, { timeout: T, polling: 50 });
    check((await page.textContent("main h2")) === "Рейтинг <2026>", "the heading shown as text");
    await page.fill("#fed-search", "кали");
    await page.waitForFunction(() => document.querySelectorAll("#fed-list tbody tr").length === 1, null, { timeout: T, polling: 50 });
    const cells = await page.$$eval("#fed-list tbody tr td", (tds) => tds.map((td) => td.textContent));
    check(cells[0] === kali[0] && cells[6] === kali[6] && cells[5] === `+${Number(kali[5])}`, `the row as the CSV has it: ${cells} / ${kali}`);
    check((await page.evaluate((u) => fetch(u).then((r) => r.text()), "/api/ratings/2026-03/list.csv")) === csv, "the CSV download is the CSV written");
    await page.click("#fed-list tbody tr a");
    await page.waitForSelector("#fed-history tbody tr", { timeout: T });
    check((await page.textContent("#fed-player-rating")).includes(kali[6]), "the player's rating after");
    // January: the draw with Ахметов (2000), K 40, E 0.24: +10.39
    const first = await page.$$eval("#fed-history tbody tr:first-child td", (tds) => tds.map((td) => td.textContent));
    check(first[3] === "Ахметов Дамир" && first[4] === "2000" && first[7] === "40" && first[8] === "+10.39", `the first game: ${first}`);
    await page.click("#fed-history tbody tr:first-child td:nth-child(2) a");
    await page.waitForSelector("#fed-calc tbody tr", { timeout: T });
    check((await page.textContent("#fed-event")) === "Кубок <Астаны>", "the event's name shown as text");
    check((await page.$$("#fed-calc tbody tr")).length === 3, "the event's three players");
  } finally {
    own.proc.kill("SIGTERM");
  }
}

/** The analysis board's variations: on an imported game, a side line made from an earlier move,
 * shown in the moves panel, entered and left, promoted to the main line, kept over a reload, and
 * exported as PGN with the variation in parentheses. */
async function analysis_variations(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1200, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  const created = await (await page.request.post(`${base}/api/import`, { data: { record: '[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. 76(10) 98 *\n' } })).json();
  await page.goto(`${base}/#/game/${created.id}/${created.token}`);
  await board_data(page);
  const shown = (s, v) => page.waitForFunction(([s, v]) => { const b = document.querySelector("#board"); return b?.dataset.shown === s && b?.dataset.variation === v; }, [s, v], { timeout: T, polling: 50 });
  await page.click('#moves .mv[data-goto="1"]');
  await shown("1", "0");
  // Black's hole 2 instead of the game's 98: a variation, shown and current in the panel
  await page.keyboard.press("2");
  await shown("2", "1");
  const side = await page.textContent("#moves .vars .mv.var.current");
  check(/^1… 2\d/.test(side.replace("...", "…")), `the variation's move in the panel: ${side}`);
  check((await page.$$eval("#moves .mv[data-ply]", (els) => els.map((e) => e.textContent))).join(" ") === "76(10) 98", "the game's line unchanged");
  // out of it (back, up to the parent line) and into it again (its move clicked)
  await page.keyboard.press("ArrowLeft");
  await shown("1", "0");
  await page.click("#moves .vars .mv.var");
  await shown("2", "1");
  await page.click('#var-tools [data-action="var-up"]');
  await shown("1", "0");
  await page.click("#moves .vars .mv.var");
  await page.click('#var-tools [data-action="var-promote"]');
  await page.waitForFunction(() => document.querySelector("#moves .vars .mv")?.textContent === "1... 98", null, { timeout: T, polling: 50 });
  check((await page.textContent("#moves .mv.current")).startsWith("2"), "the promoted move is the main line's and current");
  // kept over a reload; exported with the game's own move in parentheses
  await page.reload();
  await page.waitForSelector("#moves .vars .mv", { timeout: T });
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: T }), page.click("#export-variations")]);
  const pgn = readFileSync(await download.path(), "utf8");
  check(/\[White "A"\]/.test(pgn) && /1\. 76\(10\) 2\d\S* \(1\.\.\. 98\) \*/.test(pgn), `the PGN with the variation: ${pgn}`);
  await ctx.close();
  console.log("  variations: made from an earlier move, entered, left, promoted, kept over a reload, exported");
}

/** A team event on the arbiter page: created, four teams with their rosters typed, round 1
 * paired, a lineup changed (an empty board: a forfeit), results entered, the team standings
 * shown; a reader without the key sees no edit controls; its TRF downloaded and imported as a
 * new team event with the same standings. */
async function arbiter_teams(browser, base, pages) {
  const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await ctx.newPage();
  pages.push(page);
  const evil = `D <img src=x onerror="window.__xss=1">`;
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-team-name", "Team <b>cup</b>");
  await page.selectOption("#arb-team-system", "round-robin");
  await page.fill("#arb-team-boards", "2");
  await page.click("#arb-create-team");
  await page.waitForURL(/#\/arbiter\/team\/[a-z0-9]+$/, { timeout: T });
  const id = new URL(page.url()).hash.split("/")[3];
  await page.waitForSelector("#arb-team-entry", { timeout: T });
  check((await page.textContent("#arb-event-name")) === "Team <b>cup</b>", "the event's name shown as text");
  for (const [i, name] of ["A", "B", "C", evil].entries()) {
    const k = "ABCD"[i];
    await page.fill("#arb-team-entry", name);
    await page.fill("#arb-team-players", `${k}1 ${2000 - i}\n${k}2\n${k}3`);
    await page.click("#arb-add-team-go");
    await page.waitForFunction((n) => document.querySelectorAll("ol.arb-roster").length === n, i + 1, { timeout: T, polling: 50 });
  }
  check((await page.textContent('ol.arb-roster[data-team="0"]')).includes("A1 (2000)"), "a roster typed with its ratings");
  await page.click("#arb-pair");
  await page.waitForFunction(() => document.querySelectorAll("#arb-matches table.arb-match").length === 2, null, { timeout: T, polling: 50 });
  // match 1 is A-D: D comes without its first player, so board 2 is empty and A's by forfeit
  await page.uncheck('fieldset.arb-lineup[data-team="3"] input[value="1"]');
  await page.click('fieldset.arb-lineup[data-team="3"] .arb-lineup-save');
  await page.waitForSelector('table[data-match="1"] tr[data-board="2"][data-result="-+"]', { timeout: T });
  const enter = async (match, board, result) => {
    await page.selectOption(`table[data-match="${match}"] tr[data-board="${board}"] select.arb-result`, result);
    await page.click(`table[data-match="${match}"] tr[data-entry="${board}"] .arb-save`);
    await page.waitForSelector(`table[data-match="${match}"] tr[data-board="${board}"][data-result="${result}"]`, { timeout: T });
  };
  await enter(1, 1, "1-0");
  await enter(2, 1, "1-0");
  await enter(2, 2, "1-0");
  await page.waitForSelector("#arb-pair", { timeout: T }); // round 2 may be paired now
  const table = await page.$$eval("#arb-team-standings tbody tr", (rows) => rows.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent)));
  check(JSON.stringify(table.map((r) => [r[1], r[2], r[3]])) === JSON.stringify([["A", "2", "2"], ["B", "1", "1"], ["C", "1", "1"], [evil, "0", "0"]]),
    `the team standings: ${JSON.stringify(table)}`);
  const printed = await (await page.request.get(`${base}${await page.getAttribute("#arb-print-standings", "href")}`)).text();
  check(printed.includes("Board prizes") && printed.includes("&lt;img") && !printed.includes("<img"), "the standings page, names escaped");
  // "Rated" (the form gave the event its date): saved with the event, ticked in the page drawn again
  await page.$eval("#arb-team-rated", (e) => { e.dataset.before = "1"; });
  await page.check("#arb-team-rated");
  await page.click("#arb-team-settings");
  await page.waitForSelector("#arb-team-rated:not([data-before]):checked", { timeout: T });
  check((await (await page.request.get(`${base}/api/team-events/${id}`)).json()).event.rated === true, "the team event marked rated");
  // another browser, without the key: reads only
  const ctx2 = await browser.newContext();
  const reader = await ctx2.newPage();
  pages.push(reader);
  await reader.goto(`${base}/#/arbiter/team/${id}`);
  await reader.waitForSelector("#arb-team-standings tbody tr", { timeout: T });
  const controls = await reader.$$("#arb-pair, select.arb-result, fieldset.arb-lineup, #arb-add-team, .arb-edit, .arb-withdraw, #arb-team-settings, #arb-team-rated");
  check(controls.length === 0, "no edit controls without the key");
  check((await reader.textContent('table[data-match="1"] tr[data-board="1"] .res')) === "1-0", "the result shown");
  check((await page.evaluate(() => window.__xss)) === undefined && (await reader.evaluate(() => window.__xss)) === undefined, "no markup ran");
  // the exchange file: downloaded with the key, imported through the form (its team lines make
  // it a team event) with the same standings (a team name cut to the 013 line's 32 characters)
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: T }), page.click("#arb-trf")]);
  const trf = readFileSync(await download.path(), "utf8");
  check(download.suggestedFilename() === `team-event-${id}.trf` && trf.split("\n").filter((l) => l.startsWith("013")).length === 4, `the team TRF download: ${trf.slice(0, 200)}`);
  await page.goto(`${base}/#/arbiter`);
  await page.fill("#arb-trf-text", trf);
  await page.click("#arb-import-go");
  await page.waitForURL((u) => /#\/arbiter\/team\/[a-z0-9]+$/.test(u.hash) && !u.hash.endsWith(`/${id}`), { timeout: T });
  await page.waitForSelector("#arb-team-standings tbody tr", { timeout: T });
  const imported = await page.$$eval("#arb-team-standings tbody tr", (rows) => rows.map((r) => [...r.querySelectorAll("td")].map((c) => c.textContent)));
  check(JSON.stringify(imported.map((r) => [r[1], r[2], r[3]])) === JSON.stringify(table.map((r) => [r[1].slice(0, 32), r[2], r[3]])), `the imported standings: ${JSON.stringify(imported)}`);
  check((await page.$("#arb-trf")) !== null && (await page.evaluate(() => window.__xss)) === undefined, "the importer holds the key; no markup ran");
  console.log("  arbiter teams: a round robin of four teams, a lineup with an empty board, results, team standings, marked rated, a reader, the TRF exported and imported");
  await ctx2.close();
  await ctx.close();
}

const tests = { engine_game, anonymous_quiet, dark_theme, sounds, blind_game, blind_puzzle, a11y_audit, online_resign, reconnect, stalled_connection, draw_rematch_abort, claim_win, phone_pages, phone_menu, languages, language_chunks, accounts_pages, rated_game, learn_pages, puzzle_rating, explorer_from_review, lobby_game, arbiter_page, arbiter_changes, tournament_forms, arena_tournament, correspondence, game_context, notices, forgot_password, broadcast, rating_list, current_games, takeback_chat, premove, arbiter_rules, analysis_variations , blind_rated_game, arbiter_teams};
const dir = mkdtempSync(path.join(tmpdir(), "toguz-e2e-"));
let server;
let browser;
let failed = 0;
try {
  // Every page here is one address and its accounts are new: the limits per client are the
  // server tests' (tests/unit/server/server_limits_test.cpp), not these flows'.
  server = await start_server(dir, ["--online-games-per-address", "1000", "--tournament-min-rated-games", "0"]);
  browser = await chromium.launch({
    executablePath: chrome,
    headless: true,
    args: ["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
  });
  if (args.shots) {
    await screenshots(browser, server.base, path.resolve(args.shots));
    console.log(`screenshots written to ${args.shots}`);
  } else {
    const [shard, shards] = (args.shard ?? "1/1").split("/").map(Number);
    if (!(shards >= 1 && shard >= 1 && shard <= shards)) throw new Error(`bad --shard ${args.shard}: want k/n with 1 <= k <= n`);
    for (const [index, [name, fn]] of Object.entries(tests).entries()) {
      if (args.only && args.only !== name) continue;
      if (!args.only && index % shards !== shard - 1) continue;
      const pages = [];
      const t0 = Date.now();
      try {
        await fn(browser, server.base, pages);
        console.log(`ok   ${name} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      } catch (e) {
        failed++;
        console.log(`FAIL ${name}: ${e.stack || e}`);
        mkdirSync(out, { recursive: true });
        for (const [i, p] of pages.entries()) {
          const file = path.join(out, `e2e-${name}-${i}.png`);
          try {
            await p.screenshot({ path: file, fullPage: true });
            console.log(`     screenshot: ${file}`);
          } catch {
            /* the page may be closed */
          }
        }
        for (const p of pages) await p.context().close().catch(() => {});
      }
    }
  }
} catch (e) {
  failed++;
  console.log(`FAIL setup: ${e.stack || e}`);
} finally {
  await browser?.close().catch(() => {});
  server?.proc.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
