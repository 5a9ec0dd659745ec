#include "site/games/room_registry.h"

#include <algorithm>

#include "net/log.h"
#include "site/json_out.h"

namespace toguz::site {

std::string RoomRegistry::random_id(int length) {
  static constexpr char kAlphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
  std::random_device rd;  // the OS's randomness: tokens must not be guessable
  std::string out;
  for (int i = 0; i < length; ++i) out += kAlphabet[rd() % 32];
  return out;
}

std::shared_ptr<Room> RoomRegistry::find(const std::string& id) {
  if (id.empty() || id.size() > 32 || !std::all_of(id.begin(), id.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
      }))
    return nullptr;
  if (auto it = rooms_.find(id); it != rooms_.end()) return it->second;
  try {
    auto row = services_.store.load_game(id);
    if (!row) return nullptr;
    int64_t fence = 0;
    if (ownership_) {
      // Above every token the store has seen for the game, whatever Redis remembers.
      const auto token = ownership_->acquire(id, services_.store.fence_of(id));
      if (!token) return nullptr;
      fence = *token;
      try {
        services_.store.claim_fence(id, fence);
        row = services_.store.load_game(id);  // now with every write of the former driver
      } catch (...) {
        ownership_->release(id);
        throw;
      }
      if (!row) return nullptr;
    }
    auto room = Room::from_row(services_, std::move(*row));
    room->fence = fence;
    rooms_[id] = room;
    if (ownership_) {
      // Taken over from another instance: its engine and flag go on here.
      room->start_engine();
      room->arm_flag_timer();
    }
    return room;
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, id, std::string("cannot load the game: ") + e.what());
    return nullptr;
  }
}

std::shared_ptr<Room> RoomRegistry::create(Mode mode, const Game& game) {
  std::string id;
  do id = random_id(10);
  while (rooms_.count(id));
  auto room = std::make_shared<Room>(services_, id, mode, game);
  if (!own(*room)) throw std::runtime_error("cannot take the lease of the new game " + id);
  rooms_[id] = room;
  return room;
}

bool RoomRegistry::own(Room& room) {
  if (!ownership_) return true;
  const auto token = ownership_->acquire(room.id, 0);  // a new game: no token stored yet
  if (!token) return false;
  room.fence = *token;
  try {
    services_.store.claim_fence(room.id, room.fence);
  } catch (...) {
    ownership_->release(room.id);
    throw;
  }
  return true;
}

void RoomRegistry::drop(const std::string& id) {
  auto it = rooms_.find(id);
  if (it == rooms_.end()) return;
  std::shared_ptr<Room> room = it->second;
  rooms_.erase(it);
  room->stop_engine();
  room->cancel_timers();
  room->close_clients();
}

void RoomRegistry::load_unfinished() {
  if (ownership_) return;  // a cluster's instances take them over one by one (cluster.h)
  for (const std::string& id : services_.store.unfinished_ids()) {
    try {
      auto row = services_.store.load_game(id);
      if (row) rooms_[id] = Room::from_row(services_, std::move(*row));
    } catch (const std::exception& e) {
      log(net::LogLevel::Error, id, std::string("cannot resume the game: ") + e.what());
    }
  }
}

void RoomRegistry::start_rematch(Room& old) {
  auto next = old.rematch(random_id(10), [] { return random_id(32); });
  if (!own(*next)) throw std::runtime_error("cannot take the lease of the rematch " + next->id);
  rooms_[next->id] = next;
  next->save();
  old.announce_rematch(*next);
  next->arm_start_timer();
  next->start_engine();
}

bool RoomRegistry::sweep() {
  const int64_t now = now_ms();
  const auto steady = SteadyClock::now();
  bool dropped = false;
  for (auto it = rooms_.begin(); it != rooms_.end();) {
    Room& room = *it->second;
    room.expire(now, steady);
    if (room.may_leave_memory(steady)) {
      room.cancel_timers();
      if (ownership_) ownership_->release(room.id);
      it = rooms_.erase(it);
      dropped = true;
    } else {
      ++it;
    }
  }
  const Config& config = services_.config;
  // Queued, not waited for: a store that refuses writes must not stall the IO thread.
  services_.writer.write(
      [waiting = now - int64_t(config.expire_waiting_seconds) * 1000,
       analysis = now - int64_t(config.expire_analysis_seconds) * 1000](Store& st) {
        st.expire_stale(waiting, analysis);
      },
      [](std::exception_ptr e) {
        if (!e) return;
        try {
          std::rethrow_exception(e);
        } catch (const std::exception& x) {
          log(net::LogLevel::Error, "", std::string("cannot expire stale games: ") + x.what());
        }
      });
  return dropped;
}

}  // namespace toguz::site
