// The route table (net/router.h): patterns with parameters, the first route that matches, 404
// and 405 with Allow answered by the table, HEAD as GET, a handler's exception answered once.
#include "net/router.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "net/url.h"

// A namespace of its own: the unit tests are compiled as unity files.
namespace toguz::test::router {
namespace {

namespace http = boost::beast::http;
using toguz::net::Call;
using toguz::net::Method;
using toguz::net::Response;
using toguz::net::Router;

// What the table answered: status, body (the handler's words or the refusal's message) and
// the Allow header.
struct Answer {
  int status = 0;
  std::string body, allow;
};

Router table() {
  Router r(
      [](http::status s, const std::string& request, std::string allow) {
        Response res{s, 11};
        res.body() = request;
        if (!allow.empty()) res.set(http::field::allow, allow);
        return res;
      },
      [](const Call&, const std::exception& e) {
        Response res{http::status::internal_server_error, 11};
        res.body() = std::string("caught: ") + e.what();
        return res;
      });
  auto says = [](std::string word) {
    return [word](const Call& c) {
      Response res{http::status::ok, 11};
      std::string body = word;
      for (const std::string& p : c.params) body += " [" + p + "]";
      res.body() = body;
      c.respond(std::move(res));
    };
  };
  r.add(Method::Get, "/api/games", says("list"));
  r.add(Method::Post, "/api/games", says("create"));
  r.add(Method::Get, "/api/games/next", says("next"));
  r.add(Method::Get, "/api/games/:id", says("game"));
  r.add(Method::Post, "/api/games/:id/join", says("join"));
  r.add(Method::Get, "/api/studies/*rest", says("studies"));
  r.add(Method::Get, "/api/boom", [](const Call&) { throw std::runtime_error("no disk"); });
  return r;
}

Answer ask(const Router& r, http::verb verb, const std::string& target) {
  toguz::net::Request req{verb, target, 11};
  const auto q = target.find('?');
  Answer a;
  r.dispatch(Call{req,
                  target.substr(0, q),
                  q == std::string::npos ? "" : target.substr(q + 1),
                  {},
                  "192.0.2.1",
                  [&a](Response res) {
                    a.status = int(res.result_int());
                    a.body = res.body();
                    a.allow = std::string(res[http::field::allow]);
                  }});
  return a;
}

TEST(Router, ParametersAreDecodedAndTheFirstRouteTakesThePath) {
  const Router r = table();
  EXPECT_EQ(ask(r, http::verb::get, "/api/games").body, "list");
  EXPECT_EQ(ask(r, http::verb::post, "/api/games").body, "create");
  EXPECT_EQ(ask(r, http::verb::get, "/api/games/next").body, "next");  // added before :id
  EXPECT_EQ(ask(r, http::verb::get, "/api/games/ab%20c?x=1").body, "game [ab c]");
  EXPECT_EQ(ask(r, http::verb::post, "/api/games/xyz/join").body, "join [xyz]");
  EXPECT_EQ(ask(r, http::verb::get, "/api/studies/3/line").body, "studies [3/line]");
  EXPECT_EQ(ask(r, http::verb::get, "//api//games/").body, "list");      // empty segments
  EXPECT_EQ(ask(r, http::verb::head, "/api/games/q").body, "game [q]");  // HEAD is GET's
}

TEST(Router, UnknownPathIs404AndAnotherMethodIs405WithAllow) {
  const Router r = table();
  Answer a = ask(r, http::verb::get, "/api/nothing");
  EXPECT_EQ(a.status, 404);
  EXPECT_EQ(a.body, "GET /api/nothing");
  EXPECT_EQ(a.allow, "");
  EXPECT_EQ(ask(r, http::verb::get, "/api/games/a/b/c").status, 404);
  EXPECT_EQ(ask(r, http::verb::get, "/api/studies").status, 404) << "*rest takes a segment";
  a = ask(r, http::verb::delete_, "/api/games");
  EXPECT_EQ(a.status, 405);
  EXPECT_EQ(a.allow, "GET, HEAD, POST");
  EXPECT_EQ(a.body, "DELETE /api/games");
  a = ask(r, http::verb::get, "/api/games/x/join");
  EXPECT_EQ(a.status, 405);
  EXPECT_EQ(a.allow, "POST");
  a = ask(r, http::verb::post, "/api/games/next");  // two GET routes match: Allow names it once
  EXPECT_EQ(a.status, 405);
  EXPECT_EQ(a.allow, "GET, HEAD");
}

TEST(Router, PutIsItsOwnMethod) {
  Router r = table();
  r.add(Method::Put, "/api/me/settings", [](const Call& c) {
    Response res{http::status::ok, 11};
    res.body() = "put";
    c.respond(std::move(res));
  });
  EXPECT_EQ(ask(r, http::verb::put, "/api/me/settings").body, "put");
  const Answer a = ask(r, http::verb::post, "/api/me/settings");
  EXPECT_EQ(a.status, 405);
  EXPECT_EQ(a.allow, "PUT");
  EXPECT_EQ(ask(r, http::verb::put, "/api/games").status, 405);  // GET and POST only
  EXPECT_EQ(r.list().back(), "PUT /api/me/settings");
}

TEST(Router, AHandlersExceptionIsAnsweredOnce) {
  const Router r = table();
  const Answer a = ask(r, http::verb::get, "/api/boom");
  EXPECT_EQ(a.status, 500);
  EXPECT_EQ(a.body, "caught: no disk");
}

TEST(Router, ListsItsRoutesAndRefusesAStarBeforeTheEnd) {
  Router r = table();
  const std::vector<std::string> list = r.list();
  ASSERT_EQ(list.size(), 7u);
  EXPECT_EQ(list[0], "GET /api/games");
  EXPECT_EQ(list[4], "POST /api/games/:id/join");
  EXPECT_TRUE(r.knows("/api/games/abc"));
  EXPECT_FALSE(r.knows("/api/gamez"));
  EXPECT_THROW(r.add(Method::Get, "/api/*rest/more", [](const Call&) {}), std::logic_error);
}

TEST(Url, DecodesEscapesAndQueryPairs) {
  EXPECT_EQ(toguz::net::url_decode("%41b+c%2F%zz%4"), "Ab c/%zz%4");
  const auto q = toguz::net::query_pairs("a=1&b=x%20y&a=2&&c");
  EXPECT_EQ(q.count("a"), 2u);
  EXPECT_EQ(toguz::net::query_value(q, "b"), "x y");
  EXPECT_EQ(toguz::net::query_value(q, "c"), "");
  EXPECT_EQ(toguz::net::query_value(q, "d"), std::nullopt);
}

}  // namespace
}  // namespace toguz::test::router
