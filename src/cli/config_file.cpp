#include "cli/config_file.h"

#include <algorithm>
#include <fstream>
#include <set>

namespace toguz::cli {

namespace {

std::string config_trim(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t\r");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t\r") - a + 1);
}

// The option of `cmd` that key `name` names (its long name), null for none.
CLI::Option* config_option(CLI::App& cmd, const std::string& name) {
  if (name.empty() || name == "help" || name == "config") return nullptr;
  CLI::Option* opt = cmd.get_option_no_throw("--" + name);
  return opt && opt->get_configurable() ? opt : nullptr;
}

// The command a section names: the command itself for "" or its own name, else a sibling
// subcommand (null when there is none).
CLI::App* section_command(CLI::App& cmd, const std::string& section) {
  if (section.empty() || section == cmd.get_name()) return &cmd;
  CLI::App* root = cmd.get_parent();
  if (!root) return nullptr;
  try {
    return root->get_subcommand(section);
  } catch (const CLI::OptionNotFound&) {
    return nullptr;
  }
}

struct ConfigLine {
  int number = 0;
  std::string key, value;
};

// Gives `opt` the value of `line` (as the command line would, its validators run).
void give_value(CLI::Option& opt, const ConfigLine& line, const std::string& where) {
  try {
    std::string value = line.value;
    if (opt.get_expected_min() == 0) value = opt.get_flag_value(line.key, value);
    opt.add_result(value);
    opt.run_callback();
  } catch (const CLI::Error& e) {
    throw ConfigFileError(where + ": " + line.key + " = " + line.value + ": " + e.what());
  }
}

}  // namespace

std::shared_ptr<std::string> add_config_option(CLI::App& cmd) {
  auto path = std::make_shared<std::string>();
  cmd.add_option("--config", *path,
                 "a configuration file: key = value lines, [serve] / [worker] sections "
                 "(docs/operations.md); the command line and TOGUZ_* variables win over it")
      ->check(CLI::ExistingFile);
  return path;
}

std::vector<std::string> apply_config_file(CLI::App& cmd, const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ConfigFileError(path + ": cannot read it");
  std::string text, section;
  std::vector<ConfigLine> own;
  std::set<std::string> seen;  // "section.key": each once
  for (int n = 1; std::getline(in, text); ++n) {
    const std::string line = config_trim(text);
    const std::string where = path + ":" + std::to_string(n);
    if (line.empty() || line[0] == '#' || line[0] == ';') continue;
    if (line.front() == '[') {
      if (line.back() != ']') throw ConfigFileError(where + ": expected [section]");
      section = config_trim(line.substr(1, line.size() - 2));
      if (!section_command(cmd, section))
        throw ConfigFileError(where + ": unknown section [" + section +
                              "] (the sections are the commands: [serve], [worker])");
      continue;
    }
    const size_t eq = line.find('=');
    if (eq == std::string::npos) throw ConfigFileError(where + ": expected key = value");
    ConfigLine l{n, config_trim(line.substr(0, eq)), config_trim(line.substr(eq + 1))};
    if (l.value.size() >= 2 && l.value.front() == '"' && l.value.back() == '"')
      l.value = l.value.substr(1, l.value.size() - 2);
    CLI::App* target = section_command(cmd, section);
    const std::string in_section = section.empty() ? "" : " in [" + section + "]";
    if (!config_option(*target, l.key))
      throw ConfigFileError(where + ": unknown key '" + l.key + "'" + in_section + " (toguz " +
                            target->get_name() + " --help lists the options)");
    if (!seen.insert(section + "." + l.key).second)
      throw ConfigFileError(where + ": '" + l.key + "' given twice" + in_section);
    if (target == &cmd) own.push_back(std::move(l));
  }
  std::vector<std::string> applied;
  for (const ConfigLine& l : own) {
    CLI::Option* opt = config_option(cmd, l.key);
    if (opt->count() > 0) continue;  // the command line or the environment gave it
    give_value(*opt, l, path + ":" + std::to_string(l.number));
    applied.push_back(l.key);
  }
  return applied;
}

std::string mask_url_password(const std::string& url) {
  std::string out = url;
  const size_t scheme = out.find("://");
  const size_t at = out.find('@');
  if (scheme != std::string::npos && at != std::string::npos && at > scheme) {
    const size_t colon = out.find(':', scheme + 3);
    if (colon != std::string::npos && colon < at) out.replace(colon + 1, at - colon - 1, "***");
  }
  const size_t pw = out.find("password=");
  if (pw != std::string::npos) {
    const size_t end = out.find_first_of("& ", pw);
    out.replace(pw + 9, (end == std::string::npos ? out.size() : end) - pw - 9, "***");
  }
  return out;
}

std::vector<std::string> describe_options(const CLI::App& cmd,
                                          const std::vector<std::string>& from_file) {
  std::vector<std::string> out;
  for (const CLI::Option* opt : cmd.get_options()) {
    if (opt->get_lnames().empty()) continue;
    const std::string name = opt->get_lnames().front();
    if (name == "help" || name == "config") continue;
    std::string value;
    for (const std::string& r : opt->results()) value += (value.empty() ? "" : ",") + r;
    if (opt->count() == 0) value = opt->get_default_str();
    if (opt->count() == 0 && value.empty()) value = "(default)";
    if ((name.find("token") != std::string::npos || name.find("password") != std::string::npos) &&
        opt->count() > 0)
      value = "***";
    value = mask_url_password(value);
    const bool filed = std::find(from_file.begin(), from_file.end(), name) != from_file.end();
    out.push_back(name + " = " + value + (filed ? " (file)" : ""));
  }
  return out;
}

}  // namespace toguz::cli
