// The arbiter page's API (docs/web-protocol.md "Over-the-board events"): an event of the
// tournament library (src/tournament) kept in the store, changed only by whoever holds its
// arbiter key, read by anyone: the event as JSON, its TGK file, and print-friendly pairings and
// standings pages. IO thread only (it uses the server's store).
#pragma once

#include <boost/beast/http.hpp>
#include <optional>
#include <string>

#include "store/store.h"

namespace toguz::server {

class ArbiterApi {
 public:
  explicit ArbiterApi(store::Store& store) : store_(store) {}

  // Answers a request whose path is /api/events or below it; nullopt for any other path (the
  // router goes on). A bad request is refused with a 4xx naming the field, and the stored event
  // stays as it was.
  std::optional<boost::beast::http::response<boost::beast::http::string_body>> handle(
      const boost::beast::http::request<boost::beast::http::string_body>& req);

 private:
  store::Store& store_;
};

}  // namespace toguz::server
