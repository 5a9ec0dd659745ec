// The exchange file (tournament/trf.h): a hand-checked file, round trips of simulated events,
// and refusals that name the line and the field.
#include "tournament/trf.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <stdexcept>

#include "tournament/event_json.h"
#include "trf_test_files.h"

using namespace toguz::tournament;

namespace {

Event four_player_swiss() {
  Event ev;
  ev.name = "Alatau Cup";
  ev.site = "Bishkek";
  ev.date = "2026.12.01";
  ev.rounds = 3;
  ev.players = {{"Asanov, Bakyt", 1850, "FM", "41001", "KGZ"},
                {"Ermekova, Dana", 1720, "", "", "KAZ"},
                {"Toktogulov, Erlan", 1790, "", "", ""},
                {"Kim, Alina", 0, "", "", ""}};
  ev.played.push_back(pair_next_round(ev));
  ev.played[0].boards[0].result = BoardResult::WhiteWins;
  ev.played[0].boards[1].result = BoardResult::Draw;
  ev.played.push_back(pair_next_round(ev));
  ev.played[1].boards[0].result = BoardResult::BlackForfeitWin;
  return ev;  // round 2's second board still without a result
}

// A Swiss or a round robin of `n` players, `rounds` rounds played with random results (the last
// one perhaps unfinished).
Event simulated(std::mt19937& rng, int n, bool swiss) {
  Event ev;
  ev.name = "Sim";
  ev.date = "2026.01.02";
  ev.system = swiss ? System::Swiss : System::RoundRobin;
  ev.rounds = swiss ? 1 + int(rng() % 7) : 0;
  for (int i = 0; i < n; ++i)
    ev.players.push_back({(i % 3 == 1 ? "Кажгалиев Темірлан " : "Player ") + std::to_string(i),
                          rng() % 3 ? int(1200 + rng() % 900) : 0, i % 5 == 0 ? "CM" : "", "", ""});
  const int rounds = int(rng() % (ev.total_rounds() + 1));
  const BoardResult results[] = {BoardResult::WhiteWins, BoardResult::BlackWins, BoardResult::Draw,
                                 BoardResult::WhiteForfeitWin, BoardResult::BlackForfeitWin};
  for (int r = 0; r < rounds; ++r) {
    try {
      ev.played.push_back(pair_next_round(ev));
    } catch (const std::runtime_error&) {
      break;  // a small Swiss runs out of players who may take the bye
    }
    for (Board& b : ev.played.back().boards)
      b.result = results[rng() % 10 < 8 ? rng() % 3 : 3 + rng() % 2];
  }
  if (!ev.played.empty() && rng() % 2) ev.played.back().boards[0].result = BoardResult::Pending;
  return ev;
}

std::string error_of(const std::string& text) {
  try {
    event_from_trf(text);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "(accepted)";
}

}  // namespace

TEST(Trf, AnEventAsTheColumnsSay) {
  // Pairing numbers: 1 Asanov 1850, 2 Toktogulov 1790, 3 Ermekova 1720, 4 Kim unrated.
  // Round 1: 1-3 1-0, 4-2 a draw (the top half against the bottom half, colours alternating).
  // Round 2: 2-1 won by Black (Asanov) without a game, 3-4 not finished.
  const std::string expected =
      "012 Alatau Cup\n"
      "022 Bishkek\n"
      "042 2026/12/01\n"
      "062 4\n"
      "072 3\n"
      "092 Swiss System\n"
      "XXR 3\n"
      "XXT BH-1 BH SB W DE\n"
      "001    1  FM  Asanov, Bakyt                     1850 KGZ       41001             2.0    1   "
      "  3 w 1     2 b +\n"
      "001    2      Toktogulov, Erlan                 1790                             0.5    2   "
      "  4 b =     1 w -\n"
      "001    3      Ermekova, Dana                    1720 KAZ                         0.0    4   "
      "  1 b 0     4 w *\n"
      "001    4      Kim, Alina                                                         0.5    2   "
      "  2 w =     3 b *\n";
  const Event ev = four_player_swiss();
  EXPECT_EQ(event_to_trf(ev), expected);
  // The columns (1-based) as the format counts them.
  const std::string first =
      "001    1  FM  Asanov, Bakyt                     1850 KGZ       41001  "
      "           2.0    1     3 w 1     2 b +";
  EXPECT_EQ(first.substr(4, 4), "   1");             // 5-8 starting rank
  EXPECT_EQ(first.substr(10, 3), "FM ");             // 11-13 title
  EXPECT_EQ(first.substr(14, 13), "Asanov, Bakyt");  // 15-47 name
  EXPECT_EQ(first.substr(48, 4), "1850");            // 49-52 rating
  EXPECT_EQ(first.substr(53, 3), "KGZ");             // 54-56 federation
  EXPECT_EQ(first.substr(57, 11), "      41001");    // 58-68 id
  EXPECT_EQ(first.substr(80, 4), " 2.0");            // 81-84 points
  EXPECT_EQ(first.substr(85, 4), "   1");            // 86-89 rank
  EXPECT_EQ(first.substr(91, 8), "   3 w 1");        // 92-99 round 1
  EXPECT_EQ(first.substr(101, 8), "   2 b +");       // 102-109 round 2
  const Event back = event_from_trf(expected);
  EXPECT_EQ(back.name, "Alatau Cup");
  EXPECT_EQ(back.date, "2026.12.01");
  EXPECT_EQ(back.rounds, 3);
  ASSERT_EQ(back.players.size(), 4u);
  EXPECT_EQ(back.players[0].id, "41001");
  EXPECT_EQ(back.players[0].federation, "KGZ");
  EXPECT_EQ(back.players[0].title, "FM");
  EXPECT_EQ(back.players[1].name, "Toktogulov, Erlan");
  ASSERT_EQ(back.played.size(), 2u);
  EXPECT_EQ(back.played[1].boards[0].white, 1);
  EXPECT_EQ(back.played[1].boards[0].result, BoardResult::BlackForfeitWin);
  EXPECT_EQ(back.played[1].boards[1].result, BoardResult::Pending);
  EXPECT_EQ(event_to_trf(back), expected);
}

TEST(Trf, SimulatedEventsComeBackTheSame) {
  std::mt19937 rng(20261205);
  for (int trial = 0; trial < 300; ++trial) {
    const Event ev = simulated(rng, 2 + int(rng() % 14), trial % 3 != 0);
    const std::string text = event_to_trf(ev);
    const Event back = event_from_trf(text);
    ASSERT_EQ(event_to_trf(back), text) << "trial " << trial;
    ASSERT_EQ(back.played.size(), ev.played.size());
    ASSERT_EQ(back.system, ev.system);
    // The same event: the next round pairs the same names alike (or neither can be paired).
    if (!ev.played.empty() && ev.round_complete(int(ev.played.size()) - 1) &&
        int(ev.played.size()) < ev.total_rounds()) {
      std::set<std::pair<std::string, std::string>> pa, pb;
      auto pairs_of = [](const Event& e, std::set<std::pair<std::string, std::string>>& out) {
        try {
          for (const Board& x : pair_next_round(e).boards)
            out.insert({e.players[x.white].name, e.players[x.black].name});
        } catch (const std::runtime_error&) {
          out.insert({"(none)", ""});
        }
      };
      pairs_of(ev, pa);
      pairs_of(back, pb);
      EXPECT_EQ(pa, pb) << "trial " << trial;
    }
  }
}

TEST(Trf, RefusalsNameTheLineAndTheField) {
  const std::string good = event_to_trf(four_player_swiss());
  auto changed = [&](int index, size_t col, const std::string& text) {
    return trf_line_changed(good, index, col, text);
  };
  EXPECT_EQ(error_of("012 Nobody\n"), "no player lines (001)");
  struct Damage {
    int line;
    size_t col;
    std::string text, error;
  };
  const Damage damages[] = {
      {9, 5, "   1",
       "line 10, starting rank (columns 5-8): expected a new number from 1 to 4, found '1'"},
      {9, 49, "17x0", "line 10, rating (columns 49-52): expected a number, found '17x0'"},
      {9, 102, "   3", "line 9, round 2: player 1 met 2, but that player's entry does not name 1"},
      {9, 107, "b", "line 9, round 2: both players have the same colour"},
      {9, 99, "1", "line 10, round 1: the results '1' and '=' of one game disagree"},
      {9, 92, "   9", "line 10, round 1: no player 9 to meet (1 to 4)"},
      {9, 97, "x", "line 10, round 1: expected the colour w or b, found 'x'"},
      {9, 99, "?", "line 10, round 1: expected the result 1, 0, =, +, - or *, found '?'"},
      {6, 5, "many", "line 7, XXR: expected the number of rounds, found 'many'"},
      {7, 5, "BH XY          ", "line 8, XXT: no tie-break 'XY'"},
  };
  for (const Damage& d : damages)
    EXPECT_EQ(error_of(changed(d.line, d.col, d.text)), d.error) << d.text;
  // A Swiss bye scores a point; a round robin's rest nothing: a point's bye is refused there.
  Event three;
  three.rounds = 2;
  three.players = {{"A", 1500, ""}, {"B", 1400, ""}, {"C", 1300, ""}};
  three.played.push_back(pair_next_round(three));
  std::string rr = event_to_trf(three);
  ASSERT_NE(rr.find("0000 - U"), std::string::npos);
  rr.replace(rr.find("Swiss System"), 12, "Round Robin");
  EXPECT_EQ(error_of(rr), "line 11, round 1: a bye in this event scores 0.0");
  // A team event's file (its 013 team lines) is not read as an individual event.
  EXPECT_EQ(error_of(good + "013 Almaty                           1    2\n"),
            "line " + std::to_string(std::count(good.begin(), good.end(), '\n') + 1) +
                ", 013: a team event's file: read it as a team event");
}

TEST(Trf, DamagedFilesAreRefusedNeverCrash) {
  std::mt19937 rng(7);
  const std::string good = event_to_trf(simulated(rng, 9, true));
  int refused = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const std::string text = trf_damaged(good, rng);
    try {
      const Event ev = event_from_trf(text);
      event_from_json(event_to_json(ev));  // what is accepted is a whole event
    } catch (const std::runtime_error&) {
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(Trf, WithdrawalsComeBack) {
  Event ev = four_player_swiss();
  ev.players[2].withdrawn = true;  // Toktogulov: pairing number 2
  ev.players[3].withdrawn = true;  // Kim: 4
  const std::string text = event_to_trf(ev);
  EXPECT_NE(text.find("XXT BH-1 BH SB W DE\nXXD 2 4\n001"), std::string::npos);
  const Event back = event_from_trf(text);
  EXPECT_FALSE(back.players[0].withdrawn);
  EXPECT_TRUE(back.players[1].withdrawn);
  EXPECT_FALSE(back.players[2].withdrawn);
  EXPECT_TRUE(back.players[3].withdrawn);
  EXPECT_EQ(event_to_trf(back), text);
  EXPECT_EQ(error_of(text.substr(0, text.find("XXD")) + "XXD 5\n" + text.substr(text.find("001"))),
            "line 9, XXD: expected a number from 1 to 4, found '5'");
}
