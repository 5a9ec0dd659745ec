// A refusal of the site: a code of the catalogue (src/site/texts.json) with its parameters. Its
// HTTP status and its English text follow from the code, so the client's words (web/src/i18n,
// "e_<code>", which the web tests check against the same file) and the server's cannot drift
// apart. A route's handler throws it (refusals_answered answers it); a socket sends it
// (message()); a module's operation answers it (Refused).
#pragma once

#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace toguz::site {

class Refusal {
 public:
  using Param = std::pair<std::string_view, std::string>;
  // Refusal `code` (std::logic_error for a code the catalogue lacks: a bug) with its
  // parameters. Its English is the code's message named `form` when it is given (a code whose
  // messages share their parameters names each one), else the first whose parameters are these.
  explicit Refusal(std::string code, std::initializer_list<Param> params = {},
                   std::string form = "");
  Refusal(std::string code, boost::json::object params, std::string form = "");

  const std::string& code() const { return code_; }
  const boost::json::object& params() const { return params_; }
  boost::beast::http::status status() const;
  // The English text (logs, API users, a client without the code's words).
  std::string english() const;
  // {"type":"error","message":english,"code":..,"params":..}: a socket's refusal.
  std::string message() const;
  // {"error":english,"code":..,"params":..} with the code's status.
  boost::beast::http::response<boost::beast::http::string_body> response() const;

 private:
  std::string code_;
  boost::json::object params_;
  std::string form_;
};

// What an operation that may be refused answers: nothing when it was done.
using Refused = std::optional<Refusal>;

// Whether the catalogue has refusal `code`.
bool refusal_known(std::string_view code);

// The HTTP status of a refusal by its code, as the catalogue gives it (400 for a code it lacks).
int refusal_status(std::string_view code);

}  // namespace toguz::site
