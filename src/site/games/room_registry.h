// The rooms in memory, by game id: found (or loaded from the store), created, swept. A room
// leaves memory when nobody has been connected to it for a while and it is not a live game; it
// is loaded again when opened. IO thread only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "site/games/room.h"

namespace toguz::site {

// Who may drive a game, in a cluster (cluster.h): a room is in memory only on the instance that
// holds the game's lease. Without one (a single process) every game is this process's.
class RoomOwnership {
 public:
  virtual ~RoomOwnership() = default;
  // The lease of game `id` for this instance (taken when free, kept when held): its fencing
  // token, above `floor` (the newest token the store has for the game), or nothing when
  // another instance holds it or the bus cannot be reached.
  virtual std::optional<int64_t> acquire(const std::string& id, int64_t floor) = 0;
  virtual void release(const std::string& id) = 0;
};

class RoomRegistry {
 public:
  explicit RoomRegistry(RoomServices& services) : services_(services) {}
  // Set once before the first room (a cluster); null: every game is this process's.
  void set_ownership(RoomOwnership* ownership) { ownership_ = ownership; }

  // The room of game `id`: in memory, else loaded from the store. nullptr when the id is not
  // one the server makes, no game has it, or its row cannot be rebuilt (logged); in a cluster
  // also when another instance drives it (its lease is taken, and the store fenced with its
  // token, before the row is loaded, so the row has every write of the former driver).
  std::shared_ptr<Room> find(const std::string& id);
  // A new game with a fresh id, registered (stored by its first save).
  std::shared_ptr<Room> create(Mode mode, const Game& game);
  // Loads every unfinished online and engine game (at start; a bad row is logged and skipped).
  void load_unfinished();
  // The rematch of `old`: created with the colours swapped, stored, announced to old's
  // connections; the engine starts when it is to move.
  void start_rematch(Room& old);
  // The room if it is in memory (nothing is loaded or leased).
  std::shared_ptr<Room> loaded(const std::string& id) const {
    auto it = rooms_.find(id);
    return it == rooms_.end() ? nullptr : it->second;
  }
  // The room leaves memory now (its lease was lost): timers and engine stopped, its connections
  // closed (they reconnect to whichever instance drives it now).
  void drop(const std::string& id);
  // Ends stale games (in memory and in the store) and drops idle rooms; true when one went.
  bool sweep();
  // Every room at start (engine, flag timer) and at shutdown.
  template <class F>
  void for_each(F&& f) {
    for (auto& [id, room] : rooms_) f(room);
  }
  size_t size() const { return rooms_.size(); }
  void clear() { rooms_.clear(); }

  // A random id of `length` characters from the OS's randomness (tokens must not be guessable).
  static std::string random_id(int length);

 private:
  // In a cluster: takes the lease of a new or loaded room and fences the store with its token;
  // false when another instance holds it.
  bool own(Room& room);
  RoomServices& services_;
  RoomOwnership* ownership_ = nullptr;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
};

}  // namespace toguz::site
