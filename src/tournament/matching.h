// Maximum matching in a general graph (Edmonds' blossom algorithm): the Swiss pairing's check
// that the players still to pair can all be paired.
#pragma once

#include <vector>

namespace toguz::tournament {

// `adj[i][j]` true when i and j may be paired (symmetric). Returns mate[i] (-1 = unmatched)
// of a maximum matching. O(V^3).
std::vector<int> maximum_matching(const std::vector<std::vector<char>>& adj);

}  // namespace toguz::tournament
