// The logic of the libFuzzer targets, shared with tests/unit/rules/fuzz_regressions_test.cpp so
// that `make test` replays every input that ever crashed without needing libFuzzer. Each entry
// takes arbitrary bytes, runs one parser and checks invariants; it returns "" when all hold, else
// what failed. Parse errors (ParseError, a false return) are fine: only a crash, another exception
// or a broken invariant is a finding.
#pragma once

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "federation/identity.h"
#include "federation/rating_list.h"
#include "net/static_path.h"
#include "rules/notation.h"
#include "rules/record.h"

namespace toguz::fuzz {

// Everything about a valid position that must hold, and that every legal move keeps.
inline std::string check_position(const Position& pos, const RuleOptions& options) {
  std::string why;
  if (!pos.consistent(&why)) return "inconsistent position: " + why;
  const std::string text = format_position(pos);
  Position again;
  try {
    again = parse_position(text, options);
  } catch (const ParseError& e) {
    return "formatted position does not parse: '" + text + "': " + e.what();
  }
  if (!(again == pos)) return "position does not survive format + parse: '" + text + "'";
  if (format_position(again) != text) return "format is not stable: '" + text + "'";
  if (pos.outcome() == Outcome::NoMove) {
    auto s = pos.final_score(Outcome::NoMove);
    if (s[0] + s[1] != pos.rules().total_stones())
      return "no-move score does not hold every stone: " + text;
  }
  return "";
}

// Position strings: parse under three rule choices; a parsed position is consistent, formats and
// re-parses to itself, and so does the position after each legal move.
inline std::string position_entry(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  RuleOptions choices[3];
  choices[1].tuz = false;
  choices[2].play_out = true;
  for (const RuleOptions& options : choices) {
    try {
      Position pos;
      try {
        pos = parse_position(text, options);
      } catch (const ParseError&) {
        continue;
      }
      if (auto bad = check_position(pos, options); !bad.empty()) return bad;
      const uint32_t mask = pos.legal_mask();
      for (int hole = 1; hole <= pos.n(); ++hole) {
        if (!(mask >> (hole - 1) & 1)) continue;
        Position next = pos;
        MoveInfo info = next.play(hole);
        if (next.key() != next.compute_key())
          return "incremental key differs after " + std::to_string(hole);
        if (auto bad = check_position(next, options); !bad.empty())
          return "after hole " + std::to_string(hole) + ": " + bad;
        MoveToken token;
        std::string why;
        const std::string written = format_move(info, MoveStyle::Book);
        if (!parse_move_token(written, &token, &why) || !check_move_token(token, info).empty())
          return "the move's own token '" + written + "' does not check";
      }
    } catch (const std::exception& e) {
      return std::string("unexpected exception: ") + e.what();
    }
  }
  return "";
}

// Move tokens: the syntax never crashes; a token that parses has sane fields, and checking it
// against a real move agrees with the landing hole it names.
inline std::string move_token_entry(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    MoveToken token;
    std::string why;
    if (!parse_move_token(text, &token, &why)) {
      if (why.empty()) return "a rejected token gives no reason";
      return "";
    }
    if (token.hole < 1 || token.hole > 9) return "hole out of range";
    if (token.landing < 0 || token.landing > 9) return "landing out of range";
    if (token.tuz_mark && token.landing == 0) return "tuz mark without landing";
    if (token.kazna < -1) return "negative kazna";
    for (Variant v : {Variant::Standard, Variant::Kozdatu, Variant::Bestemshi}) {
      Position pos = Position::start(Rules::for_variant(v));
      if (!pos.is_legal(token.hole)) continue;
      MoveInfo info = pos.play(token.hole);
      std::string mismatch = check_move_token(token, info);
      bool agrees = (token.landing == 0 || token.landing == info.last_hole) &&
                    (token.landing == 0 || token.tuz_mark == info.tuz_made) &&
                    (token.kazna < 0 || token.kazna == info.kazna_after);
      if (mismatch.empty() != agrees)
        return "check_move_token disagrees with the move: '" + mismatch + "'";
    }
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
  return "";
}

// Records: read, replay, write in both styles, read and replay again: the same game, and the
// writer is stable. Whatever the input, the replayed prefix of each game is a valid game.
// The input's length picks rule overrides (none, play-out, tuz on/off), as `toguz replay
// --play-out --tuz on|off` would give them; the written record must carry them in its tags.
inline std::string record_entry(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  RuleOptions overrides;
  overrides.play_out = size % 2 == 1;
  if (size % 6 >= 4) overrides.tuz = size % 6 == 4;
  try {
    std::vector<Record> records;
    try {
      records = read_records(text);
    } catch (const ParseError&) {
      return "";
    }
    size_t count = 0;
    for (const Record& record : records) {
      if (++count > 64) break;  // keeps each run short
      Replayed r = replay_record(record, overrides);
      const Game& game = r.game;
      std::string why;
      if (!game.position().consistent(&why)) return "replayed game is inconsistent: " + why;
      if (r.error && r.error->message.empty()) return "an error without a message";
      // A game cut short by an error does not end where its Count tag says: that tag goes.
      auto tags = record.tags;
      if (r.error) std::erase_if(tags, [](const auto& tag) { return tag.first == "Count"; });
      for (RecordStyle style : {RecordStyle::PlayOK, RecordStyle::Tgk}) {
        const std::string written = write_record(game, tags, style);
        std::vector<Record> back;
        try {
          back = read_records(written);
        } catch (const ParseError& e) {
          return std::string("written record does not read: ") + e.what() + "\n" + written;
        }
        if (back.size() != 1)
          return "written record reads as " + std::to_string(back.size()) + " games\n" + written;
        Replayed again = replay_record(back[0]);
        if (again.error)
          return "written record does not replay: " + again.error->message + "\n" + written;
        const Game& g2 = again.game;
        if (!(g2.start() == game.start()) || g2.ply_count() != game.ply_count() ||
            !(g2.position() == game.position()) || g2.result() != game.result() ||
            g2.end_reason() != game.end_reason())
          return "written record replays to another game\n" + written;
        if (write_record(g2, back[0].tags, style) != written)
          return "writer is not stable\n" + written;
      }
    }
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
  return "";
}

// TGK round trip of a whole file: every game that reads and replays is written in TGK (games
// joined by blank lines, as `toguz convert --to tgk` does), and that text must read back as
// the same games: as many, none bad, each with the same start, moves, end and result, the same
// tags (Result, Variant, Rules and FEN are rewritten from the game; control characters become
// spaces), and a stable writer.
inline std::string tgk_round_trip_entry(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // The tags the writer keeps as they are, control characters written as spaces.
  auto plain_tags = [](const Record& r) {
    std::vector<std::pair<std::string, std::string>> out;
    for (auto [name, value] : r.tags) {
      if (name == "Result" || name == "Variant" || name == "Rules" || name == "FEN") continue;
      for (char& c : value)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
      out.emplace_back(name, value);
    }
    return out;
  };
  auto write_all = [](const std::vector<std::pair<Game, const Record*>>& games) {
    std::string out;
    for (const auto& [game, record] : games) {
      if (!out.empty()) out += '\n';
      out += write_record(game, record->tags, RecordStyle::Tgk);
    }
    return out;
  };
  try {
    RecordFile file;
    try {
      file = read_record_file(text);
    } catch (const ParseError&) {
      return "";
    }
    if (file.games.size() > 64) file.games.resize(64);  // keeps each run short
    std::vector<std::pair<Game, const Record*>> good;
    for (const Record& record : file.games) {
      if (record.read_error && describe(*record.read_error).empty())
        return "a read error without a message";
      Replayed r = replay_record(record);
      if (!r.error) good.emplace_back(r.game, &record);
    }
    if (good.empty()) return "";
    const std::string written = write_all(good);
    std::vector<Record> back;
    try {
      back = read_records(written);
    } catch (const ParseError& e) {
      return std::string("written TGK does not read: ") + e.what() + "\n" + written;
    }
    if (back.size() != good.size())
      return std::to_string(good.size()) + " games written as TGK read back as " +
             std::to_string(back.size()) + "\n" + written;
    std::vector<std::pair<Game, const Record*>> again;
    for (size_t k = 0; k < back.size(); ++k) {
      Replayed r = replay_record(back[k]);
      if (r.error)
        return "written TGK game does not replay: " + describe(*r.error) + "\n" + written;
      const Game& a = good[k].first;
      const Game& b = r.game;
      if (!(b.start() == a.start()) || b.ply_count() != a.ply_count() ||
          !(b.position() == a.position()) || b.result() != a.result() ||
          b.end_reason() != a.end_reason())
        return "game " + std::to_string(k + 1) + " reads back as another game\n" + written;
      if (plain_tags(back[k]) != plain_tags(*good[k].second))
        return "game " + std::to_string(k + 1) + " reads back with other tags\n" + written;
      again.emplace_back(r.game, &back[k]);
    }
    if (write_all(again) != written) return "TGK writer is not stable\n" + written;
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
  return "";
}

// A static root made once per process: index.html, assets/app.js, a file outside the root, and
// links inside it pointing to that file and to the root's parent.
struct PathTree {
  std::filesystem::path root, outside;
  PathTree() {
    namespace fs = std::filesystem;
    const fs::path base =
        fs::temp_directory_path() / ("toguz-path-fuzz-" + std::to_string(::getpid()));
    root = base / "dist";
    outside = base / "secret.txt";
    std::error_code ec;
    fs::create_directories(root / "assets", ec);
    std::ofstream(root / "index.html") << "app";
    std::ofstream(root / "assets" / "app.js") << "js";
    std::ofstream(outside) << "secret";
    fs::create_symlink(outside, root / "link", ec);
    fs::create_directory_symlink(base, root / "assets" / "up", ec);
    root = fs::canonical(root);
  }
  ~PathTree() {
    std::error_code ec;
    std::filesystem::remove_all(outside.parent_path(), ec);
  }
};

// Request paths: path_segments never yields a segment that could leave a folder, its segments
// percent-encoded again read back the same, and whatever static_file returns is a regular file
// under the root's canonical path (never the file outside it).
inline std::string path_entry(const uint8_t* data, size_t size) {
  static const PathTree tree;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    auto segments = net::path_segments(text);
    if (segments) {
      std::string again;
      for (const std::string& s : *segments) {
        if (s.empty() || s == "." || s == ".." ||
            s.find_first_of(std::string_view("/\\\0", 3)) != std::string::npos)
          return "a hostile segment got through: '" + s + "'";
        again += '/';
        for (unsigned char c : s) {
          static const char* kHex = "0123456789ABCDEF";
          again += '%';
          again += kHex[c >> 4];
          again += kHex[c & 15];
        }
      }
      if (again.empty()) again = "/";
      if (net::path_segments(again) != segments)
        return "encoded segments read back otherwise: " + again;
    }
    if (auto file = net::static_file(tree.root, text)) {
      const std::string f = file->string(), r = tree.root.string() + "/";
      if (f.compare(0, r.size(), r) != 0) return "a file outside the root: " + f;
      if (!std::filesystem::is_regular_file(*file)) return "not a regular file: " + f;
      if (!segments) return "a file for a path path_segments refuses";
    }
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
  return "";
}

// The rating officer's files (src/federation): the list's CSV, the profile and the names file
// read from the same bytes. A list that reads is written and read back to the same fields.
inline std::string federation_entry(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  using federation::InputError;
  try {
    try {
      const std::vector<federation::ListEntry> list = federation::parse_list(text);
      const std::vector<federation::ListEntry> again =
          federation::parse_list(federation::list_csv(list));
      if (again.size() != list.size()) return "the written list reads back with another length";
      for (size_t i = 0; i < list.size(); ++i)
        if (again[i].name != list[i].name || again[i].region != list[i].region ||
            again[i].after != list[i].after || again[i].before != list[i].before ||
            again[i].id != list[i].id)
          return "the written list reads back otherwise at player " + std::to_string(i + 1);
    } catch (const InputError&) {
    }
    try {
      federation::parse_profile(text);
    } catch (const InputError&) {
    }
    try {
      federation::parse_name_map(text);
    } catch (const InputError&) {
    }
  } catch (const std::exception& e) {
    return std::string("unexpected exception: ") + e.what();
  }
  return "";
}

}  // namespace toguz::fuzz
