#include "cli/tables_dir.h"

namespace toguz::cli {

std::shared_ptr<tables::Tablebase> open_tables(const std::string& dir, std::string* why) {
  int k = tables::largest_table_stones(dir);
  if (k == 0) {
    *why = "no table files (tb9_k<K>_<ab>.bin) in " + dir + " (make them with: toguz tables build)";
    return nullptr;
  }
  return std::make_shared<tables::Tablebase>(dir, k);
}

}  // namespace toguz::cli
