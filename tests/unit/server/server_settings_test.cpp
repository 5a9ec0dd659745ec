// An account's settings on a real server (docs/accounts.md "Settings"): GET and PUT
// /api/me/settings only for a signed-in player, each key and value checked, a size and a rate
// limit, another account's settings apart, and the settings kept across a restart.
#include <gtest/gtest.h>

#include "server_client.h"

namespace toguz::test {
namespace {

HttpResult settings_call(uint16_t port, http::verb verb, const std::string& body,
                         const std::string& cookie) {
  std::vector<std::pair<http::field, std::string>> h;
  if (!cookie.empty()) h.emplace_back(http::field::cookie, cookie);
  h.emplace_back(http::field::content_type, "application/json");
  return http_call(port, verb, "/api/me/settings", body, h);
}

HttpResult settings_put(uint16_t port, const std::string& body, const std::string& cookie) {
  return settings_call(port, http::verb::put, body, cookie);
}

// The settings GET answers for `cookie`, serialized.
std::string settings_of(uint16_t port, const std::string& cookie) {
  const HttpResult r = settings_call(port, http::verb::get, "", cookie);
  EXPECT_EQ(r.status, 200) << r.body;
  return r.status == 200 ? json::serialize(r.json().at("settings")) : "";
}

TEST(ServerSettings, RefusesWhatIsNotASetting) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  EXPECT_EQ(code_of(settings_call(port, http::verb::get, "", "")), "not_logged_in");
  EXPECT_EQ(code_of(settings_put(port, R"({"blind":true})", "")), "not_logged_in");
  const std::string a = sign_up_cookie(port, "Aigerim");
  EXPECT_EQ(settings_of(port, a), "{}");  // none stored yet
  const auto code = [&](const std::string& body) { return code_of(settings_put(port, body, a)); };
  EXPECT_EQ(code(R"({"blind":true,"colour":"red"})"), "settings_key");
  EXPECT_EQ(code(R"({"blind":"yes"})"), "settings_value");
  EXPECT_EQ(code(R"({"theme":"pink"})"), "settings_value");
  EXPECT_EQ(code(R"({"eval_view":1})"), "settings_value");
  EXPECT_EQ(code("[1]"), "bad_message");
  EXPECT_EQ(code("{"), "bad_message");
  const HttpResult big = settings_put(port, R"({"blind":true)" + std::string(2000, ' ') + "}", a);
  EXPECT_EQ(big.status, 413);
  EXPECT_EQ(code_of(big), "settings_too_large");
  const json::value refused = settings_put(port, R"({"theme":"pink"})", a).json();
  EXPECT_EQ(jstr(refused.at("params").at("choices")), "auto, light, dark");
  EXPECT_EQ(settings_of(port, a), "{}");  // nothing refused was stored
  // A PUT from another site's page is refused before the route.
  EXPECT_EQ(http_call(port, http::verb::put, "/api/me/settings", R"({"blind":true})",
                      {{http::field::cookie, a}, {http::field::origin, "http://evil.example"}})
                .status,
            403);
  EXPECT_EQ(settings_of(port, a), "{}");
}

TEST(ServerSettings, RoundTripPerAccountAcrossRestart) {
  TempDir dir;
  const std::string db = (dir.path / "t.db").string();
  std::string a, b;
  {
    TestServer srv(db);
    const uint16_t port = srv.port;
    a = sign_up_cookie(port, "Aigerim");
    b = sign_up_cookie(port, "Bolat");
    // Written back in the catalogue's order, the whole object replaced by the next.
    const HttpResult put = settings_put(port, R"({"eval_view":"margin","blind":true})", a);
    ASSERT_EQ(put.status, 200) << put.body;
    EXPECT_EQ(json::serialize(put.json().at("settings")), R"({"blind":true,"eval_view":"margin"})");
    ASSERT_EQ(settings_put(port, R"({"theme":"dark","blind":true,"sound":false})", a).status, 200);
    ASSERT_EQ(settings_put(port, R"({"confirm_touch":true})", b).status, 200);
    EXPECT_EQ(settings_of(port, a), R"({"theme":"dark","sound":false,"blind":true})");
    EXPECT_EQ(settings_of(port, b), R"({"confirm_touch":true})");  // each his own
  }
  TestServer again(db);
  EXPECT_EQ(settings_of(again.port, a), R"({"theme":"dark","sound":false,"blind":true})");
  EXPECT_EQ(settings_of(again.port, b), R"({"confirm_touch":true})");
}

TEST(ServerSettings, ManyChangesAreRateLimited) {
  TempDir dir;
  TestServer srv((dir.path / "t.db").string());
  const uint16_t port = srv.port;
  const std::string a = sign_up_cookie(port, "Aigerim");
  const std::string b = sign_up_cookie(port, "Bolat");
  int ok = 0;
  HttpResult last;
  for (int i = 0; i < 60 && (last = settings_put(port, R"({"blind":true})", a)).status == 200; ++i)
    ++ok;
  EXPECT_GE(ok, 30);  // the burst (and what refilled meanwhile, on a slow machine)
  EXPECT_LT(ok, 60);
  EXPECT_EQ(last.status, 429);
  EXPECT_EQ(code_of(last), "settings_rate");
  EXPECT_EQ(settings_put(port, R"({"blind":false})", b).status, 200);  // per account
}

}  // namespace
}  // namespace toguz::test
