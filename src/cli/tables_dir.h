// Opening a folder of endgame tables for the engine: toguz analyze --tables DIR and the
// TablesDir option of toguz ugi.
#pragma once

#include <memory>
#include <string>

#include "tables/tablebase.h"

namespace toguz::cli {

// The tables of `dir` with the largest K found there; null and *why set when there are none.
std::shared_ptr<tables::Tablebase> open_tables(const std::string& dir, std::string* why);

}  // namespace toguz::cli
