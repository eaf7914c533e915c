// dlbkit simulate.

#include "commands.hpp"
#include "progress_line.hpp"
#include "simulation_inputs.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/io/gnuplot.hpp>
#include <dlbkit/runtime/detail/distributed_engine.hpp>
#include <dlbkit/sim/load_picture.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/load_history.hpp>
#include <dlbkit/sim/timeline_observer.hpp>

#include <cstdlib>
#include <fmt/format.h>
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
  fmt::print("  optimal              {:.4f} s   (total work / {})\n", r.optimal,
             s.speeds.empty() ? "N" : "total speed");
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
    SimulationInputs in;
    std::string strategy, workload = "artificial";
    std::vector<std::string> params;
    long long granularity = 0;
    std::string timeline, timeline_nodes, plot_load, speeds, threads;
    bool json = false, per_node = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("-s,--strategy", o->strategy, "strategy name (dlbkit list strategies)")->required();
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  cmd->add_option("-w,--workload", o->workload, "workload name (dlbkit list workloads); trace:PATH replays a run recorded by dlbkit run --record")->capture_default_str();
  auto* granularity =
      cmd->add_option("-g,--granularity", o->granularity, "tasks per node: the workload's granularity parameter");
  add_simulation_inputs(*cmd, o->in);
  auto* speeds = cmd->add_option("--speeds", o->speeds,
                                 "each node's speed, S0,S1,... (one per node), or cycle:S0,...,Sk-1 (node v at speed "
                                 "S[v mod k]): a node of speed S spends 1/S of the time on its work and messages "
                                 "(docs/simulator.md)");
  auto* threads = cmd->add_option(
      "--threads", o->threads,
      fmt::format("threads to simulate on, with the same result as on one (docs/simulator.md, \"Parallel windows\"); "
                  "default: every core from {} nodes on, else 1",
                  kThreadsFrom));
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  cmd->add_flag("--per-node", o->per_node, "with --json: list each node's busy, overhead and idle time")
      ->needs("--json");
  auto* timeline = cmd->add_option("--timeline", o->timeline,
                                   "write the strategy's run as a timeline (Chrome trace JSON, for Perfetto) to this "
                                   "file: docs/timeline.md");
  cmd->add_option("--timeline-nodes", o->timeline_nodes,
                  "nodes the timeline records: all, or a list such as 0-7,12 (default: the first 64)")
      ->needs(timeline);
  cmd->add_option("--plot-load", o->plot_load,
                  "draw every node's load over time as a heat map to this PNG file (needs gnuplot)");
  return [o, granularity, speeds, threads] {
    auto wparams = assignments(o->in.workload_params, "--workload-param");
    if (granularity->count() > 0) {
      if (wparams.count("granularity")) throw InputError("granularity is given both by --granularity and --workload-param");
      wparams["granularity"] = std::to_string(o->granularity);
    }
    if (!o->plot_load.empty() && !gnuplot_installed())
      throw InputError(fmt::format("--plot-load '{}': gnuplot is not installed; accepted: with gnuplot on the PATH "
                                   "(Debian package gnuplot-nox)",
                                   o->plot_load));
    if (!o->plot_load.empty()) AtomicFile probe(o->plot_load);  // an unwritable picture before the run; leaves nothing
    if (speeds->count() > 0) o->in.values.speeds = o->speeds;
    if (threads->count() > 0) o->in.values.threads = o->threads;
    ExperimentSetup setup =
        experiment_setup(o->in, o->strategy, assignments(o->params, "--param"), o->workload, std::move(wparams));
    // Under Open MPI's launcher, an eager limit of 64 KB sends a window's log (about 10 KB a
    // rank) through the shared-memory buffers rather than by a single copy, a system call a
    // message: 0.90 to 0.94 of the wall time on 2 ranks. A value the user gave (mpirun --mca,
    // the environment) stays.
    if (std::getenv("OMPI_COMM_WORLD_SIZE") != nullptr) setenv("OMPI_MCA_btl_vader_eager_limit", "65536", 0);
    // Under an MPI launcher the processes simulate the run together, a partition of the
    // nodes each, and rank 0 prints it (docs/simulator.md, "Across processes").
    const detail::ResolvedEngine launch = detail::resolve_engine("auto", Communicator{});
    const int rank = launch.mpi ? launch.mpi->rank() : 0;
    if (launch.mpi) {
      if (!o->timeline.empty() || !o->plot_load.empty())
        throw InputError(fmt::format("{} with {} processes of an MPI launcher; accepted: a run on one process, "
                                     "on any number of --threads",
                                     !o->timeline.empty() ? "--timeline" : "--plot-load", launch.mpi->size()));
      setup.processes = launch.mpi.get();
    }
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
      ProgressLine progress(rank == 0, "dlbkit simulate");
      progress.phase(setup.strategy.name(), simulation_progress(true));
      result = run_experiment(setup);
    }
    if (rank != 0) return 0;
    if (setup.processes != nullptr && !result.balanced.one_thread_because.empty())
      fmt::print(stderr, "dlbkit: note: simulated whole in each of the {} processes: {}\n", setup.processes->size(),
                 result.balanced.one_thread_because);
    else if (threads->count() > 0 && !result.balanced.one_thread_because.empty())
      fmt::print(stderr, "dlbkit: note: simulated on one thread: {}\n", result.balanced.one_thread_because);
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
