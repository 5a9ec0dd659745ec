#include "federation/identity.h"

#include <algorithm>
#include <numeric>
#include <set>

#include "federation/profile.h"
#include "rules/text.h"

namespace toguz::federation {

namespace {

char32_t lower_cp(char32_t c) {
  if (c >= U'A' && c <= U'Z') return c + 32;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (c == 0x4C0) return 0x4CF;
  const bool even_upper =
      (c >= 0x460 && c <= 0x481) || (c >= 0x48A && c <= 0x4BF) || (c >= 0x4D0 && c <= 0x4FF);
  if (even_upper && c % 2 == 0) return c + 1;
  if (c >= 0x4C1 && c <= 0x4CE && c % 2 == 1) return c + 1;
  return c;
}

bool is_cyrillic(char32_t c) {
  return c >= 0x400 && c <= 0x4FF;
}

char32_t cyrillic_lookalike(char32_t c) {
  switch (c) {
    case U'a':
      return 0x430;
    case U'b':
      return 0x432;
    case U'c':
      return 0x441;
    case U'e':
      return 0x435;
    case U'h':
      return 0x43D;
    case U'i':
      return 0x456;
    case U'k':
      return 0x43A;
    case U'm':
      return 0x43C;
    case U'o':
      return 0x43E;
    case U'p':
      return 0x440;
    case U't':
      return 0x442;
    case U'x':
      return 0x445;
    case U'y':
      return 0x443;
    default:
      return c;
  }
}

char32_t loose_cp(char32_t c) {
  switch (c) {
    case 0x4D9:
      return 0x430;  // ә
    case 0x493:
      return 0x433;  // ғ
    case 0x49B:
      return 0x43A;  // қ
    case 0x4A3:
      return 0x43D;  // ң
    case 0x4E9:
      return 0x43E;  // ө
    case 0x4B1:
      return 0x443;  // ұ
    case 0x4AF:
      return 0x443;  // ү
    case 0x4BB:
      return 0x445;  // һ
    case 0x456:
      return 0x438;  // і
    case 0x451:
      return 0x435;  // ё
    default:
      return c;
  }
}

std::u32string fix_word(std::u32string w) {
  if (std::any_of(w.begin(), w.end(), is_cyrillic))
    for (char32_t& c : w) c = cyrillic_lookalike(c);
  return w;
}

// True when a and b differ by one inserted, deleted or changed code point.
bool one_edit(const std::u32string& a, const std::u32string& b) {
  if (a.size() > b.size()) return one_edit(b, a);
  if (b.size() - a.size() > 1 || a == b) return false;
  size_t i = 0;
  while (i < a.size() && a[i] == b[i]) ++i;
  if (a.size() == b.size()) return a.substr(i + 1) == b.substr(i + 1);
  return a.substr(i) == b.substr(i + 1);
}

PlayerRef parse_side(std::string_view s, int line) {
  s = trim(s);
  PlayerRef p;
  if (s.substr(0, 3) == "id:") {
    p.id = clean_display_text(s.substr(3));
    if (p.id.empty()) throw InputError(line, "id", "empty");
    return p;
  }
  size_t at = s.find('@');
  p.name = clean_display_text(s.substr(0, at));
  if (at != std::string_view::npos) p.region = clean_display_text(s.substr(at + 1));
  if (p.name.empty()) throw InputError(line, "name", "empty");
  return p;
}

struct Features {
  std::string id, key, region, loose, sorted_words, surname;
  std::u32string loose_cps;
  std::string given;  // the second word, loose ("" when none)
};

Features features_of(const PlayerRef& p) {
  Features f;
  f.id = p.id;
  f.key = name_key(p.name);
  f.region = name_key(p.region);
  f.loose = loose_key(f.key);
  f.loose_cps = utf8_decode(f.loose);
  std::vector<std::string> words = split_words(f.loose);
  if (!words.empty()) f.surname = words[0];
  if (words.size() > 1) f.given = words[1];
  std::sort(words.begin(), words.end());
  for (const std::string& w : words) f.sorted_words += w + " ";
  return f;
}

bool initial_of(const std::string& initial, const std::string& name) {
  if (name.empty() || initial.empty()) return true;
  std::u32string i = utf8_decode(initial), n = utf8_decode(name);
  return i.size() == 1 && n.size() > 1 && n[0] == i[0];
}

std::vector<Likeness> likeness(const Features& a, const Features& b) {
  std::vector<Likeness> out;
  if (a.key == b.key) {
    if (a.region != b.region || a.id != b.id) out.push_back(Likeness::SameName);
    return out;
  }
  if (a.loose == b.loose)
    out.push_back(Likeness::Spelling);
  else if (a.sorted_words == b.sorted_words)
    out.push_back(Likeness::WordOrder);
  else if (a.surname == b.surname && (initial_of(a.given, b.given) || initial_of(b.given, a.given)))
    out.push_back(Likeness::Initial);
  else if (a.loose_cps.size() >= 6 && b.loose_cps.size() >= 6 && one_edit(a.loose_cps, b.loose_cps))
    out.push_back(Likeness::Typo);
  return out;
}

std::pair<std::string, std::string> ordered(const std::string& a, const std::string& b) {
  return a < b ? std::pair(a, b) : std::pair(b, a);
}

struct UnionFind {
  std::vector<size_t> parent;
  explicit UnionFind(size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), 0); }
  size_t find(size_t i) { return parent[i] == i ? i : parent[i] = find(parent[i]); }
};

}  // namespace

std::string name_key(std::string_view name) {
  std::u32string cps = utf8_decode(clean_display_text(name));
  std::u32string out, word;
  auto flush = [&] {
    if (word.empty()) return;
    if (!out.empty()) out += U' ';
    out += fix_word(word);
    word.clear();
  };
  for (char32_t c : cps) {
    if (c == U' ' || c == U'.' || c == U',' || c == U';' || c == U'_' || c == U'\t')
      flush();
    else
      word += lower_cp(c);
  }
  flush();
  return utf8_encode(out);
}

std::string loose_key(std::string_view key) {
  std::u32string cps = utf8_decode(key);
  for (char32_t& c : cps) c = loose_cp(c);
  return utf8_encode(cps);
}

bool PlayerRef::operator<(const PlayerRef& o) const {
  return std::tie(id, name, region) < std::tie(o.id, o.name, o.region);
}

std::string identity_key(const PlayerRef& p) {
  if (!p.id.empty()) return "id:" + p.id;
  return name_key(p.name) + "|" + name_key(p.region);
}

NameMap parse_name_map(std::string_view text) {
  NameMap map;
  for (auto [line_no, line] : content_lines(text)) {
    size_t ne = line.find("!=");
    size_t eq = line.find('=');
    if (ne != std::string_view::npos) {
      std::string a = identity_key(parse_side(line.substr(0, ne), line_no));
      std::string b = identity_key(parse_side(line.substr(ne + 2), line_no));
      map.distinct.push_back(ordered(a, b));
    } else if (eq != std::string_view::npos) {
      PlayerRef alias = parse_side(line.substr(0, eq), line_no);
      map.alias[identity_key(alias)] = parse_side(line.substr(eq + 1), line_no);
    } else {
      throw InputError(line_no, "", "expected 'ALIAS = TARGET' or 'A != B'");
    }
  }
  std::sort(map.distinct.begin(), map.distinct.end());
  return map;
}

std::string_view likeness_text(Likeness l) {
  switch (l) {
    case Likeness::SameName:
      return "same name, other region or id";
    case Likeness::Spelling:
      return "spelling (Kazakh letters)";
    case Likeness::WordOrder:
      return "word order";
    case Likeness::Initial:
      return "initial";
    case Likeness::Typo:
      return "one letter";
  }
  return "";
}

std::vector<AmbiguousGroup> ambiguous_names(const std::vector<NameUse>& uses, const NameMap& map) {
  std::vector<Features> f;
  std::vector<std::string> keys;
  for (const NameUse& u : uses) {
    f.push_back(features_of(u.player));
    keys.push_back(identity_key(u.player));
  }
  UnionFind uf(uses.size());
  std::vector<std::set<Likeness>> why(uses.size());
  for (size_t i = 0; i < uses.size(); ++i) {
    for (size_t j = i + 1; j < uses.size(); ++j) {
      std::vector<Likeness> l = likeness(f[i], f[j]);
      if (l.empty()) continue;
      if (std::binary_search(map.distinct.begin(), map.distinct.end(), ordered(keys[i], keys[j])))
        continue;
      size_t a = uf.find(i), b = uf.find(j);
      uf.parent[b] = a;
      why[a].insert(why[b].begin(), why[b].end());
      why[a].insert(l.begin(), l.end());
    }
  }
  std::map<size_t, AmbiguousGroup> groups;
  for (size_t i = 0; i < uses.size(); ++i) groups[uf.find(i)].names.push_back(uses[i]);
  std::vector<AmbiguousGroup> out;
  for (auto& [root, g] : groups) {
    if (g.names.size() < 2) continue;
    g.reasons.assign(why[root].begin(), why[root].end());
    std::sort(g.names.begin(), g.names.end(),
              [](const NameUse& a, const NameUse& b) { return a.player < b.player; });
    out.push_back(std::move(g));
  }
  std::sort(out.begin(), out.end(), [](const AmbiguousGroup& a, const AmbiguousGroup& b) {
    return name_key(a.names[0].player.name) < name_key(b.names[0].player.name);
  });
  return out;
}

}  // namespace toguz::federation
