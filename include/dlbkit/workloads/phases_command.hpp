#pragma once
/// \file
/// One run of `dlbkit phases` from its inputs as a user writes them: a phase strategy on an
/// iterative workload over one phase or several, on one phase of a vt data set or a Charm++
/// LB dump (written as vt data with `write`), or on every phase of a vt data set in turn
/// (`replay`). The CLI and the Python module both call phases_command(), so that they accept
/// and refuse the same values with the same messages and report the same figures; to_json()
/// is the document of `dlbkit phases --json`.
///
/// ```
/// dlbkit::PhasesResult r = dlbkit::phases_command(
///     {.strategy = "greedy", .workload = "hotspot", .topology = "torus:8x8", .phases = 20});
/// // r.run.application_seconds, r.run.steps[k].rebalanced, dlbkit::to_json(r)["imbalance_after"] ...
/// ```

#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

/// The inputs as the CLI's options hold them; an empty optional (or map) is an option not
/// given. Errors name them as the CLI's options (--phases, --data ...).
struct PhasesInputs {
  std::string strategy;                        ///< a phase strategy (builtin_phase_strategies())
  std::map<std::string, std::string> params;   ///< its parameters, name -> value as text
  /// Exactly one of the three: an iterative workload (builtin_phase_workloads()) with its
  /// parameters, the stem of vt's LB data files STEM.0.json, STEM.1.json ..., or a Charm++
  /// +LBDump file (phases/charm_dump.hpp), balanced as vt data's one phase.
  std::optional<std::string> workload;
  std::map<std::string, std::string> workload_params;
  std::optional<std::string> data;
  std::optional<std::string> charm_dump;
  std::optional<std::int64_t> phase;  ///< with data: the phase id to balance (default: the first)
  /// With data or charm_dump: write the balanced phase as vt's LB data files STEM.R.json.
  std::optional<std::string> write;
  bool replay = false;                ///< with data: every phase in turn, under the mapping the strategy keeps
  std::string topology;  ///< required with a workload; with data or charm_dump, default complete:RANKS (PEs)
  /// Each node's speed, "S0,S1,..." (phases/speeds.hpp): every phase's node_alpha, over the
  /// data's rank_alpha where it has one. Not given: the input's (1 on every node for a workload).
  std::optional<std::string> speeds;
  /// Placement-dependent costs (phases/devices.hpp): each node's device speedup, "S0,S1,..." or
  /// "S*N" for N nodes alike (0: no device), and the share of every object's load a device can
  /// run (a number in [0, 1], default 1; only with devices). Every mapping is judged in the
  /// model (PhasesResult::devices). The strategies see each node's speed on the phase's mix of
  /// work (effective_alphas) as its node_alpha; with device_blind, the nodes' speeds alone.
  std::optional<std::string> devices, offload;
  bool device_blind = false;
  /// With a workload: phases to run (1 to 1000000, default 1). With workload or replay: balance
  /// after every k-th phase (default 1) and after any phase whose imbalance (max / mean - 1)
  /// exceeds the threshold (a number >= 0 or "inf", the default).
  std::optional<long long> phases, every;
  std::optional<std::string> threshold;
  RebalanceInputs rebalance;  ///< the cost model, migration costs and memory bound
  std::uint64_t seed = 1;
  /// Solve the exact reference beside each balancing step (phases/milp.hpp), with a time
  /// limit in seconds (a number > 0, default 60; only with optimal).
  bool optimal = false;
  std::optional<std::string> time_limit;
  /// Run the strategy as its rank protocol, each node an agent, and price the agents' rounds
  /// (phases/protocol_meter.hpp): the balancing step as the MPI plan API runs it.
  bool as_protocol = false;
  /// LBAF's YAML configuration (workloads/lbaf_config.hpp): the strategy (when empty), its
  /// parameters (each not given), the data, the phase and the memory bound (when not given).
  std::optional<std::string> lbaf_config;
};

/// Told how a run goes, for a progress line; each callback may be empty. `phase_done` is
/// called from the thread that called phases_command().
struct PhasesProgress {
  std::function<void(const std::string& stem)> reading;                     ///< before vt data is read
  std::function<void(const std::string& strategy, std::size_t phases)> running;  ///< before the run
  std::function<void(std::size_t done)> phase_done;                        ///< after each phase
};

/// A phase in the devices model: the busiest node's time under the mapping it ran with, and
/// under the balancing step's mapping when one ran after it; device_bound(), a time no mapping beats.
struct DevicePhase {
  double time = 0;
  std::optional<double> time_after;
  double bound = 0;
};

struct PhasesResult {
  nlohmann::json inputs;  ///< what ran, defaults resolved: the "inputs" of `dlbkit phases --json`
  PhaseRunResult run;
  std::vector<DevicePhase> devices;  ///< with devices: one per phase
};

/// Runs it (and writes the files of `write`). Throws InputError naming the first value
/// refused, in the CLI's order. The inputs' "lbaf_config" lists the file's keys left out.
PhasesResult phases_command(const PhasesInputs& in, const PhasesProgress& progress = {});

/// The document of `dlbkit phases --json`: the inputs, the figures summed (max for memory) or
/// averaged (the imbalances, imbalance_lower_bound among them) over the balancing steps, the
/// objects created and destroyed between phases, and one entry per phase (its objects, those
/// created and destroyed since the phase before; with `optimal`, each balancing step's exact
/// reference in "optimum"; with devices, its times in the model).
/// at_lower_bound: every step reached its bound. A figure without a value (no balancing step
/// ran) is null.
nlohmann::json to_json(const PhasesResult& result);

}  // namespace dlbkit
