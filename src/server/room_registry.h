// The rooms in memory, by game id: found (or loaded from the store), created, swept. A room
// leaves memory when nobody has been connected to it for a while and it is not a live game; it
// is loaded again when opened. IO thread only.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>

#include "server/room.h"

namespace toguz::server {

class RoomRegistry {
 public:
  explicit RoomRegistry(RoomServices& services) : services_(services) {}

  // The room of game `id`: in memory, else loaded from the store. nullptr when the id is not
  // one the server makes, no game has it, or its row cannot be rebuilt (logged).
  std::shared_ptr<Room> find(const std::string& id);
  // A new game with a fresh id, registered (stored by its first save).
  std::shared_ptr<Room> create(Mode mode, const Game& game);
  // Loads every unfinished online and engine game (at start; a bad row is logged and skipped).
  void load_unfinished();
  // The rematch of `old`: created with the colours swapped, stored, announced to old's
  // connections; the engine starts when it is to move.
  void start_rematch(Room& old);
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
  RoomServices& services_;
  std::unordered_map<std::string, std::shared_ptr<Room>> rooms_;
};

}  // namespace toguz::server
