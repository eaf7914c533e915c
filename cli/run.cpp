// dlbkit run: an application executed for real by dlbkit::Runtime (threads, MPI or
// sequential engine), beside the sequential run of the same tasks (docs/runtime.md).

#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/core/registry.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <exception>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

namespace dlbkit::cli {

namespace {

struct Options {
  std::string app, strategy = "work_stealing", topology = "auto", engine = "auto", seed = "1";
  std::vector<std::string> app_params, params;
  std::string workers;
  std::string check_tasks = "1024", poll_interval = "20us", max_delay = "0";
  std::string record, timeline, timeline_nodes;
  bool json = false, no_sequential = false;
};

std::string result_text(const nlohmann::json& j) {
  std::string out;
  for (const auto& [k, v] : j.items()) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", k, json_text(v, -1));
  return out;
}

nlohmann::json workers_json(const RuntimeResult& r) {
  nlohmann::json out = nlohmann::json::array();
  for (const WorkerStats& w : r.workers)
    out.push_back({{"busy_seconds", to_seconds(w.busy)},
                   {"idle_seconds", to_seconds(w.idle)},
                   {"cpu_seconds", to_seconds(w.cpu)},
                   {"idle_cpu_seconds", to_seconds(w.idle_cpu)},
                   {"splits", w.splits},
                   {"tasks_executed", w.tasks_executed},
                   {"tasks_sent", w.tasks_sent},
                   {"tasks_received", w.tasks_received},
                   {"messages_sent", w.messages_sent}});
  return out;
}

void report(const Options& o, const AppChoice& app_choice, const StrategyChoice& strategy, const Topology& topology,
            const AnyApplication& app, const std::optional<RuntimeResult>& seq, const RuntimeResult& par) {
  const nlohmann::json result = app.report_bytes(par.result.data());
  if (o.json) {
    nlohmann::json messages = nlohmann::json::object();
    for (std::size_t k = 0; k < par.message_kinds.size(); ++k) messages[par.message_kinds[k]] = par.messages_by_kind[k];
    nlohmann::json j = {
        {"inputs",
         {{"app", app_choice.name()},
          {"app_params", app_choice.params.to_json()},
          {"strategy", strategy.name()},
          {"strategy_params", strategy.params.to_json()},
          {"topology", topology.spec()},
          {"topology_auto", o.topology == "auto"},
          {"engine", par.engine},
          {"workers", par.workers.size()},
          {"seed", o.seed},
          {"check_tasks", o.check_tasks},
          {"poll_interval", o.poll_interval}}},
        {"result", result},
        {"elapsed_seconds", par.elapsed_seconds},
        {"tasks_executed", par.tasks_executed()},
        {"tasks_moved", par.tasks_moved()},
        {"messages", messages},
        {"workers", workers_json(par)},
        {"warnings", par.warnings},
    };
    if (seq) {
      j["sequential"] = {{"elapsed_seconds", seq->elapsed_seconds},
                         {"cpu_seconds", to_seconds(seq->workers[0].cpu)},
                         {"result", app.report_bytes(seq->result.data())}};
      j["same_result"] = same_result(app, *seq, par);
      j["efficiency"] = efficiency(*seq, par);
      j["cpu_efficiency"] = cpu_efficiency(*seq, par);
    }
    fmt::print("{}\n", json_text(j));
    return;
  }
  fmt::print("{} on {}{}, app {} ({}), {} engine, {} workers, seed {}\n\n", strategy.name(), topology.spec(),
             o.topology == "auto" ? " (--topology auto)" : "", app_choice.name(), app_choice.params.to_string(),
             par.engine, par.workers.size(), o.seed);
  if (!strategy.params.to_string().empty()) fmt::print("  strategy parameters  {}\n", strategy.params.to_string());
  fmt::print("  result               {}\n", result_text(result));
  if (seq) {
    fmt::print("  same as sequential   {}\n", same_result(app, *seq, par) ? "yes" : "NO");
    fmt::print("  elapsed              {:.4f} s   (sequential {:.4f} s)\n", par.elapsed_seconds, seq->elapsed_seconds);
    fmt::print("  efficiency           {:.1f} %   (T_seq / (P T_par))\n", 100 * efficiency(*seq, par));
    fmt::print("  CPU efficiency       {:.1f} %   (sequential CPU / workers' CPU)\n", 100 * cpu_efficiency(*seq, par));
  } else {
    fmt::print("  elapsed              {:.4f} s\n", par.elapsed_seconds);
  }
  fmt::print("{}", format_figures(par));
}

// --workers as a number, 0 when not given.
std::uint64_t workers_of(const Options& o) { return o.workers.empty() ? 0 : parse_workers(o.workers); }

// The progress line's detail: the tasks the engine has executed so far.
std::function<std::string()> tasks_executed(const std::atomic<std::uint64_t>& executed) {
  return [&executed] { return fmt::format(", {} tasks executed", executed.load(std::memory_order_relaxed)); };
}

// --record, --timeline, --max-delay and the progress counter are the runtime's hooks.
RuntimeOptions runtime_options(const Options& o, SimTime max_delay, std::atomic<std::uint64_t>& executed) {
  return RuntimeOptions{.engine = o.engine,
                        .strategy = o.strategy,
                        .params = o.params,
                        .topology = o.topology,
                        .workers = workers_of(o),
                        .seed = parse_unsigned(o.seed, "--seed", std::numeric_limits<std::uint64_t>::max()),
                        .check_tasks = parse_check_tasks(o.check_tasks),
                        .poll_interval = parse_duration(o.poll_interval, "--poll-interval"),
                        .record = o.record,
                        .timeline = o.timeline,
                        .timeline_nodes = o.timeline_nodes,
                        .timeline_label = "app " + o.app,
                        .progress = &executed,
                        .max_delay = max_delay};
}

// A client of dlbkit::Runtime, which chooses the engine (from --engine, or the launcher),
// checks the strategy, the topology and the outputs, writes the warnings to stderr (so that
// --json output stays one document), and writes --record and --timeline. Under MPI every
// rank then sets up the application (whose input only it may fail at) before any runs, and
// every rank throws the error of the lowest rank that failed.
int run_here(const Options& o) {
  const SimTime max_delay = parse_duration(o.max_delay, "--max-delay");
  std::atomic<std::uint64_t> executed{0};
  Runtime runtime(runtime_options(o, max_delay, executed));
  const bool mpi = runtime.engine() == "mpi";
  std::optional<AppChoice> app_choice;
  std::unique_ptr<AnyApplication> app;
  std::exception_ptr error;
  try {
    app_choice = builtin_apps().configure(o.app, assignments(o.app_params, "--app-param"));
    app = app_choice->create();
  } catch (const std::exception&) {
    error = std::current_exception();
  }
  runtime.agree(error);

  const bool sequential = runtime.engine() == "sequential";
  std::optional<RuntimeResult> seq;
  RuntimeResult par;
  {
    ProgressLine progress(runtime.rank() == 0, "dlbkit run");
    progress.phase("sequential run");
    if (!o.no_sequential && !sequential && runtime.rank() == 0) seq = run_sequential(*app, runtime.topology().size());
    runtime.barrier();
    progress.phase(mpi ? "MPI engine (rank 0's count)" : runtime.engine() + " engine", tasks_executed(executed));
    par = runtime.run(*app);
  }
  if (runtime.rank() != 0) return 0;
  report(o, *app_choice, runtime.strategy(), runtime.topology(), *app, seq, par);
  return seq && !same_result(*app, *seq, par) ? 1 : 0;
}

// An error is the same on every rank of a launcher: rank 0 reports it, the others leave
// quietly with 0, so that mpirun does not stop the reporting rank before it has said why.
int run(const Options& o) {
  try {
    return run_here(o);
  } catch (const std::exception&) {
    if (launcher_rank() > 0) return 0;
    throw;
  }
}

}  // namespace

Run add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run an application for real on the threads or MPI engine, beside its "
                                        "sequential run (a client of dlbkit::Runtime)");
  auto o = std::make_shared<Options>();
  cmd->add_option("-a,--app", o->app, "application: busy, bnb, uts, queens (dlbkit list apps)")->required();
  cmd->add_option("--app-param", o->app_params, "application parameter name=value (repeatable)");
  cmd->add_option("-s,--strategy", o->strategy, "strategy name (dlbkit list strategies)")->capture_default_str();
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  cmd->add_option("-t,--topology", o->topology,
                  "virtual topology, one worker per node; auto = the first of hypercube, complete, bisectional, "
                  "ring of the workers (threads) or ranks (mpi) that the strategy accepts")
      ->capture_default_str();
  cmd->add_option("-e,--engine", o->engine,
                  "auto (mpi under mpirun, else threads), threads, mpi (under mpirun), or sequential (the baseline alone)")
      ->capture_default_str();
  cmd->add_option("-n,--workers", o->workers, "threads engine with --topology auto: worker count (default: cores)");
  cmd->add_option("--seed", o->seed, "the workers' random streams")->capture_default_str();
  cmd->add_option("--check-tasks", o->check_tasks,
                  "at most this many tasks and poll() calls between a worker's looks at the clock (it adapts below)")
      ->capture_default_str();
  cmd->add_option("--poll-interval", o->poll_interval, "least time between a busy worker's check points")
      ->capture_default_str();
  cmd->add_option("--max-delay", o->max_delay, "testing: hold every received message up to this long")
      ->capture_default_str();
  cmd->add_option("--record", o->record,
                  "write the parallel run's task tree with each task's measured duration to this file, for "
                  "dlbkit simulate -w trace:PATH (docs/trace-format.md)");
  cmd->add_flag("--no-sequential", o->no_sequential, "skip the sequential run (no efficiency, no result check)");
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  auto* timeline = cmd->add_option("--timeline", o->timeline,
                                   "write the run as a timeline (Chrome trace JSON, for Perfetto) to this file; "
                                   "under mpirun rank r > 0 writes FILE.r: docs/timeline.md");
  cmd->add_option("--timeline-nodes", o->timeline_nodes,
                  "workers the timeline records: all, or a list such as 0-7,12 (default: the first 64)")
      ->needs(timeline);
  return [o] { return run(*o); };
}

}  // namespace dlbkit::cli
