#pragma once
/// \file
/// The load picture: every node's load over time as a heat map (nodes up, time across),
/// drawn by gnuplot from a LoadHistory, for a glance at how a strategy spreads work.
/// `dlbkit simulate ... --plot-load out.png`; docs/timeline.md.

#include <dlbkit/sim/load_history.hpp>

#include <string>

namespace dlbkit {

/// Whether a gnuplot program is on the PATH (checked before a long run that needs it).
bool gnuplot_installed();

/// Writes `png` from `history` (finished), with `title` above it; the data go to
/// `png`.csv and the script to `png`.gp beside it. Throws std::runtime_error when gnuplot
/// fails, InputError when a file cannot be written.
void plot_load(const LoadHistory& history, const std::string& png, const std::string& title);

}  // namespace dlbkit
