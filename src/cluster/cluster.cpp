#include "cluster/cluster.h"

#include <unistd.h>

#include <map>
#include <random>

#include "bus/lease.h"
#include "net/log.h"
#include "site/json_out.h"

namespace toguz::cluster {

namespace {

using std::chrono::milliseconds;

// The bus message "<header line>\n<payload>" split: the header's words and the payload.
struct BusMessage {
  std::vector<std::string> words;
  std::string payload;
  const std::string& word(size_t i) const {
    static const std::string none;
    return i < words.size() ? words[i] : none;
  }
};

BusMessage split_message(const std::string& text) {
  BusMessage m;
  const size_t nl = text.find('\n');
  const std::string header = text.substr(0, nl);
  if (nl != std::string::npos) m.payload = text.substr(nl + 1);
  for (size_t at = 0; at < header.size();) {
    size_t end = header.find(' ', at);
    if (end == std::string::npos) end = header.size();
    if (end > at) m.words.push_back(header.substr(at, end - at));
    at = end + 1;
  }
  return m;
}

std::string make_instance_id() {
  char host[64] = {};
  gethostname(host, sizeof host - 1);
  std::random_device rd;
  std::string id = std::string(host) + "-" + std::to_string(getpid()) + "-";
  for (int i = 0; i < 4; ++i) id += "abcdefghijkmnpqrstuvwxyz23456789"[rd() % 32];
  for (char& c : id)
    if (c == ' ' || c == '\n' || c == ':') c = '_';
  return id;
}

std::string alive_key(const std::string& instance) {
  return "toguz:instance:" + instance + ":alive";
}

Seat seat_from_name(const std::string& name) {
  for (Seat s : {Seat::White, Seat::Black, Seat::Both})
    if (seat_name(s) == name) return s;
  return Seat::Spectator;
}

}  // namespace

// A connection of another instance (a relay) to a room of this one: what the room sends it
// goes back to that instance as text. Its client address is the one the relay found for its
// socket (its hello carries it), so limits here count the real client.
class RemoteClient : public ClientSession, public std::enable_shared_from_this<RemoteClient> {
 public:
  RemoteClient(Cluster& cluster, std::string instance, std::string conn, Seat seat,
               std::string client)
      : cluster_(cluster),
        instance_(std::move(instance)),
        conn_(std::move(conn)),
        client_(client.empty() ? "?" : std::move(client)),
        seat_(seat) {}
  std::string key() const { return instance_ + " " + conn_; }
  const std::string& instance() const { return instance_; }
  Seat seat() const override { return seat_; }
  void send(std::string message) override {
    if (!closed_) cluster_.send_to(instance_, "out " + conn_ + " 0", message);
  }
  void send_state(std::string message) override {
    if (!closed_) cluster_.send_to(instance_, "out " + conn_ + " 1", message);
  }
  // The room closes it: the relay is told to close its WebSocket.
  void close() override {
    if (closed_) return;
    auto self = shared_from_this();  // forget() drops the map's reference
    gone();
    cluster_.send_to(instance_, "close " + conn_, "");
    cluster_.forget(key());
  }
  // The relay's client went (or the relay died): detached, nothing sent.
  void gone() {
    if (closed_) return;
    closed_ = true;
    if (analysis) analysis->cancel();
    if (room) room->detach(*this);
  }
  std::shared_ptr<ClientSession> client_ptr() override { return shared_from_this(); }
  const std::string& client_address() const override { return client_; }

 private:
  Cluster& cluster_;
  std::string instance_, conn_, client_;
  Seat seat_;
  bool closed_ = false;
};

Cluster::Cluster(ClusterServices services, const std::string& redis_url)
    : server_(std::move(services)),
      redis_url_(redis_url),
      instance_(make_instance_id()),
      redis_(bus::parse_redis_url(redis_url),
             bus::Timeouts{milliseconds(1000), milliseconds(2000)}),
      tick_timer_(server_.ioc),
      lease_(milliseconds(std::max(300, server_.config.lease_ms))) {
  redis_.command({"PING"});
}

Cluster::~Cluster() {
  if (subscriber_) subscriber_->stop();
}

std::string Cluster::channel_of(const std::string& instance) {
  return "toguz:instance:" + instance;
}

std::string Cluster::lease_key(const std::string& id) {
  return "toguz:game:" + id + ":lease";
}

void Cluster::start() {
  subscriber_ = std::make_unique<bus::Subscriber>(
      bus::parse_redis_url(redis_url_),
      [this](const bus::Message& m) {
        asio::post(server_.ioc, [this, channel = m.channel, payload = m.payload] {
          if (stopped_) return;
          try {
            if (channel == kLobbyChannel) {
              if (lobby_) lobby_(payload);
              return;
            }
            if (channel == kSessionsChannel) return on_sessions_ended(payload);
            on_bus(payload);
          } catch (const std::exception& e) {
            log(net::LogLevel::Error, "", std::string("cluster message: ") + e.what());
          }
        });
      },
      [this](bool connected, const std::string& error) {
        bus_connected_ = connected;
        if (!connected) log(net::LogLevel::Warn, "", "cluster: subscriber: " + error);
      });
  subscriber_->subscribe(channel_of(instance_));
  if (lobby_) subscriber_->subscribe(kLobbyChannel);
  subscriber_->subscribe(kSessionsChannel);
  if (!subscriber_->wait_subscribed(std::chrono::seconds(10)))
    throw bus::BusError("redis at " + redis_.url().text() + ": subscribing took over 10 s");
  redis_.command({"SET", alive_key(instance_), "1", "PX", std::to_string(lease_.count())});
  log(net::LogLevel::Info, "",
      "cluster: instance " + instance_ + " on redis " + redis_.url().text());
  hold_coordinator();
  arm_tick();
}

void Cluster::stop() {
  if (stopped_) return;
  stopped_ = true;
  tick_timer_.cancel();
  try {
    std::vector<std::string> held;
    server_.rooms.for_each([&](const std::shared_ptr<Room>& room) { held.push_back(room->id); });
    for (const std::string& id : held) bus::release_lease(redis_, lease_key(id), instance_);
    for (const auto& [game, r] : relayed_)
      for (uint64_t conn : r.conns)
        if (!r.driver.empty())
          publish_on(channel_of(r.driver),
                     "bye " + game + " " + instance_ + " " + std::to_string(conn) + "\n");
    if (coordinator_) bus::release_lease(redis_, kCoordinatorKey, instance_);
    coordinator_ = false;
    redis_.command({"DEL", alive_key(instance_)});
  } catch (const std::exception& e) {
    log(net::LogLevel::Warn, "", std::string("cluster: at shutdown: ") + e.what());
  }
  if (subscriber_) subscriber_->stop();
}

// ---- leases ----

std::optional<int64_t> Cluster::acquire(const std::string& id, int64_t floor) {
  if (stopped_) return std::nullopt;
  try {
    auto token = bus::acquire_lease(redis_, lease_key(id), instance_, lease_, floor);
    if (token) return int64_t(*token);
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Error, id, std::string("cluster: cannot take the lease: ") + e.what());
  }
  return std::nullopt;
}

void Cluster::release(const std::string& id) {
  try {
    bus::release_lease(redis_, lease_key(id), instance_);
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Warn, id, std::string("cluster: cannot release the lease: ") + e.what());
  }
}

std::string Cluster::driver_elsewhere(const std::string& id) {
  try {
    auto holder = bus::lease_holder(redis_, lease_key(id));
    if (holder && holder->owner != instance_) return holder->owner;
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Error, id, std::string("cluster: cannot read the lease: ") + e.what());
  }
  return "";
}

// ---- the coordinator ----

void Cluster::hold_coordinator() {
  const auto asked = std::chrono::steady_clock::now();
  bool held = false;
  try {
    held = bus::acquire_lease(redis_, kCoordinatorKey, instance_, lease_).has_value();
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Warn, "",
        std::string("cluster: cannot renew the coordinator lease: ") + e.what());
  }
  const bool became = held && !coordinator_;
  if (coordinator_ && !held) log(net::LogLevel::Warn, "", "cluster: no longer the coordinator");
  coordinator_ = held;
  // Counted from before the request: the lease in Redis runs at least this long.
  if (held) coordinator_until_ = asked + lease_ * 5 / 6;
  if (!became) return;
  log(net::LogLevel::Info, "", "cluster: this instance is the coordinator");
  if (became_coordinator_) became_coordinator_();
}

bool Cluster::coordinator() const {
  return coordinator_ && !stopped_ && std::chrono::steady_clock::now() < coordinator_until_;
}

std::string Cluster::coordinator_elsewhere() {
  try {
    auto holder = bus::lease_holder(redis_, kCoordinatorKey);
    if (holder && holder->owner != instance_) return holder->owner;
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Error, "", std::string("cluster: cannot read the coordinator: ") + e.what());
  }
  return "";
}

// ---- the bus ----

bool Cluster::instance_alive(const std::string& instance) {
  try {
    return redis_.command({"EXISTS", alive_key(instance)}).integer != 0;
  } catch (const bus::BusError&) {
    return true;  // not known: its seeks stay
  }
}

bool Cluster::claim_seek(const std::string& id) {
  try {
    // Kept an hour: longer than any accept or cancel of the seek can come late.
    const bus::Reply r =
        redis_.command({"SET", "toguz:lobby:seek:" + id, instance_, "NX", "PX", "3600000"});
    return !r.nil();
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Error, "lobby",
        std::string("cluster: cannot claim seek ") + id + ": " + e.what());
    return false;
  }
}

long long Cluster::publish_on(const std::string& channel, const std::string& message) {
  try {
    return bus::publish(redis_, channel, message);
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Warn, "", std::string("cluster: cannot publish: ") + e.what());
    return 0;
  }
}

void Cluster::publish_sessions_ended(int64_t user_id) {
  publish_on(kSessionsChannel, "ended " + std::to_string(user_id));
}

void Cluster::on_sessions_ended(const std::string& payload) {
  const BusMessage m = split_message(payload);
  if (m.word(0) != "ended") return;
  int64_t user_id = 0;
  try {
    user_id = std::stoll(m.word(1));
  } catch (const std::exception&) {
    return;
  }
  server_.sockets.close_ended_sessions(user_id);
}

long long Cluster::send_to(const std::string& instance, const std::string& header,
                           const std::string& payload) {
  return publish_on(channel_of(instance), header + "\n" + payload);
}

void Cluster::forget(const std::string& key) {
  remotes_.erase(key);
}

void Cluster::on_bus(const std::string& text) {
  const BusMessage m = split_message(text);
  const std::string& type = m.word(0);
  if (type == "out" || type == "seat" || type == "close") {
    uint64_t conn = 0;
    try {
      conn = std::stoull(m.word(1));
    } catch (const std::exception&) {
      return;
    }
    auto s = relay_session(conn);
    if (!s) return;
    if (type == "out" && m.word(2) == "1")
      s->send_state(m.payload);
    else if (type == "out")
      s->send(m.payload);
    else if (type == "seat")
      s->set_seat(seat_from_name(m.word(2)));
    else
      s->close();
  } else if (type == "hello") {
    Viewer viewer;
    try {
      if (!m.word(4).empty()) viewer.user_id = std::stoll(m.word(4));
    } catch (const std::exception&) {
    }
    on_hello(m.word(1), m.word(2), m.word(3), m.payload, viewer, m.word(5));
  } else if (type == "moved") {
    on_moved(m.word(1), m.word(2));
  } else if (type == "msg") {
    on_remote_message(m.word(1), m.word(2), m.word(3), m.payload);
  } else if (type == "bye") {
    on_remote_bye(m.word(2), m.word(3));
  } else if (type == "http") {
    on_http(m.word(1), m.word(2), m.word(3), m.word(4), m.word(5), m.payload);
  } else if (type == "reply") {
    const size_t nl = m.payload.find('\n');
    int status = 502;
    try {
      status = std::stoi(m.word(2));
    } catch (const std::exception&) {
    }
    on_http_reply(m.word(1), status, m.payload.substr(0, nl),
                  nl == std::string::npos ? "" : m.payload.substr(nl + 1));
  } else {
    log(net::LogLevel::Warn, "", "cluster: unknown bus message '" + type.substr(0, 20) + "'");
  }
}

// ---- the driver's side: connections of other instances ----

void Cluster::on_hello(const std::string& game, const std::string& from, const std::string& conn,
                       const std::string& token, const Viewer& viewer, const std::string& address) {
  if (from.empty() || conn.empty()) return;
  const std::string key = from + " " + conn;
  if (auto it = remotes_.find(key); it != remotes_.end()) {
    it->second->gone();
    remotes_.erase(it);
  }
  auto room = draining_ ? server_.rooms.loaded(game) : server_.rooms.find(game);
  if (!room) {
    send_to(from, "close " + conn, "");
    return;
  }
  const Seat seat = room->seat_for(token, viewer);
  if (seat == Seat::Spectator && room->spectators >= server_.config.max_spectators_per_room) {
    send_to(from, "out " + conn + " 0",
            Refusal("spectators_full", {{"n", std::to_string(room->spectators)}}).message());
    send_to(from, "close " + conn, "");
    return;
  }
  auto client = std::make_shared<RemoteClient>(*this, from, conn, seat, address);
  client->room = room;
  client->user_id = viewer.user_id;
  remotes_[key] = client;
  send_to(from, "seat " + conn + " " + std::string(seat_name(seat)), "");
  room->attach(*client);
}

void Cluster::on_remote_message(const std::string& game, const std::string& from,
                                const std::string& conn, const std::string& text) {
  auto it = remotes_.find(from + " " + conn);
  if (it == remotes_.end() && handed_over_.count(game)) {
    // Sent before its relay heard of the hand-over: the client sends it again to the next driver.
    send_to(from, "out " + conn + " 0", Refusal("game_moving").message());
    return;
  }
  if (it == remotes_.end()) {
    send_to(from, "close " + conn, "");  // its hello went to another driver: it reconnects
    return;
  }
  std::shared_ptr<RemoteClient> client = it->second;
  try {
    server_.message(*client, text);
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, client->room ? client->room->id : "",
        std::string("message handler: ") + e.what());
    client->send(Refusal("server_error", {{"detail", e.what()}}).message());
  }
}

void Cluster::on_remote_bye(const std::string& from, const std::string& conn) {
  auto it = remotes_.find(from + " " + conn);
  if (it == remotes_.end()) return;
  std::shared_ptr<RemoteClient> client = it->second;
  remotes_.erase(it);
  client->gone();
}

void Cluster::on_http(const std::string& from, const std::string& req, const std::string& method,
                      const std::string& target, const std::string& client,
                      const std::string& body) {
  // The payload is the request's Cookie line (its account, docs/accounts.md), then its body.
  http::request<http::string_body> r{http::string_to_verb(method), target, 11};
  const size_t nl = body.find('\n');
  if (nl == std::string::npos) return;
  if (nl > 0) r.set(http::field::cookie, body.substr(0, nl));
  r.body() = body.substr(nl + 1);
  r.prepare_payload();
  // Answered here, never forwarded again; its client is the one the forwarding instance saw.
  routing_forwarded_ = true;
  try {
    server_.route(r, client.empty() ? "?" : client,
                  [this, from, req](http::response<http::string_body> res) {
                    send_to(from, "reply " + req + " " + std::to_string(res.result_int()),
                            std::string(res[http::field::content_type]) + "\n" + res.body());
                  });
  } catch (...) {
    routing_forwarded_ = false;
    throw;
  }
  routing_forwarded_ = false;
}

// ---- the relay's side: this instance's connections to games driven elsewhere ----

std::shared_ptr<GameSocket> Cluster::relay_session(uint64_t conn) const {
  auto it = sessions_.find(conn);
  return it == sessions_.end() ? nullptr : it->second.lock();
}

bool Cluster::hello_driver(GameSocket& s, const std::string& driver) {
  if (driver.empty()) return false;
  // The account of the session's cookie travels as its id (the driver seats by token or
  // account), and the client's address for the driver's limits.
  send_to(driver,
          "hello " + s.relay_game + " " + instance_ + " " + std::to_string(s.relay_conn) + " " +
              std::to_string(s.viewer().user_id) + " " + s.client_address(),
          s.hello_token());
  return true;
}

void Cluster::relay_hello(GameSocket& s) {
  s.relay_conn = next_conn_++;
  sessions_[s.relay_conn] = std::static_pointer_cast<GameSocket>(s.shared_from_this());
  Relayed& r = relayed_[s.relay_game];
  r.conns.insert(s.relay_conn);
  if (r.driver.empty()) r.driver = driver_elsewhere(s.relay_game);
  if (!r.driver.empty()) {
    hello_driver(s, r.driver);
    return;
  }
  // Nobody drives it (its driver just went): this instance takes it over, or the next tick
  // finds who did.
  const std::string game = s.relay_game;
  if (auto room = server_.rooms.find(game)) {
    relayed_[game].conns.erase(s.relay_conn);
    if (relayed_[game].conns.empty()) relayed_.erase(game);
    sessions_.erase(s.relay_conn);
    s.become_local(room);
  }
}

void Cluster::relay_message(GameSocket& s, const std::string& text) {
  auto it = relayed_.find(s.relay_game);
  const bool sent =
      it != relayed_.end() && !it->second.driver.empty() &&
      send_to(it->second.driver,
              "msg " + s.relay_game + " " + instance_ + " " + std::to_string(s.relay_conn),
              text) > 0;
  // Its driver is gone: the message is refused, and the game is taken over within a lease.
  if (!sent) s.send(Refusal("game_moving").message());
}

void Cluster::relay_bye(GameSocket& s) {
  sessions_.erase(s.relay_conn);
  auto it = relayed_.find(s.relay_game);
  if (it == relayed_.end()) return;
  if (!it->second.driver.empty())
    send_to(it->second.driver,
            "bye " + s.relay_game + " " + instance_ + " " + std::to_string(s.relay_conn), "");
  it->second.conns.erase(s.relay_conn);
  if (it->second.conns.empty()) relayed_.erase(it);
}

void Cluster::close_relayed(uint64_t conn) {
  if (auto s = relay_session(conn)) s->close();
}

void Cluster::forward_http(const std::string& driver, const http::request<http::string_body>& req,
                           const std::string& peer, Respond respond) {
  const uint64_t n = next_request_++;
  PendingHttp p;
  p.respond = std::move(respond);
  p.timer = std::make_unique<asio::steady_timer>(server_.ioc);
  p.timer->expires_after(std::chrono::seconds(5));
  p.timer->async_wait([this, n](boost::system::error_code ec) {
    if (ec) return;
    auto it = pending_http_.find(n);
    if (it == pending_http_.end()) return;
    Respond r = std::move(it->second.respond);
    pending_http_.erase(it);
    r(Refusal("driver_silent").response());
  });
  pending_http_[n] = std::move(p);
  send_to(driver,
          "http " + instance_ + " " + std::to_string(n) + " " + std::string(req.method_string()) +
              " " + std::string(req.target()) + " " + peer,
          std::string(req[http::field::cookie]) + "\n" + req.body());
}

void Cluster::on_http_reply(const std::string& req, int status, const std::string& content_type,
                            const std::string& body) {
  uint64_t n = 0;
  try {
    n = std::stoull(req);
  } catch (const std::exception&) {
    return;
  }
  auto it = pending_http_.find(n);
  if (it == pending_http_.end()) return;
  Respond r = std::move(it->second.respond);
  it->second.timer->cancel();
  pending_http_.erase(it);
  http::response<http::string_body> res{http::status(status), 11};
  if (!content_type.empty()) res.set(http::field::content_type, content_type);
  res.set(http::field::cache_control, "no-store");
  res.body() = body;
  res.prepare_payload();
  r(std::move(res));
}

// ---- the tick: leases, relays, dead instances, orphaned games ----

void Cluster::arm_tick() {
  tick_timer_.expires_after(lease_ / 3);
  tick_timer_.async_wait([this](boost::system::error_code ec) {
    if (ec || stopped_ || server_.stopping) return;
    try {
      tick();
    } catch (const std::exception& e) {
      log(net::LogLevel::Error, "", std::string("cluster: ") + e.what());
    }
    arm_tick();
  });
}

void Cluster::tick() {
  ++ticks_;
  redis_.command({"SET", alive_key(instance_), "1", "PX", std::to_string(lease_.count())});
  renew_leases();
  hold_coordinator();
  watch_relayed();
  drop_dead_remotes();
  if (ticks_ % 3 == 1) adopt_orphans();
  if (server_.on_tick) server_.on_tick();
}

void Cluster::renew_leases() {
  std::vector<std::string> ids, keys;
  server_.rooms.for_each([&](const std::shared_ptr<Room>& room) {
    ids.push_back(room->id);
    keys.push_back(lease_key(room->id));
  });
  if (keys.empty()) return;
  const std::vector<bool> held = bus::renew_leases(redis_, keys, instance_, lease_);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (held[i]) continue;
    log(net::LogLevel::Warn, ids[i], "cluster: the lease was lost; the game leaves this instance");
    server_.rooms.drop(ids[i]);
  }
}

void Cluster::watch_relayed() {
  std::vector<std::string> games;
  for (const auto& [game, r] : relayed_) games.push_back(game);
  for (const std::string& game : games) {
    auto it = relayed_.find(game);
    if (it == relayed_.end()) continue;
    std::string driver = driver_elsewhere(game);
    if (driver.empty()) {
      // Nobody drives it: take it over; the relayed sessions attach here.
      take_over(game, it->second.driver);
    } else if (driver != it->second.driver) {
      it->second.driver = driver;
      for (uint64_t conn : it->second.conns)
        if (auto s = relay_session(conn)) hello_driver(*s, driver);
    }
  }
}

bool Cluster::take_over(const std::string& game, const std::string& from) {
  if (draining_) return false;
  auto room = server_.rooms.find(game);  // the lease, the store fenced, the row loaded
  if (!room) return false;
  log(net::LogLevel::Info, game, "cluster: taken over from " + from);
  if (auto it = relayed_.find(game); it != relayed_.end()) {
    const std::set<uint64_t> conns = it->second.conns;
    relayed_.erase(it);
    for (uint64_t conn : conns) {
      auto s = relay_session(conn);
      sessions_.erase(conn);
      if (s) s->become_local(room);
    }
  }
  room->start_engine();
  room->arm_flag_timer();
  return true;
}

// ---- draining: the games handed to other instances ----

std::vector<std::string> Cluster::live_instances() {
  const std::string prefix = "toguz:instance:", suffix = ":alive";
  std::vector<std::string> out;
  std::string cursor = "0";
  do {
    const bus::Reply r =
        redis_.command({"SCAN", cursor, "MATCH", prefix + "*" + suffix, "COUNT", "1000"});
    if (!r.is_array() || r.elements.size() < 2) break;
    cursor = r.elements[0].str;
    for (const bus::Reply& k : r.elements[1].elements) {
      if (k.str.size() <= prefix.size() + suffix.size()) continue;
      std::string inst = k.str.substr(prefix.size(), k.str.size() - prefix.size() - suffix.size());
      if (inst != instance_) out.push_back(std::move(inst));
    }
  } while (cursor != "0");
  return out;
}

size_t Cluster::hand_over() {
  std::vector<std::shared_ptr<Room>> held;
  server_.rooms.for_each([&](const std::shared_ptr<Room>& room) { held.push_back(room); });
  std::vector<std::string> others;
  try {
    others = live_instances();
  } catch (const bus::BusError& e) {
    log(net::LogLevel::Warn, "", std::string("cluster: cannot list the instances: ") + e.what());
  }
  size_t next = 0, handed = 0;
  for (const std::shared_ptr<Room>& room : held) {
    // Its relayed clients leave the room untold: their relays say hello to the next driver.
    std::map<std::string, int> relays;
    for (auto it = remotes_.begin(); it != remotes_.end();) {
      if (it->second->room != room) {
        ++it;
        continue;
      }
      ++relays[it->second->instance()];
      std::shared_ptr<RemoteClient> client = it->second;
      it = remotes_.erase(it);
      client->gone();
    }
    std::string successor;
    for (const auto& [inst, n] : relays)
      if (successor.empty() || n > relays[successor]) successor = inst;
    if (successor.empty() && !others.empty()) successor = others[next++ % others.size()];
    release(room->id);
    handed_over_.insert(room->id);
    server_.rooms.drop(room->id);  // its sockets here close; the pages reconnect elsewhere
    if (successor.empty()) continue;
    relays[successor];
    for (const auto& [inst, n] : relays) send_to(inst, "moved " + room->id + " " + successor, "");
    ++handed;
  }
  return handed;
}

void Cluster::on_moved(const std::string& game, const std::string& successor) {
  if (successor == instance_) {
    take_over(game, "a draining instance");
    return;
  }
  auto it = relayed_.find(game);
  if (it == relayed_.end()) return;
  it->second.driver = successor;
  for (uint64_t conn : it->second.conns)
    if (auto s = relay_session(conn)) hello_driver(*s, successor);
}

void Cluster::drop_dead_remotes() {
  std::set<std::string> instances;
  for (const auto& [key, client] : remotes_) instances.insert(client->instance());
  if (instances.empty()) return;
  std::vector<std::vector<std::string>> commands;
  for (const std::string& inst : instances) commands.push_back({"EXISTS", alive_key(inst)});
  const std::vector<bus::Reply> alive = redis_.pipeline(commands);
  std::set<std::string> dead;
  size_t i = 0;
  for (const std::string& inst : instances) {
    const bus::Reply& r = alive[i++];
    if (r.type == bus::Reply::Type::Integer && r.integer == 0) dead.insert(inst);
  }
  if (dead.empty()) return;
  for (auto it = remotes_.begin(); it != remotes_.end();) {
    if (dead.count(it->second->instance())) {
      std::shared_ptr<RemoteClient> client = it->second;
      it = remotes_.erase(it);
      client->gone();
    } else {
      ++it;
    }
  }
}

void Cluster::adopt_orphans() {
  if (draining_) return;
  std::vector<std::string> ids;
  for (const std::string& id : server_.store.unfinished_ids())
    if (!server_.rooms.loaded(id)) ids.push_back(id);
  if (ids.empty()) return;
  std::vector<std::vector<std::string>> commands;
  for (const std::string& id : ids) commands.push_back({"EXISTS", lease_key(id)});
  const std::vector<bus::Reply> held = redis_.pipeline(commands);
  for (size_t i = 0; i < ids.size(); ++i) {
    if (held[i].type != bus::Reply::Type::Integer || held[i].integer != 0) continue;
    if (auto room = server_.rooms.find(ids[i])) {
      log(net::LogLevel::Info, ids[i], "cluster: an unfinished game nobody drove is driven here");
      room->start_engine();
      room->arm_flag_timer();
    }
  }
}

// ---- what the features declare of the cluster ----

bool Cluster::forward(const std::string& id, const net::Request& req, const std::string& peer,
                      const net::Respond& respond) {
  if (routing_forwarded_ || server_.rooms.find(id)) return false;
  const std::string driver = driver_elsewhere(id);
  if (driver.empty()) return false;
  forward_http(driver, req, peer, respond);
  return true;
}

bool Cluster::forward(const net::Request& req, const std::string& peer,
                      const net::Respond& respond) {
  if (routing_forwarded_ || coordinator()) return false;
  const std::string holder = coordinator_elsewhere();
  if (holder.empty()) {
    respond(Refusal("tournaments_unavailable").response());
    return true;
  }
  forward_http(holder, req, peer, respond);
  return true;
}

}  // namespace toguz::cluster
