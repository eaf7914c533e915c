#pragma once
/// \file
/// The fidelity scoreboard: runs reproductions and sets every number their papers publish
/// beside ours in one table, with the ratio and a verdict (agrees within the tolerance kept
/// for that number, or differs: see the doc section named beside it). The paper's numbers,
/// tolerances and doc pointers are the reproductions' own (ReproductionResult::comparisons);
/// ours are what their code computes in this run.
///
/// ```
/// dlbkit::Scoreboard board = dlbkit::run_scoreboard(dlbkit::builtin_reproductions().all(), {.out_dir = "out"});
/// std::fputs(dlbkit::scoreboard_text(board).c_str(), stdout);
/// ```

#include "reproduce/paper_value.hpp"
#include "reproduce/reproduction.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlbkit {

struct ScoreboardOptions {
  std::string out_dir = "out";  ///< each reproduction writes its files to out_dir/<name>
  unsigned jobs = 2;            ///< simulations at once within a reproduction
};

/// One published number of one reproduction.
struct ScoreboardRow {
  std::string reproduction;  ///< its registry name, e.g. wlr93-table4
  std::string paper;         ///< the paper's short name, e.g. WLR93
  Comparison comparison;
};

/// A reproduction the scoreboard did not run, and why.
struct SkippedReproduction {
  std::string name;
  std::string reason;
};

struct Scoreboard {
  std::vector<ScoreboardRow> rows;
  std::vector<SkippedReproduction> skipped;
  std::vector<std::pair<std::string, double>> seconds;  ///< wall time of each reproduction run
  double total_seconds = 0;
};

/// Runs the scoreboard_run of every reproduction of `reproductions` that has one, each at its
/// default runs (the paper's numbers are for that case), and lists the others as skipped.
Scoreboard run_scoreboard(const std::vector<ReproductionInfo>& reproductions, const ScoreboardOptions& options);

/// The verdict of one row: "agrees", or "differs: <doc section>".
std::string verdict(const Comparison& c);

/// One table (paper, figure/table, quantity, paper's value, ours, ratio, tolerance, verdict),
/// a count of agreements per reproduction, the skipped ones and the times.
std::string scoreboard_text(const Scoreboard& board);

/// The same as JSON: {"rows": [...], "skipped": [...], "seconds": {...}, "total_seconds": s}; each
/// row's tolerance as {kind, bound, text, reason}.
nlohmann::json scoreboard_json(const Scoreboard& board);

}  // namespace dlbkit
