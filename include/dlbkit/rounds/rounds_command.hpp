#pragma once
/// \file
/// One run of `dlbkit rounds` from its inputs as a user writes them: the round loop
/// (diffusion, sos, chebyshev, ops, dimension-exchange, gde), the stochastic model of Cyb89
/// (arrivals) and the Liquid model / NNA (lm, nna). The CLI and the Python module both call
/// rounds_command(), so that they accept and refuse the same values with the same messages
/// and report the same figures.
///
/// ```
/// dlbkit::RoundsResult r = dlbkit::rounds_command(
///     {.algorithm = "diffusion", .topology = "torus:8x8", .init = "spike", .until = "eps:1e-6"});
/// // r.json["steps"], r.json["final_error"] ...
/// ```

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The inputs as texts, as the CLI's options hold them (an empty text is an option not given);
/// errors name them as the CLI's options (--alpha, --until ...).
struct RoundsInputs {
  std::string algorithm, topology, init, until, alpha, lambda;
  std::string max_steps = "1000000", seed = "1";
  std::string arrivals, work = "0", warmup = "0", steps_per_period = "1";
  std::string condition, nna_transfer, nna_time, rounding;
  int threads = 1;
  bool integer = false;
  bool trace = false;         ///< the error norm (lm, nna: the loads) after every step, in the JSON
  bool record_loads = false;  ///< the load vector after every step, in RoundsResult::loads (not the stochastic model)
};

/// The most values record_loads keeps: (steps the run may take + 1) x nodes, 800 MB of doubles.
inline constexpr std::uint64_t kMaxRecordedLoads = 100'000'000;

struct RoundsResult {
  nlohmann::json json;       ///< the document of `dlbkit rounds --json`
  std::string kernel_name;   ///< "diffusion", "sos", "lm-c5" ... (the text report's first word)
  std::size_t nodes = 0;
  /// With record_loads: the loads after steps 0, 1, ..., steps, one row of `nodes` after another
  /// (lm: after every shift; nna: after every iteration).
  std::vector<double> loads;
};

/// Runs it. Throws InputError naming the first value refused, in the CLI's order, and for
/// record_loads when (the steps the run may take + 1) x nodes exceeds kMaxRecordedLoads.
RoundsResult rounds_command(const RoundsInputs& in);

}  // namespace dlbkit
