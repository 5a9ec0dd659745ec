// The site's mails in the four languages (docs/accounts.md "E-mail"): a password reset, an
// address's verification, a correspondence game's "your turn", a tournament's start.
#pragma once

#include <map>
#include <string>

#include "mail/smtp.h"

namespace toguz::site {

enum class MailKind { Reset, Verify, YourTurn, TournamentStart };

// The mail of `kind` to `to` in `lang` (en, ru, kk, ky; English for any other), its {name}s
// replaced by `params` (name, link, minutes, opponent, tournament).
mail::Mail mail_text(MailKind kind, const std::string& lang, const std::string& to,
                     const std::map<std::string, std::string>& params);

// `lang` when it is one of the site's languages, else "en".
std::string mail_lang(const std::string& lang);

}  // namespace toguz::site
