// toguz admin --db FILE|URL ACTION ...: the operator's moderation over the store
// (docs/accounts.md "Moderation"), with the server running or not: grant or revoke the
// moderator role, list the flags and reports, resolve one, mark or close an account (or undo
// it), void a game's rating changes. The actions are the server's own (site/accounts/moderation.h).
// Besides, copies of a SQLite store (store/backup.h, docs/operations.md "Backups"): backup FILE
// while the server runs, restore FILE while it is stopped. `drain` asks a running server to
// drain and stop (admin_drain.cpp).
// Exit 0 when done, 1 when refused (an unknown account, game or report); a usage error exits
// with CLI11's code.
#include <iostream>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "site/accounts/moderation.h"
#include "site/json_out.h"
#include "store/backup.h"
#include "store/store.h"

namespace toguz::cli {

namespace {

struct AdminArgs {
  std::string db = "./data/toguz.db";
  std::string name;  // an account, a game id or a report id, by action
  bool undo = false;
  bool all = false;
};

// The refusal codes of site/accounts/moderation.h in words.
std::string refusal_text(const std::string& code, const std::string& what) {
  if (code == "no_user") return "no such account: " + what;
  if (code == "no_game") return "no such game: " + what;
  if (code == "not_rated") return "game " + what + " changed no rating";
  return code + ": " + what;
}

// One line of `toguz admin reports`.
std::string report_line(const store::ReportRow& r) {
  std::string line = "#" + std::to_string(r.id) + " " + (r.reporter == 0 ? "flag" : "report") +
                     " " + site::iso_time(r.created_ms) + " " + r.target_name;
  if (r.reporter != 0) line += " by " + r.reporter_name;
  if (r.about != 0) line += " about " + r.about_name;
  if (!r.game_id.empty()) line += " game " + r.game_id;
  line += ": " + r.reason;
  if (r.resolved) line += " (resolved)";
  return line;
}

// backup or restore (a.name is the copy's file); the exit code.
int run_copy(const std::string& action, const AdminArgs& a) {
  if (store::is_postgres_url(a.db)) {
    std::cerr << "toguz admin: " << action
              << ": a PostgreSQL store is copied with pg_dump and pg_restore "
                 "(docs/operations.md \"Backups\")\n";
    return 1;
  }
  const store::CopyInfo info =
      action == "backup" ? store::backup_sqlite(a.db, a.name) : store::restore_sqlite(a.name, a.db);
  std::cout << action << ": " << (action == "backup" ? a.name : a.db) << " (schema "
            << info.schema_version << ", " << info.games << " games, " << info.moves << " moves)\n";
  return 0;
}

// Runs `action` on the store; the exit code.
int run_admin(const std::string& action, const AdminArgs& a) {
  if (action == "backup" || action == "restore") return run_copy(action, a);
  std::unique_ptr<store::Store> st = store::open_store(a.db);
  std::string why;
  if (action == "reports") {
    const auto rows = st->list_reports(a.all, 1000);
    for (const store::ReportRow& r : rows) std::cout << report_line(r) << "\n";
    if (rows.empty()) std::cout << "no reports\n";
    return 0;
  }
  if (action == "grant" || action == "revoke")
    why = site::moderation::set_moderator(*st, a.name, action == "grant");
  else if (action == "mark")
    why = site::moderation::set_marked(*st, a.name, !a.undo);
  else if (action == "close")
    why = site::moderation::set_closed(*st, a.name, !a.undo);
  else if (action == "void")
    why = site::moderation::void_ratings(*st, a.name);
  else if (action == "resolve") {
    const bool number = !a.name.empty() && a.name.size() < 19 &&
                        a.name.find_first_not_of("0123456789") == std::string::npos;
    if (!number || !st->resolve_report(std::stoll(a.name))) why = "no_report";
  }
  if (why == "no_report") {
    std::cerr << "toguz admin: no such report: " << a.name << "\n";
    return 1;
  }
  if (!why.empty()) {
    std::cerr << "toguz admin: " << refusal_text(why, a.name) << "\n";
    return 1;
  }
  std::cout << action << (a.undo ? " undone" : "") << ": " << a.name << "\n";
  return 0;
}

}  // namespace

void add_admin(CLI::App& app) {
  auto args = std::make_shared<AdminArgs>();
  CLI::App* cmd = app.add_subcommand(
      "admin", "The store: moderators, flags and reports, mark, close, void; backup and restore");
  cmd->add_option("--db", args->db, "SQLite database file or postgresql:// URL (as toguz serve)");
  cmd->require_subcommand(1);
  struct Action {
    const char* name;
    const char* help;
    const char* operand;  // nullptr: none
    bool undo;
  };
  static constexpr Action kActions[] = {
      {"grant", "Make an account a moderator", "ACCOUNT", false},
      {"revoke", "Take the moderator role from an account", "ACCOUNT", false},
      {"reports", "List the open flags and reports, newest first (--all: resolved ones too)",
       nullptr, false},
      {"resolve", "Mark a flag or report resolved", "ID", false},
      {"mark", "Mark an account: no rated play, off the leaderboards (--undo)", "ACCOUNT", true},
      {"close", "Close an account: no login, its sessions ended (--undo: reopen)", "ACCOUNT", true},
      {"void", "Void a game's rating changes; both players' ratings recomputed", "GAME", false},
      {"backup", "Copy a SQLite store to a new FILE, consistent while games are played", "FILE",
       false},
      {"restore", "Make the SQLite store a copy of the backup FILE (stop the server first)", "FILE",
       false},
  };
  add_admin_drain(*cmd);
  for (const Action& a : kActions) {
    CLI::App* sub = cmd->add_subcommand(a.name, a.help);
    if (a.operand) sub->add_option(a.operand, args->name, a.operand)->required();
    if (a.undo) sub->add_flag("--undo", args->undo, "Undo the action");
    if (std::string(a.name) == "reports") sub->add_flag("--all", args->all, "Resolved ones too");
    sub->callback([args, name = std::string(a.name)] {
      int code = 0;
      try {
        code = run_admin(name, *args);
      } catch (const std::exception& e) {
        std::cerr << "toguz admin: " << e.what() << "\n";
        code = 1;
      }
      if (code != 0) throw CLI::RuntimeError(code);
    });
  }
}

}  // namespace toguz::cli
