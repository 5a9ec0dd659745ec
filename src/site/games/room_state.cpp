// The JSON edge of a room: the "state" message (docs/web-protocol.md <Game>), built for one
// viewer (`legal` only for the side that may move now, `you`, `can_claim`).
#include <algorithm>

#include "rules/notation.h"
#include "site/games/room.h"
#include "site/json_out.h"
#include "site/texts.h"

namespace toguz::site {

namespace {

using std::chrono::milliseconds;

json::value side_or_null(const std::optional<Side>& s) {
  return s ? json::value(side_word(*s)) : json::value(nullptr);
}

json::value text_or_null(const std::string& s) {
  return s.empty() ? json::value(nullptr) : json::value(s);
}

json::array holes_of(uint32_t mask) {
  json::array a;
  for (int h = 1; h <= Position::kMaxN; ++h)
    if (mask >> (h - 1) & 1u) a.push_back(h);
  return a;
}

}  // namespace

json::object Room::board_json() const {
  const Position& pos = game.position();
  json::object board;
  for (Side s : {Side::White, Side::Black}) {
    json::array holes;
    for (int h = 1; h <= game.rules().n; ++h) holes.push_back(pos.stones(s, h));
    board[side_word(s)] = std::move(holes);
  }
  board["kazna"] =
      json::object{{"white", pos.kazna(Side::White)}, {"black", pos.kazna(Side::Black)}};
  board["tuz"] = json::object{{"white", pos.tuz(Side::White)}, {"black", pos.tuz(Side::Black)}};
  return board;
}

// Only the plies made since the last state are formatted.
json::array& Room::moves_json() {
  json::array& moves = moves_json_;
  if (int(moves.size()) > game.ply_count()) moves.clear();
  for (int i = int(moves.size()); i < game.ply_count(); ++i) {
    const MoveInfo& m = game.moves()[i];
    const Side mover = game.position_at(i).side_to_move();
    json::object mv;
    mv["hole"] = int(m.hole);
    mv["side"] = side_word(mover);
    mv["notation"] = format_move(m);
    mv["captured"] = int(m.captured);
    mv["tuz"] = m.tuz_made;
    mv["from"] = json::object{{"side", side_word(mover)}, {"hole", int(m.hole)}};
    mv["to"] = json::object{{"side", side_word(m.last_row)}, {"hole", int(m.last_hole)}};
    mv["position"] = format_position(game.position_at(i + 1));
    moves.push_back(std::move(mv));
  }
  return moves;
}

json::object Room::players_json(SteadyClock::time_point now) const {
  json::object out;
  for (Side s : {Side::White, Side::Black}) {
    const bool engine = engine_side == s;
    const bool connected = seat_present(s);
    const Player& pl = players[index(s)];
    json::object p;
    p["name"] = pl.name;
    p["default_name"] = default_name_code(pl.name, engine, level);
    p["engine"] = engine;
    p["level"] = engine ? json::value(level) : json::value(nullptr);
    p["connected"] = connected;
    // Accounts and ratings: the account's name, and in a rated game the rating before it and
    // once it is over the change.
    p["account"] = pl.user_id > 0 ? json::value(pl.name) : json::value(nullptr);
    p["rating"] = rated ? json::value(pl.rating) : json::value(nullptr);
    p["provisional"] = rated && pl.provisional;
    p["rating_diff"] =
        rated && status == Status::Over ? json::value(pl.rating_diff) : json::value(nullptr);
    p["away_ms"] =
        connected
            ? json::value(nullptr)
            : json::value(
                  std::chrono::duration_cast<milliseconds>(now - gone_since_[index(s)]).count());
    out[side_word(s)] = std::move(p);
  }
  return out;
}

json::value Room::clock_json() const {
  if (!has_clock()) return nullptr;
  return json::object{
      {"white_ms", std::max<int64_t>(0, clock_left(Side::White))},
      {"black_ms", std::max<int64_t>(0, clock_left(Side::Black))},
      {"increment_ms", increment_ms},
      {"initial_ms", clock_initial_ms},
      {"running", clock_running_ && status == Status::Playing ? json::value(side_word(to_move()))
                                                              : json::value(nullptr)}};
}

namespace {

const char* const kTournamentTag = "Tournament";
const char* const kEventTag = "Event";

std::string tag_value(const std::vector<std::pair<std::string, std::string>>& tags,
                      const char* name) {
  for (const auto& [k, v] : tags)
    if (k == name) return v;
  return "";
}

}  // namespace

void Room::set_tournament(const std::string& id, const std::string& name) {
  std::erase_if(tags,
                [](const auto& t) { return t.first == kTournamentTag || t.first == kEventTag; });
  tags.emplace_back(kTournamentTag, id);
  tags.emplace_back(kEventTag, name);
}

std::string Room::tournament_id() const {
  return mode == Mode::Online ? tag_value(tags, kTournamentTag) : "";
}

std::string Room::tournament_name() const {
  return tournament_id().empty() ? "" : tag_value(tags, kEventTag);
}

json::value Room::time_control_json() const {
  if (has_clock())
    return json::object{
        {"kind", "clock"}, {"initial_ms", clock_initial_ms}, {"increment_ms", increment_ms}};
  if (correspondence()) return json::object{{"kind", "correspondence"}, {"days", days_per_move}};
  return json::object{{"kind", "none"}};
}

bool Room::can_claim(Seat viewer, SteadyClock::time_point now) const {
  const auto me = side_of(viewer);
  if (mode != Mode::Online || status != Status::Playing || !me) return false;
  const Side opp = opposite(*me);
  if (correspondence()) return to_move() == opp && now_ms() >= move_deadline_ms;
  return !seat_present(opp) &&
         now - gone_since_[index(opp)] >= std::chrono::seconds(services_.config.abandon_seconds);
}

json::object Room::state_json(Seat viewer, bool whole) {
  const Rules rules = game.rules();
  const auto now = SteadyClock::now();
  json::object o;
  if (whole) {
    o["id"] = id;
    o["mode"] = mode_name(mode);
    o["variant"] = variant_name(rules.variant());
    o["tuz"] = rules.tuz;
    o["play_out"] = rules.play_out;
    o["n"] = rules.n;
    o["start_position"] = format_position(game.start());
  }
  o["position"] = format_position(game.position());
  o["board"] = board_json();
  if (whole) o["moves"] = moves_json();
  o["ply"] = game.ply_count();
  o["to_move"] = side_word(to_move());
  o["legal"] = may_move(viewer) ? holes_of(game.legal_mask()) : json::array();
  o["status"] = status_name(status);
  if (finished(status)) {
    o["result"] = json::object{{"winner", text_or_null(std::string(winner_name(winner)))},
                               {"reason", ending_name(reason)},
                               {"score", score.empty() ? score_text(game) : score},
                               {"aborted_by", side_or_null(aborted_by)}};
  } else {
    o["result"] = nullptr;
  }
  o["players"] = players_json(now);
  o["clock"] = clock_json();
  o["draw_offer"] = side_or_null(draw_offer_);
  o["rematch_offer"] = side_or_null(rematch_offer_);
  o["takeback_offer"] = side_or_null(takeback_offer_);
  o["you"] = seat_name(viewer);
  o["thinking"] = thinking_;
  o["spectators"] = spectators;
  // Additions to the protocol: the abandon delay, whether `you` may claim the win now, the
  // rematch game once there is one.
  o["abandon_ms"] = int64_t(services_.config.abandon_seconds) * 1000;
  o["can_claim"] = can_claim(viewer, now);
  o["correspondence"] = correspondence()
                            ? json::value(json::object{{"days_per_move", days_per_move},
                                                       {"deadline_ms", move_deadline_ms}})
                            : json::value(nullptr);
  const auto me = side_of(viewer);
  o["can_offer_draw"] = me && status == Status::Playing && draw_offer_ != me && may_offer_draw(*me);
  o["can_takeback"] = me && may_propose_takeback(*me);
  // Fair play: whether `you` may abort now, and the time left for the first move due.
  o["can_abort"] = mode == Mode::Online && me &&
                   (status == Status::Waiting ||
                    (status == Status::Playing && game.ply_count() < kStartedPlies));
  const auto first_move = first_move_left_ms();
  o["first_move_ms"] = first_move ? json::value(*first_move) : json::value(nullptr);
  o["rematch_id"] = text_or_null(rematch_id);
  o["rated"] = rated;
  o["unrated_reason"] = text_or_null(unrated_reason);
  o["speed"] = text_or_null(speed);
  o["days_per_move"] = days_per_move > 0 ? json::value(days_per_move) : json::value(nullptr);
  // The game's context: its time control and, for a tournament's game, the tournament.
  o["time_control"] = time_control_json();
  const std::string tournament = tournament_id();
  o["tournament"] =
      tournament.empty()
          ? json::value(nullptr)
          : json::value(json::object{{"id", tournament}, {"name", tournament_name()}});
  // The store refuses the game's writes: the clocks stand still until it takes them again
  // (its code: store_busy, store_read_only, store_full, store_unavailable), null otherwise.
  o["store"] = store_fault_ ? json::value(store::fault_code(*store_fault_)) : json::value(nullptr);
  return o;
}

std::string Room::state_message(Seat viewer) {
  return json::serialize(json::object{{"type", "state"}, {"game", state_json(viewer)}});
}

std::string Room::delta_message(Seat viewer, bool with_move) {
  json::value move = nullptr;
  if (with_move && game.ply_count() > 0) move = moves_json().back();
  return json::serialize(json::object{
      {"type", "delta"}, {"move", std::move(move)}, {"game", state_json(viewer, false)}});
}

}  // namespace toguz::site
