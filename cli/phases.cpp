// dlbkit phases: a phase strategy on an iterative workload, over one phase or several, on
// one phase of a vt data set (--data) or a Charm++ LB dump (--charm-dump), written as vt data with
// --write, or on every phase of a vt data set in turn (--data --replay); or the problem of an LBAF
// configuration (--lbaf-config). The run is phases_command()'s; this prints its result.

#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/workloads/phases_command.hpp>

#include <atomic>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

namespace {

// The options' texts; PhasesInputs takes the options given.
struct PhasesOptions {
  PhasesInputs in;
  std::string workload, data, charm_dump, write, threshold = "inf", time_limit = "60", memory_bound = "inf",
      lbaf_config, work_model = "load", speeds, devices, offload;
  std::int64_t phase = 0;
  long long phases = 1, every = 1, memory_group = 1;
  std::vector<std::string> params, workload_params, cost_params;
  bool json = false;
};

void print_optimum(const MilpResult& o, const PhaseFigures& after) {
  if (!o.found) {
    fmt::print("  {:>5}  optimum: {}\n", "",
               o.infeasible ? "no mapping keeps every node (memory group) within the memory bound"
                            : "no mapping found within the time limit");
    return;
  }
  fmt::print("  {:>5}  optimum: max load {:.4f} s, I {:.3f}, {} migrated in {:.3f} s{}\n", "", o.max_load,
             after.mean_load > 0 ? o.max_load / after.mean_load - 1 : 0.0, o.objects_migrated, o.wall_seconds,
             o.optimal ? (o.migrations_minimal ? " (proven)" : " (max load proven; migrations: out of time)")
                       : fmt::format(" (out of time: at most {:.2f}% above the best)",
                                     100 * (o.max_load / o.max_load_lower_bound - 1)));
}

void print_report(const std::string& title, const PhaseRunResult& run, bool has_memory,
                  const std::vector<DevicePhase>& devices) {
  fmt::print("{}\n\n", title);
  fmt::print("  {:>5}  {:>10}  {:>9}  {:>9}  {:>9}  {:>9}  {:>11}  {:>11}\n", "phase", "max load s", "I before",
             "I after", "I bound", "migrated", "protocol s", "decided in");
  for (std::size_t k = 0; k < run.steps.size(); ++k) {
    const PhaseStep& s = run.steps[k];
    if (!s.rebalanced) {
      fmt::print("  {:>5}  {:>10.4f}  {:>9.3f}\n", k, s.figures.max_load, s.figures.imbalance);
      continue;
    }
    const Rebalanced& r = *s.rebalanced;
    const char* at_bound = !r.at_lower_bound           ? ""
                           : r.lower_bound_on_clusters ? "  at the bound: best possible for whole clusters"
                                                       : "  at the bound: best possible";
    fmt::print("  {:>5}  {:>10.4f}  {:>9.3f}  {:>9.3f}  {:>9.3f}  {:>9}  {:>11.6f}  {:>9.3f} s{}\n", k,
               s.figures.max_load, s.figures.imbalance, r.after.imbalance, r.imbalance_lower_bound, r.objects_migrated,
               to_seconds(r.protocol_time), r.wall_seconds, at_bound);
    if (r.optimum) print_optimum(*r.optimum, r.after);
    if (!r.unplaced.empty() || r.nodes_over_memory_bound > 0)
      fmt::print("  {:>5}  memory bound: {} objects found no room, {} nodes above the bound\n", "", r.unplaced.size(),
                 r.nodes_over_memory_bound);
    if (has_memory) fmt::print("  {:>5}  max memory after {:.0f} bytes\n", "", r.after.max_memory);
    if (r.max_group_memory_after)
      fmt::print("  {:>5}  max group memory after {:.0f} bytes\n", "", *r.max_group_memory_after);
    if (r.max_work_after)
      fmt::print("  {:>5}  max work {:.4f} before, {:.4f} after\n", "", *r.max_work_before, *r.max_work_after);
    if (!devices.empty())
      fmt::print("  {:>5}  devices: time {:.4f} s before, {:.4f} s after, bound {:.4f} s\n", "", devices[k].time,
                 *devices[k].time_after, devices[k].bound);
  }
  if (run.communication_seconds > 0) {
    fmt::print("\n  application time     {:.4f} s   (sum of the phases' max loads and communication)\n",
               run.application_seconds);
    fmt::print("  communication        {:.4f} s   (the messages between nodes, priced by the cost model)\n",
               run.communication_seconds);
  } else {
    fmt::print("\n  application time     {:.4f} s   (sum of the phases' max loads)\n", run.application_seconds);
  }
  if (!devices.empty()) {
    double time = 0, bound = 0;
    for (const DevicePhase& d : devices) {
      time += d.time;
      bound += d.bound;
    }
    fmt::print("  under the devices    {:.4f} s   (sum of the phases' busiest nodes in the devices model; bound "
               "{:.4f} s)\n",
               time, bound);
  }
  fmt::print("  never balanced       {:.4f} s\n", run.unbalanced_seconds);
  fmt::print("  balancing (sim.)     {:.4f} s   ({} steps: protocol and migrations)\n", run.balancing_seconds,
             run.balancing_steps);
  fmt::print("  objects migrated     {}\n", run.objects_migrated);
  if (run.objects_created + run.objects_destroyed > 0)
    fmt::print("  objects created      {}, destroyed {} (between phases; not migrations)\n", run.objects_created,
               run.objects_destroyed);
  fmt::print("  decided in           {:.3f} s of this machine's time\n", run.wall_seconds);
}

}  // namespace

Run add_phases(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "phases",
      "Balance persistent objects between the phases of an iterative workload, or a phase of vt's LB data files "
      "or of a Charm++ LB dump (docs/phases.md)");
  auto o = std::make_shared<PhasesOptions>();
  cmd->add_option("-s,--strategy", o->in.strategy, "phase strategy (dlbkit list phase-strategies)");
  auto* lbaf_config = cmd->add_option(
      "--lbaf-config", o->lbaf_config,
      "LBAF's YAML configuration: its data, phase, algorithm (as tempered), memory bound and group; the other options "
      "given override it (docs/phases.md)");
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  auto* workload = cmd->add_option("-w,--workload", o->workload,
                                   "iterative workload (dlbkit list phase-workloads); or use --data");
  cmd->add_option("--workload-param", o->workload_params, "workload parameter name=value (repeatable)");
  auto* data = cmd->add_option("--data", o->data,
                               "vt's LB data files STEM.0.json, STEM.1.json, ... (one per rank, plain or brotli)");
  auto* charm_dump = cmd->add_option("--charm-dump", o->charm_dump,
                                     "or a Charm++ +LBDump file (one load-balancing step; docs/phases.md)");
  auto* phase = cmd->add_option("--phase", o->phase, "with --data: the phase id to balance (default: the first)");
  auto* write = cmd->add_option("--write", o->write,
                                "with --data or --charm-dump: write the balanced phase as vt's LB data files "
                                "STEM2.R.json");
  cmd->add_flag("--replay", o->in.replay,
                "with --data: every phase of the data in turn, its measured loads under the mapping the "
                "strategy keeps (--every, --threshold apply)");
  cmd->add_option("-t,--topology", o->in.topology,
                  "the nodes and their network, e.g. torus:8x8 (with --data, default complete:RANKS)");
  auto* speeds = cmd->add_option("--speeds", o->speeds,
                                 "each node's speed, S0,S1,... or cycle:S0,... (node v at S[v mod k]) (> 0: a load of 1 takes 1/S "
                                 "on a node of speed S); "
                                 "the strategies that weigh speeds balance times (docs/phases.md)");
  auto* devices = cmd->add_option("--devices", o->devices,
                                  "each node's device speedup, S0,S1,... or S*N for N nodes alike (0: no device): "
                                  "each mapping judged in the devices model (docs/phases.md)");
  auto* offload = cmd->add_option("--offload", o->offload,
                                  "with --devices: the share of every object's load a device can run, in [0, 1] "
                                  "(default 1)");
  cmd->add_flag("--device-blind", o->in.device_blind,
                "with --devices: the strategies see the nodes' speeds alone, not their speeds with the devices");
  // Options of a run of several phases of a workload.
  auto* phases =
      cmd->add_option("--phases", o->phases, "phases to run")->check(integer_in(1, 1'000'000))->capture_default_str();
  auto* every = cmd->add_option("--every", o->every, "balance after every k-th phase")
                    ->check(integer_in(1, 1'000'000))
                    ->capture_default_str();
  auto* threshold =
      cmd->add_option("--threshold", o->threshold,
                      "also balance after any phase whose imbalance (max / mean - 1) exceeds this; inf: never")
          ->capture_default_str();
  RebalanceInputs& rebalance = o->in.rebalance;
  auto* memory_bound =
      cmd->add_option("--memory-bound", o->memory_bound, "most bytes a node may hold; inf: no bound")
          ->capture_default_str();
  auto* memory_group =
      cmd->add_option("--memory-group", o->memory_group,
                      "the memory bound holds for each K consecutive nodes together (LBAF's ranks_per_node: ranks "
                      "that share a machine's memory)")
          ->capture_default_str();
  auto* work_model = cmd->add_option("--work-model", o->work_model,
                                     "what the criteria weigh: load, or LBAF's alpha x load + beta x max(sent, "
                                     "received bytes) + gamma + delta x homing bytes (+ intra x bytes staying on "
                                     "the node, vt's) as beta=B,gamma=G,delta=D,intra=I")
                         ->capture_default_str();
  cmd->add_option("-c,--cost", rebalance.cost,
                  "cost model of the protocol's messages (dlbkit list cost-models), or file:PATH")
      ->capture_default_str();
  cmd->add_option("--cost-param", o->cost_params, "override a cost model field, e.g. latency=5us (repeatable)");
  cmd->add_option("--migration-cost", rebalance.migration_cost,
                  "time to migrate one object, e.g. 50us (default: the cost model's per_task)");
  cmd->add_option("--migration-byte-cost", rebalance.migration_byte_cost,
                  "time per byte migrated, e.g. 0.1ns (an object's serialized or footprint bytes; default: the cost "
                  "model's per_byte)");
  cmd->add_option("--seed", o->in.seed, "random seed: the same seed gives the same run")->capture_default_str();
  cmd->add_flag("--optimal", o->in.optimal,
                "also solve the exact reference of each balancing step (a MILP; small phases only)");
  auto* time_limit = cmd->add_option("--time-limit", o->time_limit, "with --optimal: seconds for each MILP")
                         ->capture_default_str();
  cmd->add_flag("--as-protocol", o->in.as_protocol,
                "run the strategy's rank protocol, each node an agent, and price its own rounds: the step as the MPI "
                "plan API runs it (tempered, diffusion)");
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  return [o, workload, data, charm_dump, phase, write, phases, every, threshold, time_limit, memory_bound, memory_group,
          work_model, lbaf_config, speeds, devices, offload] {
    PhasesInputs in = o->in;
    in.params = assignments(o->params, "--param");
    in.workload_params = assignments(o->workload_params, "--workload-param");
    in.rebalance.cost_params = assignments(o->cost_params, "--cost-param");
    if (workload->count() > 0) in.workload = o->workload;
    if (data->count() > 0) in.data = o->data;
    if (charm_dump->count() > 0) in.charm_dump = o->charm_dump;
    if (phase->count() > 0) in.phase = o->phase;
    if (write->count() > 0) in.write = o->write;
    if (speeds->count() > 0) in.speeds = o->speeds;
    if (devices->count() > 0) in.devices = o->devices;
    if (offload->count() > 0) in.offload = o->offload;
    if (phases->count() > 0) in.phases = o->phases;
    if (every->count() > 0) in.every = o->every;
    if (threshold->count() > 0) in.threshold = o->threshold;
    if (time_limit->count() > 0) in.time_limit = o->time_limit;
    if (memory_bound->count() > 0) in.rebalance.memory_bound = o->memory_bound;
    if (memory_group->count() > 0) in.rebalance.memory_group = o->memory_group;
    if (work_model->count() > 0) in.rebalance.work_model = o->work_model;
    if (lbaf_config->count() > 0) in.lbaf_config = o->lbaf_config;

    PhasesResult result;
    {
      std::atomic<std::size_t> done{0}, total{0};
      ProgressLine progress(true, "dlbkit phases");
      result = phases_command(
          in, {.reading = [&progress](const std::string& stem) { progress.phase("reading " + stem); },
               .running =
                   [&](const std::string& strategy, std::size_t count) {
                     total = count;
                     progress.phase(strategy, [&done, &total] {
                       return fmt::format("phase {} of {}", done.load(), total.load());
                     });
                   },
               .phase_done = [&done](std::size_t count) { done = count; }});
    }
    if (in.lbaf_config)
      for (const auto& key : result.inputs["lbaf_config"]["ignored"])
        fmt::print(stderr, "ignored: {}\n", key.get<std::string>());
    for (const auto& warning : result.inputs.value("warnings", nlohmann::json::array()))
      fmt::print(stderr, "dlbkit: warning: {}\n", warning.get<std::string>());
    if (o->json) {
      fmt::print("{}\n", json_text(to_json(result)));
      return 0;
    }
    const nlohmann::json& j = result.inputs;
    const bool from_data = j.contains("data");  // given, or from --lbaf-config
    const std::string data = from_data ? j["data"].get<std::string>() : "";
    const std::string input_name =
        in.replay       ? fmt::format("vt data {}, its {} phases", data, j["phases"].get<std::size_t>())
        : from_data     ? fmt::format("vt data {} phase {}", data, j["phase"].get<std::int64_t>())
        : in.charm_dump ? fmt::format("Charm++ LB dump {}", *in.charm_dump)
                        : fmt::format("workload {}", j["workload"].get<std::string>());
    print_report(fmt::format("{} on {}, {} ({} objects), cost model {}, seed {}", j["strategy"].get<std::string>(),
                             j["topology"].get<std::string>(), input_name, result.run.last.objects.size(),
                             j["cost"]["name"].get<std::string>(), in.seed),
                 result.run, result.run.last.has_memory, result.devices);
    if (in.write)
      fmt::print("  written              {}.0.json to {}.{}.json\n", *in.write, *in.write,
                 j["ranks"].get<std::size_t>() - 1);
    return 0;
  };
}

}  // namespace dlbkit::cli
