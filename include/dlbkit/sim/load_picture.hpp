#pragma once
/// \file
/// The load picture: every node's load over time as a heat map (nodes up, time across),
/// drawn by gnuplot from a LoadHistory, for a glance at how a strategy spreads work.
/// `dlbkit simulate ... --plot-load out.png`; docs/timeline.md.
///
/// ```
/// dlbkit::LoadHistory history(topology.size());  // an observer of the run, finished after it
/// dlbkit::plot_load(history, "out/load.png", "rid on hypercube:6");  // and out/load.png.csv, .gp
/// ```

#include <dlbkit/sim/load_history.hpp>

#include <string>

namespace dlbkit {

/// Writes `png` from `history` (finished), with `title` above it; the data go to
/// `png`.csv and the script to `png`.gp beside it. Throws std::runtime_error when gnuplot
/// fails, InputError when a file cannot be written.
void plot_load(const LoadHistory& history, const std::string& png, const std::string& title);

}  // namespace dlbkit
