// The games on the site (docs/web-protocol.md "HTTP" and "Client messages"): creating, joining
// and importing a game, the list of stored games and an account's games, POST /api/analyze,
// every message a game's socket sends after its hello, and the games the lobby and the
// tournaments start between two players at once. Over GamesServices; what a cluster must give
// it is GamesCluster, which the server implements: this module never sees the cluster itself.
// Threading: the IO thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>

#include "engine_work/engine_work.h"
#include "net/router.h"
#include "site/accounts/accounts_site.h"
#include "site/accounts/moderation_site.h"
#include "site/addresses.h"
#include "site/config.h"
#include "site/games/paired_game.h"
#include "site/games/room_registry.h"
#include "site/message_check.h"
#include "site/rate_bucket.h"
#include "site/sockets.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

// A client that sends messages to a room (GamesSite::on_message): a WebSocket of this
// instance, or in a cluster one relayed from another instance.
class ClientSession : public RoomClient {
 public:
  virtual std::shared_ptr<ClientSession> client_ptr() = 0;
  // The client's address (behind a trusted proxy, the one it names), the key of every
  // per-address limit on what the client asks for.
  virtual const std::string& client_address() const = 0;

  std::shared_ptr<Room> room;
  std::shared_ptr<engine_work::Job>
      analysis;               // the running analyze stream, if any (one per connection)
  bool hint_pending = false;  // a hint is queued or searching (one at a time)
  MessageRate rate;
  // Who the client is, for the per-client limits: its address ("" when unknown: a relayed
  // socket) and its account (0: anonymous).
  std::string address;
  int64_t user_id = 0;
  int64_t account() const override { return user_id; }
};

// The chat's limit per account (docs/web-protocol.md "Chat"): kChatBurst messages at once,
// refilled at kChatPerMinute. Kept per instance, for the accounts that chatted lately.
class ChatRates {
 public:
  static constexpr double kChatBurst = 5, kChatPerMinute = 30;  // 5 per 10 s
  // Whether account `user` may post now (a message counted when he may).
  bool take(int64_t user, int64_t now_ms);

 private:
  std::unordered_map<int64_t, RateBucket> buckets_;
};

// One review at a time per client: the keys (its address, its account) of the reviews running.
// A claim is a ticket held while its review runs; dropping it frees its keys.
class ReviewClaims : public std::enable_shared_from_this<ReviewClaims> {
 public:
  // A ticket for a review asked from `address` by `user_id` (0: anonymous); `fallback` keys a
  // client with neither (a relayed socket). Null, with the refusal in *why (review_pending),
  // when one of its keys has a review running.
  std::shared_ptr<void> claim(const std::string& address, int64_t user_id,
                              const std::string& fallback, Refused* why);
  size_t running() const { return running_; }

 private:
  std::set<std::string> keys_;
  size_t running_ = 0;
};

class GameSocket;
struct CreateRequest;

// The cluster as the games see it (absent on a single instance).
class GamesCluster {
 public:
  virtual ~GamesCluster() = default;
  // A request about game `id` that another instance drives is forwarded there: true then
  // (answered when the driver answers); false when this instance answers it.
  virtual bool forward(const std::string& id, const net::Request& req, const std::string& peer,
                       const net::Respond& respond) = 0;
  // Whether another instance drives game `id` now (a socket to it is then relayed there).
  virtual bool driven_elsewhere(const std::string& id) = 0;
  // A relayed socket (GameSocket::relay_game set): its hello, its messages and its end.
  virtual void relay_hello(GameSocket& s) = 0;
  virtual void relay_message(GameSocket& s, const std::string& text) = 0;
  virtual void relay_bye(GameSocket& s) = 0;
};

// What the games need of the rest of the site.
struct GamesServices {
  const Config& config;
  store::Store& store;
  RoomRegistry& rooms;
  engine_work::EngineWork& engine;
  AccountsSite& accounts;
  ModerationSite& moderation;
  Addresses& addresses;               // the games created and the analyses per client address
  std::mt19937_64& rng;               // random colours
  SiteSockets& sockets;               // the games' sockets are counted there with the lobby's
  const bool& stopping;               // the server shuts down: sockets going tell nobody
  std::function<void()> socket_left;  // a socket left its room (memory may be given back)
  GamesCluster* cluster = nullptr;
};

class GamesSite {
 public:
  using Respond = net::Respond;
  using Response = boost::beast::http::response<boost::beast::http::string_body>;

  explicit GamesSite(GamesServices services);

  // /api/games, /api/games/live, /api/games/:id, its join and record, /api/import, /api/analyze and
  // /api/account/games.
  void add_routes(net::Router& router);

  // A WebSocket message after the hello (game_messages.cpp): checked (rate, size, JSON, type),
  // then handled by the handler of its type; a refusal goes back to `s` alone.
  void on_message(ClientSession& s, std::string_view text);

  // Starts a game between two viewers at once. A rated game needs both players logged in
  // (different accounts) and a clock or days per move; it is refused with that code otherwise
  // and nothing is made. The game is online and playing from the start (nobody joins), each
  // seat bound to its viewer's account (only that account may sit or move there) or, for an
  // anonymous viewer, to its token alone; the ratings before the game are read for a rated
  // one. Answers the id and both tokens.
  PairedSeats start_paired(const PairedGame& game);

  // The upgrade `req` to a game's socket (/ws/<id>) from the client at address `client`: the
  // socket takes `stream` (a relay to the instance that drives the game, in a cluster), or the
  // refusal is answered (an unknown game).
  std::optional<Response> open_socket(net::Request req, const std::string& client,
                                      boost::beast::tcp_stream& stream);
  const GamesServices& services() const { return s_; }

  // The reviews running now (GET /api/health).
  size_t reviews_running() const { return reviews_->running(); }

 private:
  // A new game (POST /api/games), answered once it is stored (503 when the store refuses it).
  // An online game is one of Config::online_games_per_address from `peer` (a bucket refilled
  // over kGameWindowMinutes).
  void api_create(const boost::json::object& body, const Viewer& viewer, const std::string& peer,
                  Respond respond);
  Response api_join(const std::string& id, const boost::json::object& body, const Viewer& viewer);
  // An imported record or position (POST /api/import), answered once it is stored.
  void api_import(const boost::json::object& body, Respond respond);
  Response api_list(const std::string& query);
  // GET /api/games/live (current_games.cpp): the games between people now played with a clock,
  // rated ones first by the higher rating, at most 50.
  Response api_live();
  void api_analyze(const boost::json::object& body, const std::string& peer, Respond respond);
  // GET /api/account/games[?turn=mine] (account_games.cpp): the online games the viewer plays,
  // the ones where it is his move first; 401 without an account.
  Response api_account_games(const Viewer& v, const std::string& query);
  // A new game's request read and checked field by field (a rated game: an account that may
  // play one); throws the Refusal naming the field.
  CreateRequest create_request(const boost::json::object& body, const Viewer& viewer);
  // The names typed for seats no account takes, and an online game one of the address's
  // Config::online_games_per_address; throws the Refusal.
  void check_creator(const CreateRequest& r, const Viewer& viewer, const std::string& peer);
  // Seats the creator of `room` (and a local game's two names, the engine, an online game's
  // invite); answers the creation's JSON (id, token, side, invite).
  boost::json::object seat_creator(Room& room, const CreateRequest& r, const Viewer& viewer);
  // Throws a Refusal (name_rating, name_account) when `name`, a cleaned name typed into
  // `field` for a seat no account takes, ends in a rating ("Aigerim (2500)") or reads as an
  // account's name other than the viewer's own (any case, look-alike letters as what they
  // resemble).
  void check_guest_name(const char* field, const std::string& name, const Viewer& viewer);
  // A room just created, queued to the store (Room::store_new) and `ok` answered once it is
  // stored; when the store refuses it the room is dropped and 503 (a fault) or 500 answered:
  // nothing is answered as created unless it was stored. The IO thread does not wait for it.
  void store_created(const std::shared_ptr<Room>& room, bool with_moves, Response ok,
                     Respond respond);
  // Whether `peer` may start an analysis now (one at a time, a bucket of 4 at the set rate):
  // nothing, else the refusal.
  Refused analyze_refusal(const std::string& peer);
  // Binds seat `p` of `room` to `v`'s account: its name, and in a rated game its rating in the
  // room's category.
  void bind_account(Player& p, const Room& room, const Viewer& v);
  // A game another instance of the cluster drives is answered there (true).
  bool forwarded(const net::Call& c);

  GamesServices s_;
  std::shared_ptr<ReviewClaims> reviews_ = std::make_shared<ReviewClaims>();
  ChatRates chat_rates_;
};

}  // namespace toguz::site
