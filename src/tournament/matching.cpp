#include "tournament/matching.h"

#include <queue>

namespace toguz::tournament {

namespace {

struct Blossom {
  const std::vector<std::vector<char>>& adj;
  int n;
  std::vector<int> mate, parent, base;
  std::vector<char> used, in_blossom;

  explicit Blossom(const std::vector<std::vector<char>>& a)
      : adj(a), n(int(a.size())), mate(n, -1), parent(n), base(n), used(n), in_blossom(n) {}

  int lca(int a, int b) {
    std::vector<char> seen(n, 0);
    for (;;) {
      a = base[a];
      seen[a] = 1;
      if (mate[a] < 0) break;
      a = parent[mate[a]];
    }
    for (;;) {
      b = base[b];
      if (seen[b]) return b;
      b = parent[mate[b]];
    }
  }

  void mark_path(int v, int b, int child) {
    while (base[v] != b) {
      in_blossom[base[v]] = in_blossom[base[mate[v]]] = 1;
      parent[v] = child;
      child = mate[v];
      v = parent[mate[v]];
    }
  }

  // An augmenting path from `root`: returns its free end, or -1.
  int find_path(int root) {
    std::fill(used.begin(), used.end(), 0);
    std::fill(parent.begin(), parent.end(), -1);
    for (int i = 0; i < n; ++i) base[i] = i;
    used[root] = 1;
    std::queue<int> q;
    q.push(root);
    while (!q.empty()) {
      int v = q.front();
      q.pop();
      for (int to = 0; to < n; ++to) {
        if (!adj[v][to] || base[v] == base[to] || mate[v] == to) continue;
        if (to == root || (mate[to] >= 0 && parent[mate[to]] >= 0)) {
          int cur = lca(v, to);
          std::fill(in_blossom.begin(), in_blossom.end(), 0);
          mark_path(v, cur, to);
          mark_path(to, cur, v);
          for (int i = 0; i < n; ++i)
            if (in_blossom[base[i]]) {
              base[i] = cur;
              if (!used[i]) {
                used[i] = 1;
                q.push(i);
              }
            }
        } else if (parent[to] < 0) {
          parent[to] = v;
          if (mate[to] < 0) return to;
          used[mate[to]] = 1;
          q.push(mate[to]);
        }
      }
    }
    return -1;
  }

  void run() {
    // A greedy start, then augment from every free vertex.
    for (int i = 0; i < n; ++i)
      if (mate[i] < 0)
        for (int j = i + 1; j < n; ++j)
          if (adj[i][j] && mate[j] < 0) {
            mate[i] = j;
            mate[j] = i;
            break;
          }
    for (int v = 0; v < n; ++v) {
      if (mate[v] >= 0) continue;
      int u = find_path(v);
      while (u >= 0) {
        int pv = parent[u], ppv = mate[pv];
        mate[u] = pv;
        mate[pv] = u;
        u = ppv;
      }
    }
  }
};

}  // namespace

std::vector<int> maximum_matching(const std::vector<std::vector<char>>& adj) {
  Blossom b(adj);
  b.run();
  return b.mate;
}

}  // namespace toguz::tournament
