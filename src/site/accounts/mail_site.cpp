#include "site/accounts/mail_site.h"

#include <boost/json.hpp>

#include "accounts/password.h"
#include "accounts/session.h"
#include "net/log.h"
#include "site/accounts/off_io.h"
#include "site/json_in.h"
#include "site/json_out.h"
#include "site/refusal.h"

namespace toguz::site {

namespace {

using Response = http::response<http::string_body>;
constexpr int64_t kHourMs = 3600 * 1000;
constexpr int kMailsPerAccountHour = 3;  // reset mails to one account in an hour
constexpr int kConfirmsPerHour = 30;     // reset links tried from one address in an hour
constexpr int kAccountsPerAddress = 5;   // accounts sharing one address that get a reset

Response ok_response(json::object extra = {}) {
  extra["ok"] = true;
  return json_response(http::status::ok, extra);
}

std::string lower(std::string s) {
  for (char& c : s)
    if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
  return s;
}

// A link's token from a body: its stored hash, or the refusal of a wrong link.
std::string link_hash(const json::object& body) {
  const auto hash = accounts::token_hash(get_string(body, "token", "", 100));
  if (!hash) throw Refusal("mail_link");
  return *hash;
}

}  // namespace

MailSite::MailSite(MailServices services)
    : s_(std::move(services)),
      reset_addresses_(accounts::SignupLimits{s_.config.resets_per_hour, kHourMs}),
      reset_accounts_(accounts::SignupLimits{kMailsPerAccountHour, kHourMs}),
      confirm_addresses_(accounts::SignupLimits{kConfirmsPerHour, kHourMs}) {}

void MailSite::add_routes(net::Router& router) {
  using net::Call;
  using net::Method;
  auto add = [&router](Method m, std::string_view pattern, std::function<void(const Call&)> h) {
    router.add(m, pattern, refusals_answered(std::move(h)));
  };
  add(Method::Get, "/api/mail", [this](const Call& c) {
    c.respond(json_response(http::status::ok,
                            json::object{{"available", s_.outbox != nullptr},
                                         {"verification", s_.config.require_email_verification}}));
  });
  add(Method::Get, "/api/account/mail",
      [this](const Call& c) { c.respond(account_mail(s_.viewer_of(c.req))); });
  add(Method::Post, "/api/account/email", [this](const Call& c) {
    set_email(s_.viewer_of(c.req), json_body(c.req), c.peer, c.respond);
  });
  add(Method::Post, "/api/account/notices",
      [this](const Call& c) { c.respond(set_notices(s_.viewer_of(c.req), json_body(c.req))); });
  add(Method::Post, "/api/password-reset",
      [this](const Call& c) { request_reset(json_body(c.req), c.peer, c.respond); });
  add(Method::Post, "/api/password-reset/confirm",
      [this](const Call& c) { confirm_reset(json_body(c.req), c.peer, c.respond); });
  add(Method::Post, "/api/email/verify",
      [this](const Call& c) { email_verified(json_body(c.req), c.respond); });
  add(Method::Post, "/api/email/resend",
      [this](const Call& c) { c.respond(resend_verification(s_.viewer_of(c.req))); });
}

void MailSite::sweep(int64_t now) {
  reset_addresses_.sweep(now);
  reset_accounts_.sweep(now);
  confirm_addresses_.sweep(now);
  password_limiter_.sweep(now);
  const int64_t window = int64_t(s_.config.your_turn_mail_hours) * kHourMs;
  std::erase_if(your_turn_sent_, [&](const auto& e) { return now - e.second >= window; });
}

bool MailSite::usable(const store::UserRow& u) const {
  return s_.outbox && !u.email.empty() &&
         (u.email_verified || !s_.config.require_email_verification);
}

std::string MailSite::new_link(const store::UserRow& u, const std::string& purpose,
                               int64_t lifetime_ms) {
  const accounts::NewSession t = accounts::new_session(now_ms(), lifetime_ms);
  s_.store.add_mail_token(store::MailToken{t.hash, u.id, purpose, u.email, t.expires_ms});
  return s_.site_url() + "/#/" + purpose + "/" + t.token;
}

void MailSite::send_verification(const store::UserRow& u) {
  post(MailKind::Verify, u, {{"link", new_link(u, "verify", 24 * kHourMs)}});
}

void MailSite::post(MailKind kind, const store::UserRow& u,
                    std::map<std::string, std::string> params) {
  params["name"] = u.username;
  if (!s_.outbox->post(mail_text(kind, u.lang, u.email, params)))
    net::log(net::LogLevel::Warn, "",
             "mail: the outbox is full; a mail to " + u.username + " is dropped");
}

// ---- the forgotten password ----

void MailSite::request_reset(const json::object& body, const std::string& peer,
                             net::Respond respond) {
  if (!s_.outbox) throw Refusal("mail_unavailable");
  const std::string email = lower(get_string(body, "email", "", 254));
  const accounts::LoginVerdict verdict = reset_addresses_.admit(peer, now_ms());
  if (!verdict.allowed) throw Refusal("reset_rate");
  // The answer goes before the address is looked up: the same words at the same time whether
  // or not an account has it.
  respond(json_response(http::status::accepted, json::object{{"ok", true}}));
  try {
    send_resets(email);
  } catch (const std::exception& e) {
    net::log(net::LogLevel::Error, "", std::string("mail: a reset request failed: ") + e.what());
  }
}

void MailSite::send_resets(const std::string& email) {
  if (!mail::valid_address(email)) return;
  const int64_t lifetime = int64_t(s_.config.reset_link_seconds) * 1000;
  const std::string minutes = std::to_string((s_.config.reset_link_seconds + 59) / 60);
  for (const store::UserRow& u : s_.store.users_by_email(email, kAccountsPerAddress)) {
    if (!usable(u) || u.bot || s_.store.standing(u.id).closed) continue;
    if (!reset_accounts_.admit(std::to_string(u.id), now_ms()).allowed) continue;
    post(MailKind::Reset, u, {{"link", new_link(u, "reset", lifetime)}, {"minutes", minutes}});
    net::log(net::LogLevel::Info, "", "mail: a reset link for " + u.username);
  }
}

void MailSite::confirm_reset(const json::object& body, const std::string& peer,
                             net::Respond respond) {
  const std::string password = get_string(body, "new_password", "", accounts::kPasswordMax + 1);
  if (auto e = accounts::check_password(password)) throw Refusal(std::string(accounts::code(*e)));
  const std::string hash = link_hash(body);
  if (!confirm_addresses_.admit(peer, now_ms()).allowed) throw Refusal("reset_rate");
  off_io(
      s_.hashes, s_.ioc, HashLane::Login, respond,
      [password] { return accounts::hash_password(password); },
      [this, respond, hash](std::string password_hash) {
        const auto token = s_.store.take_mail_token(hash, "reset", now_ms());
        const auto user = token ? s_.store.user_by_id(token->user_id) : std::nullopt;
        if (!user || user->email != token->email) return respond(Refusal("mail_link").response());
        s_.store.set_password(user->id, password_hash);
        s_.store.delete_sessions(user->id);
        s_.sessions_ended(user->id);
        net::log(net::LogLevel::Info, "", "password reset: " + user->username);
        respond(ok_response({{"username", user->username}}));
      });
}

// ---- the account's address and notices ----

void MailSite::set_email(const Viewer& v, const json::object& body, const std::string& peer,
                         net::Respond respond) {
  if (!v.signed_in()) throw Refusal("not_logged_in");
  const std::string password = get_string(body, "password", "", accounts::kPasswordMax);
  const std::string email = lower(get_string(body, "email", "", 254));
  const std::string lang = mail_lang(get_string(body, "lang", "en", 8));
  if (!email.empty() && !mail::valid_address(email)) throw Refusal("email_invalid");
  const auto user = s_.store.user_by_id(v.user_id);
  if (!user) throw Refusal("not_logged_in");
  if (!password_limiter_.check(user->username_key, peer, now_ms()).allowed)
    throw Refusal("login_failed");
  off_io(
      s_.hashes, s_.ioc, HashLane::Login, respond,
      [password, hash = user->password_hash] { return accounts::verify_password(password, hash); },
      [this, respond, user = *user, email, lang, peer](bool right) mutable {
        if (!right) {
          password_limiter_.failure(user.username_key, peer, now_ms());
          return respond(Refusal("login_failed").response());
        }
        // The same address again keeps its verification.
        const bool verified = user.email_verified && email == user.email;
        s_.store.set_email(user.id, email, verified, lang);
        user.email = email;
        user.email_verified = verified;
        user.lang = lang;
        bool sent = false;
        if (s_.outbox && !email.empty() && !verified && s_.config.require_email_verification) {
          send_verification(user);
          sent = true;
        }
        respond(
            ok_response({{"email", email}, {"verified", verified}, {"verification_sent", sent}}));
      });
}

void MailSite::email_verified(const json::object& body, net::Respond respond) {
  const auto token = s_.store.take_mail_token(link_hash(body), "verify", now_ms());
  const auto user = token ? s_.store.user_by_id(token->user_id) : std::nullopt;
  if (!user || user->email != token->email) throw Refusal("mail_link");
  s_.store.set_email(user->id, user->email, true, user->lang);
  respond(ok_response({{"email", user->email}}));
}

Response MailSite::resend_verification(const Viewer& v) {
  if (!v.signed_in()) throw Refusal("not_logged_in");
  if (!s_.outbox) throw Refusal("mail_unavailable");
  const auto user = s_.store.user_by_id(v.user_id);
  if (!user) throw Refusal("not_logged_in");
  if (user->email.empty() || user->email_verified || !s_.config.require_email_verification)
    throw Refusal("verify_nothing");
  // The reset mails' count per account: a signed-in account cannot make the site spam its
  // (possibly someone else's) address.
  if (!reset_accounts_.admit(std::to_string(user->id), now_ms()).allowed)
    throw Refusal("mail_rate");
  send_verification(*user);
  return ok_response({{"verification_sent", true}});
}

Response MailSite::account_mail(const Viewer& v) {
  if (!v.signed_in()) throw Refusal("not_logged_in");
  const auto user = s_.store.user_by_id(v.user_id);
  if (!user) throw Refusal("not_logged_in");
  return json_response(
      http::status::ok,
      json::object{{"email", user->email},
                   {"verified", user->email_verified},
                   {"usable", usable(*user)},
                   {"your_turn", (user->notices & store::kNoticeYourTurn) != 0},
                   {"tournaments", (user->notices & store::kNoticeTournaments) != 0},
                   {"available", s_.outbox != nullptr},
                   {"verification", s_.config.require_email_verification}});
}

Response MailSite::set_notices(const Viewer& v, const json::object& body) {
  if (!v.signed_in()) throw Refusal("not_logged_in");
  const int notices = (get_bool(body, "your_turn", false) ? store::kNoticeYourTurn : 0) |
                      (get_bool(body, "tournaments", false) ? store::kNoticeTournaments : 0);
  s_.store.set_notices(v.user_id, notices);
  return ok_response();
}

// ---- notices ----

void MailSite::your_turn(int64_t user_id, const std::string& game_id, const std::string& opponent) {
  if (!s_.outbox || user_id <= 0) return;
  const int64_t now = now_ms();
  const auto key = std::pair{user_id, game_id};
  const auto sent = your_turn_sent_.find(key);
  if (sent != your_turn_sent_.end() &&
      now - sent->second < int64_t(s_.config.your_turn_mail_hours) * kHourMs)
    return;
  try {
    const auto user = s_.store.user_by_id(user_id);
    if (!user || !(user->notices & store::kNoticeYourTurn) || !usable(*user)) return;
    your_turn_sent_[key] = now;
    post(MailKind::YourTurn, *user,
         {{"opponent", opponent}, {"link", s_.site_url() + "/#/game/" + game_id}});
  } catch (const std::exception& e) {
    net::log(net::LogLevel::Error, game_id, std::string("mail: your turn: ") + e.what());
  }
}

void MailSite::tournament_started(int64_t user_id, const std::string& tournament_id,
                                  const std::string& name) {
  if (!s_.outbox || user_id <= 0) return;
  try {
    const auto user = s_.store.user_by_id(user_id);
    if (!user || !(user->notices & store::kNoticeTournaments) || !usable(*user)) return;
    post(MailKind::TournamentStart, *user,
         {{"tournament", name}, {"link", s_.site_url() + "/#/tournaments/" + tournament_id}});
  } catch (const std::exception& e) {
    net::log(net::LogLevel::Error, "", std::string("mail: tournament start: ") + e.what());
  }
}

}  // namespace toguz::site
