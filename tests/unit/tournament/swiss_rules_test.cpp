// What arbiters ask of a Swiss: requested byes within the event's limits, forfeits by absence
// and the withdrawal they bring, forbidden pairs, Baku acceleration and tie-breaks chosen per
// event; each by hand-made cases and by properties over simulated events, and through the
// state file and the exchange file.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>

#include "tournament/event_json.h"
#include "tournament/report.h"
#include "tournament/standings.h"
#include "tournament/trf.h"

namespace toguz::tournament {
namespace {

Event swiss(int n, int rounds) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = rounds;
  for (int i = 0; i < n; ++i)
    ev.players.push_back({"P" + std::to_string(10 + i), 2000 - 10 * i, ""});
  return ev;
}

void finish_round(Event& ev, std::mt19937& rng) {
  std::uniform_int_distribution<int> d(0, 2);
  for (Board& b : ev.played.back().boards)
    if (b.result == BoardResult::Pending)
      b.result = d(rng) == 0   ? BoardResult::WhiteWins
                 : d(rng) == 1 ? BoardResult::BlackWins
                               : BoardResult::Draw;
}

bool in(const std::vector<int>& v, int p) {
  return std::find(v.begin(), v.end(), p) != v.end();
}

bool paired(const Round& r, int p) {
  for (const Board& b : r.boards)
    if (b.white == p || b.black == p) return true;
  return in(r.byes, p);
}

TEST(RequestedBye, HalfAndZeroByesAreNotPairedAndScoreAsAsked) {
  Event ev = swiss(6, 4);
  request_bye(ev, {0, 1, ByeKind::Half});
  request_bye(ev, {5, 1, ByeKind::Zero});
  add_next_round(ev);
  const Round& r = ev.played[0];
  EXPECT_EQ(r.half_byes, std::vector<int>{0});
  EXPECT_EQ(r.zero_byes, std::vector<int>{5});
  EXPECT_FALSE(paired(r, 0));
  EXPECT_FALSE(paired(r, 5));
  EXPECT_EQ(r.boards.size(), 2u);
  EXPECT_TRUE(ev.bye_requests.empty());  // granted
  const std::vector<int> pts = half_points(ev);
  EXPECT_EQ(pts[0], 1);
  EXPECT_EQ(pts[5], 0);
  const std::string page = pairings_table(ev, 1).text();
  EXPECT_NE(page.find("\xC2\xBD bye"), std::string::npos) << page;
  EXPECT_NE(page.find("0 bye"), std::string::npos) << page;
  // Taken back, the round's byes are requests again and pair the same.
  take_back_round(ev);
  EXPECT_EQ(ev.bye_requests.size(), 2u);
  add_next_round(ev);
  EXPECT_EQ(ev.played[0].half_byes, std::vector<int>{0});
}

TEST(RequestedBye, LimitsAreRefusedWithTheirReason) {
  Event ev = swiss(6, 4);
  ev.max_half_byes = 1;
  EXPECT_EQ(check_bye(ev, {0, 1, ByeKind::Half}), ByeRefusal::None);
  request_bye(ev, {0, 1, ByeKind::Half});
  EXPECT_EQ(check_bye(ev, {0, 1, ByeKind::Zero}), ByeRefusal::AlreadyAsked);
  EXPECT_EQ(check_bye(ev, {0, 2, ByeKind::Half}), ByeRefusal::OverLimit);
  EXPECT_EQ(check_bye(ev, {0, 2, ByeKind::Zero}), ByeRefusal::None);  // zero byes: no limit
  EXPECT_EQ(check_bye(ev, {1, 4, ByeKind::Half}), ByeRefusal::LastRound);
  EXPECT_EQ(check_bye(ev, {1, 4, ByeKind::Zero}), ByeRefusal::None);
  EXPECT_EQ(check_bye(ev, {1, 5, ByeKind::Zero}), ByeRefusal::RoundNotOpen);
  EXPECT_EQ(check_bye(ev, {9, 2, ByeKind::Zero}), ByeRefusal::NoPlayer);
  ev.half_bye_last_round = true;
  EXPECT_EQ(check_bye(ev, {1, 4, ByeKind::Half}), ByeRefusal::None);
  ev.players[2].withdrawn = true;
  EXPECT_EQ(check_bye(ev, {2, 2, ByeKind::Half}), ByeRefusal::Withdrawn);
  EXPECT_THROW(request_bye(ev, {0, 3, ByeKind::Half}), std::invalid_argument);
  add_next_round(ev);
  EXPECT_EQ(check_bye(ev, {1, 1, ByeKind::Zero}), ByeRefusal::RoundNotOpen);  // paired
  EXPECT_EQ(half_byes_of(ev, 0), 1);                                          // had
  EXPECT_TRUE(cancel_bye(ev, 0, 2) == false);
  request_bye(ev, {1, 2, ByeKind::Half});
  EXPECT_TRUE(cancel_bye(ev, 1, 2));
  EXPECT_TRUE(ev.bye_requests.empty());
  Event rr = swiss(4, 0);
  rr.system = System::RoundRobin;
  EXPECT_EQ(check_bye(rr, {0, 1, ByeKind::Half}), ByeRefusal::NotSwiss);
}

// Property: over simulated events with random requests, no player has more half-point byes
// than the limit, none in the last round, and a requested bye is never paired.
TEST(RequestedBye, SimulatedEventsKeepTheLimits) {
  std::mt19937 rng(31);
  int granted = 0;
  for (int e = 0; e < 300; ++e) {
    Event ev = swiss(6 + e % 15, 5 + e % 4);
    ev.max_half_byes = e % 3;
    for (int r = 1; r <= ev.rounds; ++r) {
      for (int p = 0; p < int(ev.players.size()); ++p) {
        const ByeRequest q{p, r, rng() % 3 ? ByeKind::Half : ByeKind::Zero};
        if (rng() % 5 == 0 && check_bye(ev, q) == ByeRefusal::None) request_bye(ev, q);
      }
      const std::vector<ByeRequest> asked = ev.bye_requests;
      add_next_round(ev);
      for (const ByeRequest& q : asked) {
        ASSERT_FALSE(paired(ev.played.back(), q.player));
        ++granted;
      }
      finish_round(ev, rng);
    }
    for (int p = 0; p < int(ev.players.size()); ++p) {
      ASSERT_LE(half_byes_of(ev, p), ev.max_half_byes);
      ASSERT_FALSE(in(ev.played.back().half_byes, p));
    }
  }
  EXPECT_GT(granted, 500);
}

TEST(Forfeit, TheAbsentPlayerIsWithdrawnUnlessKept) {
  Event ev = swiss(6, 3);
  add_next_round(ev);
  Round& r = ev.played[0];
  const int absent = r.boards[0].black, came = r.boards[0].white;
  EXPECT_EQ(record_forfeit(ev, 0, 0, BoardResult::WhiteForfeitWin, false),
            std::vector<int>{absent});
  EXPECT_TRUE(ev.players[absent].withdrawn);
  EXPECT_TRUE(record_forfeit(ev, 0, 1, BoardResult::BlackForfeitWin, true).empty());  // kept
  EXPECT_FALSE(ev.players[r.boards[1].white].withdrawn);
  const std::vector<int> both = record_forfeit(ev, 0, 2, BoardResult::DoubleForfeit, false);
  EXPECT_EQ(both.size(), 2u);
  ev.forfeit_withdraws = false;
  ev.players[both[0]].withdrawn = ev.players[both[1]].withdrawn = false;
  EXPECT_TRUE(record_forfeit(ev, 0, 2, BoardResult::DoubleForfeit, false).empty());
  EXPECT_THROW(record_forfeit(ev, 0, 2, BoardResult::Draw, false), std::invalid_argument);
  // Round 2 leaves the withdrawn player out; the forfeit's winner keeps his point.
  add_next_round(ev);
  EXPECT_FALSE(paired(ev.played[1], absent));
  EXPECT_EQ(half_points(ev)[came], 2);
  EXPECT_EQ(half_points(ev)[both[0]], 0);
}

// A forfeit win counts its point, but not as a game: no win for W, the player's own score for
// Buchholz (FIDE's dummy opponent).
TEST(Forfeit, CountsAsPointsButNotAsAGameInTieBreaks) {
  Event ev = swiss(4, 1);
  ev.tie_breaks = {TieBreak::Wins, TieBreak::Buchholz};
  ev.played = {Round{
      {Board{0, 1, BoardResult::WhiteForfeitWin, {}}, Board{2, 3, BoardResult::WhiteWins, {}}},
      {}}};
  const std::vector<Standing> st = standings(ev);
  ASSERT_EQ(st[0].player, 2);  // equal points; 2's won game comes first on W
  EXPECT_EQ(st[0].tie_breaks, (std::vector<double>{1, 0}));
  EXPECT_EQ(st[1].player, 0);
  EXPECT_EQ(st[1].half_points, 2);
  EXPECT_EQ(st[1].tie_breaks, (std::vector<double>{0, 1}));  // own score, not the absent's 0
  EXPECT_EQ(board_result_text(BoardResult::DoubleForfeit), "--");
  BoardResult r;
  ASSERT_TRUE(parse_board_result("0-0f", &r));
  EXPECT_EQ(r, BoardResult::DoubleForfeit);
}

TEST(Forbidden, TheFirstRoundKeepsTheFoldOtherwise) {
  Event ev = swiss(8, 3);
  forbid_pair(ev, 4, 0);  // the fold would pair 1-5
  EXPECT_TRUE(is_forbidden(ev, 0, 4));
  forbid_pair(ev, 0, 4);
  EXPECT_EQ(ev.forbidden.size(), 1u);
  add_next_round(ev);
  for (const Board& b : ev.played[0].boards)
    EXPECT_FALSE(is_forbidden(ev, b.white, b.black)) << b.white << "-" << b.black;
  EXPECT_THROW(forbid_pair(ev, 1, 1), std::invalid_argument);
  EXPECT_THROW(forbid_pair(ev, 1, 8), std::invalid_argument);
  Event rr = swiss(4, 0);
  rr.system = System::RoundRobin;
  EXPECT_THROW(forbid_pair(rr, 0, 1), std::invalid_argument);
  EXPECT_TRUE(unforbid_pair(ev, 4, 0));
  EXPECT_FALSE(unforbid_pair(ev, 4, 0));
}

// Property: no forbidden pair is ever paired, over simulated events with up to 4 pairs.
TEST(Forbidden, SimulatedEventsNeverPairThem) {
  std::mt19937 rng(7);
  int boards = 0;
  for (int e = 0; e < 400; ++e) {
    Event ev = swiss(6 + e % 20, 5 + e % 5);
    for (int k = 0; k < 1 + e % 4; ++k) {
      const int a = int(rng() % ev.players.size()), b = int(rng() % ev.players.size());
      if (a != b) forbid_pair(ev, a, b);
    }
    for (int r = 0; r < ev.rounds; ++r) {
      add_next_round(ev);
      for (const Board& b : ev.played.back().boards) {
        ASSERT_FALSE(is_forbidden(ev, b.white, b.black)) << "event " << e << " round " << r + 1;
        ++boards;
      }
      finish_round(ev, rng);
    }
  }
  EXPECT_GT(boards, 10000);
}

TEST(Accelerated, BakuPointsForTheTopHalfThenNone) {
  Event ev = swiss(16, 7);
  ev.accelerated_rounds = 3;
  std::mt19937 rng(3);
  for (int r = 1; r <= 5; ++r) {
    const std::vector<int> real = half_points(ev), pairing = pairing_half_points(ev, r);
    for (int p = 0; p < 16; ++p) {
      const int bonus = p >= 8 ? 0 : r <= 2 ? 2 : r == 3 ? 1 : 0;  // group A: the first 8
      ASSERT_EQ(pairing[p] - real[p], bonus) << "round " << r << " player " << p;
    }
    add_next_round(ev);
    if (r == 1) {  // group A plays within itself, so does group B
      for (const Board& b : ev.played[0].boards) {
        EXPECT_EQ(b.white < 8, b.black < 8);
      }
    }
    finish_round(ev, rng);
  }
  EXPECT_EQ(half_points(ev), pairing_half_points(ev, 6));
  // Not in the standings: the virtual points are for pairing only.
  for (const Standing& s : standings(ev)) EXPECT_EQ(s.half_points, half_points(ev)[s.player]);
}

// Property: after the accelerated rounds the pairing scores are the real scores.
TEST(Accelerated, VirtualPointsRemovedAfterTheStatedRound) {
  std::mt19937 rng(11);
  for (int e = 0; e < 200; ++e) {
    Event ev = swiss(8 + e % 23, 6);
    ev.accelerated_rounds = 1 + e % 4;
    for (int r = 1; r <= ev.rounds; ++r) {
      const bool extra = pairing_half_points(ev, r) != half_points(ev);
      ASSERT_EQ(extra, r <= ev.accelerated_rounds) << "event " << e << " round " << r;
      add_next_round(ev);
      finish_round(ev, rng);
    }
  }
}

TEST(TieBreaks, ChosenPerEventInTheirOrderWithMedian) {
  Event ev;
  ev.system = System::Swiss;
  ev.rounds = 3;
  for (const char* n : {"A", "B", "C", "D", "E"}) ev.players.push_back({n, 0, ""});
  auto g = [](int w, int b, BoardResult r) { return Board{w, b, r, {}}; };
  ev.played = {Round{{g(0, 1, BoardResult::WhiteWins), g(2, 3, BoardResult::Draw)}, {4}},
               Round{{g(4, 0, BoardResult::BlackWins), g(1, 2, BoardResult::WhiteWins)}, {3}},
               Round{{g(0, 2, BoardResult::Draw), g(3, 4, BoardResult::WhiteWins)}, {1}}};
  ev.tie_breaks = {TieBreak::Median, TieBreak::Wins};
  // Buchholz contributions (docs: hand_worked_swiss): A 2,1,1  D 1,2.5,1 (own 2.5 for the bye).
  for (const Standing& s : standings(ev)) {
    ASSERT_EQ(s.tie_breaks.size(), 2u);
    if (s.player == 0 || s.player == 3) {
      EXPECT_EQ(s.tie_breaks[0], 1) << s.player;  // A 4 - 2 - 1, D 4.5 - 2.5 - 1
    }
  }
  TieBreak t;
  ASSERT_TRUE(parse_tie_break("median", &t));
  EXPECT_EQ(t, TieBreak::Median);
  ASSERT_TRUE(parse_tie_break("BH-M1", &t));
  EXPECT_EQ(tie_break_value(2.25), "2.25");
  EXPECT_EQ(tie_break_value(2.5), "2.5");
  EXPECT_EQ(tie_break_value(3), "3");
  const std::string page = standings_table(ev, standings(ev)).text();
  EXPECT_NE(page.find("BH-M1"), std::string::npos) << page;
}

// The settings, requests, pairs, byes and a double forfeit through the state file and the
// exchange file.
TEST(ArbiterSettings, SurviveTheStateFileAndTheExchangeFile) {
  Event ev = swiss(7, 5);
  ev.accelerated_rounds = 2;
  ev.max_half_byes = 1;
  ev.half_bye_last_round = true;
  ev.forfeit_withdraws = false;
  ev.tie_breaks = {TieBreak::Median, TieBreak::SonnebornBerger};
  forbid_pair(ev, 1, 5);
  request_bye(ev, {2, 1, ByeKind::Half});
  request_bye(ev, {6, 1, ByeKind::Zero});
  add_next_round(ev);
  std::mt19937 rng(5);
  finish_round(ev, rng);
  ev.played[0].boards[0].result = BoardResult::DoubleForfeit;
  request_bye(ev, {3, 3, ByeKind::Zero});
  request_bye(ev, {4, 5, ByeKind::Half});
  const std::string json = event_to_json(ev);
  EXPECT_EQ(event_to_json(event_from_json(json)), json);
  const std::string trf = event_to_trf(ev);
  EXPECT_NE(trf.find("XXP "), std::string::npos) << trf;
  EXPECT_NE(trf.find("XXA "), std::string::npos) << trf;
  EXPECT_NE(trf.find("0000 - H"), std::string::npos) << trf;
  const Event back = event_from_trf(trf);
  EXPECT_EQ(event_to_trf(back), trf);
  EXPECT_EQ(back.accelerated_rounds, 2);
  EXPECT_EQ(back.max_half_byes, 1);
  EXPECT_TRUE(back.half_bye_last_round);
  EXPECT_FALSE(back.forfeit_withdraws);
  EXPECT_EQ(back.forbidden.size(), 1u);
  EXPECT_EQ(back.bye_requests.size(), 2u);
  EXPECT_EQ(half_points(back), half_points(ev));
  ASSERT_EQ(back.played.size(), 1u);
  EXPECT_EQ(back.played[0].half_byes.size(), 1u);
  EXPECT_EQ(back.played[0].zero_byes.size(), 1u);
  EXPECT_THROW(event_from_json(R"({"format":"toguz-tournament 1","event":"","site":"","date":"",
    "system":"swiss","rounds":3,"tiebreaks":[],"players":[{"name":"A","rating":0,"title":""}],
    "played":[],"forbidden":[[0,0]]})"),
               std::runtime_error);
}

}  // namespace
}  // namespace toguz::tournament
