#pragma once
/// \file
/// The round loop: applies a RoundKernel step after step to a load vector until a stop
/// rule holds, measuring after every step the error ||w - w_bar|| (Euclidean, w_bar the
/// uniform vector of the same total, Lemma 1) and max - min.
///
/// ```
/// auto cube = dlbkit::parse_topology("hypercube:16");
/// dlbkit::DiffusionKernel k(dlbkit::DiffusionMatrix::uniform(cube, 1.0 / 17));
/// std::vector<double> w = dlbkit::continuous_initial_load("spike", cube.size(), 1);
/// dlbkit::RoundLoopResult r = dlbkit::run_rounds(k, w, {.until = dlbkit::StopRule::parse("eps:1e-6")});
/// ```
/// With threads = 2 the nodes are split statically between two std::threads; the per-node
/// updates do not depend on the split and the sums are taken over fixed blocks in a fixed
/// order, so the results are bit-identical to threads = 1. One run uses only its arguments:
/// several may run at once.

#include <dlbkit/rounds/round_kernel.hpp>
#include <dlbkit/rounds/stop_rule.hpp>

#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

struct RoundLoopOptions {
  StopRule until;
  std::uint64_t max_steps = 1'000'000;  ///< the run stops here even if `until` is not met
  int threads = 1;                      ///< 1 or 2
  bool trace = false;                   ///< record the error norm after every step
  bool record_loads = false;            ///< keep the load vector after every step (steps + 1 rows of N)
};

struct RoundLoopResult {
  std::uint64_t steps = 0;
  bool stop_rule_met = false;
  double total_initial = 0;      ///< sum of w0 (exact for integer loads up to 2^53)
  double total_final = 0;
  double initial_error = 0;      ///< ||w0 - w_bar||
  double final_error = 0;        ///< ||w - w_bar|| at the end
  double relative_error = 0;     ///< final_error / initial_error (0 when w0 is balanced)
  double max_min_difference = 0; ///< max - min at the end
  std::vector<double> trace;     ///< ||w - w_bar|| after steps 0, 1, ..., steps (with trace)
  std::vector<double> loads;     ///< with record_loads: w after steps 0, 1, ..., steps, row after row
  double seconds = 0;            ///< wall time of the steps
};

/// Runs `kernel` on `load` (updated in place). Throws InputError for a load vector of the
/// wrong size or threads other than 1 or 2.
RoundLoopResult run_rounds(const RoundKernel& kernel, std::vector<double>& load, const RoundLoopOptions& options);
RoundLoopResult run_rounds(const RoundKernel& kernel, std::vector<std::int64_t>& load, const RoundLoopOptions& options);

/// {steps, stop_rule_met, max_min_difference, initial_error, final_error, relative_error,
///  total_initial, total_final, seconds, trace (when recorded)}.
nlohmann::json to_json(const RoundLoopResult& r);

}  // namespace dlbkit
