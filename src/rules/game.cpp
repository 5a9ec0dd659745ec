#include "rules/game.h"

namespace toguz {

std::string_view result_text(Result r) {
  switch (r) {
    case Result::WhiteWins:
      return "1-0";
    case Result::BlackWins:
      return "0-1";
    case Result::Draw:
      return "1/2-1/2";
    default:
      return "*";
  }
}

bool parse_result(std::string_view s, Result* out) {
  if (s == "1-0")
    *out = Result::WhiteWins;
  else if (s == "0-1")
    *out = Result::BlackWins;
  else if (s == "1/2-1/2" || s == "½-½")
    *out = Result::Draw;
  else if (s == "*")
    *out = Result::None;
  else
    return false;
  return true;
}

std::string_view end_reason_name(EndReason r) {
  switch (r) {
    case EndReason::Decided:
      return "decided";
    case EndReason::NoMove:
      return "no-move";
    case EndReason::Repetition:
      return "repetition";
    case EndReason::Resignation:
      return "resignation";
    case EndReason::Time:
      return "time";
    case EndReason::Agreement:
      return "agreement";
    default:
      return "none";
  }
}

Result result_from_score(const std::array<int, 2>& score) {
  if (score[0] > score[1]) return Result::WhiteWins;
  if (score[1] > score[0]) return Result::BlackWins;
  return Result::Draw;
}

Game::Game(const Position& start) {
  positions_.push_back(start);
  outcome_ = compute_outcome();
}

int Game::repetition_count() const {
  // Kaznas never shrink, so only positions with the same kaznas can match; the key covers
  // holes, tuzes, kaznas and side to move. A full comparison guards against key collisions.
  const Position& now = positions_.back();
  int count = 0;
  for (auto it = positions_.rbegin(); it != positions_.rend(); ++it) {
    if (it->kazna(Side::White) != now.kazna(Side::White) ||
        it->kazna(Side::Black) != now.kazna(Side::Black))
      break;
    if (it->key() != now.key()) continue;
    bool same = it->side_to_move() == now.side_to_move();
    for (int s = 0; s < 2 && same; ++s)
      for (int h = 1; h <= now.n() && same; ++h)
        same = it->stones(Side(s), h) == now.stones(Side(s), h) &&
               it->tuz(Side(s)) == now.tuz(Side(s));
    count += same;
  }
  return count;
}

Outcome Game::compute_outcome() const {
  Outcome o = position().outcome();
  if (o != Outcome::Ongoing) return o;
  if (!position().any_tuz() && repetition_count() >= 3) return Outcome::Repetition;
  return Outcome::Ongoing;
}

EndReason Game::end_reason() const {
  switch (outcome_) {
    case Outcome::Decided:
      return EndReason::Decided;
    case Outcome::NoMove:
      return EndReason::NoMove;
    case Outcome::Repetition:
      return EndReason::Repetition;
    default:
      return recorded_reason_;
  }
}

std::array<int, 2> Game::score() const {
  return position().final_score(outcome_);
}

Result Game::result() const {
  if (recorded_ != Result::None) return recorded_;
  switch (outcome_) {
    case Outcome::Ongoing:
      return Result::None;
    case Outcome::Repetition:
      return Result::Draw;
    default:
      return result_from_score(score());
  }
}

bool Game::play(int hole, std::string* why, MoveInfo* info) {
  auto fail = [&](std::string msg) {
    if (why) *why = std::move(msg);
    return false;
  };
  if (over()) return fail("the game is over");
  const Position& pos = position();
  if (hole < 1 || hole > pos.n())
    return fail("no hole " + std::to_string(hole) + " (holes are 1.." + std::to_string(pos.n()) +
                ")");
  if (pos.tuz(opposite(pos.side_to_move())) == hole)
    return fail("hole " + std::to_string(hole) + " is the opponent's tuz");
  if (pos.stones(pos.side_to_move(), hole) == 0)
    return fail("hole " + std::to_string(hole) + " is empty");
  Position next = pos;
  MoveInfo mi = next.play(hole);
  positions_.push_back(next);
  moves_.push_back(mi);
  outcome_ = compute_outcome();
  if (info) *info = mi;
  return true;
}

bool Game::undo() {
  if (moves_.empty()) return false;
  positions_.pop_back();
  moves_.pop_back();
  recorded_ = Result::None;
  recorded_reason_ = EndReason::None;
  outcome_ = compute_outcome();
  return true;
}

void Game::set_recorded_result(Result r, EndReason reason) {
  recorded_ = r;
  recorded_reason_ = r == Result::None ? EndReason::None : reason;
}

}  // namespace toguz
