// `toguz ratings ACTION ...`: a federation's official rating list from its over-the-board
// events (docs/ratings-federation.md). The calculation and the reports are in src/federation;
// this file reads the files, calls it and writes the results.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/commands.h"
#include "cli/game_input.h"
#include "federation/report.h"
#include "federation/season.h"
#include "rules/notation.h"

namespace toguz::cli {

namespace {

using namespace toguz::federation;

[[noreturn]] void fail(const std::string& msg, int code = 1) {
  std::cerr << "toguz ratings: " << msg << "\n";
  throw CLI::RuntimeError(code);
}

std::string read_or_fail(const std::string& path) {
  try {
    return read_input(path);
  } catch (const std::runtime_error& e) {
    fail(e.what(), 2);
  }
}

// What every action reads: the profile, the current list, the officer's names, the events.
struct Inputs {
  std::string profile, list, names;
  std::vector<std::string> events;
};

void add_inputs(CLI::App* c, Inputs* in) {
  c->add_option("EVENTS", in->events,
                "the season's events: TGK or PGN files, or folders of them (such as the site's "
                "--ratings-events-dir)")
      ->required();
  c->add_option("--list", in->list, "the federation's current list (CSV)");
  c->add_option("--profile", in->profile, "the federation's profile (default: the chess rules)");
  c->add_option("--names", in->names, "the officer's settlements of names");
}

template <class T, class F>
T parse_or_fail(const std::string& path, F parse) {
  try {
    return parse(read_or_fail(path));
  } catch (const InputError& e) {
    fail(path + ": " + e.what());
  }
}

// The event files: each path as given, a folder as its .tgk and .pgn files in name order.
std::vector<std::string> event_files(const std::vector<std::string>& paths) {
  std::vector<std::string> out;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (!std::filesystem::is_directory(path, ec)) {
      out.push_back(path);
      continue;
    }
    std::vector<std::string> found;
    for (const auto& e : std::filesystem::directory_iterator(path, ec)) {
      const std::string ext = e.path().extension().string();
      const bool hidden = e.path().filename().string().starts_with(".");
      if (!hidden && e.is_regular_file() && (ext == ".tgk" || ext == ".pgn"))
        found.push_back(e.path().string());
    }
    if (ec) fail(path + ": cannot read: " + ec.message(), 2);
    std::sort(found.begin(), found.end());
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

SeasonResult run_season(const Inputs& in, Profile* profile) {
  auto prof = [](const std::string& t) { return parse_profile(t); };
  auto list = [](const std::string& t) { return parse_list(t); };
  auto names = [](const std::string& t) { return parse_name_map(t); };
  *profile = in.profile.empty() ? Profile{} : parse_or_fail<Profile>(in.profile, prof);
  const std::vector<ListEntry> current = in.list.empty()
                                             ? std::vector<ListEntry>{}
                                             : parse_or_fail<std::vector<ListEntry>>(in.list, list);
  const NameMap map = in.names.empty() ? NameMap{} : parse_or_fail<NameMap>(in.names, names);
  std::vector<SeasonGame> games;
  std::vector<SkippedGame> skipped;
  for (const std::string& path : event_files(in.events)) {
    try {
      read_season_games(read_or_fail(path), path, &games, &skipped);
    } catch (const ParseError& e) {
      fail(path + ": " + e.what());
    }
  }
  SeasonResult season = compute_season(current, games, *profile, map);
  season.skipped.insert(season.skipped.begin(), skipped.begin(), skipped.end());
  return season;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) fail(path.string() + ": cannot write", 2);
}

void write_outputs(const std::string& dir, const SeasonResult& season, const Profile& profile,
                   const std::string& heading) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) fail(dir + ": cannot create: " + ec.message(), 2);
  const std::filesystem::path d(dir);
  const std::vector<ListEntry> list = new_list(season);
  write_file(d / "list.csv", list_csv(list));
  for (Language l : kLanguages)
    write_file(d / ("list." + std::string(language_code(l)) + ".html"),
               list_html(list, l, heading));
  write_file(d / "events.txt", events_text(season));
  write_file(d / "history.txt", history_text(season));
  write_file(d / "names.txt", names_text(season));
  write_file(d / "season.json", season_json(season, profile, heading));
}

}  // namespace

void add_ratings(CLI::App& app) {
  auto* cmd = app.add_subcommand("ratings",
                                 "a federation's rating list from its over-the-board events (Elo)");
  cmd->require_subcommand(1);

  // profile [FILE]
  {
    auto file = std::make_shared<std::string>();
    auto* c = cmd->add_subcommand("profile", "print the default profile, or FILE's as read");
    c->add_option("FILE", *file, "a profile to check");
    c->callback([file] {
      auto prof = [](const std::string& t) { return parse_profile(t); };
      std::cout << profile_text(file->empty() ? Profile{} : parse_or_fail<Profile>(*file, prof));
    });
  }

  // compute EVENTS... --out DIR
  {
    struct Args {
      Inputs in;
      std::string out, heading = "Rating list";
    };
    auto a = std::make_shared<Args>();
    auto* c = cmd->add_subcommand(
        "compute", "rate the events: the new list (CSV, print pages), reports and JSON");
    add_inputs(c, &a->in);
    c->add_option("--out", a->out, "the folder to write into")->required();
    c->add_option("--heading", a->heading, "the print pages' heading");
    c->callback([a] {
      Profile profile;
      const SeasonResult season = run_season(a->in, &profile);
      write_outputs(a->out, season, profile, a->heading);
      std::cout << summary_text(season);
    });
  }

  // names EVENTS...
  {
    auto in = std::make_shared<Inputs>();
    auto* c =
        cmd->add_subcommand("names", "the skipped games and the names the officer should settle");
    add_inputs(c, in.get());
    c->callback([in] {
      Profile profile;
      const SeasonResult season = run_season(*in, &profile);
      std::cout << summary_text(season) << names_text(season);
    });
  }
}

}  // namespace toguz::cli
