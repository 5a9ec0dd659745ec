#include "federation/report.h"

#include <boost/json.hpp>
#include <cstdio>
#include <map>

#include "tournament/report.h"

namespace toguz::federation {

using tournament::html_escape;

namespace {

struct Words {
  const char* number;
  const char* name;
  const char* region;
  const char* title;
  const char* before;
  const char* change;
  const char* after;
  const char* games;
};

const Words& words(Language l) {
  static const Words kk{"№",       "Аты-жөні",     "Аймақ",  "Атағы", "Бұрынғы рейтинг",
                        "Өзгеріс", "Жаңа рейтинг", "Ойындар"};
  static const Words ky{"№",       "Аты-жөнү",     "Аймак", "Наамы", "Мурунку рейтинг",
                        "Өзгөрүү", "Жаңы рейтинг", "Оюндар"};
  static const Words ru{"№",          "Фамилия, имя", "Регион",        "Звание",
                        "Рейтинг до", "Изменение",    "Рейтинг после", "Партии"};
  static const Words en{"No.",           "Name",   "Region",       "Title",
                        "Rating before", "Change", "Rating after", "Games"};
  switch (l) {
    case Language::Kk:
      return kk;
    case Language::Ky:
      return ky;
    case Language::Ru:
      return ru;
    case Language::En:
      return en;
  }
  return en;
}

std::string fixed(double v, int decimals, bool sign = false) {
  char buf[64];
  std::snprintf(buf, sizeof buf, sign ? "%+.*f" : "%.*f", decimals, v);
  return buf;
}

std::string opt(const std::optional<int>& v) {
  return v ? std::to_string(*v) : "-";
}

std::string signed_text(int v) {
  return std::string(v > 0 ? "+" : "") + std::to_string(v);
}

std::string player_name(const SeasonResult& s, int p) {
  const PlayerRef& r = s.players[p].ref;
  return r.region.empty() ? r.name : r.name + " (" + r.region + ")";
}

boost::json::value opt_json(const std::optional<int>& v) {
  return v ? boost::json::value(*v) : boost::json::value(nullptr);
}

boost::json::object history_json(const HistoryEntry& h) {
  boost::json::object o{
      {"period", h.period},        {"event", h.event},
      {"date", date_text(h.date)}, {"round", h.round},
      {"opponent", h.opponent},    {"opponent_rating", opt_json(h.opponent_rating)},
      {"score", h.score},          {"use", game_use_text(h.use)}};
  if (h.use == GameUse::Rated) {
    o["expected"] = h.expected;
    o["k"] = h.k;
    o["change"] = h.change;
  }
  return o;
}

boost::json::array players_json(const SeasonResult& s) {
  boost::json::array out;
  for (size_t i = 0; i < s.players.size(); ++i) {
    const SeasonPlayer& p = s.players[i];
    boost::json::array history, names;
    for (const HistoryEntry& h : p.history) history.push_back(history_json(h));
    for (const std::string& n : p.names) names.push_back(boost::json::value(n));
    out.push_back(boost::json::object{{"index", i},
                                      {"name", p.ref.name},
                                      {"region", p.ref.region},
                                      {"id", p.ref.id},
                                      {"title", p.title},
                                      {"on_list", p.on_list},
                                      {"before", opt_json(p.before)},
                                      {"after", opt_json(p.after)},
                                      {"games", p.games},
                                      {"names", names},
                                      {"history", history}});
  }
  return out;
}

boost::json::array events_json(const SeasonResult& s) {
  boost::json::array out;
  for (const EventReport& e : s.events) {
    boost::json::array lines;
    for (const EventLine& l : e.lines)
      lines.push_back(boost::json::object{{"player", l.player},
                                          {"rating", opt_json(l.rating)},
                                          {"games", l.games},
                                          {"score", l.score},
                                          {"expected", l.expected},
                                          {"k", l.k},
                                          {"change", l.change},
                                          {"initial_games", l.initial_games},
                                          {"initial_score", l.initial_score}});
    out.push_back(boost::json::object{{"name", e.name},
                                      {"site", e.site},
                                      {"date", date_text(e.date)},
                                      {"period", e.period},
                                      {"games", e.games},
                                      {"lines", lines}});
  }
  return out;
}

boost::json::array ambiguous_json(const SeasonResult& s) {
  boost::json::array out;
  for (const AmbiguousGroup& g : s.ambiguous) {
    boost::json::array names, reasons;
    for (const NameUse& u : g.names) {
      boost::json::array events;
      for (const std::string& e : u.events) events.push_back(boost::json::value(e));
      names.push_back(boost::json::object{{"name", u.player.name},
                                          {"region", u.player.region},
                                          {"games", u.games},
                                          {"events", events}});
    }
    for (Likeness l : g.reasons) reasons.push_back(boost::json::value(likeness_text(l)));
    out.push_back(boost::json::object{{"names", names}, {"reasons", reasons}});
  }
  return out;
}

}  // namespace

bool parse_language(std::string_view s, Language* out) {
  for (Language l : kLanguages)
    if (s == language_code(l)) {
      *out = l;
      return true;
    }
  return false;
}

std::string_view language_code(Language l) {
  switch (l) {
    case Language::Kk:
      return "kk";
    case Language::Ky:
      return "ky";
    case Language::Ru:
      return "ru";
    case Language::En:
      return "en";
  }
  return "en";
}

std::vector<std::string> list_columns(Language lang) {
  const Words& w = words(lang);
  return {w.number, w.name, w.region, w.title, w.before, w.change, w.after, w.games};
}

std::string list_html(const std::vector<ListEntry>& list, Language lang, std::string_view heading) {
  tournament::Table t;
  t.header = list_columns(lang);
  t.align_right = {true, false, false, false, true, true, true, true};
  for (const ListEntry& e : list) {
    const bool moved = e.before && e.after;
    t.rows.push_back({std::to_string(e.number), e.name, e.region, e.title,
                      e.before ? opt(e.before) : "", moved ? signed_text(e.change) : "",
                      e.after ? opt(e.after) : "", e.games ? std::to_string(*e.games) : ""});
  }
  const std::string title = html_escape(std::string(heading));
  return "<!DOCTYPE html>\n<html lang=\"" + std::string(language_code(lang)) +
         "\">\n<head>\n<meta charset=\"utf-8\">\n<title>" + title +
         "</title>\n<style>\nbody { font-family: serif; margin: 1.5em; }\n"
         "table { border-collapse: collapse; }\n"
         "th, td { border: 1px solid #444; padding: 0.15em 0.5em; }\n"
         "td.n { text-align: right; }\n@media print { body { margin: 0; } }\n</style>\n"
         "</head>\n<body>\n<h1>" +
         title + "</h1>\n" + t.html() + "</body>\n</html>\n";
}

std::string events_text(const SeasonResult& s) {
  std::string out;
  for (const EventReport& e : s.events) {
    out += e.name + (e.site.empty() ? "" : ", " + e.site) + ", " + date_text(e.date) + " (period " +
           e.period + ", " + std::to_string(e.games) + " games)\n";
    tournament::Table t;
    t.header = {"Player", "Rating", "Games",   "Score", "Expected",
                "K",      "Change", "Opp avg", "First"};
    t.align_right = {false, true, true, true, true, true, true, true, true};
    for (const EventLine& l : e.lines)
      t.rows.push_back(
          {player_name(s, l.player), opt(l.rating), std::to_string(l.games), fixed(l.score, 1),
           l.games ? fixed(l.expected, 2) : "-", l.games ? std::to_string(l.k) : "-",
           l.games ? fixed(l.change, 2, true) : "-",
           l.opponents_average ? fixed(*l.opponents_average, 0) : "-",
           l.initial_games ? fixed(l.initial_score, 1) + "/" + std::to_string(l.initial_games)
                           : "-"});
    out += t.text() + "\n";
  }
  return out;
}

std::string history_text(const SeasonResult& s) {
  std::string out;
  for (const SeasonPlayer& p : s.players) {
    if (p.history.empty()) continue;
    out += player_name(s, int(&p - s.players.data())) +
           (p.ref.id.empty() ? "" : ", id " + p.ref.id) + ": " + opt(p.before) + " -> " +
           opt(p.after) + ", " + std::to_string(p.games) + " rated games\n";
    tournament::Table t;
    t.header = {"Period", "Event",    "Date", "Opponent", "Rating",
                "Score",  "Expected", "K",    "Change"};
    t.align_right = {false, false, false, false, true, true, true, true, true};
    for (const HistoryEntry& h : p.history) {
      const bool rated = h.use == GameUse::Rated;
      t.rows.push_back({h.period, h.event, date_text(h.date), s.players[h.opponent].ref.name,
                        opt(h.opponent_rating), fixed(h.score, 1),
                        rated ? fixed(h.expected, 2) : "", rated ? std::to_string(h.k) : "",
                        rated ? fixed(h.change, 2, true) : std::string(game_use_text(h.use))});
    }
    out += t.text() + "\n";
  }
  return out;
}

std::string summary_text(const SeasonResult& s) {
  int rated = 0, newly = 0;
  for (const SeasonPlayer& p : s.players) {
    rated += p.after.has_value();
    newly += p.after && !p.before;
  }
  std::string out = "games rated: " + std::to_string(s.games_rated) +
                    "\ngames skipped: " + std::to_string(s.skipped.size()) +
                    "\nplayers: " + std::to_string(s.players.size()) +
                    "\nplayers rated: " + std::to_string(rated) +
                    "\nfirst ratings: " + std::to_string(newly) +
                    "\nevents: " + std::to_string(s.events.size()) +
                    "\nperiods: " + std::to_string(s.periods.size()) +
                    "\nambiguous name groups: " + std::to_string(s.ambiguous.size()) + "\n";
  if (s.year_only_dates > 0)
    out += "games dated by year only (rated in the year's first period): " +
           std::to_string(s.year_only_dates) + "\n";
  return out;
}

std::string names_text(const SeasonResult& s) {
  std::string out;
  for (const SkippedGame& g : s.skipped) {
    out += "skipped " + g.source + ": " + std::string(skip_reason_text(g.reason)) +
           (g.detail.empty() ? "" : " (" + g.detail + ")") + "\n";
  }
  int n = 0;
  for (const AmbiguousGroup& g : s.ambiguous) {
    out += "group " + std::to_string(++n) + ":";
    for (size_t i = 0; i < g.reasons.size(); ++i)
      out += std::string(i ? ", " : " ") + std::string(likeness_text(g.reasons[i]));
    out += "\n";
    for (const NameUse& u : g.names) {
      out += "  " + u.player.name + (u.player.region.empty() ? "" : " @ " + u.player.region) +
             "  (" + std::to_string(u.games) + " games:";
      for (size_t i = 0; i < u.events.size(); ++i) out += std::string(i ? "; " : " ") + u.events[i];
      out += ")\n";
    }
  }
  return out;
}

std::string season_json(const SeasonResult& s, const Profile& profile, std::string_view heading) {
  boost::json::array skipped, periods, list;
  for (int i : list_order(s)) list.push_back(i);
  for (const SkippedGame& g : s.skipped)
    skipped.push_back(boost::json::object{
        {"source", g.source}, {"reason", skip_reason_text(g.reason)}, {"detail", g.detail}});
  for (const PeriodReport& p : s.periods)
    periods.push_back(boost::json::object{{"period", p.period},
                                          {"games", p.games},
                                          {"rated_changes", p.rated_changes},
                                          {"new_ratings", p.new_ratings}});
  boost::json::object doc{{"heading", heading},
                          {"list", list},
                          {"profile", profile_text(profile)},
                          {"games_rated", s.games_rated},
                          {"players", players_json(s)},
                          {"events", events_json(s)},
                          {"periods", periods},
                          {"skipped", skipped},
                          {"ambiguous", ambiguous_json(s)}};
  return boost::json::serialize(doc) + "\n";
}

}  // namespace toguz::federation
