// dlbkit simulate, dlbkit demo.

#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/workloads/builtin.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/io/atomic_file.hpp>
#include "reproduce/load_picture.hpp"
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/load_history.hpp>
#include <dlbkit/sim/timeline_observer.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

namespace {

std::string figure_or_undefined(double x, const std::string& reason) {
  return reason.empty() ? fmt::format("{:.3f}", x) : "undefined (" + reason + ")";
}

void print_report(const ExperimentSetup& s, const ExperimentResult& r) {
  const SimulationResult& b = r.balanced;
  fmt::print("{} on {}, workload {} ({}), cost model {}, seed {}{}\n\n", s.strategy.name(), s.topology.spec(),
             s.workload.name(), s.workload.params.to_string(), s.cost.name, s.seed,
             s.execution == Execution::fcfs ? "" : s.execution == Execution::lifo ? ", lifo" : ", processor sharing");
  if (!s.strategy.params.to_string().empty()) fmt::print("  strategy parameters  {}\n", s.strategy.params.to_string());
  fmt::print("  makespan             {:.4f} s\n", to_seconds(b.makespan));
  fmt::print("  optimal              {:.4f} s   (total work / N)\n", r.optimal);
  fmt::print("  NOBAL makespan       {:.4f} s\n", to_seconds(r.nobal.makespan));
  fmt::print("  speedup over NOBAL   {}\n", figure_or_undefined(r.speedup, r.speedup_undefined));
  fmt::print("  Pi (eq. 36)          {}\n", figure_or_undefined(r.pi, r.pi_undefined));
  fmt::print("  tasks                {}\n", b.tasks_completed);
  fmt::print("  tasks transferred    {}\n", b.tasks_transferred);
  std::string kinds;
  for (std::size_t k = 0; k < b.message_kinds.size(); ++k)
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", b.message_kinds[k], b.messages_by_kind[k]);
  fmt::print("  messages             {}   ({})\n", b.messages(), kinds);
  const NodeTimes times = node_times(b);
  fmt::print("  node time (mean)     busy {:.3f} s, overhead {:.3f} s, idle {:.3f} s\n", times.busy_mean,
             times.overhead_mean, times.idle_mean);
  fmt::print("  events               {} ({:.2f} M/s)\n", b.events,
             b.wall_seconds > 0 ? static_cast<double>(b.events) / b.wall_seconds / 1e6 : 0.0);
}

}  // namespace

Run add_simulate(CLI::App& app) {
  auto* cmd = app.add_subcommand("simulate", "Simulate one strategy on a workload, beside NOBAL on the same tasks");
  struct Options {
    std::string strategy, topology, workload = "artificial", cost = "ipsc2";
    std::vector<std::string> params, workload_params, cost_params;
    long long granularity = 0;
    std::string seed = "1", execution = "fcfs", timeline, timeline_nodes, plot_load;
    std::string max_events = std::to_string(SimulationConfig{}.event_limit), max_seconds = "0";
    bool json = false, per_node = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("-s,--strategy", o->strategy, "strategy name (dlbkit list strategies)")->required();
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  cmd->add_option("-t,--topology", o->topology, "topology spec, e.g. hypercube:5")->required();
  cmd->add_option("-w,--workload", o->workload, "workload name (dlbkit list workloads); trace:PATH replays a run recorded by dlbkit run --record")->capture_default_str();
  cmd->add_option("--workload-param", o->workload_params, "workload parameter name=value (repeatable)");
  auto* granularity =
      cmd->add_option("-g,--granularity", o->granularity, "tasks per node: the workload's granularity parameter");
  cmd->add_option("-c,--cost", o->cost, "cost model preset (dlbkit list cost-models), or file:PATH of a JSON cost model (dlbkit calibrate)")->capture_default_str();
  cmd->add_option("--cost-param", o->cost_params, "override a cost model field, e.g. latency=500us (repeatable)");
  cmd->add_option("--seed", o->seed, "random seed, 0 to 2^64-1: the same seed gives the same run")->capture_default_str();
  cmd->add_option("--execution", o->execution,
                  "how a node runs its tasks: fcfs (one at a time), processor_sharing (ps: time-shared) or lifo (one at "
                  "a time, newest first: a runtime worker's stack)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  cmd->add_flag("--per-node", o->per_node, "with --json: list each node's busy, overhead and idle time")
      ->needs("--json");
  auto* timeline = cmd->add_option("--timeline", o->timeline,
                                   "write the strategy's run as a timeline (Chrome trace JSON, for Perfetto) to this "
                                   "file: docs/timeline.md");
  cmd->add_option("--timeline-nodes", o->timeline_nodes,
                  "nodes the timeline records: all, or a list such as 0-7,12 (default: the first 64)")
      ->needs(timeline);
  cmd->add_option("--max-events", o->max_events,
                  "stop a run (the strategy's or NOBAL's) after this many events, with the figures so far")
      ->capture_default_str();
  cmd->add_option("--max-seconds", o->max_seconds,
                  "stop a run after this many seconds of host time, with the figures so far; 0: no limit")
      ->capture_default_str();
  cmd->add_option("--plot-load", o->plot_load,
                  "draw every node's load over time as a heat map to this PNG file (needs gnuplot)");
  return [o, granularity] {
    auto wparams = assignments(o->workload_params, "--workload-param");
    if (granularity->count() > 0) {
      if (wparams.count("granularity")) throw InputError("granularity is given both by --granularity and --workload-param");
      wparams["granularity"] = std::to_string(o->granularity);
    }
    std::string workload = o->workload;
    if (workload.starts_with("trace:")) {  // -w trace:PATH is -w trace --workload-param file=PATH
      if (wparams.count("file")) throw InputError("the trace file is given both by -w trace:PATH and --workload-param file");
      wparams["file"] = workload.substr(6);
      workload = "trace";
    }
    if (!o->plot_load.empty() && !gnuplot_installed())
      throw InputError(fmt::format("--plot-load '{}': gnuplot is not installed; accepted: with gnuplot on the PATH "
                                   "(Debian package gnuplot-nox)",
                                   o->plot_load));
    if (!o->plot_load.empty()) AtomicFile probe(o->plot_load);  // an unwritable picture before the run; leaves nothing
    ExperimentSetup setup{
        .topology = parse_topology(o->topology),
        .strategy = builtin_strategies().configure(o->strategy, assignments(o->params, "--param")),
        .workload = builtin_workloads().configure(workload, wparams),
        .cost = make_cost_model(o->cost, assignments(o->cost_params, "--cost-param")),
        .seed = parse_unsigned(o->seed, "--seed", std::numeric_limits<std::uint64_t>::max()),
        .event_limit = parse_unsigned(o->max_events, "--max-events", std::numeric_limits<std::uint64_t>::max()),
        .wall_seconds_limit = static_cast<double>(parse_unsigned(o->max_seconds, "--max-seconds", 1'000'000'000)),
        .execution = parse_execution(o->execution),
    };
    const std::string title = fmt::format("{} on {}, workload {}, simulated (cost model {}, seed {})",
                                          setup.strategy.name(), setup.topology.spec(), setup.workload.name(),
                                          setup.cost.name, setup.seed);
    std::unique_ptr<Timeline> trace;
    std::unique_ptr<TimelineObserver> tracer;
    if (!o->timeline.empty()) {
      trace = std::make_unique<Timeline>(o->timeline, title,
                                         timeline_selection(o->timeline_nodes, setup.topology.size()));
      tracer = std::make_unique<TimelineObserver>(*trace);
      setup.observers.push_back(tracer.get());
    }
    std::unique_ptr<LoadHistory> history;
    if (!o->plot_load.empty()) {
      history = std::make_unique<LoadHistory>(setup.topology.size());
      setup.observers.push_back(history.get());
    }
    ExperimentResult result;
    {
      ProgressLine progress(true, "dlbkit simulate");
      progress.phase(setup.strategy.name(), simulation_progress(true));
      result = run_experiment(setup);
    }
    // Every output is written before any takes its name: a failed one leaves none.
    if (tracer) {
      tracer->finish(result.balanced.makespan);
      trace->finish();
    }
    if (history) {
      history->finish(result.balanced.makespan);
      plot_load(*history, o->plot_load, title);
    }
    if (trace) trace->commit();
    if (o->json) fmt::print("{}\n", json_text(to_json(setup, result, o->per_node)));
    else print_report(setup, result);
    return 0;
  };
}

}  // namespace dlbkit::cli
