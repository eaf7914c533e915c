// dlbkit phases: a phase strategy on an iterative workload, over one phase or several, on
// one phase of a vt data set (--data), written back with --write, or on every phase of one in
// turn (--data --replay).

#include "commands.hpp"
#include "progress_line.hpp"
#include "vt_phases.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/topology/topology.hpp>
#include <dlbkit/workloads/phase_workloads.hpp>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

namespace {

struct Options {
  std::string strategy, workload, topology, data, write;
  std::int64_t phase = 0;
  std::vector<std::string> params, workload_params, cost_params;
  std::string cost = "ipsc2", migration_cost, migration_byte_cost = "0ns";
  std::string memory_bound = "inf", threshold = "inf";
  long long phases = 1, every = 1;
  std::uint64_t seed = 1;
  bool json = false, replay = false;
};

/// null where a figure has no value (no balancing step ran), never NaN.
nlohmann::json figure(double x, bool defined) { return defined ? nlohmann::json(x) : nlohmann::json(nullptr); }

nlohmann::json to_json(const nlohmann::json& inputs, const PhaseRun& run, bool has_memory) {
  // Over the balancing steps: the imbalances are means, the rest sums (max for memory).
  double before = 0, after = 0, max_memory = 0, bytes = 0;
  std::uint64_t rounds = 0, messages = 0, unplaced = 0;
  SimTime protocol = 0, migration = 0;
  for (const PhaseStep& s : run.steps)
    if (s.rebalanced) {
      before += s.rebalanced->before.imbalance;
      after += s.rebalanced->after.imbalance;
      max_memory = std::max(max_memory, s.rebalanced->after.max_memory);
      bytes += s.rebalanced->bytes_migrated;
      rounds += s.rebalanced->rounds;
      messages += s.rebalanced->messages;
      unplaced += s.rebalanced->unplaced.size();
      protocol += s.rebalanced->protocol_time;
      migration += s.rebalanced->migration_time;
    }
  const bool balanced = run.balancing_steps > 0;
  const double steps = static_cast<double>(std::max<std::size_t>(run.balancing_steps, 1));
  nlohmann::json j{{"inputs", inputs},
                   {"imbalance_before", figure(before / steps, balanced)},
                   {"imbalance_after", figure(after / steps, balanced)},
                   {"objects_migrated", run.objects_migrated},
                   {"bytes_migrated", bytes},
                   {"unplaced_objects", unplaced},
                   {"wall_seconds", run.wall_seconds},
                   {"rounds", rounds},
                   {"messages", messages},
                   {"protocol_seconds", to_seconds(protocol)},
                   {"migration_seconds", to_seconds(migration)},
                   {"balancing_steps", run.balancing_steps},
                   {"application_seconds", run.application_seconds},
                   {"unbalanced_seconds", run.unbalanced_seconds},
                   {"balancing_seconds", run.balancing_seconds},
                   {"mean_phase_seconds",
                    (run.application_seconds + run.balancing_seconds) / static_cast<double>(run.steps.size())}};
  if (has_memory) j["max_memory_after"] = figure(max_memory, balanced);
  nlohmann::json phases = nlohmann::json::array();
  for (std::size_t k = 0; k < run.steps.size(); ++k) {
    const PhaseStep& s = run.steps[k];
    nlohmann::json p{{"phase", k},
                     {"max_load", s.figures.max_load},
                     {"imbalance", s.figures.imbalance},
                     {"crossing_bytes", s.figures.crossing_bytes},
                     {"unbalanced_max_load", s.unbalanced_max_load},
                     {"balanced", s.rebalanced.has_value()}};
    if (s.rebalanced) {
      const Rebalanced& r = *s.rebalanced;
      p["imbalance_after"] = r.after.imbalance;
      p["max_load_after"] = r.after.max_load;
      p["crossing_bytes_after"] = r.after.crossing_bytes;
      p["objects_migrated"] = r.objects_migrated;
      p["unplaced_objects"] = r.unplaced.size();
      p["nodes_over_memory_bound"] = r.nodes_over_memory_bound;
      if (has_memory) p["max_memory_after"] = r.after.max_memory;
      p["rounds"] = r.rounds;
      p["messages"] = r.messages;
      p["protocol_seconds"] = to_seconds(r.protocol_time);
      p["migration_seconds"] = to_seconds(r.migration_time);
      p["wall_seconds"] = r.wall_seconds;
      if (r.flow_error) p["flow_error"] = *r.flow_error;
    }
    phases.push_back(std::move(p));
  }
  j["phases"] = std::move(phases);
  return j;
}

void print_report(const std::string& title, const PhaseRun& run, bool has_memory) {
  fmt::print("{}\n\n", title);
  fmt::print("  {:>5}  {:>10}  {:>9}  {:>9}  {:>9}  {:>11}  {:>11}\n", "phase", "max load s", "I before", "I after",
             "migrated", "protocol s", "decided in");
  for (std::size_t k = 0; k < run.steps.size(); ++k) {
    const PhaseStep& s = run.steps[k];
    if (!s.rebalanced) {
      fmt::print("  {:>5}  {:>10.4f}  {:>9.3f}\n", k, s.figures.max_load, s.figures.imbalance);
      continue;
    }
    const Rebalanced& r = *s.rebalanced;
    fmt::print("  {:>5}  {:>10.4f}  {:>9.3f}  {:>9.3f}  {:>9}  {:>11.6f}  {:>9.3f} s\n", k, s.figures.max_load,
               s.figures.imbalance, r.after.imbalance, r.objects_migrated, to_seconds(r.protocol_time),
               r.wall_seconds);
    if (!r.unplaced.empty() || r.nodes_over_memory_bound > 0)
      fmt::print("  {:>5}  memory bound: {} objects found no room, {} nodes above the bound\n", "", r.unplaced.size(),
                 r.nodes_over_memory_bound);
    if (has_memory) fmt::print("  {:>5}  max memory after {:.0f} bytes\n", "", r.after.max_memory);
  }
  fmt::print("\n  application time     {:.4f} s   (sum of the phases' max loads)\n", run.application_seconds);
  fmt::print("  never balanced       {:.4f} s\n", run.unbalanced_seconds);
  fmt::print("  balancing (sim.)     {:.4f} s   ({} steps: protocol and migrations)\n", run.balancing_seconds,
             run.balancing_steps);
  fmt::print("  objects migrated     {}\n", run.objects_migrated);
  fmt::print("  decided in           {:.3f} s of this machine's time\n", run.wall_seconds);
}

}  // namespace

Run add_phases(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "phases",
      "Balance persistent objects between the phases of an iterative workload, or a phase of vt's LB data files "
      "(docs/phases.md)");
  auto o = std::make_shared<Options>();
  cmd->add_option("-s,--strategy", o->strategy, "phase strategy (dlbkit list phase-strategies)")->required();
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  auto* workload = cmd->add_option("-w,--workload", o->workload,
                                   "iterative workload (dlbkit list phase-workloads); or use --data");
  auto* workload_params =
      cmd->add_option("--workload-param", o->workload_params, "workload parameter name=value (repeatable)");
  auto* data = cmd->add_option("--data", o->data,
                               "vt's LB data files STEM.0.json, STEM.1.json, ... (one per rank, plain or brotli)");
  auto* phase = cmd->add_option("--phase", o->phase, "with --data: the phase id to balance (default: the first)");
  auto* write = cmd->add_option("--write", o->write,
                                "with --data: write the balanced phase as vt's LB data files STEM2.R.json");
  auto* replay = cmd->add_flag("--replay", o->replay,
                               "with --data: every phase of the data in turn, its measured loads under the mapping the "
                               "strategy keeps (--every, --threshold apply)");
  cmd->add_option("-t,--topology", o->topology,
                  "the nodes and their network, e.g. torus:8x8 (with --data, default complete:RANKS)");
  // Options of a run of several phases of a workload.
  const std::vector<CLI::Option*> run_options{
      cmd->add_option("--phases", o->phases, "phases to run")->check(integer_in(1, 1'000'000))->capture_default_str(),
      cmd->add_option("--every", o->every, "balance after every k-th phase")
          ->check(integer_in(1, 1'000'000))
          ->capture_default_str(),
      cmd->add_option("--threshold", o->threshold,
                      "also balance after any phase whose imbalance (max / mean - 1) exceeds this; inf: never")
          ->capture_default_str()};
  cmd->add_option("--memory-bound", o->memory_bound, "most bytes a node may hold; inf: no bound")
      ->capture_default_str();
  cmd->add_option("-c,--cost", o->cost,
                  "cost model of the protocol's messages (dlbkit list cost-models), or file:PATH")
      ->capture_default_str();
  cmd->add_option("--cost-param", o->cost_params, "override a cost model field, e.g. latency=5us (repeatable)");
  cmd->add_option("--migration-cost", o->migration_cost,
                  "time to migrate one object, e.g. 50us (default: the cost model's per_task)");
  cmd->add_option("--migration-byte-cost", o->migration_byte_cost,
                  "time per byte migrated, e.g. 0.1ns (an object's serialized or footprint bytes)")
      ->capture_default_str();
  cmd->add_option("--seed", o->seed, "random seed: the same seed gives the same run")->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  return [o, workload, workload_params, data, phase, write, replay, run_options] {
    if ((workload->count() > 0) == (data->count() > 0))
      throw InputError(fmt::format("{}; accepted: exactly one of -w/--workload NAME and --data STEM",
                                   workload->count() > 0 ? "both -w/--workload and --data are given"
                                                         : "no workload: neither -w/--workload nor --data is given"));
    const bool from_data = data->count() > 0;
    // --replay runs the data's phases: --every and --threshold apply, --phases is theirs.
    std::vector<CLI::Option*> workload_only{run_options[0], workload_params};
    if (!o->replay) workload_only.insert(workload_only.end(), run_options.begin() + 1, run_options.end());
    for (const CLI::Option* option : workload_only)
      if (from_data && option->count() > 0)
        throw InputError(fmt::format("{} is given with --data; accepted: {} with -w/--workload{} (--data balances "
                                     "one phase{})",
                                     option->get_name(), option->get_name(),
                                     option == run_options[0] ? "" : " or --data --replay",
                                     option == run_options[0] ? ", --replay every phase of the data" : ""));
    if (o->replay && (phase->count() > 0 || write->count() > 0))
      throw InputError(fmt::format("{} is given with --replay; accepted: --replay, which runs every phase, without "
                                   "--phase and --write",
                                   phase->count() > 0 ? "--phase" : "--write"));
    for (const CLI::Option* option : {phase, write, replay})
      if (!from_data && option->count() > 0)
        throw InputError(fmt::format("{} is given without --data; accepted: {} with --data STEM only",
                                     option->get_name(), option->get_name()));
    if (!from_data && o->topology.empty())
      throw InputError("no topology: -t/--topology is not given; accepted: -t SPEC with -w/--workload, e.g. torus:8x8");

    const PhaseStrategyChoice strategy =
        builtin_phase_strategies().configure(o->strategy, assignments(o->params, "--param"));
    std::optional<PhaseWorkloadChoice> workload_choice;
    std::optional<VtDataSet> vt_data;
    const VtPhase* vt = nullptr;
    std::unique_ptr<PhaseWorkload> input;
    if (from_data) {
      vt_data = read_data(o->data, "dlbkit phases");
      vt = &data_phase(*vt_data, phase->count() > 0 ? std::optional<std::int64_t>(o->phase) : std::nullopt);
      if (o->replay) {
        input = std::make_unique<DataReplay>(*vt_data);
        o->phases = static_cast<long long>(vt_data->phases.size());
      } else {
        input = std::make_unique<DataPhase>(vt->phase);
      }
    } else {
      workload_choice =
          builtin_phase_workloads().configure(o->workload, assignments(o->workload_params, "--workload-param"));
      input = workload_choice->create();
    }
    const Topology topology = vt_data ? data_topology(o->topology, *vt_data) : parse_topology(o->topology);
    PhaseRunOptions options{.phases = static_cast<std::size_t>(o->phases),
                            .every = static_cast<std::size_t>(o->every),
                            .threshold = non_negative_or_inf(o->threshold, "--threshold")};
    options.rebalance = rebalance_options(o->cost, o->cost_params, o->migration_cost, o->migration_byte_cost,
                                          o->memory_bound, o->seed);
    const RebalanceOptions& ro = options.rebalance;
    std::atomic<std::size_t> done{0};
    options.on_phase = [&done](std::size_t phases) { done = phases; };
    PhaseRun run;
    {
      ProgressLine progress(true, "dlbkit phases");
      progress.phase(strategy.name(), [&done, o] { return fmt::format("phase {} of {}", done.load(), o->phases); });
      run = run_phases(strategy, *input, topology, options);
    }
    if (write->count() > 0) write_vt_data(*vt_data, vt->id, run.last.node_of, o->write);
    const bool has_memory = run.last.has_memory;
    if (o->json) {
      nlohmann::json inputs{{"strategy", strategy.name()}, {"params", strategy.params.to_json()}};
      if (vt) {
        inputs.update({{"data", o->data},
                       {"phase", o->replay ? nlohmann::json(nullptr) : nlohmann::json(vt->id)},
                       {"replay", o->replay},
                       {"phases", o->phases},
                       {"every", o->every},
                       {"threshold", o->threshold},
                       {"ranks", vt_data->ranks},
                       {"communications", vt->phase.communications.size()},
                       {"other_communications", vt->other_communications},
                       {"unmatched_communications", vt->unmatched_communications},
                       {"write", write->count() > 0 ? nlohmann::json(o->write) : nlohmann::json(nullptr)}});
      } else {
        inputs.update({{"workload", workload_choice->name()},
                       {"workload_params", workload_choice->params.to_json()},
                       {"phases", o->phases},
                       {"every", o->every},
                       {"threshold", o->threshold}});
      }
      inputs.update({{"topology", topology.spec()},
                     {"nodes", topology.size()},
                     {"objects", run.last.objects.size()},
                     {"memory_bound", o->memory_bound},
                     {"cost", ro.cost.to_json()},
                     {"migration_cost", exact_duration(ro.migration.per_object)},
                     {"migration_byte_cost", o->migration_byte_cost},
                     {"seed", o->seed}});
      fmt::print("{}\n", json_text(to_json(inputs, run, has_memory)));
    } else {
      const std::string input_name = o->replay ? fmt::format("vt data {}, its {} phases", o->data, o->phases)
                                     : vt      ? fmt::format("vt data {} phase {}", o->data, vt->id)
                                        : fmt::format("workload {}", workload_choice->name());
      print_report(fmt::format("{} on {}, {} ({} objects), cost model {}, seed {}", strategy.name(), topology.spec(),
                               input_name, run.last.objects.size(), ro.cost.name, o->seed),
                   run, has_memory);
      if (write->count() > 0)
        fmt::print("  written              {}.0.json to {}.{}.json\n", o->write, o->write, vt_data->ranks - 1);
    }
    return 0;
  };
}

}  // namespace dlbkit::cli
