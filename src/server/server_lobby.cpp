// The server's side of the lobby and the tournaments: the Lobby made with the server's clock,
// randomness, store and rooms, the tournaments with theirs (the cluster as the interface they
// declare), and their tick every second.
#include "accounts/glicko2.h"
#include "accounts/username.h"
#include "net/log.h"
#include "server/server_impl.h"
#include "site/json_out.h"

namespace toguz::server {

void Server::Impl::make_tournaments() {
  TournamentsServices ts{config, *store, *rooms, *services};
  ts.post = [this](std::function<void()> f) {
    asio::post(ioc, [this, f = std::move(f)] {
      if (!stopped_io) f();
    });
  };
  ts.viewer_of = [this](const net::Request& req) { return accounts_site->viewer_of(req); };
  // In a cluster an account may be connected to another instance.
  ts.online = [this](int64_t user_id) {
    return accounts_site->online(user_id) || (lobby && lobby->online_elsewhere(user_id));
  };
  ts.start_game = [this](const PairedGame& g) { return games->start_paired(g); };
  ts.rating = [this](const Viewer& v, accounts::Speed s) { return lobby_rating(v, s); };
  ts.entry_code_bucket = [this](const std::string& peer) -> RateBucket& {
    AddressState& a = addresses[peer];
    a.used = SteadyClock::now();
    return a.entry_codes;
  };
  ts.cluster = cluster.get();
  tournaments = std::make_unique<TournamentsSite>(std::move(ts));
  tournaments->start();
}

void Server::Impl::make_lobby() {
  LobbyHooks hooks;
  hooks.now_ms = [] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               SteadyClock::now().time_since_epoch())
        .count();
  };
  hooks.random = [this] { return uint64_t(rng()); };
  hooks.rating = [this](const Viewer& v, accounts::Speed s) { return lobby_rating(v, s); };
  hooks.find_user = [this](const std::string& name) { return account_named(name); };
  hooks.start_game = [this](const PairedGame& g) {
    PairedSeats seats = games->start_paired(g);
    if (!seats.error.empty()) log(net::LogLevel::Warn, "lobby", "no game started: " + seats.error);
    return seats;
  };
  // People seated in online games being played between people, and those games.
  hooks.playing = [this] {
    std::pair<int, int> out{0, 0};
    rooms->for_each([&](const std::shared_ptr<Room>& room) {
      if (room->mode != Mode::Online || room->status != Status::Playing) return;
      out.first += 2;
      ++out.second;
    });
    return out;
  };
  hooks.marked = [this](int64_t user) { return store->standing(user).marked; };
  hooks.blocked = [this](int64_t a, int64_t b) { return moderation_site->blocks_between(a, b); };
  if (cluster) {
    hooks.instance = cluster->instance();
    hooks.publish = [this](const std::string& m) { cluster->publish_lobby(m); };
    hooks.claim = [this](const std::string& id) { return cluster->claim_seek(id); };
    hooks.alive = [this](const std::string& inst) { return cluster->instance_alive(inst); };
    hooks.coordinator = [this] { return cluster->coordinator(); };
    hooks.users = [this] { return accounts_site->online_ids(); };
    cluster->on_lobby([this](const std::string& m) {
      lobby->on_bus(m);
      tournaments->on_channel(m);
    });
    // The new coordinator runs the tournaments from the store, where the last one left them.
    cluster->on_coordinator([this] { tournaments->start(); });
  }
  lobby = std::make_unique<Lobby>(std::move(hooks));
  lobby_sockets = std::make_unique<LobbySocketServices>(
      LobbySocketServices{config, *sockets, *accounts_site, *lobby, stopped_io});
  lobby->challenges_per_minute = config.challenges_per_minute;
}

LobbyRating Server::Impl::lobby_rating(const Viewer& viewer, accounts::Speed speed) {
  const store::RatingRow r =
      accounts_site->rating_now(viewer.user_id, std::string(accounts::name(speed)));
  return {r.rating, r.rd > accounts::kProvisionalRd};
}

std::optional<Viewer> Server::Impl::account_named(const std::string& name) {
  if (name.size() > 100) return std::nullopt;
  const auto user = store->find_user(accounts::username_key(name));
  if (!user) return std::nullopt;
  Viewer v;
  v.user_id = user->id;
  v.username = user->username;
  v.bot = user->bot;
  return v;
}

void Server::Impl::arm_lobby_tick() {
  lobby_timer.expires_after(std::chrono::seconds(1));
  lobby_timer.async_wait([this](beast::error_code ec) {
    if (ec || stopped_io) return;
    lobby->tick();
    tournaments->tick();
    arm_lobby_tick();
  });
}

}  // namespace toguz::server
