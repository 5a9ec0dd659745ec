// The words of the arbiter's print pages (pairings, standings, a team event's matches) in the
// site's languages: the page's `lang` query (en, ru, kk, ky) picks them, so a page printed from
// the arbiter page in Russian has no English on it.
#pragma once

#include <string_view>

#include "tournament/report.h"

namespace toguz::site {

// The words in `lang`; English for any other.
const tournament::ReportWords& print_words(std::string_view lang);

}  // namespace toguz::site
