// ctest web.dist_no_hooks: the users' build (web/dist, `npm run build`) carries none of the
// browser tests' hooks (window.__toguz, only in `npm run build:e2e`), and each language's texts
// are in a chunk of their own, not in the entry script every visitor loads (src/i18n/index.ts).
// Exit 77 (skipped) when the front end is not built (run: make web).
//   node test/dist-no-hooks.mjs [<web/dist>]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.resolve(process.argv[2] ?? path.join(here, "..", "dist"));
if (!existsSync(path.join(dist, "index.html"))) {
  console.log(`web.dist_no_hooks: SKIPPED: no built front end in ${dist} (run: make web)`);
  process.exit(77);
}
const assets = path.join(dist, "assets");
const scripts = readdirSync(assets).filter((f) => f.endsWith(".js"));
if (scripts.length === 0) {
  console.error(`web.dist_no_hooks: no scripts in ${assets}`);
  process.exit(1);
}
const found = scripts.filter((f) => readFileSync(path.join(assets, f), "utf8").includes("__toguz"));
if (found.length) {
  console.error(`web.dist_no_hooks: test hooks (__toguz) in the users' build: ${found.join(", ")}`);
  process.exit(1);
}
// the subtitle of each language (src/i18n/<lang>.ts) is in its chunk <lang>-<hash>.js alone
const entry = /<script type="module"[^>]* src="\/assets\/([^"]+\.js)"/.exec(readFileSync(path.join(dist, "index.html"), "utf8"))?.[1];
for (const lang of ["en", "ru", "kk", "ky"]) {
  const source = readFileSync(path.join(here, "..", "src", "i18n", `${lang}.ts`), "utf8");
  const subtitle = JSON.parse(/^ {2}subtitle: (".*"),$/m.exec(source)[1]);
  const holders = scripts.filter((f) => readFileSync(path.join(assets, f), "utf8").includes(subtitle));
  if (holders.length !== 1 || !holders[0].startsWith(`${lang}-`) || holders[0] === entry) {
    console.error(`web.dist_no_hooks: the ${lang} texts should be in ${lang}-*.js alone, not the entry ${entry}: ${holders.join(", ")}`);
    process.exit(1);
  }
}
console.log(`web.dist_no_hooks: ok (${scripts.length} scripts, no __toguz, each language in its own chunk)`);
