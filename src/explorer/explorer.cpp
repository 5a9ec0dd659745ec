#include "explorer/explorer.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <tuple>

#include "rules/notation.h"

namespace toguz::explorer {

static_assert(std::endian::native == std::endian::little,
              "the index is written in the host's byte order, which must be little-endian");

namespace {

// The 64-byte header: magic, version, entry size, entry count, game count, rules, band
// width, ply limit, year range; the rest is zero.
constexpr char kMagic[8] = {'T', 'O', 'G', 'U', 'Z', 'E', 'X', 'P'};
constexpr size_t kHeaderSize = 64;

template <typename T>
void put(unsigned char* at, T value) {
  std::memcpy(at, &value, sizeof value);
}
template <typename T>
T get(const unsigned char* at) {
  T value;
  std::memcpy(&value, at, sizeof value);
  return value;
}

auto order(const Entry& e) {
  return std::tie(e.key, e.hole, e.band, e.year);
}

bool same_bucket(const Entry& a, const Entry& b) {
  return order(a) == order(b);
}

// Adds the counts of `from` (an Entry) to `to` (an Entry or a MoveStats).
template <typename To>
void merge_into(To& to, const Entry& from) {
  to.games += from.games;
  to.white_wins += from.white_wins;
  to.draws += from.draws;
  to.black_wins += from.black_wins;
  to.rated += from.rated;
  to.rating_sum += from.rating_sum;
}

// A rating tag's value, nullopt when absent, "?" or not a number from 1 to 9999.
std::optional<int> rating_tag(const Record& record, const char* name) {
  auto text = record.tag(name);
  if (!text) return std::nullopt;
  int value = 0;
  auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value <= 0 || value > 9999)
    return std::nullopt;
  return value;
}

}  // namespace

GameFacts game_facts(const Record& record, const Game& game) {
  GameFacts f;
  for (const char* name : {"WhiteElo", "BlackElo"}) {
    if (auto r = rating_tag(record, name)) {
      ++f.rated;
      f.rating_sum += *r;
    }
  }
  if (f.rated) f.band = std::min(255, f.rating_sum / f.rated / kBandWidth + 1);
  if (auto date = record.tag("Date"); date && date->size() >= 4) {
    int year = 0;
    auto [end, ec] = std::from_chars(date->data(), date->data() + 4, year);
    if (ec == std::errc() && end == date->data() + 4 && year > 0) f.year = year;
  }
  f.result = game.result();
  return f;
}

std::optional<std::string> IndexBuilder::add_record(const Record& record) {
  Replayed r = replay_record(record);
  if (r.error) {
    std::string where = "line " + std::to_string(r.error->line);
    if (r.error->ply)
      where += ": ply " + std::to_string(r.error->ply) + ", token '" + r.error->token + "'";
    return where + ": " + r.error->message;
  }
  if (!add_game(r.game, game_facts(record, r.game))) {
    return "line " + std::to_string(record.first_line) + ": the game is played under " +
           std::string(variant_name(r.game.rules().variant())) +
           " rules, unlike the first game of the index";
  }
  return std::nullopt;
}

bool IndexBuilder::add_game(const Game& game, const GameFacts& facts) {
  if (!rules_) rules_ = game.rules();
  if (game.rules() != *rules_) return false;
  const int plies = max_ply_ > 0 ? std::min(max_ply_, game.ply_count()) : game.ply_count();
  Entry e;
  e.band = uint8_t(facts.band);
  e.year = uint16_t(facts.year);
  e.games = 1;
  e.white_wins = facts.result == Result::WhiteWins;
  e.draws = facts.result == Result::Draw;
  e.black_wins = facts.result == Result::BlackWins;
  e.rated = uint32_t(facts.rated);
  e.rating_sum = uint64_t(facts.rating_sum);
  const size_t first = entries_.size();
  for (int ply = 0; ply < plies; ++ply) {
    e.key = game.position_at(ply).key();
    e.hole = uint8_t(game.moves()[ply].hole);
    entries_.push_back(e);
  }
  // A game that repeats a position and a move counts once there.
  std::sort(entries_.begin() + first, entries_.end(),
            [](const Entry& a, const Entry& b) { return order(a) < order(b); });
  entries_.erase(std::unique(entries_.begin() + first, entries_.end(), same_bucket),
                 entries_.end());
  ++games_;
  if (facts.year) {
    year_min_ = year_min_ ? std::min(year_min_, facts.year) : facts.year;
    year_max_ = std::max(year_max_, facts.year);
  }
  // Merge when the unmerged tail outgrows the merged part, so memory follows the distinct
  // entries, not the plies read.
  if (entries_.size() - merged_ > std::max<size_t>(merged_, 1 << 20)) compact();
  return true;
}

void IndexBuilder::compact() {
  auto less = [](const Entry& a, const Entry& b) { return order(a) < order(b); };
  std::sort(entries_.begin() + merged_, entries_.end(), less);
  std::inplace_merge(entries_.begin(), entries_.begin() + merged_, entries_.end(), less);
  size_t out = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    if (out && same_bucket(entries_[out - 1], entries_[i]))
      merge_into(entries_[out - 1], entries_[i]);
    else
      entries_[out++] = entries_[i];
  }
  entries_.resize(out);
  entries_.shrink_to_fit();
  merged_ = out;
}

const std::vector<Entry>& IndexBuilder::entries() {
  if (merged_ != entries_.size()) compact();
  return entries_;
}

void IndexBuilder::write(const std::string& path) {
  const std::vector<Entry>& all = entries();
  const Rules rules = rules_.value_or(Rules{});
  unsigned char header[kHeaderSize] = {};
  std::memcpy(header, kMagic, sizeof kMagic);
  put<uint32_t>(header + 8, kIndexVersion);
  put<uint32_t>(header + 12, sizeof(Entry));
  put<uint64_t>(header + 16, all.size());
  put<uint64_t>(header + 24, games_);
  header[32] = uint8_t(rules.n);
  header[33] = rules.tuz;
  header[34] = rules.play_out;
  put<uint16_t>(header + 36, kBandWidth);
  put<uint16_t>(header + 38, uint16_t(max_ply_));
  put<uint16_t>(header + 40, uint16_t(year_min_));
  put<uint16_t>(header + 42, uint16_t(year_max_));
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(header), kHeaderSize);
  out.write(reinterpret_cast<const char*>(all.data()), std::streamsize(all.size() * sizeof(Entry)));
  out.close();
  if (!out) throw IndexError(path + ": cannot write the index");
}

bool Filter::accepts(const Entry& e) const {
  if (min_rating || max_rating) {
    if (e.band == 0) return false;
    const int lo = (e.band - 1) * kBandWidth, hi = lo + kBandWidth - 1;
    if (min_rating && hi < *min_rating) return false;
    if (max_rating && lo > *max_rating) return false;
  }
  if (from_year || to_year) {
    if (e.year == 0) return false;
    if (from_year && e.year < *from_year) return false;
    if (to_year && e.year > *to_year) return false;
  }
  return true;
}

std::optional<double> MoveStats::average_rating() const {
  if (!rated) return std::nullopt;
  return double(rating_sum) / double(rated);
}

boost::json::object move_json(const Position& pos, const MoveStats& m) {
  std::string move = std::to_string(m.hole);
  if (pos.is_legal(m.hole)) {
    Position after = pos;
    move = format_move(after.play(m.hole));
  }
  const auto r = m.average_rating();
  return boost::json::object{
      {"hole", m.hole},
      {"move", move},
      {"games", m.games},
      {"white_wins", m.white_wins},
      {"draws", m.draws},
      {"black_wins", m.black_wins},
      {"average_rating", r ? boost::json::value(int(*r + 0.5)) : boost::json::value(nullptr)}};
}

Index::Index(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY);
  if (fd < 0) throw IndexError(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw IndexError(path + ": cannot read: " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    throw IndexError(path + ": not a regular file");
  }
  size_ = size_t(st.st_size);
  if (size_ < kHeaderSize) {
    ::close(fd);
    throw IndexError(path + ": truncated: " + std::to_string(size_) +
                     " bytes, an explorer index has a " + std::to_string(kHeaderSize) +
                     "-byte header");
  }
  map_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
  ::close(fd);
  if (map_ == MAP_FAILED) {
    map_ = nullptr;
    throw IndexError(path + ": cannot map: " + std::strerror(errno));
  }
  const auto* h = static_cast<const unsigned char*>(map_);
  auto fail = [&](const std::string& why) {
    ::munmap(map_, size_);
    map_ = nullptr;
    throw IndexError(path + ": " + why);
  };
  if (std::memcmp(h, kMagic, sizeof kMagic) != 0)
    fail("not an explorer index (the file does not start with TOGUZEXP)");
  const uint32_t version = get<uint32_t>(h + 8);
  if (version != kIndexVersion)
    fail("index version " + std::to_string(version) + ", this toguz reads version " +
         std::to_string(kIndexVersion) + " (rebuild it with toguz explorer build)");
  if (get<uint32_t>(h + 12) != sizeof(Entry))
    fail("entry size " + std::to_string(get<uint32_t>(h + 12)) + ", expected " +
         std::to_string(sizeof(Entry)));
  count_ = get<uint64_t>(h + 16);
  if (count_ > (size_ - kHeaderSize) / sizeof(Entry) ||
      kHeaderSize + count_ * sizeof(Entry) != size_)
    fail("truncated or damaged: the header says " + std::to_string(count_) + " entries (" +
         std::to_string(kHeaderSize + count_ * sizeof(Entry)) + " bytes), the file has " +
         std::to_string(size_) + " bytes");
  games_ = get<uint64_t>(h + 24);
  const int n = h[32];
  if (n != 5 && n != 7 && n != 9) fail("row length " + std::to_string(n) + ", expected 5, 7 or 9");
  if (get<uint16_t>(h + 36) != kBandWidth)
    fail("rating band width " + std::to_string(get<uint16_t>(h + 36)) + ", expected " +
         std::to_string(kBandWidth));
  rules_ = Rules{n, h[33] != 0, h[34] != 0};
  max_ply_ = get<uint16_t>(h + 38);
  year_min_ = get<uint16_t>(h + 40);
  year_max_ = get<uint16_t>(h + 42);
  entries_ = reinterpret_cast<const Entry*>(h + kHeaderSize);
}

Index::~Index() {
  if (map_) ::munmap(map_, size_);
}

std::span<const Entry> Index::find(uint64_t key) const {
  const Entry* end = entries_ + count_;
  const Entry* lo =
      std::lower_bound(entries_, end, key, [](const Entry& e, uint64_t k) { return e.key < k; });
  const Entry* hi = lo;
  while (hi != end && hi->key == key) ++hi;
  return {lo, size_t(hi - lo)};
}

std::vector<MoveStats> Index::query(const Position& pos, const Filter& filter) const {
  std::vector<MoveStats> moves;
  for (const Entry& e : find(pos.key())) {
    if (!filter.accepts(e)) continue;
    if (moves.empty() || moves.back().hole != e.hole) moves.push_back(MoveStats{.hole = e.hole});
    merge_into(moves.back(), e);
  }
  std::stable_sort(moves.begin(), moves.end(),
                   [](const MoveStats& a, const MoveStats& b) { return a.games > b.games; });
  return moves;
}

}  // namespace toguz::explorer
