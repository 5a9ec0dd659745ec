// Mail on the site (docs/accounts.md "E-mail", docs/web-protocol.md): an account's address,
// set with its password and verified by a mailed link when the site asks for that; the
// forgotten password's reset link (single use, short-lived, only its hash stored, the same
// answer whether or not the address is known); the notices an account asks for (a
// correspondence game's "your turn", a tournament's start). Mails are queued on the outbox,
// whose thread talks to the SMTP server: a slow or dead server never holds a request or a game.
// Threading: the IO thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <utility>

#include "accounts/limiter.h"
#include "mail/outbox.h"
#include "net/router.h"
#include "site/accounts/hash_pool.h"
#include "site/accounts/mail_texts.h"
#include "site/config.h"
#include "site/viewer.h"
#include "store/store.h"

namespace toguz::site {

struct MailServices {
  const Config& config;
  store::Store& store;
  HashPool& hashes;
  boost::asio::io_context& ioc;
  mail::Outbox* outbox;  // null: no SMTP server configured, no mail at all
  std::function<Viewer(const net::Request&)> viewer_of;
  // Every session of the account ended (a password reset): its sockets close.
  std::function<void(int64_t user_id)> sessions_ended;
  std::function<std::string()> site_url;  // the links' base, "http://host:port", no slash
};

class MailSite {
 public:
  explicit MailSite(MailServices services);

  // GET /api/mail, GET /api/account/mail, POST /api/account/email, /api/account/notices,
  // /api/password-reset, /api/password-reset/confirm, /api/email/verify, /api/email/resend.
  void add_routes(net::Router& router);

  // Notices, each only to an account that asked for it and whose address may get mail.
  // "Your turn" in correspondence game `game_id`: at most one per game and player in
  // your_turn_mail_hours.
  void your_turn(int64_t user_id, const std::string& game_id, const std::string& opponent);
  void tournament_started(int64_t user_id, const std::string& tournament_id,
                          const std::string& name);
  // Forgets the limits' counts and the notices' times that left their windows.
  void sweep(int64_t now_ms);

 private:
  void request_reset(const boost::json::object& body, const std::string& peer,
                     net::Respond respond);
  void send_resets(const std::string& email);
  void confirm_reset(const boost::json::object& body, const std::string& peer,
                     net::Respond respond);
  void set_email(const Viewer& v, const boost::json::object& body, const std::string& peer,
                 net::Respond respond);
  void email_verified(const boost::json::object& body, net::Respond respond);
  // Sends the verification link again (at most three mails to an account an hour, resets
  // included).
  net::Response resend_verification(const Viewer& v);
  net::Response account_mail(const Viewer& v);
  net::Response set_notices(const Viewer& v, const boost::json::object& body);
  // Whether the account's address may get mail now.
  bool usable(const store::UserRow& u) const;
  // A new link of `purpose` for `u`, stored as its hash; the link's URL.
  std::string new_link(const store::UserRow& u, const std::string& purpose, int64_t lifetime_ms);
  // Mails `u` a link that confirms its address (24 hours, once).
  void send_verification(const store::UserRow& u);
  void post(MailKind kind, const store::UserRow& u, std::map<std::string, std::string> params);

  MailServices s_;
  accounts::SignupLimiter reset_addresses_, reset_accounts_, confirm_addresses_;
  accounts::LoginLimiter password_limiter_;
  std::map<std::pair<int64_t, std::string>, int64_t> your_turn_sent_;  // (user, game) -> ms
};

}  // namespace toguz::site
