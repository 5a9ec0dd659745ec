#include "engine_work/review.h"

#include <boost/json.hpp>

#include "protocol/analysis_json.h"
#include "rules/notation.h"
#include "search/annotate.h"

namespace toguz::engine_work {

namespace json = boost::json;

namespace {

// "white" or "black", the protocol's word (rules' side_name is the record's "White").
const char* side_word(Side s) {
  return s == Side::White ? "white" : "black";
}

}  // namespace

// The review through the engine's annotate code (search/annotate.h, as `toguz annotate`).
std::string review_json(search::Engine& engine, const Game& game, uint64_t nodes,
                        const std::function<void(int, int)>& progress,
                        const std::atomic<bool>* cancel, const search::Options& options) {
  search::Limits limits;
  limits.nodes = nodes;
  const search::GameReview review =
      search::review_game(engine, game, limits, options, progress, cancel);
  if (!review.complete) return "";
  json::array moves;
  for (const search::MoveReview& m : review.moves) {
    json::array best_pv;
    for (int h : m.best_pv) best_pv.push_back(h);
    // the best move as written in the move list ("65(10)"), so the client needs no rules
    Position before = game.position_at(m.ply - 1);
    json::value best_notation = nullptr;
    if (before.outcome() == Outcome::Ongoing && before.is_legal(m.best_hole))
      best_notation = json::string(format_move(before.play(m.best_hole)));
    moves.push_back(
        json::object{{"ply", m.ply},
                     {"hole", m.hole},
                     {"side", side_word(m.side)},
                     {"white_cp", m.white_cp},
                     {"best", m.best_hole},
                     {"best_pv", std::move(best_pv)},
                     {"best_notation", std::move(best_notation)},
                     {"loss_cp", m.loss_cp},
                     {"mark", m.mark.empty() ? json::value(nullptr) : json::value(m.mark)},
                     {"white", protocol::score_json(m.white, Side::White)},
                     {"best_score", protocol::score_json(m.best, m.side)}});
  }
  json::object players;
  for (int s = 0; s < 2; ++s) {
    const search::PlayerSummary& p = review.players[s];
    players[side_word(Side(s))] = json::object{{"moves", p.moves},
                                               {"average_loss_cp", p.average_loss_cp},
                                               {"inaccuracies", p.inaccuracies},
                                               {"mistakes", p.mistakes},
                                               {"blunders", p.blunders}};
  }
  return json::serialize(
      json::object{{"moves", std::move(moves)}, {"players", std::move(players)}});
}

}  // namespace toguz::engine_work
