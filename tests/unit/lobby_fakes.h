// A lobby connection that keeps what it is sent, and a signed-in viewer: for the tests of the
// Lobby without sockets.
#pragma once

#include <boost/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "site/lobby/lobby.h"

namespace toguz::site::test {

struct FakeClient : LobbyClient {
  std::vector<boost::json::object> got;
  void send(std::string message) override {
    got.push_back(boost::json::parse(message).as_object());
  }
  // The messages of one type received so far.
  std::vector<boost::json::object> of(const std::string& type) const {
    std::vector<boost::json::object> out;
    for (const auto& m : got)
      if (m.at("type").as_string() == type) out.push_back(m);
    return out;
  }
  // The code of the last error received ("" when none).
  std::string last_error_code() const {
    const auto e = of("error");
    if (e.empty()) return "";
    const boost::json::value& c = e.back().at("code");
    return c.is_string() ? std::string(c.as_string())
                         : "(null) " + std::string(e.back().at("message").as_string());
  }
};

inline Viewer account(int64_t id, const std::string& name) {
  Viewer v;
  v.user_id = id;
  v.username = name;
  return v;
}

}  // namespace toguz::site::test
