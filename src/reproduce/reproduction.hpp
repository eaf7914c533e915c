#pragma once
/// \file
/// A reproduction regenerates one table or figure of a paper: it runs the experiments,
/// prints our numbers beside the paper's, and writes CSV and a gnuplot figure.
///
/// ```
/// const auto& table4 = dlbkit::builtin_reproductions().find("wlr93-table4");
/// dlbkit::ReproductionResult report = table4.run({.out_dir = "out/wlr93-table4", .runs = 10});
/// std::fputs(report.text.c_str(), stdout);
/// ```

#include <dlbkit/core/registry.hpp>
#include "reproduce/paper_value.hpp"

#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlbkit {

struct ReproductionOptions {
  std::string out_dir;  ///< where CSV and figures go; created if missing
  int runs = 10;        ///< seeds 1..runs per point (random load distributions)
  unsigned jobs = 2;    ///< simulations run at once
  bool tiny = false;    ///< a few small points only, for tests (where a reproduction supports it)
  /// The reproduction's own parameters (ReproductionInfo::params), name -> value; missing
  /// ones take their defaults.
  std::map<std::string, std::string> params;
};

struct ReproductionResult {
  std::string text;      ///< the table(s), ours beside the paper's
  nlohmann::json data;   ///< the same figures, and the inputs
  std::vector<std::string> files;  ///< CSV and figures written
  /// Every number the paper publishes that this run reproduces, beside ours (the fidelity
  /// scoreboard's rows); empty where the paper publishes none for it.
  std::vector<Comparison> comparisons;
};

struct ReproductionInfo {
  static constexpr const char* kind = "reproduction";
  std::string name;
  std::string description;
  std::string source;
  std::vector<ParamSpec> params;  ///< its own options (`dlbkit reproduce NAME -p name=value`)
  int default_runs = 10;          ///< seeds per point when --runs is not given
  std::function<ReproductionResult(const ReproductionOptions&)> run;
  /// What `reproduce scoreboard` runs: `run` itself, or a smaller case when `run` takes over
  /// a minute (only where the paper's numbers are for that case). Empty: not on the
  /// scoreboard, and scoreboard_skip says why (over a minute, or no published number).
  std::function<ReproductionResult(const ReproductionOptions&)> scoreboard_run;
  std::string scoreboard_skip;
};

using ReproductionRegistry = Registry<ReproductionInfo>;

/// Every reproduction dlbkit ships.
const ReproductionRegistry& builtin_reproductions();

}  // namespace dlbkit
