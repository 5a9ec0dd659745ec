// Takeback proposals between the players of an online casual game (docs/web-protocol.md): the
// controls they bring, from the state alone. The server decides who may propose (can_takeback)
// and refuses proposals in rated and tournament games.

import type { GameState } from "../protocol/types.js";
import type { Control } from "./game_state.js";

/** The takeback controls of an online game for a player: the opponent's proposal with accept
 * and decline, his own standing one, or the button to propose one. */
export function takeback_controls(g: GameState): Control[] {
  const me = g.you;
  if (g.mode !== "online" || g.status !== "playing" || (me !== "white" && me !== "black")) return [];
  const offer = g.takeback_offer ?? null;
  if (offer && offer !== me)
    return [
      { kind: "offer", text: "takeback_offered", id: "takeback-offered" },
      { kind: "button", action: "accept_takeback", label: "accept_takeback", cls: "primary" },
      { kind: "button", action: "decline_takeback", label: "decline_takeback" },
    ];
  if (offer === me) return [{ kind: "offer", text: "takeback_sent", id: "takeback-sent" }];
  return g.can_takeback ? [{ kind: "button", action: "takeback", label: "propose_takeback" }] : [];
}
