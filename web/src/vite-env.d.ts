/// <reference types="vite/client" />

// True only in the browser tests' build (`vite build --mode e2e`, vite.config.ts): the
// window.__toguz hooks of game.ts.
declare const __TOGUZ_TEST_HOOKS__: boolean;
