// The over-the-board events' pages, a chunk of their own fetched on their first visit
// (shell/routes_state.ts): #/arbiter[/<event>[/<key>]], #/arbiter/team/<event>[/<key>],
// #/broadcast/<event>, #/keeper/<event>/<token>.

import type { View } from "../shell/util.js";
import { ArbiterEventView, ArbiterHomeView } from "./arbiter.js";
import { TeamEventView } from "./arbiter_teams.js";
import { BroadcastView, KeeperView } from "./broadcast.js";

/** The view of the route `parts`, null when it names none of these pages. */
export function view_of(parts: string[]): View | null {
  const [head, a, b, c] = parts;
  if (head === "arbiter" && a === "team" && b) return new TeamEventView(b, c);
  if (head === "arbiter") return a ? new ArbiterEventView(a, b) : new ArbiterHomeView();
  if (head === "broadcast" && a) return new BroadcastView(a);
  if (head === "keeper" && a && b) return new KeeperView(a, b);
  return null;
}
