// tempered beside LBAF's InformAndTransfer on LBAF's own configurations and data (lbaf.hpp).

#include "reproduce/lbaf.hpp"
#include "reproduce/render.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/workloads/phases_command.hpp>

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <optional>
#include <vector>

namespace dlbkit {

namespace {

constexpr TextParam kLbaf{.name = "lbaf", .default_value = "",
                          .description = "an LBAF checkout: its config/ and data/ folders (scripts/lbaf-peer.sh "
                                         "clones one into build/peers/lbaf/lbaf)"};

std::vector<ParamSpec> lbaf_params() { return {kLbaf}; }

/// A figure of LBAF's runs: median, min, max.
struct Spread {
  double median, min, max;
};

/// One problem: LBAF's configuration file, the data when it is not the file's, and LBAF's
/// results as scripts/lbaf-peer.sh measured them (docs/phases.md, "Beside LBAF").
struct Problem {
  std::string label;
  std::string config;                   ///< in LBAF's config/
  std::optional<std::string> data;      ///< in LBAF's data/: STEM instead of the file's
  std::optional<double> imbalance_before;  ///< LBAF's; none: not measured
  std::optional<Spread> imbalance_after, migrated;
  std::optional<double> wall_seconds;   ///< LBAF's whole process, median
  int lbaf_runs = 5;                     ///< the runs behind LBAF's figures
};

// LBAF at commit 9615e7a, `RUNS=5 STRATEGIES="tempered:peers=vt tempered" scripts/lbaf-peer.sh DATA CONFIG`.
std::vector<Problem> problems() {
  return {
      {.label = "challenging-toy-fewer-tasks",
       .config = "challenging-toy-fewer-tasks.yaml",
       .imbalance_before = 1.917,
       .imbalance_after = Spread{0.0219, 0.0099, 0.298},
       .migrated = Spread{234, 225, 248},
       .wall_seconds = 14},
      {.label = "challenging-toy-hundreds-tasks",
       .config = "challenging-toy-hundreds-tasks.yaml",
       .imbalance_before = 1.7468,
       .imbalance_after = Spread{0.68408, 0.68408, 0.68408},
       .migrated = Spread{20623, 19599, 20928},
       .wall_seconds = 222},
      {.label = "user-defined-memory-toy-problem",
       .config = "user-defined-memory-toy-problem.yaml",
       .imbalance_before = 1.1714,
       .imbalance_after = Spread{0.0286, 0.0286, 0.0286},
       .migrated = Spread{13, 11, 23},
       .wall_seconds = 0.82},
      {.label = "synthetic-blocks",
       .config = "synthetic-blocks.yaml",
       .imbalance_before = 1,
       .imbalance_after = Spread{0.25, 0.25, 0.25},
       .migrated = Spread{2, 2, 3},
       .wall_seconds = 0.37},
      {.label = "conf (synthetic-blocks' data)",
       .config = "conf.yaml",
       .imbalance_before = 1,
       .imbalance_after = Spread{0, 0, 0},
       .migrated = Spread{7, 5, 8},
       .wall_seconds = 0.53},
      // Runs 1, 3, 5, 9 and 10 (docs/phases.md): their wall times to the end of their 4 iterations.
      {.label = "thousands-tasks data, hundreds-tasks configuration",
       .config = "challenging-toy-hundreds-tasks.yaml",
       .data = "challenging_toy_thousands_tasks/toy",
       .imbalance_before = 3.36627,
       .imbalance_after = Spread{0.70555, 0.70555, 0.70555},
       .migrated = Spread{402712, 400398, 405105},
       .wall_seconds = 7370,
       .lbaf_runs = 5},
  };
}

Spread spread(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  const double median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
  return {median, values.front(), values.back()};
}

/// "0.0219 (0.0099..0.298)", or the one value when they agree.
std::string text(const Spread& s, const char* format) {
  const std::string median = fmt::format(fmt::runtime(format), s.median);
  if (s.min == s.max) return median;
  return fmt::format("{} ({}..{})", median, fmt::format(fmt::runtime(format), s.min),
                     fmt::format(fmt::runtime(format), s.max));
}

ReproductionResult beside_lbaf(const ReproductionOptions& options) {
  const Parameters params = Parameters::parse(lbaf_params(), options.params, "reproduction phases-lbaf");
  const std::string& root = params[kLbaf];
  if (root.empty() || !std::filesystem::is_directory(std::filesystem::path(root) / "config"))
    throw InputError(fmt::format("reproduction phases-lbaf: lbaf '{}' is not an LBAF checkout; accepted: -p "
                                 "lbaf=PATH, a folder with LBAF's config/ and data/ (scripts/lbaf-peer.sh clones "
                                 "one into build/peers/lbaf/lbaf)",
                                 excerpt(root)));
  const std::filesystem::path config_dir = std::filesystem::path(root) / "config",
                              data_dir = std::filesystem::path(root) / "data";
  const int runs = std::max(options.runs, 1);

  Table table{.name = "phases-lbaf",
              .title = fmt::format("tempered beside LBAF's InformAndTransfer on LBAF's configurations and data; "
                                   "LBAF: 5 runs unless a note says, tempered: seeds 1 to {}; median (min..max)",
                                   runs),
              .columns = {{.name = "problem", .left = true, .quoted = true},
                          {.name = "balancer", .left = true, .quoted = true},
                          {.name = "imbalance_before", .label = "I before", .format = "{:.5g}"},
                          {.name = "imbalance_after", .label = "I after", .left = true},
                          {.name = "imbalance_after_median", .format = "{:.6g}", .printed = false},
                          {.name = "objects_migrated", .label = "migrated", .left = true},
                          {.name = "objects_migrated_median", .format = "{:.6g}", .printed = false},
                          {.name = "wall_seconds", .label = "wall s", .format = "{:.3g}"},
                          {.name = "imbalance_lower_bound", .label = "I bound", .format = "{:.5g}"},
                          {.name = "lower_bound_units", .label = "of", .left = true}}};
  std::vector<std::string> notes;
  for (const Problem& p : problems()) {
    const std::filesystem::path config = config_dir / p.config;
    const auto missing = [&](const std::filesystem::path& path, const std::string& what) {
      notes.push_back(fmt::format("{}: not run, no {} {}", p.label, what, path.string()));
    };
    if (!std::filesystem::exists(config)) {
      missing(config, "configuration");
      continue;
    }
    if (p.data && !std::filesystem::exists(data_dir / (*p.data + ".0.json"))) {
      missing(data_dir / (*p.data + ".0.json"), "data file");
      continue;
    }
    const auto lbaf_cell = [](const std::optional<Spread>& s, const char* format) -> Cell {
      return s ? Cell(text(*s, format)) : Cell(std::string("not measured"));
    };
    const auto median = [](const std::optional<Spread>& s) -> Cell { return s ? Cell(s->median) : Cell(); };
    table.rows.push_back({p.label, std::string("LBAF"), p.imbalance_before ? Cell(*p.imbalance_before) : Cell(),
                          lbaf_cell(p.imbalance_after, "{:.5g}"), median(p.imbalance_after),
                          lbaf_cell(p.migrated, "{:.0f}"), median(p.migrated),
                          p.wall_seconds ? Cell(*p.wall_seconds) : Cell(), Cell(), Cell()});
    // vt's peers, LBAF's, and LBAF's with vt's rollback (docs/phases.md, vt's trials and rollback).
    for (const auto& [peers, rollback] : {std::pair{"vt", false}, {"LBAF", false}, {"LBAF", true}}) {
      std::vector<double> after, migrated, wall;
      double before = 0, bound = 0;
      bool on_clusters = false;
      for (int seed = 1; seed <= runs; ++seed) {
        PhasesInputs in{.lbaf_config = config.string()};
        if (p.data) in.data = (data_dir / *p.data).string();
        in.params["peers"] = peers;
        if (rollback) in.params["rollback"] = "true";
        in.seed = static_cast<std::uint64_t>(seed);
        const PhasesResult r = phases_command(in);
        const Rebalanced& step = *r.run.steps.back().rebalanced;
        before = step.before.imbalance;
        bound = step.imbalance_lower_bound;
        on_clusters = step.lower_bound_on_clusters;
        after.push_back(step.after.imbalance);
        migrated.push_back(static_cast<double>(step.objects_migrated));
        wall.push_back(step.wall_seconds);
      }
      const Spread a = spread(after), m = spread(migrated);
      const std::string balancer = std::string(peers) == "vt" ? "tempered, vt's peers"
                                   : rollback                  ? "tempered peers=LBAF rollback=true"
                                                               : "tempered peers=LBAF";
      table.rows.push_back({p.label, balancer,
                            before, text(a, "{:.5g}"), a.median, text(m, "{:.0f}"), m.median, spread(wall).median,
                            bound, std::string(on_clusters ? "clusters" : "objects")});
    }
    if (p.imbalance_after && p.lbaf_runs != 5)
      notes.push_back(
          fmt::format("{}: LBAF's figures are of {} run{}", p.label, p.lbaf_runs, p.lbaf_runs == 1 ? "" : "s"));
  }
  Results results{.inputs = {{"lbaf", root}, {"runs", runs}}, .tables = {std::move(table)}};
  results.notes = {
      "LBAF's figures: scripts/lbaf-peer.sh at LBAF commit 9615e7a, 5 runs unless noted (LBAF is not "
      "deterministic: its gossip draws from Python's unseeded stream); its wall time is its whole process, "
      "tempered's the decision alone. tempered takes each configuration through --lbaf-config (docs/phases.md, "
      "LBAF's configurations).",
      "I bound: no mapping tempered can make ends below it (docs/phases.md, How far from the best); of clusters "
      "where the configuration moves only whole clusters (max_subclusters: 0), and then LBAF's runs, which move the "
      "same clusters, cannot end below it either."};
  results.notes.insert(results.notes.end(), notes.begin(), notes.end());
  return render(results, options);
}

}  // namespace

ReproductionInfo phases_lbaf_reproduction() {
  return {.name = "phases-lbaf",
          .description = "tempered beside LBAF on every InformAndTransfer configuration LBAF ships (-p lbaf=PATH)",
          .source = "docs/phases.md (Beside LBAF)",
          .params = lbaf_params(),
          .default_runs = 5,
          .run = beside_lbaf,
          .scoreboard_skip = "needs LBAF's configurations and data (-p lbaf=PATH); LBAF is a peer, not a paper"};
}

}  // namespace dlbkit
