// Moderation on the site (docs/web-protocol.md "Moderation", docs/accounts.md "Moderation"): a
// player's blocks and reports (/api/account/blocks, /api/account/reports), the moderators' list
// of flags and reports and their actions (/api/moderation...), refused (403) to everyone else;
// and what the games ask of it: whether two accounts block each other, whether a game between
// them may be rated. The actions are those of `toguz admin` (moderation.h).
// Threading: the IO thread.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "net/router.h"
#include "site/config.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

// One message of a game's chat as the players and the moderators see it: {"id","side","name",
// "text","time_ms"}.
boost::json::object chat_json(const store::ChatRow& m);

struct ModerationServices {
  const Config& config;
  store::Store& store;
  // Who sent a request (the accounts module).
  std::function<Viewer(const net::Request&)> viewer_of;
};

class ModerationSite {
 public:
  explicit ModerationSite(ModerationServices services) : s_(std::move(services)) {}

  // GET and POST /api/account/blocks, POST /api/account/reports, GET /api/moderation, POST
  // /api/moderation/<action>.
  void add_routes(net::Router& router);
  // Whether one of accounts a and b blocks the other (read from the store, kept kBlockCacheMs,
  // dropped at once for a block or unblock made here).
  bool blocks_between(int64_t a, int64_t b);
  // Whether a game between accounts a and b asked for rated is rated: "" when it is, else why
  // not (moderation::rated_refusal with the configured cap).
  std::string rated_refusal(int64_t a, int64_t b);

 private:
  enum class AccountPart { Blocks, Reports };
  net::Response account_part(const net::Request& req, AccountPart part, const Viewer& v);
  net::Response moderator_action(const std::string& action, const boost::json::object& body,
                                 const Viewer& v);
  net::Response moderators(const net::Request& req, const std::string& query,
                           const std::string& action);
  // GET /api/moderation/chat/<game>: the game's chat for a moderator (a report's context).
  net::Response game_chat(const net::Request& req, const std::string& game);
  // The report of `target` by `v` (POST /api/account/reports), with the reported chat message
  // when the body names one ("chat": its id, a message of `target`).
  net::Response add_report(const boost::json::object& body, const store::UserRow& target,
                           const Viewer& v);

  struct BlockSet {
    int64_t read_ms = 0;
    std::vector<int64_t> ids;
  };
  ModerationServices s_;
  std::unordered_map<int64_t, BlockSet> block_cache_;
};

}  // namespace toguz::site
