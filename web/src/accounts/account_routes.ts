// The accounts' pages, a chunk of their own fetched on their first visit (shell/routes_state.ts):
// #/login, #/signup, #/account, #/forgot, #/reset/<token>, #/verify/<token>, #/moderation,
// #/leaderboard/<category>, #/@/<name>.

import type { View } from "../shell/util.js";
import { AccountView, AuthView } from "./account.js";
import { ForgotView, ResetView, VerifyView } from "./mail.js";
import { ModerationView } from "./moderation.js";
import { LeaderboardView, PlayerView } from "./player.js";

/** The view of the route `parts`, null when it names none of these pages. */
export function view_of(parts: string[]): View | null {
  const [head, a] = parts;
  if (head === "login" || head === "signup") return new AuthView(head);
  if (head === "account") return new AccountView();
  if (head === "forgot") return new ForgotView();
  if (head === "reset" && a) return new ResetView(a);
  if (head === "verify" && a) return new VerifyView(a);
  if (head === "moderation") return new ModerationView();
  if (head === "leaderboard") return new LeaderboardView(a);
  if (head === "@" && a) return new PlayerView(a);
  return null;
}
