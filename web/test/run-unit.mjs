// ctest entry for the front end's unit tests: `npm run test:unit` in web/, exit 77 (skipped)
// when the web dependencies are not installed (run `make web` first).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
if (!existsSync(path.join(web, "node_modules", ".bin", "tsc"))) {
  console.log("web.unit: SKIPPED: web/node_modules missing (run: make web)");
  process.exit(77);
}
const r = spawnSync("npm", ["run", "--silent", "test:unit"], { cwd: web, stdio: "inherit" });
process.exit(r.status ?? 1);
