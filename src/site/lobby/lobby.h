// The lobby's behaviour (docs/web-protocol.md "WebSocket /ws/lobby"), with no networking: open
// seeks, direct challenges, quick-pairing pools, the online counts, and starting a game when a
// seek or challenge is accepted or a pool pairs two players. Connections are LobbyClients; the
// time, randomness, ratings, accounts and the game itself come through LobbyHooks, so tests
// drive it with a fake clock. A player is an account (every socket of it is the same player) or
// one anonymous socket.
// Threading: one thread (the server's IO thread), so an accept removes its seek before the next
// message is read: of two accepts of one seek exactly one starts a game.
// Across instances (docs/cluster.md "The lobby"): with the publish and claim hooks set, the
// seeks made here are published to every instance, which lists them beside its own; an accept
// or a cancel first claims the seek (an atomic claim shared by the instances: of two accepts on
// two instances exactly one wins); the instance of the accepting player starts the game and
// tells the seeker's instance, which sends the seeker his start.
// The pools span the instances the same way: every instance publishes its players' pool joins
// and leaves, so each keeps every instance's waiting players (and shows their number); only the
// coordinator (LobbyHooks::coordinator, one instance at a time) pairs them, starts the game and
// publishes the pairing, on which each player's instance sends him his start. The online counts
// are the sums of what every instance publishes of its own.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "accounts/pool.h"
#include "accounts/speed.h"
#include "site/games/paired_game.h"
#include "site/rate_bucket.h"
#include "site/refusal.h"
#include "site/viewer.h"

namespace toguz::site {

// One lobby connection as the lobby sees it.
class LobbyClient {
 public:
  virtual ~LobbyClient() = default;
  virtual void send(std::string message) = 0;
};

// An account's rating in one category.
struct LobbyRating {
  double rating = 1500;
  bool provisional = true;
};

struct LobbyHooks {
  std::function<int64_t()> now_ms;                                    // ms; only differences matter
  std::function<uint64_t()> random;                                   // seek ids and random colours
  std::function<LobbyRating(const Viewer&, accounts::Speed)> rating;  // a signed-in viewer's
  // The account of a name in any case, nullopt when there is none.
  std::function<std::optional<Viewer>(const std::string& name)> find_user;
  // Starts the game; `error` set when it could not.
  std::function<PairedSeats(const PairedGame&)> start_game;
  // People seated in online games being played, and those games.
  std::function<std::pair<int, int>()> playing;
  // In a cluster (all three set, else one instance): this instance's name; publish() sends a
  // lobby change to every instance (each gets it in Lobby::on_bus, this one included); claim()
  // is true for exactly one caller of one seek id across the instances, and false when it is
  // claimed already or the claim cannot be made.
  std::string instance;
  std::function<void(const std::string&)> publish;
  std::function<bool(const std::string& id)> claim;
  // Whether an instance still runs (optional): the seeks of one that is gone are dropped.
  std::function<bool(const std::string& instance)> alive;
  // In a cluster: whether this instance is the coordinator now, the only one that pairs the
  // pools (unset: it pairs them, as a single instance does).
  std::function<bool()> coordinator;
  // The accounts with a socket open on this instance (optional): published with the counts, so
  // that online_elsewhere() knows those of the others.
  std::function<std::vector<int64_t>()> users;
  // Moderation (optional, docs/accounts.md "Moderation"): whether an account is marked (no
  // rated play: its rated seeks, accepts, challenges and pool joins are refused), and whether
  // one of two accounts blocks the other (then neither may challenge the other, accept the
  // other's seek, or be paired with him in a pool).
  std::function<bool(int64_t user_id)> marked;
  std::function<bool(int64_t a, int64_t b)> blocked;
};

inline constexpr int kMaxSeeksPerPlayer = 3;
// Seeks open from one address (every player there, guests' sockets included): a family or a
// club behind one address has room for a few players' seeks, one client cannot fill the lobby.
inline constexpr int kMaxSeeksPerAddress = 6;
// Challenges an account may send: a bucket of this many, refilled at this rate a minute, so no
// account can flood another with pop-ups (besides kMaxSeeksPerPlayer open at once).
inline constexpr int kChallengesPerMinute = 5;
inline constexpr int64_t kLobbyBroadcastMs = 2000;  // online and pools: at most this often

class Lobby {
 public:
  explicit Lobby(LobbyHooks hooks);
  // Challenges one account may send a minute (a bucket of this many, refilled over a minute).
  int challenges_per_minute = kChallengesPerMinute;

  // A connection opened by `viewer` from `address` ("": unknown, not limited by address): it
  // gets the lobby message and the challenges waiting for the account.
  void join(LobbyClient& c, const Viewer& viewer, const std::string& address = "");
  // The connection closed: when it was its player's last, his seeks, pool place and
  // challenges go.
  void leave(LobbyClient& c);
  // One message (a JSON object with a string "type") from a joined connection; a refusal is an
  // {"type":"error"} to it and changes nothing.
  void handle(LobbyClient& c, const boost::json::object& msg);
  // Called about every second: pairs whoever the pools can pair now (the range widens with
  // waiting), then sends the online counts and the pools to everyone when they changed and the
  // last such message is kLobbyBroadcastMs old.
  void tick();
  // A message another instance published (LobbyHooks::publish); its own are ignored, so is
  // what it cannot read.
  void on_bus(const std::string& text);
  // Asks the other instances for their seeks (an instance that starts knows none).
  void announce();
  // Whether account `user_id` has a socket open on another instance (as its last published
  // counts say).
  bool online_elsewhere(int64_t user_id) const;

  size_t connections() const { return conns_.size(); }
  size_t players() const { return players_.size(); }
  size_t seeks() const { return seeks_.size(); }

  // The pools' time controls, "1+0" ... "30+20" (minutes + seconds).
  static const std::vector<std::string>& pool_ids();

 private:
  struct Terms {
    std::string variant = "standard";
    int64_t initial_ms = -1, increment_ms = 0;
    int days_per_move = 0;
    bool rated = false;
    std::string color = "random";  // the seeker's or challenger's
    std::optional<accounts::Speed> speed;
  };
  struct Conn {
    Viewer viewer;
    std::string player;  // "u<id>" for an account, "c<n>" for an anonymous socket
    std::string address;
  };
  struct PlayerState {
    Viewer viewer;
    std::vector<LobbyClient*> clients;  // in order of joining
    std::string pool;                   // the pool waited in, "" for none
    LobbyClient* pool_client = nullptr;
  };
  struct Seek {
    std::string id, player;
    LobbyClient* client;  // the socket that made it: the start goes there (null: elsewhere)
    Terms terms;
    std::optional<std::pair<int, int>> range;
    std::optional<LobbyRating> rating;  // the seeker's in the category (accounts only)
    Viewer viewer;                      // the seeker
    std::string origin;                 // the instance it was made on, "" for this one
    std::string address;                // the seeker's socket's (made here only)
  };
  struct Challenge {
    std::string id, from, to;  // player keys
    LobbyClient* client;       // the challenger's socket
    Viewer from_viewer, to_viewer;
    Terms terms;
    std::optional<LobbyRating> rating;
    std::string origin;  // the instance it was made on, "" for this one
  };
  // A player waiting in a pool, by his pool key (pool_key(): unique across the instances).
  struct PoolEntry {
    std::string pool;
    std::string origin;  // the instance he waits on, "" for this one
    std::string player;  // his player key there
    Viewer viewer;
  };
  // What another instance last published of its own counts.
  struct InstanceCounts {
    int64_t players = 0, games = 0;
    std::set<int64_t> users;
  };
  struct Pool {
    std::string id;
    int64_t initial_ms, increment_ms;
    accounts::Speed speed;
    accounts::PairingPool rated, casual;  // accounts, anonymous players
  };

  // Message handlers: each returns nothing when done, else the refusal (a field reader may
  // also throw it).
  Refused dispatch(LobbyClient& c, const std::string& type, const boost::json::object& msg);
  Refused on_seek(LobbyClient& c, const boost::json::object& msg);
  Refused on_cancel(LobbyClient& c, const boost::json::object& msg);
  Refused on_accept(LobbyClient& c, const boost::json::object& msg);
  Refused on_pool_join(LobbyClient& c, const boost::json::object& msg);
  Refused on_pool_leave(LobbyClient& c);
  Refused on_challenge(LobbyClient& c, const boost::json::object& msg);
  Refused on_challenge_answer(LobbyClient& c, const boost::json::object& msg,
                              const std::string& action);

  // The terms of a seek or challenge message into *out, or the refusal.
  Refused read_terms(const std::string& action, const boost::json::object& msg, const Viewer& who,
                     Terms* out) const;
  std::optional<LobbyRating> rating_of(const Viewer& v,
                                       const std::optional<accounts::Speed>& speed) const;
  // Whether two viewers may not play each other (both accounts, one blocks the other).
  bool blocked(const Viewer& a, const Viewer& b) const;
  bool marked(const Viewer& v) const;
  // Starts the game between player a (socket ca, wanting colour `a_color`) and player b; on
  // success both leave their seeks, pool and own challenges, and both sockets get `start`.
  bool start_game(const std::string& a, LobbyClient* ca, const std::string& b, LobbyClient* cb,
                  const Terms& terms);
  // The game between viewers a and b (a wanting terms.color), and whether a is White.
  PairedSeats make_game(const Viewer& a, const Viewer& b, const Terms& terms, bool* a_white);
  static std::string start_message(const PairedSeats& game, bool white);
  // An accept here of a seek made on another instance (claimed already).
  Refused accept_remote(LobbyClient& c, const Conn& me, const Seek& seek);
  // The cluster's side: a seek as published and read back, and the messages.
  bool clustered() const { return bool(hooks_.publish); }
  std::string wire_seek(const Seek& s) const;
  static std::optional<Seek> seek_of_wire(const boost::json::object& o, const std::string& from);
  void publish_seek(const Seek& s);
  void seek_added_everywhere(const Seek& s);  // to this instance's connections
  void on_seek_taken(const boost::json::object& o);
  std::string wire_challenge(const Challenge& ch) const;
  static Challenge challenge_of_wire(const boost::json::object& o, const std::string& from);
  // An accept here of a challenge made on another instance (claimed already).
  Refused accept_remote(LobbyClient& c, const Challenge& ch);
  void on_challenge_taken(const boost::json::object& o);
  void on_challenge_removed(const std::string& id, const std::string& from,
                            const std::string& reason);
  void remove_player_offers(const std::string& player);
  void remove_seek(size_t index);
  void remove_challenge(size_t index, const char* reason);
  void leave_pool(const std::string& player);
  void pair_pools();
  std::string pool_key(const std::string& player) const;
  void add_pool_entry(const std::string& key, PoolEntry entry, double rating, bool provisional);
  void remove_pool_entry(const std::string& key);
  std::string wire_pool_join(const std::string& key, double rating, bool provisional) const;
  // A pairing's seat for a player waiting here (`player`, his key here): `text` (his start or
  // the error) to his pool socket; after a start his offers go.
  void seat_paired(const std::string& player, const std::string& text, bool started);
  void on_pool_paired(const boost::json::object& o);
  bool may_pair() const { return !clustered() || !hooks_.coordinator || hooks_.coordinator(); }
  // This instance's own counts, and their message.
  std::pair<int64_t, int64_t> own_counts() const;
  std::string wire_counts() const;

  // The fields a seek and a challenge share: id, the player's rating, the terms.
  static boost::json::object offer_json(const std::string& id,
                                        const std::optional<LobbyRating>& rating, const Terms& t);
  boost::json::object seek_json(const Seek& s, const std::string& viewer_player) const;
  boost::json::object challenge_json(const Challenge& ch) const;
  boost::json::array pools_json() const;
  boost::json::object online_json() const;
  void send_to_player(const std::string& player, const std::string& text);
  void broadcast(const std::string& text);
  std::string new_id();

  LobbyHooks hooks_;
  std::map<LobbyClient*, Conn> conns_;
  std::map<std::string, PlayerState> players_;
  std::vector<Seek> seeks_;  // in order of creation
  std::vector<Challenge> challenges_;
  std::vector<Pool> pools_;
  std::map<std::string, PoolEntry> pool_entries_;      // every instance's waiting players
  std::map<std::string, RateBucket> challenges_sent_;  // by challenger (kChallengesPerMinute)
  std::map<std::string, InstanceCounts> counts_;       // the other instances'
  std::string sent_counts_;                            // what this one last published
  int64_t counts_sent_ms_ = INT64_MIN / 2;
  uint64_t next_anonymous_ = 1;
  // What was last broadcast, and when.
  std::string sent_online_, sent_pools_;
  int64_t online_sent_ms_ = INT64_MIN / 2, pools_sent_ms_ = INT64_MIN / 2;
  int64_t alive_checked_ms_ = INT64_MIN / 2;  // the last check of the seeks' instances
  void drop_seeks_of_dead_instances();
};

}  // namespace toguz::site
