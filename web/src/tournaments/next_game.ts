// The way on from a finished tournament game: its page asks the tournament every 1.5 seconds
// (which also keeps the player counted as connected) and, as soon as the player's next game of
// that tournament has started, sounds it (when sounds are on), says so and opens it, so that a
// player reading his review is never paired into a game he does not see.

import { t } from "../i18n/index.js";
import { play_sound } from "../games/sounds.js";
import { toast } from "../shell/util.js";
import { opened_before, tournaments_api } from "./tournaments_api.js";
import { next_game_of } from "./tournaments_state.js";

const POLL_MS = 1500;

/** Watches tournament `tournament` for the reader's game after `game`; returns the stop. */
export function watch_next_game(game: string, tournament: string): () => void {
  let stopped = false;
  let timer = 0;
  const poll = async () => {
    let again = true;
    try {
      const tn = (await tournaments_api.get(tournament)).tournament;
      const next = next_game_of(tn, game);
      if (stopped) return;
      if (next === "over") again = false;
      else if (next) {
        stopped = true;
        opened_before(next, tournament); // its page offers the way on again
        play_sound("start");
        // said on the next game's page (a new page clears the toasts of the last)
        window.addEventListener("hashchange", () => toast(t("tn_next_game")), { once: true });
        location.hash = `#/game/${encodeURIComponent(next)}`;
        return;
      }
    } catch {
      // a failed look: the next one may answer
    }
    if (!stopped && again) timer = window.setTimeout(() => void poll(), POLL_MS);
  };
  void poll();
  return () => {
    stopped = true;
    window.clearTimeout(timer);
  };
}
