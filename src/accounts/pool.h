// Quick pairing: players waiting in one pool (one time control) are paired by rating, the
// acceptable difference widening the longer they wait (docs/web-protocol.md, the lobby). The
// caller passes the time in; the pool has no clock and is not thread-safe (one lobby owns it).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace toguz::accounts {

struct PoolRule {
  double base = 100;       // rating points accepted at once
  double per_second = 10;  // added for every second the longer waiter has waited
  double widest = 500;     // never more
};

class PairingPool {
 public:
  explicit PairingPool(PoolRule rule = {}) : rule_(rule) {}

  // A player starts waiting (a player already waiting keeps his place and time). A provisional
  // rating pairs with anyone, as its number says little.
  void join(const std::string& player, double rating, bool provisional, int64_t now_ms);
  // Leaves the pool (a page closed, a game started elsewhere); false when not waiting.
  bool leave(const std::string& player);

  // The rating difference accepted for a player who has waited since `since_ms`.
  double range(int64_t since_ms, int64_t now_ms) const;

  // Pairs whoever can be paired now and removes them: the longest waiter first, with the
  // waiting player nearest in rating within the range of the longer waiter of the two (ties: the
  // one who waited longer). Returns (first, second) pairs; colours are the caller's choice.
  // `may_meet`, when set, must be true for two players to be paired.
  using MayMeet = std::function<bool(const std::string&, const std::string&)>;
  std::vector<std::pair<std::string, std::string>> pair(int64_t now_ms,
                                                        const MayMeet& may_meet = nullptr);

  std::size_t waiting() const { return waiting_.size(); }

 private:
  struct Entry {
    std::string player;
    double rating;
    bool provisional;
    int64_t since_ms;
  };
  PoolRule rule_;
  std::vector<Entry> waiting_;  // in order of joining
};

}  // namespace toguz::accounts
