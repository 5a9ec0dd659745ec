// The online tournaments' behaviour without the server (site/tournaments/tournaments.h): creation
// checks, joining and withdrawing, an arena on a fake clock (pairing, streak points, pausing the
// absent, the end), a Swiss and a round robin round by round (forfeits of the absent), and a
// restart from the stored state.
#include "site/tournaments/tournaments.h"

#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "lobby_fakes.h"
#include "site/refusal.h"

namespace toguz::site {
namespace {

namespace json = boost::json;
using tournament::BoardResult;

// The code a player's page translates a refusal by (texts.h); "" for none.
std::string code(const Refused& refusal) {
  return refusal ? refusal->code() : "";
}

// A refusal's English; "" for none.
std::string english(const Refused& refusal) {
  return refusal ? refusal->english() : "";
}

using test::account;

struct TournamentsFixture : ::testing::Test {
  int64_t now = 1'000'000'000;
  std::set<int64_t> online{1, 2, 3, 4, 5};
  std::vector<PairedGame> games;  // in order of starting
  std::vector<std::string> game_ids;
  std::map<std::string, store::TournamentRow> saved;
  std::map<std::string, BoardResult> stored_results;  // what game_result answers
  std::set<std::string> started;                      // games with a move: not called off
  std::vector<std::string> called_off;                // the games call_off ended
  int ids = 0;

  TournamentHooks hooks() {
    TournamentHooks h;
    h.now_ms = [this] { return now; };
    h.online = [this](int64_t u) { return online.count(u) > 0; };
    h.start_game = [this](const PairedGame& g) {
      games.push_back(g);
      game_ids.push_back("g" + std::to_string(games.size()));
      return PairedSeats{"", game_ids.back(), "w", "b"};
    };
    h.rating = [](const Viewer& v, accounts::Speed) {
      return LobbyRating{1500.0 + double(v.user_id) * 10, true};
    };
    h.save = [this](const store::TournamentRow& r) { saved[r.id] = r; };
    h.new_id = [this] { return "t" + std::to_string(++ids); };
    h.game_result = [this](const std::string& id) -> std::optional<BoardResult> {
      auto it = stored_results.find(id);
      if (it == stored_results.end()) return std::nullopt;
      return it->second;
    };
    h.call_off = [this](const std::string& id) {
      if (started.count(id)) return false;
      called_off.push_back(id);
      return true;
    };
    return h;
  }
  Tournaments tours{hooks()};

  TournamentSpec arena_spec() {
    TournamentSpec s;
    s.name = "Blitz arena";
    s.system = TournamentSystem::Arena;
    s.initial_ms = 60000;
    s.increment_ms = 0;
    s.starts_ms = now + 60000;
    s.duration_ms = 10 * 60000;
    return s;
  }
  std::string make(const TournamentSpec& s) {
    EXPECT_EQ(english(tours.check(s)), "");
    return tours.create(s, account(1, "Aigerim"));
  }
  json::object view(const std::string& id, int64_t user = 0) {
    return *tours.view(id, user ? account(user, "") : Viewer{});
  }
  // The players' names by user id 1..5.
  static std::string name(int64_t u) {
    static const char* names[] = {"", "Aigerim", "Bolat", "Dana", "Ermek", "Farida"};
    return names[u];
  }
  void join(const std::string& id, std::initializer_list<int64_t> users) {
    for (int64_t u : users) ASSERT_EQ(english(tours.join(id, account(u, name(u)), "")), "") << u;
  }
  // The name of White / Black of started game i (0-based).
  std::string white(size_t i) { return games.at(i).white.username; }
  std::string black(size_t i) { return games.at(i).black.username; }
  // A standing's points by name.
  std::map<std::string, std::string> points(const std::string& id) {
    std::map<std::string, std::string> out;
    const json::object v = view(id);
    for (const json::value& s : v.at("standings").as_array())
      out[std::string(s.at("name").as_string())] = std::string(s.at("points").as_string());
    return out;
  }
};

TEST_F(TournamentsFixture, CheckNamesTheField) {
  TournamentSpec s = arena_spec();
  s.name = "";
  EXPECT_EQ(code(tours.check(s)), "tournament_name");
  // A word that names no system is refused where it is read.
  EXPECT_EQ(parse_tournament_system("knockout"), std::nullopt);
  EXPECT_TRUE(refusal_known("tournament_system"));
  for (const char* w : {"arena", "swiss", "round-robin", "double-round-robin"})
    EXPECT_EQ(system_name(*parse_tournament_system(w)), w);
  s = arena_spec();
  s.duration_ms = 0;
  EXPECT_EQ(code(tours.check(s)), "tournament_duration");
  s = arena_spec();
  s.initial_ms = 1000;
  EXPECT_EQ(code(tours.check(s)), "tournament_clock");
  s = arena_spec();
  s.starts_ms = now - 3600000;
  EXPECT_EQ(code(tours.check(s)), "tournament_start");
  s = arena_spec();
  s.system = TournamentSystem::Swiss;
  s.duration_ms = 0;
  EXPECT_EQ(code(tours.check(s)), "tournament_rounds");
  s.rounds = 5;
  EXPECT_EQ(english(tours.check(s)), "");
  s.system = TournamentSystem::RoundRobin;
  s.rounds = 0;
  s.max_players = 40;
  EXPECT_EQ(code(tours.check(s)), "tournament_players");
  s.max_players = 10;
  s.rounds = 3;
  EXPECT_EQ(code(tours.check(s)), "tournament_rounds_swiss");
  s.rounds = 0;
  s.duration_ms = 60000;
  EXPECT_EQ(code(tours.check(s)), "tournament_duration_arena");
  s.duration_ms = 0;
  s.increment_ms = -1;
  EXPECT_EQ(code(tours.check(s)), "tournament_increment");
  s.increment_ms = 0;
  s.entry_code = std::string(41, 'k');
  EXPECT_EQ(code(tours.check(s)), "tournament_code_long");
  EXPECT_EQ(saved.size(), 0u);  // nothing was made
}

TEST_F(TournamentsFixture, JoinWithdrawAndTheEntryCode) {
  TournamentSpec s = arena_spec();
  s.entry_code = "kokpar";
  s.max_players = 2;
  const std::string id = make(s);
  EXPECT_EQ(saved.at(id).status, "upcoming");
  EXPECT_EQ(english(tours.join(id, Viewer{}, "kokpar")), "sign in to join a tournament");
  EXPECT_EQ(english(tours.join(id, account(2, "Bolat"), "wrong")), "code: wrong entry code");
  EXPECT_EQ(english(tours.join(id, account(2, "Bolat"), "kokpar")), "");
  EXPECT_EQ(english(tours.join(id, account(2, "Bolat"), "kokpar")),
            "you have already joined this tournament");
  EXPECT_EQ(english(tours.join(id, account(3, "Dana"), "kokpar")), "");
  EXPECT_EQ(english(tours.join(id, account(4, "Ermek"), "kokpar")), "the tournament is full");
  EXPECT_EQ(view(id).at("players").as_int64(), 2);
  EXPECT_EQ(view(id).at("entry").as_string(), "code");
  // the rating in the clock's category is the player's seed
  EXPECT_EQ(view(id).at("entrants").as_array()[0].at("rating").as_int64(), 1520);
  EXPECT_EQ(english(tours.withdraw(id, account(2, "Bolat"))), "");
  EXPECT_EQ(english(tours.withdraw(id, account(2, "Bolat"))),
            "you have not joined this tournament");
  EXPECT_EQ(view(id).at("players").as_int64(), 1);
  EXPECT_EQ(english(tours.join(id, account(4, "Ermek"), "kokpar")), "");  // a place again
  EXPECT_EQ(english(tours.join("nope", account(4, "Ermek"), "")), "no such tournament: nope");
  // Each refusal has its code, so that a player reads it in his own language.
  for (const auto& [refusal, expected] : std::vector<std::pair<Refused, std::string>>{
           {tours.join(id, Viewer{}, "kokpar"), "tournament_join_login"},
           {tours.join(id, account(5, "Farida"), "wrong"), "wrong_entry_code"},
           {tours.join(id, account(3, "Dana"), "kokpar"), "tournament_joined"},
           {tours.join(id, account(5, "Farida"), "kokpar"), "tournament_full"},
           {tours.withdraw(id, account(5, "Farida")), "tournament_not_joined"},
           {tours.start_now(id, account(3, "Dana")), "tournament_not_creator"},
           {tours.join("nope", account(4, "Ermek"), ""), "no_tournament"}})
    EXPECT_EQ(code(refusal), expected) << english(refusal);
}

TEST_F(TournamentsFixture, ArenaPairsScoresStreaksAndEnds) {
  const std::string id = make(arena_spec());
  join(id, {1, 2, 3, 4});
  tours.tick();
  EXPECT_TRUE(games.empty()) << "nothing before the start";
  now += 60000;
  tours.tick();
  EXPECT_EQ(view(id).at("status").as_string(), "running");
  ASSERT_EQ(games.size(), 2u);  // four waiting players: two games
  EXPECT_EQ(games[0].initial_ms, 60000);
  EXPECT_FALSE(games[0].rated);
  // Everyone's page says which game is his.
  for (int64_t u : {1, 2, 3, 4}) EXPECT_TRUE(view(id, u).at("me").at("game").is_string()) << u;
  // The first game's White wins three times in a row: 2, 2, then 4 (his streak is 2).
  const std::string streaker = white(0);
  int64_t streaker_id = 0;
  for (int64_t u : {1, 2, 3, 4})
    if (name(u) == streaker) streaker_id = u;
  int wins = 0;
  size_t g = 0;
  while (wins < 3) {
    const bool white_is_him = white(g) == streaker;
    const bool his = white_is_him || black(g) == streaker;
    if (his) {
      tours.game_ended(game_ids[g], white_is_him ? BoardResult::WhiteWins : BoardResult::BlackWins);
      ++wins;
    } else {
      tours.game_ended(game_ids[g], BoardResult::Draw);
    }
    ++g;
    ASSERT_LT(g, games.size() + 1);
    tours.tick();
    ASSERT_LT(g, games.size()) << "re-paired as soon as they finished";
  }
  EXPECT_EQ(points(id).at(streaker), "8");
  const json::array st = view(id).at("standings").as_array();
  EXPECT_EQ(st[0].at("name").as_string(), streaker);
  EXPECT_EQ(st[0].at("streak").as_int64(), 3);
  // A player not connected when he would be paired is paused, not paired; joining resumes him.
  online.clear();
  for (size_t i = g; i < games.size(); ++i) tours.game_ended(game_ids[i], BoardResult::Draw);
  const size_t before = games.size();
  EXPECT_TRUE(view(id, streaker_id).at("me").at("paused").as_bool());
  std::vector<int64_t> others;
  for (int64_t u : {1, 2, 3, 4})
    if (u != streaker_id) others.push_back(u);
  for (int64_t u : {others[0], others[1]}) {
    online.insert(u);
    EXPECT_EQ(english(tours.join(id, account(u, name(u)), "")), "");
  }
  tours.tick();
  ASSERT_EQ(games.size(), before + 1);
  EXPECT_NE(white(before), streaker);
  EXPECT_NE(black(before), streaker);
  tours.seen(account(streaker_id, streaker));  // his tournament page asked
  EXPECT_EQ(english(tours.join(id, account(streaker_id, streaker), "")), "");
  EXPECT_FALSE(view(id, streaker_id).at("me").at("paused").as_bool());
  // The end: no pairing after the duration; finished once the last game is over.
  now += 10 * 60000;
  for (size_t i = 0; i < games.size(); ++i) tours.game_ended(game_ids[i], BoardResult::Draw);
  const size_t at_end = games.size();
  tours.tick();
  EXPECT_EQ(games.size(), at_end);
  EXPECT_EQ(view(id).at("status").as_string(), "finished");
  EXPECT_EQ(saved.at(id).status, "finished");
  // The standings agree with the games: recomputed from the games' results in order.
  std::map<std::string, int> pts, streak;
  const json::object done = view(id);
  for (const json::value& gv : done.at("games").as_array()) {
    const std::string w(gv.at("white_name").as_string()), b(gv.at("black_name").as_string());
    const std::string r(gv.at("result").as_string());
    auto score = [&](const std::string& p, int half) {
      pts[p] += streak[p] >= 2 ? 2 * half : half;
      streak[p] = half == 2 ? streak[p] + 1 : 0;
    };
    score(w, r == "1-0" ? 2 : r == "0-1" ? 0 : 1);
    score(b, r == "0-1" ? 2 : r == "1-0" ? 0 : 1);
  }
  for (const auto& [p, v] : points(id)) EXPECT_EQ(v, std::to_string(pts[p])) << p;
  EXPECT_EQ(english(tours.join(id, account(5, "Farida"), "")), "the tournament is over");
  EXPECT_EQ(code(tours.join(id, account(5, "Farida"), "")), "tournament_over");
}

TEST_F(TournamentsFixture, ArenaTakesLatePlayersAndWithdrawalPauses) {
  TournamentSpec s = arena_spec();
  s.starts_ms = now;
  const std::string id = make(s);
  join(id, {1});
  tours.tick();
  EXPECT_TRUE(games.empty()) << "one player: nobody to play";
  join(id, {2});
  tours.tick();
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(english(tours.withdraw(id, account(1, "Aigerim"))), "");
  tours.game_ended(game_ids[0], BoardResult::BlackWins);
  join(id, {3});
  tours.tick();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_NE(white(1), "Aigerim");
  EXPECT_NE(black(1), "Aigerim");
  tours.game_ended("not-a-tournament-game", BoardResult::Draw);  // ignored
}

// A player who never makes his first move (no-start) loses only that game: 0 points, a game
// for him, none for the other, whose streak stays; he is paused until he comes back, and the
// other is paired again at once, with someone else. The game is shown as the forfeit it was.
TEST_F(TournamentsFixture, ArenaNoShowLosesOnlyHisGameAndIsPaused) {
  TournamentSpec s = arena_spec();
  s.starts_ms = now;
  s.first_move_seconds = 20;
  const std::string id = make(s);
  join(id, {1, 2, 3, 4, 5});
  tours.tick();
  ASSERT_EQ(games.size(), 2u);
  EXPECT_EQ(games[0].first_move_seconds, 20) << "the tournament's first-move time";
  // The second game: White wins, so its players wait while the first goes on.
  tours.game_ended(game_ids[1], BoardResult::WhiteWins);
  tours.tick();
  ASSERT_EQ(games.size(), 3u);  // the fifth player and one of them
  const std::string absent = white(0), present = black(0);
  tours.game_ended(game_ids[0], BoardResult::BlackForfeitWin, /*no_start=*/true);
  int64_t absent_id = 0;
  for (int64_t u : {1, 2, 3, 4, 5})
    if (name(u) == absent) absent_id = u;
  EXPECT_TRUE(view(id, absent_id).at("me").at("paused").as_bool());
  EXPECT_EQ(points(id).at(present), "0") << "an abort is no win";
  EXPECT_EQ(points(id).at(absent), "0");
  const json::object after = view(id);  // kept: the loop reads into it
  for (const json::value& st : after.at("standings").as_array()) {
    const std::string who(st.at("name").as_string());
    if (who == absent || who == present) {
      EXPECT_EQ(st.at("games").as_int64(), who == absent ? 1 : 0) << who;
    }
  }
  EXPECT_EQ(view(id).at("games").as_array()[0].at("result").as_string(), "-+");
  // The present player was paired at once with the one left waiting, never with the absent.
  ASSERT_EQ(games.size(), 4u);
  EXPECT_TRUE(white(3) == present || black(3) == present);
  EXPECT_TRUE(white(3) != absent && black(3) != absent);
  // Back: he resumes and is paired again.
  tours.game_ended(game_ids[2], BoardResult::Draw);
  EXPECT_EQ(english(tours.join(id, account(absent_id, absent), "")), "");
  tours.tick();
  ASSERT_EQ(games.size(), 5u);
  EXPECT_TRUE(white(4) == absent || black(4) == absent);
  // A forfeit that is not a no-start (he resigned at once) does not pause him.
  const std::string resigner = white(4);
  int64_t resigner_id = 0;
  for (int64_t u : {1, 2, 3, 4, 5})
    if (name(u) == resigner) resigner_id = u;
  tours.game_ended(game_ids[4], BoardResult::BlackForfeitWin);
  EXPECT_FALSE(view(id, resigner_id).at("me").at("paused").as_bool());
  // Replayed from the store, the log gives the same standings.
  const auto before = points(id);
  Tournaments again{hooks()};
  again.restore(saved.at(id));
  json::object v = *again.view(id, Viewer{});
  for (const json::value& st : v.at("standings").as_array())
    EXPECT_EQ(st.at("points").as_string(), before.at(std::string(st.at("name").as_string())));
}

TEST_F(TournamentsFixture, TheCreatorEditsAndCancelsBeforeTheStart) {
  const std::string id = make(arena_spec());
  join(id, {2});
  TournamentSpec s = *tours.spec(id);
  s.name = "Evening arena";
  s.initial_ms = 120000;
  s.increment_ms = 1000;
  s.starts_ms = now + 120000;
  s.duration_ms = 5 * 60000;
  s.first_move_seconds = 15;
  EXPECT_EQ(code(tours.edit(id, account(2, "Bolat"), s)), "tournament_not_creator");
  EXPECT_EQ(code(tours.edit(id, Viewer{}, s)), "not_logged_in");
  TournamentSpec bad = s;
  bad.first_move_seconds = 5;
  EXPECT_EQ(code(tours.edit(id, account(1, "Aigerim"), bad)), "tournament_first_move");
  bad = s;
  bad.duration_ms = 0;
  EXPECT_EQ(code(tours.edit(id, account(1, "Aigerim"), bad)), "tournament_duration");
  bad = s;
  bad.system = TournamentSystem::Swiss;  // the system stays what it was
  bad.entry_code = "ABCD";
  EXPECT_EQ(english(tours.edit(id, account(1, "Aigerim"), bad)), "");
  EXPECT_EQ(tours.spec(id)->system, TournamentSystem::Arena);
  EXPECT_EQ(tours.spec(id)->entry_code, "");
  EXPECT_EQ(english(tours.edit(id, account(1, "Aigerim"), s)), "");
  json::object v = view(id);
  EXPECT_EQ(v.at("name").as_string(), "Evening arena");
  EXPECT_EQ(v.at("initial_ms").as_int64(), 120000);
  EXPECT_EQ(v.at("starts_ms").as_int64(), now + 120000);
  EXPECT_EQ(v.at("ends_ms").as_int64(), now + 120000 + 5 * 60000);
  EXPECT_EQ(v.at("first_move_seconds").as_int64(), 15);
  EXPECT_EQ(v.at("entrants").as_array().size(), 1u) << "its players stay";
  now += 60000;
  tours.tick();
  EXPECT_EQ(view(id).at("status").as_string(), "upcoming") << "the new start time holds";
  // Cancelled by its creator only; then nothing more changes it.
  EXPECT_EQ(code(tours.cancel(id, account(2, "Bolat"))), "tournament_not_creator");
  EXPECT_EQ(english(tours.cancel(id, account(1, "Aigerim"))), "");
  EXPECT_EQ(view(id).at("status").as_string(), "cancelled");
  EXPECT_EQ(saved.at(id).status, "cancelled");
  EXPECT_EQ(code(tours.edit(id, account(1, "Aigerim"), s)), "tournament_over");
  EXPECT_EQ(code(tours.cancel(id, account(1, "Aigerim"))), "tournament_over");
  // Once started, neither.
  TournamentSpec now_spec = arena_spec();
  now_spec.starts_ms = now;
  const std::string id2 = make(now_spec);
  tours.tick();
  EXPECT_EQ(code(tours.edit(id2, account(1, "Aigerim"), now_spec)), "tournament_started");
  EXPECT_EQ(code(tours.cancel(id2, account(1, "Aigerim"))), "tournament_started");
}

TEST_F(TournamentsFixture, SwissRoundsForfeitsAndTheEnd) {
  TournamentSpec s = arena_spec();
  s.system = TournamentSystem::Swiss;
  s.duration_ms = 0;
  s.rounds = 2;
  s.rated = true;
  const std::string id = make(s);
  join(id, {1, 2, 3, 4});
  online.erase(4);  // Ermek is away when round 1 is paired
  now = s.starts_ms;
  tours.tick();
  const json::object v = view(id);
  EXPECT_EQ(v.at("round").as_int64(), 1);
  ASSERT_EQ(v.at("games").as_array().size(), 2u);
  ASSERT_EQ(games.size(), 1u) << "the absent player's board is a forfeit, no game";
  EXPECT_TRUE(games[0].rated);
  EXPECT_EQ(english(tours.join(id, account(5, "Farida"), "")),
            "this tournament takes no players after round 1 is paired");
  EXPECT_EQ(code(tours.join(id, account(5, "Farida"), "")), "tournament_closed");
  int forfeits = 0;
  for (const json::value& g : v.at("games").as_array())
    if (g.at("id").is_null()) {
      ++forfeits;
      const bool ermek_white = g.at("white_name").as_string() == "Ermek";
      EXPECT_EQ(g.at("result").as_string(), ermek_white ? "-+" : "+-");
    }
  EXPECT_EQ(forfeits, 1);
  tours.tick();
  EXPECT_EQ(view(id).at("round").as_int64(), 1) << "round 2 waits for round 1's game";
  online.insert(4);
  tours.game_ended(game_ids[0], BoardResult::WhiteWins);
  EXPECT_EQ(view(id).at("round").as_int64(), 2);
  ASSERT_EQ(games.size(), 3u);
  tours.game_ended(game_ids[1], BoardResult::Draw);
  EXPECT_EQ(view(id).at("status").as_string(), "running");
  tours.game_ended(game_ids[2], BoardResult::BlackWins);
  EXPECT_EQ(view(id).at("status").as_string(), "finished");
  // 4 players, 2 rounds: the standings' points add up to the 4 games played.
  double total = 0;
  for (const auto& [p, pts] : points(id)) total += std::stod(pts);
  EXPECT_EQ(total, 4.0);
  EXPECT_EQ(view(id).at("tie_breaks").as_array().size(), 5u);
}

TEST_F(TournamentsFixture, RoundRobinWithThreeRestsAndWithdrawal) {
  TournamentSpec s = arena_spec();
  s.system = TournamentSystem::RoundRobin;
  s.duration_ms = 0;
  s.max_players = 10;
  const std::string id = make(s);
  join(id, {1, 2, 3});
  EXPECT_EQ(view(id).at("rounds").as_int64(), 3);
  now = s.starts_ms;
  tours.tick();
  ASSERT_EQ(games.size(), 1u);  // one game and a rest each round
  EXPECT_EQ(english(tours.withdraw(id, account(3, "Dana"))), "");
  tours.game_ended(game_ids[0], BoardResult::Draw);
  // Dana's later boards are forfeits, so rounds follow without her games.
  while (view(id).at("status").as_string() == "running") {
    ASSERT_LT(games.size(), 4u);
    tours.game_ended(game_ids.back(), BoardResult::WhiteWins);
  }
  EXPECT_EQ(view(id).at("round").as_int64(), 3);
  for (size_t i = 1; i < games.size(); ++i)
    EXPECT_TRUE(white(i) != "Dana" && black(i) != "Dana") << "game " << i;
  EXPECT_EQ(view(id).at("status").as_string(), "finished");
}

TEST_F(TournamentsFixture, TheCreatorStartsEarly) {
  TournamentSpec s = arena_spec();
  s.system = TournamentSystem::RoundRobin;
  s.duration_ms = 0;
  s.max_players = 4;
  s.starts_ms = now + 3600000;
  const std::string id = make(s);
  EXPECT_EQ(tours.open_created_by(1), 1);
  join(id, {1, 2});
  EXPECT_EQ(english(tours.start_now(id, account(2, "Bolat"))),
            "only the tournament's creator may start it");
  EXPECT_TRUE(games.empty());
  EXPECT_EQ(english(tours.start_now(id, account(1, "Aigerim"))), "");
  EXPECT_EQ(view(id).at("status").as_string(), "running");
  ASSERT_EQ(games.size(), 1u);
  EXPECT_EQ(english(tours.start_now(id, account(1, "Aigerim"))),
            "the tournament has started already");
  EXPECT_EQ(code(tours.start_now(id, account(1, "Aigerim"))), "tournament_started");
  tours.game_ended(game_ids[0], BoardResult::WhiteWins);
  EXPECT_EQ(view(id).at("status").as_string(), "finished");
  EXPECT_EQ(tours.open_created_by(1), 0);
}

TEST_F(TournamentsFixture, TooFewPlayersCancels) {
  TournamentSpec s = arena_spec();
  s.system = TournamentSystem::Swiss;
  s.duration_ms = 0;
  s.rounds = 3;
  const std::string id = make(s);
  join(id, {1});
  now = s.starts_ms;
  tours.tick();
  EXPECT_EQ(view(id).at("status").as_string(), "cancelled");
  EXPECT_EQ(saved.at(id).status, "cancelled");
}

// At its end time an arena calls off its games nobody started (no result, no points, not a
// game played) and waits only for those being played; it is finished once they are over.
TEST_F(TournamentsFixture, ArenaEndsOnTimeCallingOffItsUnstartedGames) {
  const std::string id = make(arena_spec());
  join(id, {1, 2, 3, 4});
  now += 60000;
  tours.tick();
  ASSERT_EQ(games.size(), 2u);
  started.insert(game_ids[0]);
  now += 10 * 60000;  // the end
  tours.tick();
  EXPECT_EQ(called_off, (std::vector<std::string>{game_ids[1]}));
  json::object v = view(id);
  EXPECT_EQ(v.at("status").as_string(), "running");  // the first game is being played
  EXPECT_TRUE(v.at("games").as_array()[1].at("called_off").as_bool());
  EXPECT_FALSE(v.at("games").as_array()[0].at("called_off").as_bool());
  for (int64_t u : {1, 2, 3, 4}) {
    const std::string n = name(u);
    if (n == white(1) || n == black(1)) {
      EXPECT_EQ(points(id).at(n), "0") << n;
      EXPECT_TRUE(view(id, u).at("me").at("game").is_null()) << n;
    }
  }
  // The called-off game's late end is not counted; the played one's is, and then it is over.
  tours.game_ended(game_ids[1], BoardResult::WhiteWins);
  tours.game_ended(game_ids[0], BoardResult::BlackWins);
  tours.tick();
  v = view(id);
  EXPECT_EQ(v.at("status").as_string(), "finished");
  for (const json::value& st : v.at("standings").as_array()) {
    const std::string n(st.at("name").as_string());
    EXPECT_EQ(st.at("points").as_string(), n == black(0) ? "2" : "0") << n;
    EXPECT_EQ(st.at("games").as_int64(), n == white(0) || n == black(0) ? 1 : 0) << n;
  }
  // A restart replays the call-off from the stored state.
  Tournaments again{hooks()};
  again.restore(saved.at(id));
  EXPECT_TRUE(again.view(id, Viewer{})->at("games").as_array()[1].at("called_off").as_bool());
}

// A game of a round event that ended without a result (called off by nobody) is drawn.
TEST_F(TournamentsFixture, ARoundGameWithoutAResultIsDrawn) {
  TournamentSpec s = arena_spec();
  s.system = TournamentSystem::RoundRobin;
  s.duration_ms = 0;
  s.max_players = 10;
  const std::string id = make(s);
  join(id, {1, 2});
  now += 60000;
  tours.tick();
  ASSERT_EQ(games.size(), 1u);
  tours.game_ended(game_ids[0], BoardResult::Pending);
  const json::object v = view(id);
  EXPECT_EQ(v.at("games").as_array()[0].at("result").as_string(), "1/2-1/2");
  EXPECT_EQ(v.at("status").as_string(), "finished");
}

// The first two to finish wait for the others (Arena::pair), across a restart too: when they
// began to wait is in the stored log. A state stored before the wait pairs by the first rule.
TEST_F(TournamentsFixture, ArenaRematchWaitSurvivesARestart) {
  const std::string id = make(arena_spec());
  join(id, {1, 2, 3, 4});
  now += 60000;
  tours.tick();
  ASSERT_EQ(games.size(), 2u);
  const store::TournamentRow first = saved.at(id);
  tours.game_ended(game_ids[0], BoardResult::WhiteWins);
  EXPECT_EQ(games.size(), 2u) << "the other game runs: no rematch at once";
  now += 5000;
  tours.tick();
  EXPECT_EQ(games.size(), 2u);
  const store::TournamentRow row = saved.at(id);
  EXPECT_EQ(json::parse(row.state).at("arena_rematch_wait_ms").as_int64(),
            tournament::kRematchWaitMs);
  Tournaments again{hooks()};
  again.restore(row);
  now += tournament::kRematchWaitMs - 6000;  // 14 s after the end
  again.tick();
  EXPECT_EQ(games.size(), 2u);
  now += 1000;  // 15 s: waited long enough
  again.tick();
  ASSERT_EQ(games.size(), 3u);
  EXPECT_EQ(std::set<std::string>({white(2), black(2)}),
            std::set<std::string>({white(0), black(0)}));
  // Stored before the wait (no arena_rematch_wait_ms): a rematch at once, as it was logged.
  json::object old = json::parse(first.state).as_object();
  old.erase("arena_rematch_wait_ms");
  store::TournamentRow old_row = first;
  old_row.state = json::serialize(old);
  Tournaments before_wait{hooks()};
  before_wait.restore(old_row);
  before_wait.game_ended(game_ids[1], BoardResult::Draw);
  ASSERT_EQ(games.size(), 4u);
  EXPECT_EQ(std::set<std::string>({white(3), black(3)}),
            std::set<std::string>({white(1), black(1)}));
}

TEST_F(TournamentsFixture, RestoredFromTheStoreGoesOn) {
  const std::string id = make(arena_spec());
  join(id, {1, 2, 3, 4});
  now += 60000;
  tours.tick();
  ASSERT_EQ(games.size(), 2u);
  tours.game_ended(game_ids[0], BoardResult::WhiteWins);
  const json::object before = view(id);
  // A new server: the same state from the row; the second game ended while it was down.
  stored_results[game_ids[1]] = BoardResult::BlackWins;
  Tournaments again{hooks()};
  again.restore(saved.at(id));
  json::object after = *again.view(id, Viewer{});
  EXPECT_EQ(after.at("standings").as_array().size(), 4u);
  int total = 0;
  for (const json::value& st : after.at("standings").as_array())
    total += std::stoi(std::string(st.at("points").as_string()));
  EXPECT_EQ(total, 4) << "both games' wins counted";
  EXPECT_EQ(after.at("games").as_array()[0].at("result"),
            before.at("games").as_array()[0].at("result"));
  EXPECT_EQ(after.at("games").as_array()[1].at("result").as_string(), "0-1");
  // and it goes on: the games of the new server's pairing count
  again.tick();
  ASSERT_GT(games.size(), 2u);
  const std::string last = game_ids.back();
  again.game_ended(last, BoardResult::Draw);
  const json::object now_view = *again.view(id, Viewer{});
  int found = 0;
  for (const json::value& gv : now_view.at("games").as_array())
    if (gv.at("id").is_string() && gv.at("id").as_string() == last) {
      ++found;
      EXPECT_EQ(gv.at("result").as_string(), "1/2-1/2");
    }
  EXPECT_EQ(found, 1);
  // a broken row is refused with the field named
  store::TournamentRow bad = saved.at(id);
  bad.id = "t9";
  bad.state = R"({"name":"x"})";
  try {
    again.restore(bad);
    FAIL() << "a broken state was restored";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("tournament t9.system"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace toguz::site
