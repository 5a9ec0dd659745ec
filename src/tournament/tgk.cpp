#include "tournament/tgk.h"

#include <algorithm>
#include <map>

#include "rules/record.h"
#include "rules/text.h"

namespace toguz::tournament {

namespace {

Result game_result(BoardResult r) {
  switch (r) {
    case BoardResult::WhiteWins:
    case BoardResult::WhiteForfeitWin:
      return Result::WhiteWins;
    case BoardResult::BlackWins:
    case BoardResult::BlackForfeitWin:
      return Result::BlackWins;
    case BoardResult::Draw:
      return Result::Draw;
    case BoardResult::DoubleForfeit:  // no winner: the record's result stays "*"
    case BoardResult::Pending:
      break;
  }
  return Result::None;
}

bool is_move_number(const std::string& t) {
  if (t.empty() || t.back() != '.') return false;
  const size_t digits = t.find_first_not_of("0123456789");
  return digits > 0 && t.find_first_not_of('.', digits) == std::string::npos;
}

}  // namespace

std::vector<int> check_moves(const std::vector<std::string>& tokens, BoardResult result) {
  Record record;
  for (const std::string& t : tokens)
    if (!is_move_number(t)) record.plies.push_back(Record::Ply{t, 1});
  if (record.plies.empty()) return {};
  if (is_forfeit(result)) throw MoveError("a forfeit has no moves");
  record.result_token = std::string(result_text(game_result(result)));
  const Replayed replayed = replay_record(record);
  if (replayed.error) {
    const ReplayError& e = *replayed.error;
    if (e.ply == 0) throw MoveError(e.message);
    throw MoveError((e.ply + 1) / 2, e.ply % 2 ? "White" : "Black", e.token, e.message);
  }
  std::vector<int> holes;
  for (const MoveInfo& m : replayed.game.moves()) holes.push_back(m.hole);
  return holes;
}

Game board_game(const Board& board) {
  Game game;
  for (size_t i = 0; i < board.moves.size(); ++i) {
    std::string why;
    if (!game.play(board.moves[i], &why))
      throw MoveError("move " + std::to_string(i / 2 + 1) + (i % 2 ? " (Black)" : " (White)") +
                      ", hole " + std::to_string(board.moves[i]) + ": " + why);
  }
  const Result r = game_result(board.result);
  if (!game.over() && r != Result::None)
    game.set_recorded_result(r, r == Result::Draw ? EndReason::Agreement : EndReason::Resignation);
  return game;
}

BoardResult board_result(Result r, bool forfeit) {
  switch (r) {
    case Result::WhiteWins:
      return forfeit ? BoardResult::WhiteForfeitWin : BoardResult::WhiteWins;
    case Result::BlackWins:
      return forfeit ? BoardResult::BlackForfeitWin : BoardResult::BlackWins;
    case Result::Draw:
      return BoardResult::Draw;
    case Result::None:
      break;
  }
  return BoardResult::Pending;
}

std::vector<std::pair<std::string, std::string>> board_tags(const Event& event, int round,
                                                            const Board& b) {
  const Player& w = event.players.at(b.white);
  const Player& k = event.players.at(b.black);
  std::vector<std::pair<std::string, std::string>> tags = {
      {"Event", event.name.empty() ? "?" : event.name},
      {"Site", event.site.empty() ? "?" : event.site},
      {"Date", event.date.empty() ? "?" : event.date},
      {"Round", std::to_string(round + 1)},
      {"White", w.name},
      {"Black", k.name},
      {"Result", ""}};
  if (w.rating > 0) tags.push_back({"WhiteELO", std::to_string(w.rating)});
  if (k.rating > 0) tags.push_back({"BlackELO", std::to_string(k.rating)});
  if (!w.title.empty()) tags.push_back({"WhiteTitle", w.title});
  if (!k.title.empty()) tags.push_back({"BlackTitle", k.title});
  if (!w.id.empty()) tags.push_back({"WhiteFedId", w.id});
  if (!k.id.empty()) tags.push_back({"BlackFedId", k.id});
  if (is_forfeit(b.result)) tags.push_back({"Termination", "forfeit"});
  return tags;
}

std::string event_tgk(const Event& event) {
  std::string out;
  for (size_t r = 0; r < event.played.size(); ++r)
    for (const Board& b : event.played[r].boards) {
      if (!out.empty()) out += '\n';
      out += write_record(board_game(b), board_tags(event, int(r), b), RecordStyle::Tgk);
    }
  return out;
}

Event event_from_tgk(std::string_view text, System system) {
  Event event;
  event.system = system;
  std::map<std::string, int> index;
  const std::vector<Record> records = read_records(text);
  for (size_t g = 0; g < records.size(); ++g) {
    const Record& rec = records[g];
    const std::string where =
        "game " + std::to_string(g + 1) + " (line " + std::to_string(rec.first_line) + "): ";
    if (g == 0) {
      event.name = clean_display_text(rec.tag("Event").value_or(""));
      event.site = clean_display_text(rec.tag("Site").value_or(""));
      event.date = clean_display_text(rec.tag("Date").value_or(""));
      for (std::string* s : {&event.name, &event.site, &event.date})
        if (*s == "?") s->clear();
    }
    const std::string round_tag = rec.tag("Round").value_or("");
    int round = 0;
    try {
      size_t used = 0;
      round = std::stoi(round_tag, &used);
      if (used < round_tag.size() && round_tag[used] != '.') round = 0;
    } catch (const std::exception&) {
      round = 0;
    }
    if (round < 1 || round > 1000)
      throw std::runtime_error(where + "Round: expected a round number, got '" + round_tag + "'");
    auto player = [&](const char* side) {
      const std::string s(side);
      const std::string name = clean_display_text(rec.tag(s).value_or(""));
      if (name.empty()) throw std::runtime_error(where + s + ": the player's name is missing");
      auto [it, fresh] = index.try_emplace(name, int(event.players.size()));
      if (fresh) {
        Player p{name, 0, clean_display_text(rec.tag(s + "Title").value_or(""))};
        p.id = clean_display_text(rec.tag(s + "FedId").value_or(""));
        std::string elo = rec.tag(s + "ELO").value_or(rec.tag(s + "Elo").value_or(""));
        if (!elo.empty() && elo.find_first_not_of("0123456789") == std::string::npos &&
            elo.size() < 6)
          p.rating = std::stoi(elo);
        event.players.push_back(p);
      }
      return it->second;
    };
    Board board;
    board.white = player("White");
    board.black = player("Black");
    if (board.white == board.black)
      throw std::runtime_error(where + "White and Black are the same player");
    const Replayed replayed = replay_record(rec);
    if (replayed.error) {
      const ReplayError& e = *replayed.error;
      throw std::runtime_error(where + "line " + std::to_string(e.line) +
                               (e.ply > 0 ? ", '" + e.token + "'" : std::string()) + ": " +
                               e.message);
    }
    for (const MoveInfo& m : replayed.game.moves()) board.moves.push_back(m.hole);
    const Result res = replayed.game.result();
    const bool forfeit = rec.tag("Termination").value_or("") == "forfeit";
    board.result = res == Result::WhiteWins
                       ? (forfeit ? BoardResult::WhiteForfeitWin : BoardResult::WhiteWins)
                   : res == Result::BlackWins
                       ? (forfeit ? BoardResult::BlackForfeitWin : BoardResult::BlackWins)
                   : res == Result::Draw ? BoardResult::Draw
                   : forfeit             ? BoardResult::DoubleForfeit
                                         : BoardResult::Pending;
    if (int(event.played.size()) < round) event.played.resize(round);
    event.played[round - 1].boards.push_back(std::move(board));
  }
  for (Round& r : event.played) {
    if (r.boards.empty()) continue;
    std::vector<char> seen(event.players.size(), 0);
    for (const Board& b : r.boards) seen[b.white] = seen[b.black] = 1;
    for (size_t p = 0; p < seen.size(); ++p)
      if (!seen[p]) r.byes.push_back(int(p));
  }
  event.rounds = int(event.played.size());
  return event;
}

}  // namespace toguz::tournament
