#include "store/store.h"

#include <boost/json.hpp>
#include <chrono>
#include <stdexcept>

#include "store/common.h"
#include "store/pg_store.h"
#include "store/sqlite_store.h"

namespace toguz::store {

std::string fold_case(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 'A' && c <= 'Z') {
      out += char(c + 32);
      continue;
    }
    // Two-byte characters U+0080-07FF: Latin-1 and Cyrillic.
    if ((c >> 5) == 6 && i + 1 < text.size() &&
        (static_cast<unsigned char>(text[i + 1]) >> 6) == 2) {
      uint32_t cp = uint32_t(c & 0x1f) << 6 | (static_cast<unsigned char>(text[i + 1]) & 0x3f);
      if (cp >= 0xc0 && cp <= 0xde && cp != 0xd7)
        cp += 0x20;  // À..Þ
      else if (cp >= 0x410 && cp <= 0x42f)
        cp += 0x20;  // А..Я
      else if (cp >= 0x400 && cp <= 0x40f)
        cp += 0x50;  // Ѐ..Џ (І, Ё)
      else if (cp == 0x4c0)
        cp = 0x4cf;  // Ӏ
      else if (cp >= 0x4c1 && cp <= 0x4ce)
        cp += cp % 2;  // Ӂ..Ӎ: odd upper
      else if (cp % 2 == 0 && ((cp >= 0x460 && cp <= 0x480) || (cp >= 0x48a && cp <= 0x4be) ||
                               (cp >= 0x4d0 && cp <= 0x4fe)))
        cp += 1;  // Ғ Қ Ң Ү Ұ Һ Ә Ө ...
      out += char(0xc0 | cp >> 6);
      out += char(0x80 | (cp & 0x3f));
      ++i;
      continue;
    }
    out += char(c);
  }
  return out;
}

bool is_postgres_url(std::string_view db) {
  return db.starts_with("postgresql://") || db.starts_with("postgres://");
}

std::unique_ptr<Store> open_store(const std::string& db) {
  if (is_postgres_url(db)) return std::make_unique<PgStore>(db);
  return std::make_unique<SqliteStore>(db);
}

namespace detail {

std::string tags_json(const std::vector<std::pair<std::string, std::string>>& tags) {
  if (tags.empty()) return "";
  boost::json::array a;
  for (const auto& [k, v] : tags)
    a.push_back(boost::json::array{boost::json::string(k), boost::json::string(v)});
  return boost::json::serialize(a);
}

std::vector<std::pair<std::string, std::string>> tags_of(const std::string& text) {
  std::vector<std::pair<std::string, std::string>> out;
  boost::json::error_code ec;
  boost::json::value v = boost::json::parse(text, ec);
  if (ec || !v.is_array()) return out;
  for (const auto& t : v.as_array())
    if (t.is_array() && t.as_array().size() == 2 && t.as_array()[0].is_string() &&
        t.as_array()[1].is_string())
      out.emplace_back(std::string(t.as_array()[0].as_string()),
                       std::string(t.as_array()[1].as_string()));
  return out;
}

std::string like_pattern(std::string_view player) {
  std::string pattern = "%";
  for (char ch : fold_case(player)) {
    if (ch == '%' || ch == '_' || ch == '\\') pattern += '\\';
    pattern += ch;
  }
  pattern += '%';
  return pattern;
}

void check_schema_version(const std::string& db_name, int have) {
  if (have > kSchemaVersion)
    throw std::runtime_error("database " + db_name + ": schema version " + std::to_string(have) +
                             " is newer than this program knows (" +
                             std::to_string(kSchemaVersion) +
                             "); run the toguz that wrote it, or a newer one");
}

int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace detail

}  // namespace toguz::store
