import { defineConfig } from "vite";

// `npm run build` (mode production) writes the front end users get to dist/; `npm run build:e2e`
// (mode e2e) writes the browser tests' build to dist-e2e/, the same code with the test hooks
// of games/game.ts (__TOGUZ_TEST_HOOKS__) switched on. `npm run dev` proxies the API and the sockets
// to a `toguz serve` on port 8080.
// The pages other than home, a game, the games list and the lobby are chunks fetched on demand
// (shell/main.ts); their CSS stays in the one stylesheet (cssCodeSplit: false), a few kB, so a page
// never shows unstyled and the rules keep one order.
export default defineConfig(({ mode }) => ({
  define: { __TOGUZ_TEST_HOOKS__: JSON.stringify(mode === "e2e") },
  build: { outDir: mode === "e2e" ? "dist-e2e" : "dist", emptyOutDir: true, target: "es2020", sourcemap: false, cssCodeSplit: false },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8080",
      "/ws": { target: "ws://127.0.0.1:8080", ws: true },
    },
  },
}));
