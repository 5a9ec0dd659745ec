// One game's behaviour without sockets (site/games/room.h): moves acknowledged only once stored,
// refusals that change nothing, resignation, draw offers, takebacks, a store that refuses
// writes, a room rebuilt from its row, and the engine's reply. The services are the server's
// own (server.cpp): a SQLite store behind its writer thread, an engine pool of one worker, an
// io_context this test drives; the store is wrapped so that it can be told to refuse writes,
// and the connections are fakes that keep what they are sent (room_fakes.h).
#include "site/games/room.h"

#include <gtest/gtest.h>

#include <bit>
#include <boost/asio.hpp>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "room_fakes.h"
#include "rules/notation.h"
#include "site/texts.h"
#include "store/writer.h"
#include "temp_dir.h"

namespace toguz::site::room_fakes {
namespace {

// How a move the test made came out (Room::play, then its write): its refusal's code and
// English, "" when none.
struct MoveOutcome {
  std::optional<Room::Played> played;  // none while its write is pending
  std::string why, code;
};

// A room's refusal as its English, "" when it was done.
std::string said(const Refused& r) {
  return r ? r->english() : "";
}

MoveOutcome outcome(Room::Played played, const Refused& r) {
  return {played, said(r), r ? r->code() : ""};
}

struct RoomTest : ::testing::Test {
  toguz::test::TempDir dir;
  std::unique_ptr<store::Store> backend = store::open_store((dir.path / "games.db").string());
  RefusingStore db{*backend};
  asio::io_context ioc;
  // The test runs the io_context a handler at a time: it must not stop when it is idle while
  // the writer or the engine is busy on its own thread.
  asio::executor_work_guard<asio::io_context::executor_type> busy = asio::make_work_guard(ioc);
  store::StoreWriter writer{db, [this](std::function<void()> f) { asio::post(ioc, std::move(f)); }};
  store::QueuedStore queued{writer};
  engine_work::WorkerPool pool{1, 8};
  engine_work::EngineWork engine{ioc, pool};
  Config config;
  std::mt19937_64 rng{12345};
  bool stopping = false;
  int ended = 0;  // calls of game_ended
  RoomServices services{ioc,    config, queued,   writer,
                        engine, rng,    stopping, [this](const Room&) { ++ended; }};
  RecordingClient white{Seat::White}, black{Seat::Black}, both{Seat::Both};
  std::vector<std::shared_ptr<Room>> rooms;  // every room made here, stopped in TearDown

  RoomTest() {
    // Nothing here waits that long: no first-move timer ends a game during a slow test.
    config.first_move_seconds = 3600;
    config.engine_movetime_ms = 50;
    // A synchronous call (join's save, the test's reads) waits for the writer's thread: on a
    // loaded machine longer than the server's one second.
    writer.set_call_wait(std::chrono::seconds(30));
  }

  void TearDown() override {
    for (auto& room : rooms) {
      pump_until([&] { return !room->writing(); });
      room->stop_engine();
      room->cancel_timers();
    }
    ioc.poll();  // the cancelled timers' handlers let go of their rooms
  }

  // Runs the IO thread's handlers until `done()` holds. Bounded in rounds, not in time: each
  // round waits at most 10 ms for the next result the writer or the engine posts, and a loaded
  // machine only makes the rounds that find something run sooner.
  bool pump_until(const std::function<bool()>& done, int rounds = 3000) {
    for (int i = 0; i < rounds && !done(); ++i) ioc.run_one_for(std::chrono::milliseconds(10));
    return done();
  }

  // The game's row as the store has it now.
  store::GameRow stored(const std::string& id) {
    auto row = queued.load_game(id);
    EXPECT_TRUE(row.has_value()) << id << " is not in the store";
    return row ? *row : store::GameRow{};
  }

  // A new game's first write, as the server's creation makes it (Room::store_new).
  void store_new(Room& room) {
    auto stored = std::make_shared<std::optional<std::exception_ptr>>();
    room.store_new(false, [stored](std::exception_ptr e) { *stored = e; });
    ASSERT_TRUE(pump_until([&] { return stored->has_value(); })) << "the write never came back";
    ASSERT_EQ(**stored, nullptr) << "the new game was not stored";
  }

  // A new game from the start position with its two seats as given, not stored yet.
  std::shared_ptr<Room> make_room(const std::string& id, Mode mode, Player white_seat,
                                  Player black_seat) {
    auto room = std::make_shared<Room>(services, id, mode, Game());
    room->players[0] = std::move(white_seat);
    room->players[1] = std::move(black_seat);
    rooms.push_back(room);
    return room;
  }

  // An online game as POST /api/games and the join make it: Aigerim (White) creates it, Bolat
  // takes the black seat, and both are connected.
  std::shared_ptr<Room> online_game(const std::string& id = "online1") {
    auto room = make_room(id, Mode::Online, {"Aigerim", "white-token", true}, {});
    room->invite = "invite-code";
    room->status = Status::Waiting;
    store_new(*room);
    room->join(Side::Black, Player{"Bolat", "black-token"});
    room->attach(white);
    room->attach(black);
    return room;
  }

  // A local game: one token and one connection for both seats.
  std::shared_ptr<Room> local_game() {
    auto room = make_room("local1", Mode::Local, {"White", "both-token", true},
                          {"Black", "both-token", true});
    store_new(*room);
    room->attach(both);
    return room;
  }

  // A game against the engine (level 1, Black) with the player White, connected.
  std::shared_ptr<Room> engine_game() {
    auto room =
        make_room("engine1", Mode::Engine, {"Player", "player-token", true}, {"Engine", "", true});
    room->engine_side = Side::Black;
    room->level = 1;
    store_new(*room);
    room->start_engine();  // as the server does once it is stored: not its move, so nothing
    room->attach(white);
    return room;
  }

  // A move as the server makes it for a player (message_handlers.cpp on_move): Room::play, and
  // once it is stored everyone gets the state. A refusal is filled in at once.
  std::shared_ptr<MoveOutcome> start_move(Room& room, int hole) {
    auto out = std::make_shared<MoveOutcome>();
    Refused why;
    const Room::Played p = room.play(
        hole, &why, [out, weak = room.weak_from_this()](Room::Played played, const Refused& no) {
          *out = outcome(played, no);
          if (auto r = weak.lock(); r && played == Room::Played::Made) r->changed();
        });
    if (p == Room::Played::Refused)
      *out = outcome(p, why);
    else
      EXPECT_EQ(p, Room::Played::Pending);
    return out;
  }
  // The same, waited for until its write came back.
  MoveOutcome move(Room& room, int hole) {
    auto out = start_move(room, hole);
    EXPECT_TRUE(pump_until([&] { return out->played.has_value(); })) << "move " << hole;
    return *out;
  }
  // Plays `holes` one after the other, each of them made and stored.
  void play_all(Room& room, const std::vector<int>& holes) {
    for (int hole : holes) {
      const MoveOutcome m = move(room, hole);
      ASSERT_EQ(m.played, Room::Played::Made) << "hole " << hole << ": " << m.why;
    }
  }
  // Waits for the end `room` decided to be stored, then checks it: recorded in the room as
  // (status, winner, reason), in its row the same, and game_ended called once.
  void expect_ended(Room& room, Status status, Result winner, Ending reason) {
    ASSERT_TRUE(pump_until([&] { return room.status != Status::Playing; }));
    EXPECT_EQ(room.status, status);
    EXPECT_EQ(room.winner, winner);
    EXPECT_EQ(room.reason, reason);
    EXPECT_EQ(ended, 1);
    const store::GameRow row = stored(room.id);
    EXPECT_EQ(row.status, status_name(status));
    EXPECT_EQ(row.winner, winner_name(winner));
    EXPECT_EQ(row.reason, ending_name(reason));
  }
  // The lowest legal hole of the side to move.
  static int first_legal(const Room& room) { return std::countr_zero(room.game.legal_mask()) + 1; }
};

int64_t ply_of(const json::object& game) {
  return game.at("ply").as_int64();
}

TEST_F(RoomTest, OnlineMoveIsMadeOnceStoredAndSentToBothSeats) {
  auto room = online_game();
  ASSERT_EQ(room->status, Status::Playing);
  ASSERT_EQ(ply_of(white.last_game()), 0);
  EXPECT_EQ(white.last_game().at("legal").as_array().size(), 9u);  // White to move
  EXPECT_TRUE(black.last_game().at("legal").as_array().empty());
  const size_t white_states = white.states(), black_states = black.states();

  auto m = start_move(*room, 3);
  // Not acknowledged before its write comes back: the room waits for it and tells nobody.
  EXPECT_TRUE(room->writing());
  EXPECT_FALSE(m->played.has_value());
  EXPECT_EQ(white.states(), white_states);
  EXPECT_EQ(black.states(), black_states);

  ASSERT_TRUE(pump_until([&] { return m->played.has_value(); }));
  EXPECT_EQ(m->played, Room::Played::Made) << m->why;
  EXPECT_FALSE(room->writing());
  EXPECT_EQ(room->game.ply_count(), 1);
  for (const RecordingClient* c : {&white, &black}) {
    const json::object g = c->last_game();
    EXPECT_EQ(ply_of(g), 1);
    EXPECT_EQ(g.at("to_move").as_string(), "black");
    ASSERT_EQ(g.at("moves").as_array().size(), 1u);
    EXPECT_EQ(g.at("moves").as_array()[0].as_object().at("hole").as_int64(), 3);
    EXPECT_EQ(g.at("position").as_string(), format_position(room->game.position()));
  }
  EXPECT_TRUE(white.last_game().at("legal").as_array().empty());
  EXPECT_FALSE(black.last_game().at("legal").as_array().empty());

  const store::GameRow row = stored(room->id);
  EXPECT_EQ(row.holes, std::vector<int>{3});
  EXPECT_EQ(row.status, "playing");
  EXPECT_EQ(row.white_name, "Aigerim");
  EXPECT_EQ(row.black_name, "Bolat");
  EXPECT_TRUE(row.white_seated && row.black_seated);
}

TEST_F(RoomTest, IllegalMoveIsRefusedAndChangesNothing) {
  auto room = online_game();
  // Each side sows its hole 1 twice: the second time it holds one stone, which leaves it empty.
  play_all(*room, {1, 1, 1, 1});
  ASSERT_EQ(room->to_move(), Side::White);
  ASSERT_EQ(room->game.position().stones(Side::White, 1), 0);
  const std::string before = format_position(room->game.position());
  const size_t white_states = white.states();

  const MoveOutcome empty = move(*room, 1);
  EXPECT_EQ(empty.played, Room::Played::Refused);
  EXPECT_EQ(empty.why, "move: hole 1 is empty");
  EXPECT_EQ(empty.code, "illegal_move");
  const MoveOutcome outside = move(*room, 10);
  EXPECT_EQ(outside.played, Room::Played::Refused);
  EXPECT_EQ(outside.why, "move: hole: expected 1..9");

  EXPECT_EQ(room->game.ply_count(), 4);
  EXPECT_EQ(format_position(room->game.position()), before);
  EXPECT_FALSE(room->writing());
  EXPECT_EQ(white.states(), white_states);  // a refusal is the mover's alone: no broadcast
  EXPECT_EQ(stored(room->id).holes, (std::vector<int>{1, 1, 1, 1}));
  // Whose turn it is the room says (the handler refuses the others before Room::play; the
  // stale ply is the handler's check alone).
  EXPECT_TRUE(room->may_move(Seat::White));
  EXPECT_FALSE(room->may_move(Seat::Black));
  EXPECT_FALSE(room->may_move(Seat::Spectator));
}

TEST_F(RoomTest, ResignEndsTheGameOnceStoredAndOnlyOnce) {
  auto room = online_game();
  play_all(*room, {1, 1, 1, 1});  // before kStartedPlies a resignation calls the game off

  EXPECT_EQ(said(room->resign(Side::White)), "");
  // Decided, not shown: the end is recorded once the store has it.
  EXPECT_TRUE(room->end_pending());
  EXPECT_EQ(room->status, Status::Playing);
  EXPECT_EQ(ended, 0);
  expect_ended(*room, Status::Over, Result::BlackWins, Ending::Resign);
  EXPECT_FALSE(room->aborted_by.has_value());
  for (const RecordingClient* c : {&white, &black}) {
    const json::object g = c->last_game();
    EXPECT_EQ(g.at("status").as_string(), "over");
    EXPECT_EQ(g.at("result").as_object().at("winner").as_string(), "black");
    EXPECT_EQ(g.at("result").as_object().at("reason").as_string(), "resign");
  }

  // Over: nothing more is played or ended.
  EXPECT_EQ(said(room->resign(Side::Black)), "resign: the game is not being played");
  EXPECT_FALSE(room->may_move(Seat::White));
  const MoveOutcome late = move(*room, 2);
  EXPECT_EQ(late.played, Room::Played::Refused);
  EXPECT_EQ(late.why, "move: the game is over");
  ioc.poll();
  EXPECT_EQ(ended, 1);
  EXPECT_EQ(room->game.ply_count(), 4);
  EXPECT_EQ(stored(room->id).holes.size(), 4u);
}

TEST_F(RoomTest, ResignBeforeBothSidesMovedTwiceAbortsTheGame) {
  auto room = online_game();
  play_all(*room, {1});
  EXPECT_EQ(said(room->resign(Side::Black)), "");
  // Fair play: too early to decide anything, and the one who resigned called it off.
  expect_ended(*room, Status::Aborted, Result::None, Ending::Aborted);
  EXPECT_EQ(room->aborted_by, Side::Black);
  EXPECT_EQ(stored(room->id).aborted_by, 1);
}

TEST_F(RoomTest, DrawAgreedEndsItDrawnAndADeclinedOfferWaitsTheGap) {
  auto room = online_game();
  play_all(*room, {1, 1, 1, 1});

  EXPECT_EQ(said(room->offer_draw(Side::White)), "");
  EXPECT_EQ(black.last_game().at("draw_offer").as_string(), "white");
  EXPECT_EQ(said(room->offer_draw(Side::White)), "offer_draw: already offered");
  EXPECT_EQ(said(room->answer_draw(Side::White, true)),
            "accept_draw: no draw offer from the opponent");
  EXPECT_EQ(said(room->answer_draw(Side::Black, false)), "");
  EXPECT_TRUE(white.last_game().at("draw_offer").is_null());
  EXPECT_FALSE(white.last_game().at("can_offer_draw").as_bool());

  // Declined at ply 4: White may offer again kDrawOfferGap plies later, not one sooner.
  const int declined = room->game.ply_count();
  while (room->game.ply_count() < declined + kDrawOfferGap - 1) {
    const std::string again = said(room->offer_draw(Side::White));
    EXPECT_EQ(again.rfind("offer_draw: declined; again after ", 0), 0u) << again;
    play_all(*room, {first_legal(*room)});
    ASSERT_EQ(room->status, Status::Playing);
  }
  EXPECT_NE(said(room->offer_draw(Side::White)), "");
  play_all(*room, {first_legal(*room)});
  ASSERT_EQ(room->game.ply_count(), declined + kDrawOfferGap);
  EXPECT_EQ(said(room->offer_draw(Side::White)), "");

  EXPECT_EQ(said(room->answer_draw(Side::Black, true)), "");
  expect_ended(*room, Status::Over, Result::Draw, Ending::Agreement);
  EXPECT_EQ(white.last_game().at("result").as_object().at("winner").as_string(), "draw");
}

TEST_F(RoomTest, LocalTakebackRestoresThePreviousPosition) {
  auto room = local_game();
  play_all(*room, {3});
  const std::string after_one = format_position(room->game.position());
  play_all(*room, {first_legal(*room)});
  ASSERT_EQ(room->game.ply_count(), 2);

  EXPECT_EQ(said(room->takeback()), "");
  EXPECT_EQ(room->game.ply_count(), 1);
  EXPECT_EQ(format_position(room->game.position()), after_one);
  EXPECT_EQ(room->status, Status::Playing);
  const json::object g = both.last_game();
  EXPECT_EQ(ply_of(g), 1);
  EXPECT_EQ(g.at("moves").as_array().size(), 1u);
  EXPECT_EQ(g.at("position").as_string(), after_one);
  EXPECT_EQ(stored(room->id).holes, std::vector<int>{3});

  EXPECT_EQ(said(room->takeback()), "");
  EXPECT_EQ(said(room->takeback()), "takeback: no move to take back");
  EXPECT_EQ(room->game.ply_count(), 0);

  auto online = online_game("online2");
  EXPECT_EQ(said(online->takeback()), "takeback: not in online games");
}

TEST_F(RoomTest, MoveTheStoreRefusesIsUndoneUntilTheStoreIsBack) {
  auto room = online_game();
  play_all(*room, {3});
  const std::string before = format_position(room->game.position());
  const int hole = first_legal(*room);

  db.fault = store::StoreFault::ReadOnly;
  db.refuse = true;
  const MoveOutcome refused = move(*room, hole);
  EXPECT_EQ(refused.played, Room::Played::NotStored);
  EXPECT_EQ(refused.why, "the database is read-only: nothing can be saved now");
  EXPECT_EQ(refused.code, "store_read_only");
  EXPECT_GE(db.refused.load(), 1);
  // Undone: the position, the side to move, and what everyone sees, with the store's fault.
  EXPECT_EQ(room->game.ply_count(), 1);
  EXPECT_EQ(format_position(room->game.position()), before);
  EXPECT_EQ(room->to_move(), Side::Black);
  EXPECT_EQ(room->store_fault(), store::StoreFault::ReadOnly);
  for (const RecordingClient* c : {&white, &black}) {
    const json::object g = c->last_game();
    EXPECT_EQ(ply_of(g), 1);
    EXPECT_EQ(g.at("store").as_string(), "store_read_only");
  }
  EXPECT_EQ(stored(room->id).holes, std::vector<int>{3});

  // The room writes its row again every kStoreRetry; once one is taken the game goes on.
  db.refuse = false;
  ASSERT_TRUE(pump_until([&] { return !room->store_fault().has_value(); }));
  EXPECT_TRUE(black.last_game().at("store").is_null());
  play_all(*room, {hole});
  EXPECT_EQ(stored(room->id).holes, (std::vector<int>{3, hole}));
}

TEST_F(RoomTest, RoomFromItsRowHasTheSameGame) {
  auto room = online_game();
  play_all(*room, {1, 1, 1, 1, 5});

  auto copy = Room::from_row(services, stored(room->id));
  rooms.push_back(copy);
  EXPECT_EQ(copy->mode, Mode::Online);
  EXPECT_EQ(copy->status, Status::Playing);
  EXPECT_EQ(copy->game.ply_count(), 5);
  EXPECT_EQ(format_position(copy->game.position()), format_position(room->game.position()));
  EXPECT_EQ(format_position(copy->game.start()), format_position(room->game.start()));
  EXPECT_EQ(copy->to_move(), Side::Black);
  EXPECT_EQ(copy->invite, "invite-code");
  for (int i : {0, 1}) {
    EXPECT_EQ(copy->players[i].name, room->players[i].name);
    EXPECT_EQ(copy->players[i].token, room->players[i].token);
    EXPECT_TRUE(copy->players[i].seated);
  }
  EXPECT_EQ(copy->seat_for("black-token", Viewer{}), Seat::Black);
  EXPECT_EQ(copy->seat_for("white-token", Viewer{}), Seat::White);

  // A resignation is not on the board: the rebuilt game records it again and is over.
  EXPECT_EQ(said(room->resign(Side::Black)), "");
  ASSERT_TRUE(pump_until([&] { return room->status == Status::Over; }));
  auto over = Room::from_row(services, stored(room->id));
  rooms.push_back(over);
  EXPECT_EQ(over->status, Status::Over);
  EXPECT_EQ(over->winner, Result::WhiteWins);
  EXPECT_EQ(over->reason, Ending::Resign);
  EXPECT_TRUE(over->game.over());
  EXPECT_FALSE(over->may_move(Seat::Black));
  EXPECT_EQ(over->game.ply_count(), 5);
}

TEST_F(RoomTest, EngineRepliesAndTakebackUndoesBothMoves) {
  auto room = engine_game();
  EXPECT_FALSE(room->thinking());  // White (the player) to move
  const std::string start = format_position(room->game.position());

  play_all(*room, {1});
  EXPECT_TRUE(room->thinking());  // the stored move's changed() started the engine
  EXPECT_FALSE(room->may_move(Seat::White));
  // Its reply: the search on the worker, then its own stored move.
  ASSERT_TRUE(pump_until([&] {
    return room->game.ply_count() == 2 && !room->thinking() && !room->writing();
  })) << "ply "
      << room->game.ply_count();
  EXPECT_EQ(ply_of(white.last_game()), 2);
  EXPECT_FALSE(white.last_game().at("thinking").as_bool());
  EXPECT_TRUE(room->may_move(Seat::White));
  EXPECT_EQ(stored(room->id).holes.size(), 2u);

  // The player's takeback takes back his move and the engine's answer.
  EXPECT_EQ(said(room->takeback()), "");
  EXPECT_EQ(room->game.ply_count(), 0);
  EXPECT_EQ(format_position(room->game.position()), start);
  EXPECT_FALSE(room->thinking());
  EXPECT_EQ(ply_of(white.last_game()), 0);
  EXPECT_TRUE(stored(room->id).holes.empty());
  EXPECT_EQ(said(room->takeback()), "takeback: no move of yours to take back");
}

}  // namespace
}  // namespace toguz::site::room_fakes
