#include "search/wdl.h"

#include <algorithm>
#include <cmath>

namespace toguz::search {

Wdl wdl_of(const Score& s) {
  if (s.proven || s.table) {
    if (s.result > 0) return {1000, 0, 0};
    if (s.result < 0) return {0, 0, 1000};
    return {0, 1000, 0};
  }
  const auto sigmoid = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  const int win = int(std::lround(1000 * sigmoid((s.cp - kWdlDrawBand) / kWdlScale)));
  const int loss = int(std::lround(1000 * sigmoid((-s.cp - kWdlDrawBand) / kWdlScale)));
  const int w = std::min(win, 1000), l = std::min(loss, 1000 - w);
  return {w, 1000 - w - l, l};
}

}  // namespace toguz::search
