#include "search/selfplay.h"

#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "rules/game.h"
#include "rules/random.h"

namespace toguz::search {

namespace {

void put16(uint8_t* p, uint16_t v) {
  p[0] = uint8_t(v), p[1] = uint8_t(v >> 8);
}
void put32(uint8_t* p, uint32_t v) {
  put16(p, uint16_t(v)), put16(p + 2, uint16_t(v >> 16));
}
uint16_t get16(const uint8_t* p) {
  return uint16_t(p[0] | p[1] << 8);
}
uint32_t get32(const uint8_t* p) {
  return get16(p) | uint32_t(get16(p + 2)) << 16;
}

SelfplayRecord record_of(const Position& pos) {
  SelfplayRecord r;
  const int n = pos.n();
  for (int s = 0; s < 2; ++s)
    for (int h = 1; h <= n; ++h) r.holes[s * 9 + h - 1] = uint8_t(pos.stones(Side(s), h));
  r.kazna = {uint8_t(pos.kazna(Side::White)), uint8_t(pos.kazna(Side::Black))};
  r.tuz = {uint8_t(pos.tuz(Side::White)), uint8_t(pos.tuz(Side::Black))};
  r.side = uint8_t(index(pos.side_to_move()));
  r.n = uint8_t(n);
  const Rules rules = pos.rules();
  r.rules = uint8_t((rules.tuz ? 1 : 0) | (rules.play_out ? 2 : 0));
  r.move_number = uint16_t(pos.move_number());
  return r;
}

// One game: random opening plies, then the engine for both sides at settings.nodes per move.
// Returns its records (empty when the opening already ended the game or it ran too long).
std::vector<SelfplayRecord> play_game(const SelfplaySettings& st, uint32_t game_index,
                                      Engine& engine) {
  uint64_t rng = splitmix64_of(st.seed * 0x100000001B3ull + game_index);
  Game game(Position::start(st.rules));
  for (int i = 0; i < st.random_plies && !game.over(); ++i) {
    const uint32_t mask = game.legal_mask();
    const int count = __builtin_popcount(mask);
    int pick = int(splitmix64(rng) % uint64_t(count));
    uint32_t m = mask;
    while (pick--) m &= m - 1;
    game.play(__builtin_ctz(m) + 1);
  }
  std::vector<SelfplayRecord> out;
  if (game.over()) return out;
  engine.new_game();
  Limits limits;
  limits.nodes = st.nodes;
  while (!game.over()) {
    if (game.ply_count() >= st.max_plies) return {};
    engine.set_position(game);
    const SearchResult res = engine.search(limits);
    SelfplayRecord r = record_of(game.position());
    r.ply = uint16_t(game.ply_count());
    r.game = game_index;
    r.best_move = uint8_t(res.best_move);
    r.nodes = uint32_t(std::min<uint64_t>(res.nodes, 0xFFFFFFFFu));
    if (!res.lines.empty()) {
      const Score& s = res.lines[0].score;
      r.score = int16_t(std::clamp(s.cp, -32000, 32000));
      r.proven = s.proven;
    }
    out.push_back(r);
    if (!game.play(res.best_move))
      throw std::logic_error("selfplay: the engine gave an illegal move");
  }
  const Result result = game.result();
  const auto score = game.score();
  for (SelfplayRecord& r : out) {
    r.result = int8_t(result == Result::WhiteWins ? 1 : result == Result::BlackWins ? -1 : 0);
    r.final_margin = int16_t(score[0] - score[1]);
    r.game_plies = uint16_t(game.ply_count());
  }
  return out;
}

}  // namespace

Position SelfplayRecord::position() const {
  int h[2][Position::kMaxN] = {};
  if (n < 1 || n > Position::kMaxN) throw std::runtime_error("selfplay record: n out of range");
  for (int s = 0; s < 2; ++s)
    for (int i = 0; i < n; ++i) h[s][i] = holes[s * 9 + i];
  Rules r;
  r.n = n;
  r.tuz = rules & 1;
  r.play_out = rules & 2;
  const int t[2] = {tuz[0], tuz[1]};
  Position pos;
  std::string why;
  if (!Position::from_parts(r, h, kazna[0], kazna[1], t, Side(side & 1),
                            move_number ? move_number : 1, &pos, &why))
    throw std::runtime_error("selfplay record: " + why);
  return pos;
}

void encode_record(const SelfplayRecord& r, uint8_t* p) {
  std::memset(p, 0, kSelfplayRecordSize);
  std::memcpy(p, r.holes.data(), 18);
  p[18] = r.kazna[0], p[19] = r.kazna[1], p[20] = r.tuz[0], p[21] = r.tuz[1];
  p[22] = r.side, p[23] = r.n, p[24] = r.rules, p[25] = uint8_t(r.result), p[26] = r.proven,
  p[27] = r.best_move;
  put16(p + 28, uint16_t(r.score));
  put16(p + 30, r.ply);
  put16(p + 32, r.move_number);
  put16(p + 34, uint16_t(r.final_margin));
  put32(p + 36, r.game);
  put16(p + 40, r.game_plies);
  put32(p + 44, r.nodes);
}

SelfplayRecord decode_record(const uint8_t* p) {
  SelfplayRecord r;
  std::memcpy(r.holes.data(), p, 18);
  r.kazna = {p[18], p[19]};
  r.tuz = {p[20], p[21]};
  r.side = p[22], r.n = p[23], r.rules = p[24], r.result = int8_t(p[25]), r.proven = p[26],
  r.best_move = p[27];
  r.score = int16_t(get16(p + 28));
  r.ply = get16(p + 30);
  r.move_number = get16(p + 32);
  r.final_margin = int16_t(get16(p + 34));
  r.game = get32(p + 36);
  r.game_plies = get16(p + 40);
  r.nodes = get32(p + 44);
  return r;
}

std::string selfplay_header() {
  uint8_t h[kSelfplayHeaderSize];
  std::memcpy(h, kSelfplayMagic, 8);
  put32(h + 8, kSelfplayVersion);
  put32(h + 12, kSelfplayRecordSize);
  return std::string(reinterpret_cast<const char*>(h), kSelfplayHeaderSize);
}

std::vector<SelfplayRecord> read_selfplay(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error(path + ": cannot open");
  std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto* p = reinterpret_cast<const uint8_t*>(data.data());
  if (data.size() < kSelfplayHeaderSize || std::memcmp(p, kSelfplayMagic, 8) != 0)
    throw std::runtime_error(path + ": not a toguz self-play file (expected the magic TGZSELFP)");
  if (get32(p + 8) != kSelfplayVersion)
    throw std::runtime_error(path + ": self-play format version " + std::to_string(get32(p + 8)) +
                             ", expected " + std::to_string(kSelfplayVersion));
  if (get32(p + 12) != kSelfplayRecordSize)
    throw std::runtime_error(path + ": record size " + std::to_string(get32(p + 12)) +
                             ", expected " + std::to_string(kSelfplayRecordSize));
  const size_t body = data.size() - kSelfplayHeaderSize;
  if (body % kSelfplayRecordSize)
    throw std::runtime_error(path + ": truncated: " + std::to_string(body % kSelfplayRecordSize) +
                             " bytes after the last whole record");
  std::vector<SelfplayRecord> out(body / kSelfplayRecordSize);
  for (size_t i = 0; i < out.size(); ++i)
    out[i] = decode_record(p + kSelfplayHeaderSize + i * kSelfplayRecordSize);
  return out;
}

uint32_t selfplay_resume_point(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return 0;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) throw std::runtime_error(path + ": cannot read");
  if (size == 0) return 0;
  std::ifstream in(path, std::ios::binary);
  uint8_t h[kSelfplayHeaderSize];
  if (size < kSelfplayHeaderSize || !in.read(reinterpret_cast<char*>(h), sizeof h) ||
      std::memcmp(h, selfplay_header().data(), kSelfplayHeaderSize) != 0)
    throw std::runtime_error(path + ": cannot resume: not a toguz self-play file of version " +
                             std::to_string(kSelfplayVersion));
  const uint64_t records = (size - kSelfplayHeaderSize) / kSelfplayRecordSize;
  const uint64_t whole = kSelfplayHeaderSize + records * kSelfplayRecordSize;
  in.close();
  if (whole != size) std::filesystem::resize_file(path, whole);  // a write cut short
  if (records == 0) return 0;
  std::ifstream last(path, std::ios::binary);
  uint8_t r[kSelfplayRecordSize];
  last.seekg(std::streamoff(whole - kSelfplayRecordSize));
  if (!last.read(reinterpret_cast<char*>(r), sizeof r))
    throw std::runtime_error(path + ": cannot read");
  return decode_record(r).game + 1;
}

uint64_t run_selfplay(const SelfplaySettings& st, const std::string& path,
                      const std::function<void(int, uint64_t)>& progress) {
  const uint32_t first = st.resume ? selfplay_resume_point(path) : 0;
  std::ofstream file(path, std::ios::binary | (first > 0 ? std::ios::app : std::ios::trunc));
  if (!file) throw std::runtime_error(path + ": cannot write");
  if (first == 0) file << selfplay_header();

  // Workers take game indices in turn; finished games wait in `pending` until every earlier
  // game is written, so the file is in game order.
  std::mutex mu;
  std::map<uint32_t, std::vector<SelfplayRecord>> pending;
  uint32_t next_game = first, next_write = first;
  uint64_t positions = 0;
  bool failed = false;
  std::string error;
  auto worker = [&] {
    Engine engine;
    Options o;
    o.hash_mb = st.hash_mb;
    o.eval = st.eval;
    engine.set_options(o);
    for (;;) {
      uint32_t g;
      {
        std::lock_guard lock(mu);
        if (failed || next_game >= uint32_t(st.games)) return;
        g = next_game++;
      }
      std::vector<SelfplayRecord> recs;
      try {
        recs = play_game(st, g, engine);
      } catch (const std::exception& e) {
        std::lock_guard lock(mu);
        failed = true, error = e.what();
        return;
      }
      std::lock_guard lock(mu);
      pending[g] = std::move(recs);
      while (!pending.empty() && pending.begin()->first == next_write) {
        std::string bytes(pending.begin()->second.size() * kSelfplayRecordSize, '\0');
        for (size_t i = 0; i < pending.begin()->second.size(); ++i)
          encode_record(pending.begin()->second[i],
                        reinterpret_cast<uint8_t*>(&bytes[i * kSelfplayRecordSize]));
        file << bytes;
        positions += pending.begin()->second.size();
        pending.erase(pending.begin());
        ++next_write;
        if (progress) progress(int(next_write), positions);
      }
    }
  };
  std::vector<std::thread> threads;
  for (int i = 0; i < std::max(1, st.concurrency); ++i) threads.emplace_back(worker);
  for (auto& t : threads) t.join();
  if (failed) throw std::runtime_error(error);
  if (!file.flush()) throw std::runtime_error(path + ": cannot write");
  return positions;
}

}  // namespace toguz::search
