// Opening a folder of endgame tables for the commands that take --tables DIR (solve, analyze,
// play, ugi's TablesDir option).
#pragma once

#include <memory>
#include <string>

#include "tables/tablebase.h"

namespace toguz::cli {

// The tables of `dir` with the largest K found there; null and *why set when there are none.
std::shared_ptr<tables::Tablebase> open_tables(const std::string& dir, std::string* why);

}  // namespace toguz::cli
