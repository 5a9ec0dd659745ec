#include "site/arbiter/broadcast.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "accounts/session.h"
#include "rules/notation.h"
#include "rules/record.h"
#include "rules/text.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "tournament/tgk.h"

namespace toguz::site {

namespace {

using tournament::Board;
using tournament::BoardResult;
using tournament::Event;

constexpr size_t kMaxFileBytes = size_t{4} << 20;  // a followed file read at most

// A clock face as shown: "m:ss" or "h:mm:ss", or "" for none.
bool valid_clock(const std::string& s) {
  if (s.empty()) return true;
  if (s.size() > 8) return false;
  int colons = 0;
  size_t last = std::string::npos;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == ':') {
      if (i == 0 || (last != std::string::npos && i - last != 3)) return false;
      last = i;
      ++colons;
    } else if (!std::isdigit(static_cast<unsigned char>(s[i]))) {
      return false;
    }
  }
  return colons >= 1 && colons <= 2 && s.size() - last == 3 && s[last + 1] < '6' &&
         (colons == 1 || s[s.find(':') + 1] < '6');
}

Board& board_at(Event& ev, BoardRef at) {
  if (ev.played.empty()) throw Refusal("event_no_round");
  if (at.round != int(ev.played.size())) throw Refusal("keeper_token");
  auto& boards = ev.played.back().boards;
  if (at.board < 1 || at.board > int(boards.size())) throw Refusal("event_board");
  return boards[at.board - 1];
}

// Plays the typed token on the board after the referee's checks; the board's result when the
// move ends the game.
void play_typed(Board& b, const std::string& token) {
  if (b.result != BoardResult::Pending) throw Refusal("board_finished");
  Game game = tournament::board_game(b);
  const int ply = game.ply_count();
  const std::string side = ply % 2 ? "Black" : "White";
  auto refuse = [&](const std::string& why) {
    return Refusal(
        "typed_move",
        {{"n", std::to_string(ply / 2 + 1)}, {"side", side}, {"token", token}, {"detail", why}});
  };
  MoveToken parsed;
  std::string why;
  if (!parse_move_token(token, &parsed, &why)) throw refuse(why);
  MoveInfo info;
  if (!game.play(parsed.hole, &why, &info)) throw refuse(why);
  const std::string expected = check_move_token(parsed, info);
  if (!expected.empty()) throw refuse(expected);
  b.moves.push_back(parsed.hole);
  if (game.over()) b.result = tournament::board_result(game.result());
}

void finish(Board& b, const json::object& body) {
  BoardResult res;
  if (!parse_board_result(get_string(body, "result", "", 20), &res)) throw Refusal("event_result");
  try {
    tournament::check_moves(written_moves(b), res);
  } catch (const tournament::MoveError& e) {
    throw Refusal("event_moves", {{"detail", e.what()}});
  }
  b.result = res;
}

std::string read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) throw FollowError{0, "cannot read the file"};
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  if (text.size() > kMaxFileBytes) throw FollowError{0, "the file is over 4 MiB"};
  return text;
}

// The member `name` of `o` when it is an array; an empty one otherwise.
const json::array& array_in(const json::object& o, const char* name) {
  static const json::array none;
  const json::value* v = o.if_contains(name);
  return v && v->is_array() ? v->as_array() : none;
}

// Element `i` of a saved array as an int; 0 when absent or not one.
int int_at(const json::array& a, size_t i) {
  return i < a.size() && a[i].is_int64() ? int(a[i].as_int64()) : 0;
}

// Element `i` of a saved array as a string; "" when absent or not one.
std::string string_at(const json::array& a, size_t i) {
  return i < a.size() && a[i].is_string() ? std::string(a[i].as_string()) : "";
}

}  // namespace

std::vector<std::string> written_moves(const Board& b) {
  const Game game = tournament::board_game(b);
  std::vector<std::string> out;
  for (const MoveInfo& m : game.moves()) out.push_back(format_move(m));
  return out;
}

std::string Broadcasts::hand_out(const std::string& id, BoardRef at) {
  const auto key = accounts::new_session(0, 0);
  events_[id].tokens[key.hash] = at;
  return key.token;
}

void Broadcasts::revoke(const std::string& id, BoardRef at) {
  auto& tokens = events_[id].tokens;
  std::erase_if(tokens, [&](const auto& kv) { return kv.second == at; });
}

int Broadcasts::keepers(const std::string& id, BoardRef at) const {
  auto it = events_.find(id);
  if (it == events_.end()) return 0;
  int n = 0;
  for (const auto& kv : it->second.tokens) n += kv.second == at;
  return n;
}

std::optional<BoardRef> Broadcasts::board_of(const std::string& id, std::string_view token) const {
  auto it = events_.find(id);
  const std::optional<accounts::TokenHash> hash = accounts::token_hash(token);
  if (it == events_.end() || !hash) return std::nullopt;
  // The map's lookup is not constant-time, but the hash of an unknown 32-byte token tells an
  // attacker nothing about the stored ones.
  auto t = it->second.tokens.find(*hash);
  if (t == it->second.tokens.end()) return std::nullopt;
  return t->second;
}

void Broadcasts::enter(const std::string& id, Event& ev, BoardRef at, const std::string& action,
                       const json::object& body) {
  Board& b = board_at(ev, at);
  if (action == "move") {
    play_typed(b, get_string(body, "move", "", 40));
  } else if (action == "undo") {
    if (b.moves.empty() || b.result != BoardResult::Pending) throw Refusal("no_move_to_undo");
    b.moves.pop_back();
  } else if (action == "clock") {
    const std::string w = get_string(body, "white", "", 20), k = get_string(body, "black", "", 20);
    if (!valid_clock(w) || !valid_clock(k)) throw Refusal("broadcast_clock");
    events_[id].clocks[at] = {w, k};
  } else {
    finish(b, body);
  }
}

void Broadcasts::restore(const std::string& id, std::string_view state) {
  if (events_.count(id)) return;
  Live& live = events_[id];
  json::error_code ec;
  const json::value root = json::parse(state, ec);
  const json::value* part =
      ec || !root.is_object() ? nullptr : root.as_object().if_contains("broadcast");
  if (!part || !part->is_object()) return;
  const json::object& saved = part->as_object();
  for (const json::value& t : array_in(saved, "tokens"))
    if (t.is_array() && t.as_array().size() == 3)
      live.tokens[string_at(t.as_array(), 0)] =
          BoardRef{int_at(t.as_array(), 1), int_at(t.as_array(), 2)};
  for (const json::value& c : array_in(saved, "clocks"))
    if (c.is_array() && c.as_array().size() == 4)
      live.clocks[BoardRef{int_at(c.as_array(), 0), int_at(c.as_array(), 1)}] = {
          string_at(c.as_array(), 2), string_at(c.as_array(), 3)};
  if (const json::value* d = saved.if_contains("eval_delay"); d && d->is_int64())
    live.eval_delay = int(std::clamp<int64_t>(d->as_int64(), 0, kMaxEvalDelay));
  if (const json::value* f = saved.if_contains("follow"); f && f->is_string()) {
    try {
      follow(id, std::string(f->as_string()));
    } catch (const Refusal&) {
      live.follow.clear();  // no longer allowed here
    }
  }
}

json::object Broadcasts::saved(const std::string& id, int round) const {
  auto it = events_.find(id);
  if (it == events_.end()) return {};
  const Live& live = it->second;
  json::array tokens, clocks;
  for (const auto& [hash, at] : live.tokens)
    if (at.round == round) tokens.push_back(json::array{json::string(hash), at.round, at.board});
  for (const auto& [at, faces] : live.clocks)
    if (at.round == round)
      clocks.push_back(
          json::array{at.round, at.board, json::string(faces.first), json::string(faces.second)});
  return json::object{{"tokens", std::move(tokens)},
                      {"clocks", std::move(clocks)},
                      {"follow", live.follow},
                      {"eval_delay", live.eval_delay}};
}

void Broadcasts::follow(const std::string& id, const std::string& source) {
  Live& live = events_[id];
  std::string followed;
  if (source.find("://") != std::string::npos) {
    if (!allow_urls_) throw Refusal("broadcast_urls_off");
    if (!followable_url(source)) throw Refusal("broadcast_url");
    followed = source;
  } else if (!source.empty()) {
    followed = allowed_path(source);
  }
  live.follow = followed;
  live.fetching.clear();  // a fetch under way is of the former file: its answer is dropped
  live.follow_error.reset();
  live.read_ms = 0;
}

std::string Broadcasts::allowed_path(const std::string& path) const {
  if (allowed_dir_.empty()) throw Refusal("broadcast_dir_off");
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path dir = fs::weakly_canonical(allowed_dir_, ec);
  fs::path p(path);
  if (p.is_relative()) p = dir / p;
  const fs::path full = fs::weakly_canonical(p, ec);
  const fs::path rel = full.lexically_relative(dir);
  if (ec || rel.empty() || *rel.begin() == ".." || *rel.begin() == ".")
    throw Refusal("broadcast_path");
  return full.string();
}

bool Broadcasts::poll(const std::string& id, Event& ev, int64_t now_ms) {
  auto it = events_.find(id);
  if (it == events_.end() || it->second.follow.empty()) return false;
  Live& live = it->second;
  if (followable_url(live.follow)) return poll_url(live, ev, now_ms);
  if (now_ms - live.read_ms < kPollMs) return false;
  live.read_ms = now_ms;
  try {
    const bool changed = apply_followed(read_file(live.follow), ev);
    live.follow_error.reset();
    return changed;
  } catch (const FollowError& e) {
    live.follow_error = e;
    return false;
  }
}

bool Broadcasts::poll_url(Live& live, Event& ev, int64_t now_ms) {
  bool changed = false;
  if (std::optional<UrlFetch::Result> got = live.fetch.take();
      got && live.fetching == live.follow) {
    try {
      if (!got->error.empty()) throw FollowError{0, got->error};
      changed = apply_followed(got->body, ev);
      live.follow_error.reset();
    } catch (const FollowError& e) {
      live.follow_error = e;
    }
  }
  if (!live.fetch.busy() && now_ms - live.read_ms >= kPollMs) {
    live.read_ms = now_ms;
    live.fetching = live.follow;
    live.fetch.start(live.follow);
  }
  return changed;
}

void Broadcasts::set_eval_delay(const std::string& id, int plies) {
  events_[id].eval_delay = std::clamp(plies, 0, kMaxEvalDelay);
}

json::value Broadcasts::delayed_eval(const Board& b, int delay) {
  const int shown = int(b.moves.size()) - delay;
  if (delay <= 0 || shown < 0) return nullptr;
  Board before = b;
  before.moves.resize(size_t(shown));
  before.result = BoardResult::Pending;
  std::optional<json::object> score = evals_.score(tournament::board_game(before).position());
  if (!score) return nullptr;
  return json::object{{"ply", shown}, {"score", std::move(*score)}};
}

json::object Broadcasts::live_view(const std::string& id, const Event& ev) {
  auto it = events_.find(id);
  const Live* live = it == events_.end() ? nullptr : &it->second;
  const int delay = live ? live->eval_delay : 0;
  json::array boards;
  const int round = int(ev.played.size());
  for (int i = 0; round > 0 && i < int(ev.played.back().boards.size()); ++i) {
    const Board& b = ev.played.back().boards[i];
    const Game game = tournament::board_game(b);
    json::array moves;
    for (const MoveInfo& m : game.moves()) moves.push_back(json::string(format_move(m)));
    std::pair<std::string, std::string> clocks;
    if (live) {
      auto c = live->clocks.find(BoardRef{round, i + 1});
      if (c != live->clocks.end()) clocks = c->second;
    }
    boards.push_back(
        json::object{{"white", b.white},
                     {"black", b.black},
                     {"result", std::string(board_result_text(b.result))},
                     {"moves", std::move(moves)},
                     {"position", format_position(game.position())},
                     {"clocks", json::object{{"white", clocks.first}, {"black", clocks.second}}},
                     {"keepers", keepers(id, BoardRef{round, i + 1})},
                     {"eval", delayed_eval(b, delay)}});
  }
  json::object out{{"round", round},
                   {"boards", std::move(boards)},
                   {"following", live && !live->follow.empty()},
                   {"eval_delay", delay}};
  if (live && live->follow_error)
    out["follow_error"] =
        json::object{{"line", live->follow_error->line}, {"detail", live->follow_error->detail}};
  return out;
}

namespace {

// The board of the round whose players are named `white` and `black`; -1 when none.
int board_named(const Event& ev, const std::string& white, const std::string& black) {
  const auto& boards = ev.played.back().boards;
  for (size_t i = 0; i < boards.size(); ++i)
    if (ev.players[boards[i].white].name == white && ev.players[boards[i].black].name == black)
      return int(i);
  return -1;
}

// The board a record sets, replayed: its moves and result. Throws FollowError.
Board followed_board(const Record& rec, const Event& ev, int* index) {
  if (rec.read_error) throw FollowError{rec.read_error->line, rec.read_error->message};
  const std::string white = clean_display_text(rec.tag("White").value_or(""));
  const std::string black = clean_display_text(rec.tag("Black").value_or(""));
  *index = board_named(ev, white, black);
  if (*index < 0)
    throw FollowError{rec.tag_line("White"), "round " + std::to_string(ev.played.size()) +
                                                 " has no board of '" + white + "' against '" +
                                                 black + "'"};
  const Replayed replayed = replay_record(rec);
  if (replayed.error) {
    const ReplayError& e = *replayed.error;
    throw FollowError{e.line ? e.line : rec.first_line,
                      (e.ply > 0 ? "'" + e.token + "': " : std::string()) + e.message};
  }
  Board b = ev.played.back().boards[*index];
  b.moves.clear();
  for (const MoveInfo& m : replayed.game.moves()) b.moves.push_back(m.hole);
  b.result = tournament::board_result(replayed.game.result(),
                                      rec.tag("Termination").value_or("") == "forfeit");
  return b;
}

}  // namespace

bool apply_followed(std::string_view text, Event& ev) {
  if (ev.played.empty()) return false;
  std::vector<Record> records;
  try {
    records = read_records(text);
  } catch (const ParseError& e) {
    throw FollowError{0, e.what()};
  }
  const std::string round = std::to_string(ev.played.size());
  std::vector<std::pair<int, Board>> changes;
  for (const Record& rec : records) {
    std::string whole;  // "3" of "3" or "3.1"
    for (char c : rec.tag("Round").value_or("")) {
      if (c == '.') break;
      whole += c;
    }
    if (!whole.empty() && whole.find_first_not_of("0123456789") == std::string::npos &&
        whole != round)
      continue;  // another round's game
    int index = -1;
    Board b = followed_board(rec, ev, &index);
    changes.emplace_back(index, std::move(b));
  }
  bool changed = false;
  for (auto& [i, b] : changes) {
    Board& now = ev.played.back().boards[i];
    if (now.moves == b.moves && now.result == b.result) continue;
    now = std::move(b);
    changed = true;
  }
  return changed;
}

}  // namespace toguz::site
