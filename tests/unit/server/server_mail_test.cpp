// Mail on a real server with a local SMTP sink (docs/accounts.md "E-mail"): the password reset
// (the same answer for a known and an unknown address, one mail, the link works once and not
// after its time, only its hash stored, the other sessions ended), the address's verification,
// the correspondence "your turn" notice only to who asked for it, and a dead SMTP server that
// leaves play alone.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <thread>

#include "server_client.h"
#include "smtp_sink.h"

namespace toguz::test {
namespace {

using Headers = std::vector<std::pair<http::field, std::string>>;

HttpResult mail_call(uint16_t port, http::verb verb, const std::string& target,
                     const json::value& body, const std::string& cookie) {
  Headers h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  return http_call(port, verb, target, verb == http::verb::get ? "" : json::serialize(body), h);
}

HttpResult mail_post(uint16_t port, const std::string& target, const json::value& body,
                     const std::string& cookie = "") {
  return mail_call(port, http::verb::post, target, body, cookie);
}

std::string mail_me(uint16_t port, const std::string& cookie) {
  const json::value v = mail_call(port, http::verb::get, "/api/me", nullptr, cookie).json();
  return v.at("username").is_null() ? "" : jstr(v.at("username"));
}

// Gives `name`'s account (signed up by sign_up_cookie) the address `email`.
void set_email(uint16_t port, const std::string& cookie, const std::string& name,
               const std::string& email) {
  const HttpResult r = mail_post(
      port, "/api/account/email",
      json::value{{"password", "password-of-" + name}, {"email", email}, {"lang", "ru"}}, cookie);
  ASSERT_EQ(r.status, 200) << r.body;
}

// The token of the link "/#/<purpose>/<token>" in a mail, "" when there is none.
std::string link_token(const SinkMail& m, const std::string& purpose) {
  const std::string mark = "/#/" + purpose + "/";
  const size_t at = m.data.find(mark);
  if (at == std::string::npos) return "";
  const size_t from = at + mark.size();
  return m.data.substr(from, m.data.find_first_of(" \r\n", from) - from);
}

int64_t sqlite_int(const std::string& db, const std::string& sql) {
  sqlite3* h = nullptr;
  EXPECT_EQ(sqlite3_open(db.c_str(), &h), SQLITE_OK);
  sqlite3_stmt* st = nullptr;
  EXPECT_EQ(sqlite3_prepare_v2(h, sql.c_str(), -1, &st, nullptr), SQLITE_OK) << sql;
  const int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(h);
  return v;
}

server::Config mail_config(const SmtpSink& sink) {
  server::Config cfg;
  cfg.smtp_url = sink.url();
  cfg.smtp_tls = mail::Tls::None;
  cfg.smtp_from = "toguz@example.org";
  return cfg;
}

TEST(ServerMail, ResetAnswersAlikeAndItsLinkWorksOnce) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  SmtpSink sink;
  TestServer srv(db, mail_config(sink));
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  set_email(port, a, "Aigerim", "Aigerim@Example.org");
  EXPECT_EQ(
      code_of(mail_post(port, "/api/account/email",
                        json::value{{"password", "password-of-Aigerim"}, {"email", "nope"}}, a)),
      "email_invalid");
  EXPECT_EQ(
      code_of(mail_post(port, "/api/account/email",
                        json::value{{"password", "wrong password"}, {"email", "x@y.org"}}, a)),
      "login_failed");

  // An unknown address first: the mails go out in order, so the first mail is the known one's.
  const HttpResult unknown =
      mail_post(port, "/api/password-reset", json::value{{"email", "nobody@example.org"}});
  const HttpResult known =
      mail_post(port, "/api/password-reset", json::value{{"email", "aigerim@example.org"}});
  EXPECT_EQ(unknown.status, 202);
  EXPECT_EQ(known.status, unknown.status);
  EXPECT_EQ(known.body, unknown.body);
  const std::vector<SinkMail> mails = sink.wait_for(1);
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].to, "<aigerim@example.org>");
  EXPECT_NE(mails[0].data.find("Subject: =?UTF-8?B?"), std::string::npos);  // in Russian
  EXPECT_NE(mails[0].data.find("Aigerim"), std::string::npos);
  const std::string token = link_token(mails[0], "reset");
  ASSERT_EQ(token.size(), 43u) << mails[0].data;

  // Only the token's hash is stored.
  EXPECT_EQ(sqlite_int(db, "SELECT COUNT(*) FROM mail_tokens"), 1);
  EXPECT_EQ(sqlite_int(db, "SELECT COUNT(*) FROM mail_tokens WHERE token_hash = '" + token + "'"),
            0);
  EXPECT_EQ(sqlite_int(db, "SELECT length(token_hash) FROM mail_tokens"), 64);

  // The sign-up's rules; a refused password leaves the link as it was.
  EXPECT_EQ(code_of(mail_post(port, "/api/password-reset/confirm",
                              json::value{{"token", token}, {"new_password", "short"}})),
            "password_too_short");
  const HttpResult done =
      mail_post(port, "/api/password-reset/confirm",
                json::value{{"token", token}, {"new_password", "a new password!"}});
  ASSERT_EQ(done.status, 200) << done.body;
  EXPECT_EQ(mail_me(port, a), "");  // the old session is gone
  EXPECT_EQ(http_post(port, "/api/login",
                      json::value{{"username", "Aigerim"}, {"password", "a new password!"}})
                .status,
            200);
  EXPECT_EQ(http_post(port, "/api/login",
                      json::value{{"username", "Aigerim"}, {"password", "password-of-Aigerim"}})
                .status,
            401);
  const HttpResult again =
      mail_post(port, "/api/password-reset/confirm",
                json::value{{"token", token}, {"new_password", "another one!!"}});
  EXPECT_EQ(again.status, 400);
  EXPECT_EQ(code_of(again), "mail_link");
  EXPECT_EQ(sink.mails().size(), 1u);
}

TEST(ServerMail, ResetLinkExpires) {
  TempDir dir;
  SmtpSink sink;
  server::Config cfg = mail_config(sink);
  cfg.reset_link_seconds = 1;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const std::string a = sign_up_cookie(srv.port, "Aigerim");
  set_email(srv.port, a, "Aigerim", "aigerim@example.org");
  const auto asked = std::chrono::steady_clock::now();
  ASSERT_EQ(
      mail_post(srv.port, "/api/password-reset", json::value{{"email", "aigerim@example.org"}})
          .status,
      202);
  const auto mails = sink.wait_for(1);
  ASSERT_EQ(mails.size(), 1u);
  // The link was made after `asked`: 1.2 s later it has expired however slow the machine is.
  std::this_thread::sleep_until(asked + std::chrono::milliseconds(1200));
  const HttpResult late = mail_post(
      srv.port, "/api/password-reset/confirm",
      json::value{{"token", link_token(mails[0], "reset")}, {"new_password", "a new password!"}});
  EXPECT_EQ(code_of(late), "mail_link");
  EXPECT_EQ(mail_me(srv.port, a), "Aigerim");  // nothing changed
}

TEST(ServerMail, WithoutSmtpNoResets) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const json::value m = http_get(srv.port, "/api/mail").json();
  EXPECT_FALSE(m.at("available").as_bool());
  const HttpResult r =
      http_post(srv.port, "/api/password-reset", json::value{{"email", "a@example.org"}});
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(code_of(r), "mail_unavailable");
}

TEST(ServerMail, AnUnverifiedAddressGetsNoReset) {
  TempDir dir;
  SmtpSink sink;
  server::Config cfg = mail_config(sink);
  cfg.require_email_verification = true;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  set_email(port, a, "Aigerim", "aigerim@example.org");
  auto mails = sink.wait_for(1);
  ASSERT_EQ(mails.size(), 1u);
  const std::string verify = link_token(mails[0], "verify");
  ASSERT_FALSE(verify.empty()) << mails[0].data;
  const json::value before =
      mail_call(port, http::verb::get, "/api/account/mail", nullptr, a).json();
  EXPECT_FALSE(before.at("verified").as_bool());
  EXPECT_FALSE(before.at("usable").as_bool());
  // Unverified: no mail (the next mail below is the second reset's).
  ASSERT_EQ(
      mail_post(port, "/api/password-reset", json::value{{"email", "aigerim@example.org"}}).status,
      202);
  EXPECT_EQ(code_of(mail_post(port, "/api/email/verify", json::value{{"token", "x"}})),
            "mail_link");
  ASSERT_EQ(mail_post(port, "/api/email/verify", json::value{{"token", verify}}).status, 200);
  EXPECT_EQ(code_of(mail_post(port, "/api/email/verify", json::value{{"token", verify}})),
            "mail_link");
  EXPECT_TRUE(mail_call(port, http::verb::get, "/api/account/mail", nullptr, a)
                  .json()
                  .at("verified")
                  .as_bool());
  ASSERT_EQ(
      mail_post(port, "/api/password-reset", json::value{{"email", "aigerim@example.org"}}).status,
      202);
  mails = sink.wait_for(2);
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_FALSE(link_token(mails[1], "reset").empty());
}

// The verification link sent again: each resend's link works; a fourth mail to the account in
// the hour is refused; a confirmed address has nothing to resend.
TEST(ServerMail, TheVerificationLinkAgain) {
  TempDir dir;
  SmtpSink sink;
  server::Config cfg = mail_config(sink);
  cfg.require_email_verification = true;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  EXPECT_EQ(code_of(mail_post(port, "/api/email/resend", json::object{}, a)), "verify_nothing");
  set_email(port, a, "Aigerim", "aigerim@example.org");
  EXPECT_EQ(code_of(mail_post(port, "/api/email/resend", json::object{})), "not_logged_in");
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(mail_post(port, "/api/email/resend", json::object{}, a).status, 200);
  EXPECT_EQ(code_of(mail_post(port, "/api/email/resend", json::object{}, a)), "mail_rate");
  const auto mails = sink.wait_for(4);
  ASSERT_EQ(mails.size(), 4u);
  const std::string again = link_token(mails[3], "verify");
  ASSERT_FALSE(again.empty()) << mails[3].data;
  ASSERT_EQ(mail_post(port, "/api/email/verify", json::value{{"token", again}}).status, 200);
  EXPECT_EQ(code_of(mail_post(port, "/api/email/resend", json::object{}, a)), "verify_nothing");
}

// A correspondence game between Aigerim and Bolat, both with an address; White (Aigerim) made
// the first move when it returns. Its id and the two cookies.
struct Corr {
  std::string id, a, b, a_token, b_token;
};
Corr correspondence(uint16_t port) {
  Corr c;
  c.a = sign_up_cookie(port, "Aigerim");
  c.b = sign_up_cookie(port, "Bolat");
  set_email(port, c.a, "Aigerim", "aigerim@example.org");
  set_email(port, c.b, "Bolat", "bolat@example.org");
  const HttpResult g =
      mail_post(port, "/api/games",
                json::value{{"mode", "online"}, {"color", "white"}, {"days_per_move", 1}}, c.a);
  EXPECT_EQ(g.status, 200) << g.body;
  c.id = jstr(g.json().at("id"));
  c.a_token = jstr(g.json().at("token"));
  const HttpResult j = mail_post(port, "/api/games/" + c.id + "/join",
                                 json::value{{"invite", g.json().at("invite")}}, c.b);
  EXPECT_EQ(j.status, 200) << j.body;
  c.b_token = jstr(j.json().at("token"));
  return c;
}

// Plays the move of ply `ply` for whoever's socket `w` is; whether the next state came.
bool move(WsClient& w, int ply) {
  auto s = w.read_state([&](const json::object& st) { return jint(st.at("ply")) == ply; });
  if (!s) return false;
  w.send(json::object{{"type", "move"}, {"hole", first_legal(*s)}, {"ply", ply}});
  return w.read_state([&](const json::object& st) { return jint(st.at("ply")) == ply + 1; })
      .has_value();
}

TEST(ServerMail, YourTurnOnlyToWhoAskedForIt) {
  TempDir dir;
  SmtpSink sink;
  TestServer srv((dir.path / "t.db").string(), mail_config(sink));
  const uint16_t port = srv.port;
  const Corr c = correspondence(port);
  // Aigerim asks for the notices; Bolat does not.
  ASSERT_EQ(mail_post(port, "/api/account/notices", json::value{{"your_turn", true}}, c.a).status,
            200);
  EXPECT_TRUE(mail_call(port, http::verb::get, "/api/account/mail", nullptr, c.a)
                  .json()
                  .at("your_turn")
                  .as_bool());
  WsClient w(port, c.id, c.a_token, {}, c.a);
  WsClient b(port, c.id, c.b_token, {}, c.b);
  ASSERT_TRUE(move(w, 0));  // Bolat's turn: he asked for nothing
  ASSERT_TRUE(move(b, 1));  // Aigerim's turn: one mail
  ASSERT_TRUE(move(w, 2));
  ASSERT_TRUE(move(b, 3));  // Aigerim's turn again within the hours: no second mail
  // A reset for Bolat puts a mail behind any notice: the mails come in order.
  ASSERT_EQ(
      mail_post(port, "/api/password-reset", json::value{{"email", "bolat@example.org"}}).status,
      202);
  const auto mails = sink.wait_for(2);
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_EQ(mails[0].to, "<aigerim@example.org>");
  EXPECT_NE(mails[0].data.find("/#/game/" + c.id), std::string::npos) << mails[0].data;
  EXPECT_EQ(mails[1].to, "<bolat@example.org>");
  EXPECT_FALSE(link_token(mails[1], "reset").empty());
}

// A tournament's start: a mail to the entrant who asked for the notice, none to the one who
// did not (a reset for him after it shows that nothing else came first).
TEST(ServerMail, TournamentStartOnlyToWhoAskedForIt) {
  TempDir dir;
  SmtpSink sink;
  server::Config cfg = mail_config(sink);
  cfg.tournament_min_rated_games = 0;
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim"), b = sign_up_cookie(port, "Bolat");
  set_email(port, a, "Aigerim", "aigerim@example.org");
  set_email(port, b, "Bolat", "bolat@example.org");
  ASSERT_EQ(mail_post(port, "/api/account/notices", json::value{{"tournaments", true}}, a).status,
            200);
  const int64_t later = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count() +
                        3600000;
  HttpResult r = mail_post(port, "/api/tournaments",
                           json::value{{"name", "Кечки <кубок>"},
                                       {"system", "swiss"},
                                       {"rounds", 1},
                                       {"initial_ms", 300000},
                                       {"increment_ms", 3000},
                                       {"starts_at", later}},
                           a);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string id = jstr(r.json().at("id"));
  for (const std::string& c : {a, b})
    ASSERT_EQ(mail_post(port, "/api/tournaments/" + id + "/join", json::object{}, c).status, 200);
  EXPECT_TRUE(sink.mails().empty());
  ASSERT_EQ(mail_post(port, "/api/tournaments/" + id + "/start", json::object{}, a).status, 200);
  auto mails = sink.wait_for(1);
  ASSERT_EQ(mails.size(), 1u);
  EXPECT_EQ(mails[0].to, "<aigerim@example.org>");
  EXPECT_NE(mails[0].data.find("/#/tournaments/" + id), std::string::npos) << mails[0].data;
  ASSERT_EQ(
      mail_post(port, "/api/password-reset", json::value{{"email", "bolat@example.org"}}).status,
      202);
  mails = sink.wait_for(2);
  ASSERT_EQ(mails.size(), 2u);
  EXPECT_EQ(mails[1].to, "<bolat@example.org>");
  EXPECT_FALSE(link_token(mails[1], "reset").empty());
}

TEST(ServerMail, ADeadSmtpServerLeavesPlayAlone) {
  TempDir dir;
  SmtpSink dead(true);
  server::Config cfg = mail_config(dead);
  cfg.metrics_token = "metrics-secret";
  TestServer srv((dir.path / "t.db").string(), cfg);
  const uint16_t port = srv.port;
  const Corr c = correspondence(port);
  for (const std::string& who : {c.a, c.b})
    ASSERT_EQ(mail_post(port, "/api/account/notices", json::value{{"your_turn", true}}, who).status,
              200);
  WsClient w(port, c.id, c.a_token, {}, c.a);
  WsClient b(port, c.id, c.b_token, {}, c.b);
  for (int ply = 0; ply < 6; ply += 2) {
    ASSERT_TRUE(move(w, ply));
    ASSERT_TRUE(move(b, ply + 1));
  }
  // The failures are counted (and logged) once the outbox tried.
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  std::string metrics;
  while (std::chrono::steady_clock::now() < deadline) {
    metrics = http_call(port, http::verb::get, "/metrics", "",
                        {{http::field::authorization, "Bearer metrics-secret"}})
                  .body;
    if (metrics.find("toguz_mail_failed_total 2") != std::string::npos) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_NE(metrics.find("toguz_mail_failed_total 2"), std::string::npos) << metrics;
  EXPECT_NE(metrics.find("toguz_mail_sent_total 0"), std::string::npos);
  EXPECT_GE(dead.connections(), 2);
}

}  // namespace
}  // namespace toguz::test
