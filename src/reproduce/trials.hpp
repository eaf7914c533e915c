#pragma once
/// \file
/// Running many independent simulations at once, and what reproductions share: CSV and
/// gnuplot output.

#include "reproduce/reproduction.hpp"
#include <dlbkit/sim/simulator.hpp>

#include <functional>
#include <string>
#include <vector>

namespace dlbkit {

/// Calls f(0) .. f(count - 1), `jobs` at a time on separate threads. Each call must be
/// independent (simulations are: they share no state). Exceptions propagate.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& f);

/// Every strategy on seeds 1 .. runs, `jobs` simulations at a time, each on its own tasks from
/// `workload`: results[strategy][seed - 1].
std::vector<std::vector<SimulationResult>> simulate_seeds(const Topology& topology,
                                                          const std::vector<StrategyChoice>& strategies,
                                                          const WorkloadChoice& workload, const CostModel& cost,
                                                          std::size_t runs, unsigned jobs);

/// One strategy run and NOBAL on the same tasks: makespans in seconds.
struct Trial {
  double makespan = 0;
  double nobal = 0;
  double optimal = 0;
  std::uint64_t tasks_transferred = 0;
  std::uint64_t messages = 0;
  double speedup() const { return nobal / makespan; }
  double pi() const { return (nobal - makespan) / (nobal - optimal); }  // WLR93 eq. (36)
};

/// `file` in the reproduction's output directory: options.out_dir + "/" + file.
std::string path_in(const ReproductionOptions& options, const std::string& file);

/// A number as the CSV files write it: six significant digits ("{:.6g}").
std::string csv_number(double x);

/// Writes a CSV file (header line, then rows); throws std::runtime_error naming the path.
void write_csv(const std::string& path, const std::vector<std::string>& header,
               const std::vector<std::vector<std::string>>& rows);

/// The start of every figure's gnuplot script: a PNG of width x height pixels written to
/// `png`, comma-separated data. `enhanced_text` lets labels use gnuplot's ^ and _ markup.
std::string gnuplot_png_header(const std::string& png, int width, int height, bool enhanced_text = false);

/// Runs gnuplot on `script` (which sets its own output file). Throws std::runtime_error
/// when gnuplot is missing (naming the Debian package gnuplot-nox) or fails.
void run_gnuplot(const std::string& script_path, const std::string& script);

/// Creates the directory (and parents); throws naming it when it cannot.
void make_directory(const std::string& path);

}  // namespace dlbkit
