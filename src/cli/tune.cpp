// toguz tune --data FILE... [--out FILE] [--features a,b,...] [--result-weight R]
// [--skip-plies P]: fits the evaluation weights on self-play data (search/tune.h) and prints
// them, with the fit's loss against that of the current weights.
#include "search/tune.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli/commands.h"

namespace toguz::cli {

void add_tune(CLI::App& app) {
  struct Args {
    std::vector<std::string> data;
    std::string out;
    std::vector<std::string> features;
    search::TuneSettings st;
  };
  auto args = std::make_shared<Args>();
  auto* cmd = app.add_subcommand(
      "tune", "fit the evaluation weights on self-play data (logistic regression)");
  cmd->add_option("--data", args->data, "self-play files (toguz selfplay)")->required();
  cmd->add_option("--out", args->out, "also write the weights here (name weight per line)");
  cmd->add_option("--features", args->features,
                  "features to fit (default all): kazna row tuz mobility odd_holes row_late")
      ->delimiter(',');
  cmd->add_option("--result-weight", args->st.result_weight,
                  "target = R * result + (1 - R) * sigmoid(score)")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  cmd->add_option("--skip-plies", args->st.skip_plies, "ignore the first P plies of each game")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->callback([args] {
    for (const std::string& name : args->features) {
      int f = 0;
      while (f < search::kNumFeatures && name != search::eval_feature_name(f)) ++f;
      if (f == search::kNumFeatures) {
        std::cerr << "toguz tune: --features: unknown feature '" << name
                  << "' (expected kazna, row, tuz, mobility, odd_holes or row_late)\n";
        throw CLI::RuntimeError(2);
      }
      args->st.features.push_back(f);
    }
    std::vector<search::SelfplayRecord> records;
    search::TuneResult r;
    try {
      for (const std::string& path : args->data) {
        auto part = search::read_selfplay(path);
        records.insert(records.end(), part.begin(), part.end());
      }
      r = search::tune_weights(records, args->st);
    } catch (const std::exception& e) {
      std::cerr << "toguz tune: " << e.what() << "\n";
      throw CLI::RuntimeError(2);
    }
    std::ostringstream w;
    for (int f = 0; f < search::kNumFeatures; ++f)
      w << search::eval_feature_name(f) << " " << r.weights[f] << "\n";
    char line[200];
    std::snprintf(
        line, sizeof line,
        "Positions: %zu of %zu\nScale: %.1f cp per logit\nLoss: fitted %.6f, current %.6f\n",
        r.positions, records.size(), r.scale, r.loss_fitted, r.loss_current);
    std::cout << line << w.str() << "kEvalWeights = {";
    for (int f = 0; f < search::kNumFeatures; ++f) std::cout << (f ? ", " : "") << r.weights[f];
    std::cout << "}\n";
    if (!args->out.empty()) {
      std::ofstream out(args->out);
      out << w.str();
      if (!out.flush()) {
        std::cerr << "toguz tune: cannot write " << args->out << "\n";
        throw CLI::RuntimeError(2);
      }
    }
  });
}

}  // namespace toguz::cli
