#include "site/arbiter/event_common.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "accounts/session.h"
#include "net/log.h"
#include "net/url.h"
#include "rules/notation.h"
#include "site/arbiter/broadcast.h"
#include "site/arbiter/print_words.h"
#include "site/games/room.h"
#include "site/games/room_registry.h"
#include "site/json_in.h"
#include "site/text_input.h"
#include "tournament/tgk.h"

namespace toguz::site {

void check_rated_date(bool rated, const std::string& date) {
  if (rated && (date.size() < 4 || date.substr(0, 4).find('?') != std::string::npos))
    throw Refusal("event_rated_date");
}

void write_rated_tgk(const std::string& dir, const std::string& id, bool finished_rated,
                     const std::function<std::string()>& tgk) {
  if (dir.empty()) return;
  namespace fs = std::filesystem;
  const fs::path file = fs::path(dir) / (id + ".tgk");
  std::error_code ec;
  if (!finished_rated) {
    fs::remove(file, ec);
    return;
  }
  const fs::path part = fs::path(dir) / ("." + id + ".tgk.part");
  {
    std::ofstream out(part, std::ios::binary | std::ios::trunc);
    out << tgk();
    if (!out.flush()) ec = std::make_error_code(std::errc::io_error);
  }
  if (!ec) fs::rename(part, file, ec);
  if (ec)
    net::log(net::LogLevel::Warn, "",
             "--ratings-events-dir: cannot write " + file.string() + ": " + ec.message());
}

EventHead event_head(const json::object& body) {
  EventHead h;
  h.name = clean_name(get_string(body, "name", "", 1000), "", kMaxTextChars);
  h.site = clean_name(get_string(body, "site", "", 1000), "", kMaxTextChars);
  h.date = get_string(body, "date", "", 20);
  if (!valid_date(h.date)) throw Refusal("event_date");
  if (!parse_system(get_string(body, "system", "", 40), &h.system)) throw Refusal("event_system");
  if (h.system == tournament::System::Swiss) {
    h.rounds = int(get_int(body, "rounds", 0, 1, kMaxSwissRounds));
    if (h.rounds == 0) throw Refusal("event_rounds");
  } else if (get_int(body, "rounds", 0, 0, kMaxSwissRounds) != 0) {
    throw Refusal("event_rounds_berger");
  }
  return h;
}

tournament::Player player_fields(const json::object& o) {
  tournament::Player p;
  p.name = clean_name(get_string(o, "name", "", 1000), "");
  if (p.name.empty()) throw Refusal("event_player_name");
  p.rating = int(get_int(o, "rating", 0, 0, 9999));
  p.title = clean_name(get_string(o, "title", "", 100), "", kMaxTitleChars);
  return p;
}

json::array tie_break_texts(const std::vector<double>& values) {
  json::array texts;
  for (double v : values) texts.push_back(json::string(tournament::tie_break_value(v)));
  return texts;
}

json::object event_view_head(const std::string& id, const std::string& name,
                             const std::string& site, const std::string& date,
                             tournament::System system, int rounds) {
  return json::object{{"id", id},
                      {"name", name},
                      {"site", site},
                      {"date", date},
                      {"system", std::string(tournament::system_name(system))},
                      {"rounds", rounds}};
}

void pair_or_refuse(const std::function<void()>& pair) {
  try {
    pair();
  } catch (const std::runtime_error& e) {
    throw Refusal("event_pairing", {{"detail", e.what()}});
  }
}

std::string trf_of_body(const json::object& body) {
  const json::value* t = body.if_contains("trf");
  if (!t || !t->is_string()) throw Refusal("field_type", {{"field", "trf"}}, "string");
  if (t->as_string().size() > kMaxTrfBytes)
    throw Refusal("event_trf_size", {{"n", std::to_string(kMaxTrfBytes)}});
  return std::string(t->as_string());
}

void read_trf_or_refuse(const std::function<void()>& read) {
  try {
    read();
  } catch (const std::runtime_error& e) {
    throw Refusal("event_trf", {{"detail", e.what()}});
  }
}

void clean_imported_head(std::string& name, std::string& site, std::string& date,
                         tournament::System system, int rounds) {
  if (system == tournament::System::Swiss && rounds > kMaxSwissRounds)
    throw Refusal("field_range",
                  {{"field", "rounds"}, {"lo", "1"}, {"hi", std::to_string(kMaxSwissRounds)}});
  name = clean_name(name, "", kMaxTextChars);
  site = clean_name(site, "", kMaxTextChars);
  std::replace(date.begin(), date.end(), '-', '.');
  if (!valid_date(date)) date.clear();
}

void clean_imported_player(tournament::Player& p) {
  p.name = clean_name(p.name, "");
  p.title = clean_name(p.title, "", kMaxTitleChars);
  if (p.name.empty()) throw Refusal("event_player_name");
}

void save_board_game(store::Store& store, const std::string& game_id, const tournament::Board& b,
                     const std::string& white, const std::string& black,
                     const std::vector<std::pair<std::string, std::string>>& tags) {
  const Game game = tournament::board_game(b);
  store::GameRow g;
  g.id = game_id;
  g.mode = std::string(mode_name(Mode::Local));
  g.variant = std::string(variant_name(game.rules().variant()));
  g.tuz = game.rules().tuz;
  g.play_out = game.rules().play_out;
  g.start_position = format_position(game.start());
  g.white_name = white;
  g.black_name = black;
  g.status = std::string(status_name(Status::Over));
  g.winner = std::string(winner_name(game.result()));
  g.reason = std::string(ending_name(ending_of(game.end_reason())));
  g.score = score_text(game);
  g.moves = game.ply_count();
  g.updated_ms = now_ms();
  for (const auto& [name, value] : tags)
    if (!value.empty()) g.tags.emplace_back(name, value);
  const std::optional<store::GameRow> old = store.load_game(g.id);
  g.created_ms = old ? old->created_ms : now_ms();
  store.save_game(g);
  for (size_t ply = 0; ply < b.moves.size(); ++ply) store.add_move(g, int(ply) + 1, b.moves[ply]);
  store.truncate_moves(g, int(b.moves.size()));
}

NewEvent create_event_row(store::Store& store, std::string state) {
  const auto key = accounts::new_session(0, 0);
  store::EventRow row{"", key.hash, std::move(state), now_ms(), now_ms()};
  do row.id = RoomRegistry::random_id(10);
  while (store.load_event(row.id));
  store.save_event(row);
  return {std::move(row), key.token};
}

store::EventRow load_event_row(store::Store& store, const std::string& id) {
  std::optional<store::EventRow> row;
  if (id.size() <= 32) row = store.load_event(id);
  if (!row) throw Refusal("no_event", {{"id", id}});
  return std::move(*row);
}

void check_arbiter_key(const json::object& body, const store::EventRow& row) {
  if (!accounts::session_matches(get_string(body, "key", "", 200), row.key_hash, INT64_MAX, 0))
    throw Refusal("wrong_key");
}

bool is_team_state(const std::string& state) {
  json::error_code ec;
  const json::value v = json::parse(state, ec);
  if (ec || !v.is_object()) return false;
  const json::value* f = v.as_object().if_contains("format");
  return f && f->is_string() &&
         std::string_view(f->as_string()).starts_with("toguz-team-tournament");
}

http::response<http::string_body> text_response(const std::string& content_type, std::string body,
                                                const std::string& filename) {
  http::response<http::string_body> res{http::status::ok, 11};
  res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  if (!filename.empty())
    res.set(http::field::content_disposition, "attachment; filename=\"" + filename + "\"");
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

bool valid_date(const std::string& d) {
  if (d.empty()) return true;
  if (d.size() != 10 || d[4] != '.' || d[7] != '.') return false;
  for (size_t i : {0, 1, 2, 3, 5, 6, 8, 9})
    if (!std::isdigit(static_cast<unsigned char>(d[i])) && d[i] != '?') return false;
  return true;
}

int round_of_query(int played, const std::string& query) {
  if (played == 0) throw Refusal("event_no_round");
  const std::string v = net::query_value(net::query_pairs(query), "round").value_or("");
  if (v.empty()) return played;
  if (v.size() > 4 || v.find_first_not_of("0123456789") != std::string::npos || std::stoi(v) < 1 ||
      std::stoi(v) > played)
    throw Refusal("event_round", {{"n", std::to_string(played)}});
  return std::stoi(v);
}

const tournament::ReportWords& words_of_query(const std::string& query) {
  return print_words(net::query_value(net::query_pairs(query), "lang").value_or("en"));
}

std::vector<int> checked_moves(const std::string& typed, const tournament::Board& board,
                               tournament::BoardResult result) {
  std::vector<std::string> tokens;
  std::istringstream in(typed);
  for (std::string w; in >> w;) tokens.push_back(w);
  if (tokens.empty()) tokens = written_moves(board);
  try {
    return tournament::check_moves(tokens, result);
  } catch (const tournament::MoveError& e) {
    if (e.move == 0) throw Refusal("event_moves", {{"detail", e.what()}});
    throw Refusal(
        "typed_move",
        {{"n", std::to_string(e.move)}, {"side", e.side}, {"token", e.token}, {"detail", e.why}});
  }
}

}  // namespace toguz::site
