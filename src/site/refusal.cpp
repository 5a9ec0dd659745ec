#include "site/refusal.h"

#include <set>
#include <stdexcept>
#include <unordered_map>
#include <vector>

#include "site/json_out.h"
#include "site/texts.h"

extern const unsigned char kRefusalCatalogue[];  // generated from texts.json
extern const unsigned long kRefusalCatalogueSize;

namespace toguz::site {

namespace {

namespace json = boost::json;
namespace http = boost::beast::http;

// One English message of a refusal, with {name} where a parameter stands.
struct Form {
  std::string name;  // "" in a code's list of messages; the key in its named forms
  std::string text;
  std::set<std::string> params;
};

struct Entry {
  int status = 400;
  std::vector<Form> forms;
};

// The refusal catalogue (texts.json, compiled in): every refusal's code, its HTTP status and
// its English messages ("en": a list, or named forms when they share their parameters).
struct Catalogue {
  std::unordered_map<std::string, Entry> codes;
};

Form form_of(std::string name, std::string text) {
  Form f{std::move(name), std::move(text), {}};
  for (size_t at = f.text.find('{'); at != std::string::npos; at = f.text.find('{', at + 1)) {
    const size_t close = f.text.find('}', at);
    if (close == std::string::npos) break;
    f.params.insert(f.text.substr(at + 1, close - at - 1));
  }
  return f;
}

const Catalogue& catalogue() {
  static const Catalogue c = [] {
    Catalogue out;
    const std::string_view text(reinterpret_cast<const char*>(kRefusalCatalogue),
                                kRefusalCatalogueSize);
    const json::value data = json::parse(text);
    for (const json::value& r : data.at("refusals").as_array()) {
      Entry& e = out.codes[std::string(r.at("code").as_string())];
      e.status = int(r.at("status").to_number<int64_t>());
      const json::value& en = r.at("en");
      if (en.is_array())
        for (const json::value& m : en.as_array())
          e.forms.push_back(form_of("", std::string(m.as_string())));
      else
        for (const auto& [name, m] : en.as_object())
          e.forms.push_back(form_of(std::string(name), std::string(m.as_string())));
    }
    return out;
  }();
  return c;
}

// The form of `e` a refusal with `params` (and form name `form`) reads as.
const Form& form_for(const Entry& e, const json::object& params, const std::string& form) {
  if (!form.empty()) {
    for (const Form& f : e.forms)
      if (f.name == form) return f;
    throw std::logic_error("refusal: no form '" + form + "'");
  }
  for (const Form& f : e.forms) {
    if (f.params.size() != params.size()) continue;
    bool all = true;
    for (const std::string& p : f.params) all = all && params.contains(p);
    if (all) return f;
  }
  return e.forms.front();
}

}  // namespace

bool refusal_known(std::string_view code) {
  return catalogue().codes.count(std::string(code)) > 0;
}

namespace {

json::object params_of(std::initializer_list<Refusal::Param> params) {
  json::object o;
  for (const auto& [name, value] : params) o[name] = value;
  return o;
}

}  // namespace

Refusal::Refusal(std::string code, std::initializer_list<Param> params, std::string form)
    : Refusal(std::move(code), params_of(params), std::move(form)) {}

Refusal::Refusal(std::string code, json::object params, std::string form)
    : code_(std::move(code)), params_(std::move(params)), form_(std::move(form)) {
  if (!refusal_known(code_)) throw std::logic_error("refusal: no code '" + code_ + "'");
}

http::status Refusal::status() const {
  return http::status(catalogue().codes.at(code_).status);
}

std::string Refusal::english() const {
  const Form& f = form_for(catalogue().codes.at(code_), params_, form_);
  std::string out;
  const std::string& t = f.text;
  for (size_t i = 0; i < t.size();) {
    const size_t close = t[i] == '{' ? t.find('}', i) : std::string::npos;
    if (close == std::string::npos) {
      out += t[i++];
      continue;
    }
    const json::value* v = params_.if_contains(t.substr(i + 1, close - i - 1));
    if (v && v->is_string())
      out += v->as_string();
    else if (v)
      out += json::serialize(*v);
    i = close + 1;
  }
  return out;
}

std::string Refusal::message() const {
  return json::serialize(json::object{
      {"code", code_}, {"params", params_}, {"type", "error"}, {"message", english()}});
}

http::response<http::string_body> Refusal::response() const {
  return json_response(status(),
                       json::object{{"code", code_}, {"params", params_}, {"error", english()}});
}

int refusal_status(std::string_view code) {
  const auto& codes = catalogue().codes;
  const auto it = codes.find(std::string(code));
  return it == codes.end() ? 400 : it->second.status;
}

}  // namespace toguz::site
