#include "tables/tablebase.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace toguz::tables {

namespace {

constexpr int kN = 9;
constexpr char kMagic[8] = {'T', 'G', 'Z', 'T', 'B', '0', '0', '1'};

// The 64-byte file header.
struct Header {
  char magic[8];
  int32_t n, k, mine, theirs, holes;
  int32_t complete;
  uint64_t entries;
  char pad[24];
};
static_assert(sizeof(Header) == 64);

// Stored byte = value ^ 0x80, so a fresh (zero-filled, sparse) file reads as all kUnknown.
inline int8_t decode(uint8_t b) {
  return int8_t(b ^ 0x80);
}
inline uint8_t encode(int v) {
  return uint8_t(int8_t(v)) ^ 0x80;
}

// The mover's free holes as stone counts, mover's row then the opponent's, tuzes skipped.
int free_counts(const Position& p, const Config& c, int* x) {
  Side me = p.side_to_move(), opp = opposite(me);
  int h = 0;
  for (int i = 1; i <= kN; ++i)
    if (i != c.theirs) x[h++] = p.stones(me, i);
  for (int i = 1; i <= kN; ++i)
    if (i != c.mine) x[h++] = p.stones(opp, i);
  return h;
}

}  // namespace

struct Tablebase::File {
  int fd = -1;
  uint8_t* map = nullptr;
  size_t size = 0;
  Header* header = nullptr;
  uint8_t* data = nullptr;
  uint64_t entries = 0;
  bool writable = false;
  ~File() {
    if (map) munmap(map, size);
    if (fd >= 0) close(fd);
  }
};

std::vector<Config> all_configs() {
  std::vector<Config> out;
  for (int a = 0; a <= 8; ++a)
    for (int b = 0; b <= 8; ++b) {
      Config c{a, b};
      if (c.valid()) out.push_back(c);
    }
  return out;
}

// Configurations reachable from `c`: the mover's view flips every move; a side without a tuz
// may make one on any hole 1..8 other than the number of the opponent's tuz.
static std::vector<Config> closure(std::vector<Config> todo) {
  bool seen[81] = {};
  std::vector<Config> out;
  while (!todo.empty()) {
    Config c = todo.back();
    todo.pop_back();
    if (!c.valid() || seen[c.id()]) continue;
    seen[c.id()] = true;
    out.push_back(c);
    todo.push_back(Config{c.theirs, c.mine});
    if (c.mine == 0)
      for (int t = 1; t <= 8; ++t)
        if (t != c.theirs) todo.push_back(Config{c.theirs, t});
  }
  // Configurations with two tuzes first: the others depend on them.
  std::stable_sort(out.begin(), out.end(), [](const Config& a, const Config& b) {
    return (a.mine && a.theirs) > (b.mine && b.theirs);
  });
  return out;
}

std::vector<Config> configs_for(const Position& p) {
  Side me = p.side_to_move();
  return closure({Config{p.tuz(me), p.tuz(opposite(me))}});
}

static uint64_t choose(int n, int r) {
  if (r < 0 || n < r) return 0;
  uint64_t v = 1;
  for (int i = 1; i <= r; ++i) v = v * uint64_t(n - r + i) / uint64_t(i);
  return v;
}

uint64_t table_entries(const Config& c, int k) {
  return choose(k + c.free_holes(), c.free_holes());
}

Tablebase::Tablebase(std::string dir, int max_stones) : dir_(std::move(dir)), k_(max_stones) {
  int top = k_ + 18;
  binom_.assign(size_t(top + 1) * (top + 1), 0);
  for (int n = 0; n <= top; ++n)
    for (int r = 0; r <= n; ++r) binom_[size_t(n) * (top + 1) + r] = choose(n, r);
  for (int i = 0; i < 2; ++i) {
    int h = 16 + i;
    block_start_[i].resize(k_ + 2);
    uint64_t acc = 0;
    for (int s = 0; s <= k_ + 1; ++s) {
      block_start_[i][s] = acc;
      acc += binom(s + h - 1, h - 1);
    }
  }
}

Tablebase::~Tablebase() = default;

uint64_t Tablebase::binom(int n, int r) const {
  int top = k_ + 18;
  if (r < 0 || n < r || n > top) return 0;
  return binom_[size_t(n) * (top + 1) + r];
}

uint64_t Tablebase::index_of(const Position& p, Config* c) const {
  Side me = p.side_to_move();
  *c = Config{p.tuz(me), p.tuz(opposite(me))};
  int x[18];
  int h = free_counts(p, *c, x);
  int s = 0;
  for (int i = 0; i < h; ++i) s += x[i];
  // Rank of the composition x of s: for hole i, the compositions that put fewer stones there
  // come first; their count telescopes to C(r+rem, rem) - C(r-x+rem, rem).
  uint64_t idx = block_start_[h - 16][s];
  int r = s;
  for (int i = 0; i + 1 < h; ++i) {
    int rem = h - i - 1;
    idx += binom(r + rem, rem) - binom(r - x[i] + rem, rem);
    r -= x[i];
  }
  return idx;
}

Position Tablebase::position_of(const Config& c, uint64_t index) const {
  int h = c.free_holes();
  const auto& starts = block_start_[h - 16];
  int s = 0;
  while (s + 1 <= k_ && starts[s + 1] <= index) ++s;
  uint64_t idx = index - starts[s];
  int x[18];
  int r = s;
  for (int i = 0; i + 1 < h; ++i) {
    int rem = h - i - 1;
    int v = 0;
    for (;;) {
      uint64_t cnt = binom(r - v + rem - 1, rem - 1);
      if (idx < cnt) break;
      idx -= cnt;
      ++v;
    }
    x[i] = v;
    r -= v;
  }
  x[h - 1] = r;
  int holes[2][Position::kMaxN] = {};
  int j = 0;
  for (int i = 1; i <= kN; ++i)
    if (i != c.theirs) holes[0][i - 1] = x[j++];
  for (int i = 1; i <= kN; ++i)
    if (i != c.mine) holes[1][i - 1] = x[j++];
  int tuz[2] = {c.mine, c.theirs};
  Position p;
  std::string why;
  if (!Position::from_parts(Rules{kN, true, true}, holes, 2 * kN * kN - s, 0, tuz, Side::White, 1,
                            &p, &why))
    throw std::logic_error("tables: bad position from index: " + why);
  return p;
}

Tablebase::File* Tablebase::open(const Config& c, bool create) const {
  auto& slot = files_[c.id()];
  if (slot) return slot.get();
  std::string path = dir_ + "/tb9_k" + std::to_string(k_) + "_" + std::to_string(c.mine) +
                     std::to_string(c.theirs) + ".bin";
  uint64_t entries = table_entries(c, k_);
  size_t size = sizeof(Header) + entries;
  auto f = std::make_unique<File>();
  f->fd = ::open(path.c_str(), O_RDWR);
  f->writable = f->fd >= 0;
  if (f->fd < 0) f->fd = ::open(path.c_str(), O_RDONLY);
  bool fresh = false;
  if (f->fd < 0) {
    if (!create) return nullptr;
    std::filesystem::create_directories(dir_);
    f->fd = ::open(path.c_str(), O_RDWR | O_CREAT, 0644);
    if (f->fd < 0)
      throw std::runtime_error("tables: cannot create " + path + ": " + std::strerror(errno));
    if (ftruncate(f->fd, off_t(size)) != 0)
      throw std::runtime_error("tables: cannot size " + path + ": " + std::strerror(errno));
    f->writable = true;
    fresh = true;
  }
  struct stat st;
  if (fstat(f->fd, &st) != 0 || size_t(st.st_size) != size) {
    if (!create) return nullptr;
    throw std::runtime_error("tables: " + path +
                             " has the wrong size (another K or a damaged file)");
  }
  int prot = PROT_READ | (f->writable ? PROT_WRITE : 0);
  void* m = mmap(nullptr, size, prot, MAP_SHARED, f->fd, 0);
  if (m == MAP_FAILED)
    throw std::runtime_error("tables: cannot map " + path + ": " + std::strerror(errno));
  f->map = static_cast<uint8_t*>(m);
  f->size = size;
  f->header = reinterpret_cast<Header*>(f->map);
  f->data = f->map + sizeof(Header);
  f->entries = entries;
  if (fresh) {
    Header h{};
    std::memcpy(h.magic, kMagic, 8);
    h.n = kN, h.k = k_, h.mine = c.mine, h.theirs = c.theirs, h.holes = c.free_holes();
    h.entries = entries;
    *f->header = h;
  } else {
    const Header& h = *f->header;
    if (std::memcmp(h.magic, kMagic, 8) != 0 || h.k != k_ || h.mine != c.mine ||
        h.theirs != c.theirs || h.entries != entries) {
      if (!create) return nullptr;
      throw std::runtime_error("tables: " + path + " has a bad header");
    }
  }
  slot = std::move(f);
  return slot.get();
}

bool Tablebase::complete(const Config& c) const {
  File* f = open(c, false);
  return f && f->header->complete;
}

int8_t Tablebase::entry(const Config& c, uint64_t index) const {
  File* f = open(c, false);
  if (!f || index >= f->entries) return kUnknown;
  return decode(f->data[index]);
}

bool Tablebase::probe(const Position& p, int* value) const {
  if (p.n() != kN || !p.any_tuz()) return false;
  int on_board = 2 * kN * kN - p.kazna(Side::White) - p.kazna(Side::Black);
  if (on_board > k_) return false;
  Config c;
  uint64_t idx = index_of(p, &c);
  File* f = open(c, false);
  if (!f || !f->header->complete) return false;
  int8_t v = decode(f->data[idx]);
  if (v == kUnknown) return false;
  *value = v;
  return true;
}

// The board value of `p` from its children's entries: the best of (what the move gains at
// once minus the child's board value). No move: the opponent takes the board. With `build`,
// a missing child is computed first (recursion: the graph is acyclic, see the header);
// without, *missing is set and the value is meaningless.
int Tablebase::value_from_children(const Position& p, bool* missing, bool build) {
  Side me = p.side_to_move(), opp = opposite(me);
  uint32_t mask = p.legal_mask();
  if (!mask) return -(2 * kN * kN - p.kazna(me) - p.kazna(opp));
  int best = -1000;
  while (mask) {
    int h = __builtin_ctz(mask) + 1;
    mask &= mask - 1;
    Position child = p.after(h);
    int gain = (child.kazna(me) - p.kazna(me)) - (child.kazna(opp) - p.kazna(opp));
    Config cc;
    uint64_t ci = index_of(child, &cc);
    File* f = open(cc, build);
    int8_t v = f ? decode(f->data[ci]) : kUnknown;
    if (v == kUnknown) {
      if (!build) {
        *missing = true;
        continue;
      }
      v = int8_t(compute(cc, ci, child));
    }
    best = std::max(best, gain - v);
  }
  return best;
}

int Tablebase::compute(const Config& c, uint64_t index, const Position& p) {
  bool missing = false;
  int v = value_from_children(p, &missing, true);
  open(c, true)->data[index] = encode(v);
  return v;
}

void Tablebase::build(const std::vector<Config>& configs,
                      const std::function<void(const BuildProgress&)>& progress) {
  std::vector<Config> todo = closure(configs);
  for (size_t ci = 0; ci < todo.size(); ++ci) {
    const Config& c = todo[ci];
    File* f = open(c, true);
    if (!f->writable) throw std::runtime_error("tables: a table file is read-only");
    BuildProgress pr{c, 0, f->entries, int(ci), int(todo.size())};
    if (!f->header->complete) {
      for (uint64_t i = 0; i < f->entries; ++i) {
        if (f->data[i] == 0) compute(c, i, position_of(c, i));
        if (progress && (i & 0xFFFFF) == 0) {
          pr.done = i;
          progress(pr);
        }
      }
      msync(f->map, f->size, MS_SYNC);
      f->header->complete = 1;
      msync(f->map, sizeof(Header), MS_SYNC);
    }
    pr.done = f->entries;
    if (progress) progress(pr);
  }
}

uint64_t Tablebase::verify(const std::vector<Config>& configs,
                           const std::function<void(const BuildProgress&)>& progress) {
  std::vector<Config> todo = closure(configs);
  uint64_t bad = 0;
  for (size_t ci = 0; ci < todo.size(); ++ci) {
    const Config& c = todo[ci];
    File* f = open(c, false);
    BuildProgress pr{c, 0, table_entries(c, k_), int(ci), int(todo.size())};
    if (!f || !f->header->complete) {
      bad += pr.total;
      if (progress) progress(pr);
      continue;
    }
    for (uint64_t i = 0; i < f->entries; ++i) {
      bool missing = false;
      int v = value_from_children(position_of(c, i), &missing, false);
      if (missing || decode(f->data[i]) != v) ++bad;
      if (progress && (i & 0xFFFFF) == 0) {
        pr.done = i;
        progress(pr);
      }
    }
    pr.done = f->entries;
    if (progress) progress(pr);
  }
  return bad;
}

int largest_table_stones(const std::string& dir) {
  int k = 0;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    const std::string f = e.path().filename().string();
    int file_k = 0, end = -1;
    if (std::sscanf(f.c_str(), "tb9_k%d_%*[0-9].bin%n", &file_k, &end) == 1 && end == int(f.size()))
      k = std::max(k, file_k);
  }
  return k;
}

}  // namespace toguz::tables
