// dlbkit run: an application executed for real by the threads or the MPI engine, beside
// the sequential run of the same tasks (docs/runtime.md).

#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/apps/runtime_apps.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/runtime/recording.hpp>
#include <dlbkit/runtime/runtime_options.hpp>
#include <dlbkit/strategies/builtin.hpp>
#ifdef DLBKIT_HAS_MPI
#include <dlbkit/runtime/mpi_engine.hpp>

#include <mpi.h>
#endif

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
  std::string app, strategy = "work_stealing", topology = "auto", engine = "threads", seed = "1";
  std::vector<std::string> app_params, params;
  std::string workers;
  std::string check_tasks = "1024", poll_interval = "20us", max_delay = "0";
  std::optional<std::string> record;  // RecordingApplication rejects an empty path
  std::string timeline, timeline_nodes;
  bool json = false, no_sequential = false;
};

// --timeline: the workers of this process that the selection names write to `path` (under
// mpirun: rank 0 to `path`, rank r > 0 to `path`.r when it runs a chosen node; docs/timeline.md).
std::unique_ptr<Timeline> open_timeline(const Options& o, const StrategyChoice& strategy, const Topology& topology,
                                        int rank) {
  if (o.timeline.empty()) return nullptr;
  std::vector<bool> chosen = timeline_selection(o.timeline_nodes, topology.size());
  const std::string title = fmt::format("{} on {}, app {}, {} engine", strategy.name(), topology.spec(), o.app, o.engine);
  if (rank < 0) return std::make_unique<Timeline>(o.timeline, title, std::move(chosen));
  const auto self = static_cast<std::size_t>(rank);
  if (rank > 0 && !chosen[self]) return nullptr;
  std::vector<bool> own(chosen.size(), false);
  own[self] = true;
  return std::make_unique<Timeline>(rank == 0 ? o.timeline : fmt::format("{}.{}", o.timeline, rank), title,
                                    std::move(chosen), own);
}

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

// Warnings go to stderr, so that --json output stays one document: those known before the
// run at its start, the others after it.
void warn(const std::vector<std::string>& warnings, const std::vector<std::string>& already = {}) {
  for (const std::string& w : warnings)
    if (std::find(already.begin(), already.end(), w) == already.end()) fmt::print(stderr, "dlbkit: warning: {}\n", w);
}

// --workers as a number, 0 when not given.
std::uint64_t workers_of(const Options& o) { return o.workers.empty() ? 0 : parse_workers(o.workers); }

struct Setup {
  AppChoice app_choice;
  StrategyChoice strategy;
  RuntimeConfig config;
  std::unique_ptr<AnyApplication> app;
};

// The progress line's detail: the tasks the engine has executed so far.
std::function<std::string()> tasks_executed(const std::atomic<std::uint64_t>& executed) {
  return [&executed] { return fmt::format(", {} tasks executed", executed.load(std::memory_order_relaxed)); };
}

Setup setup(const Options& o) {
  Setup s{.app_choice = builtin_apps().configure(o.app, assignments(o.app_params, "--app-param")),
          .strategy = builtin_strategies().configure(o.strategy, assignments(o.params, "--param"))};
  s.config = RuntimeConfig{
      .strategy = s.strategy,
      .seed = parse_unsigned(o.seed, "--seed", std::numeric_limits<std::uint64_t>::max()),
      .check_tasks = static_cast<std::uint32_t>(parse_unsigned(o.check_tasks, "--check-tasks", 1u << 30)),
      .poll_interval = parse_duration(o.poll_interval, "--poll-interval"),
      .max_delay = parse_duration(o.max_delay, "--max-delay")};
  if (s.config.check_tasks == 0) throw InputError("--check-tasks: '0' is not accepted; accepted: 1 to 2^30");
  s.app = s.app_choice.create();
  return s;
}

int run_threads_engine(const Options& o) {
  Setup s = setup(o);
  const Topology topology = resolve_topology(o.topology, *s.strategy.info, workers_of(o), 0);
  s.config.topology = &topology;
  const std::unique_ptr<Timeline> timeline = open_timeline(o, s.strategy, topology, -1);
  s.config.timeline = timeline.get();
  const auto early = start_warnings(*s.app, s.config);
  warn(early);
  std::optional<RuntimeResult> seq;
  RuntimeResult par;
  {
    std::atomic<std::uint64_t> executed{0};
    ProgressLine progress(true, "dlbkit run");
    progress.phase("sequential run");
    if (!o.no_sequential) seq = run_sequential(*s.app, topology.size());
    progress.phase("threads engine", tasks_executed(executed));
    s.config.progress = &executed;
    if (!o.record) {
      par = run_threads(*s.app, s.config);
    } else {
      RecordingApplication recorded(*s.app, *o.record);
      par = run_threads(recorded, s.config);
      recorded.finish();
    }
    s.config.progress = nullptr;
  }
  if (timeline) timeline->close();
  report(o, s.app_choice, s.strategy, topology, *s.app, seq, par);
  warn(par.warnings, early);
  return seq && !same_result(*s.app, *seq, par) ? 1 : 0;
}

#ifdef DLBKIT_HAS_MPI
// The lowest rank whose set-up failed, or `size` when none did: collective, so that every
// rank stops when one does (a file one rank cannot read, a bad input seen by one rank
// only) instead of waiting for it in the run. On a duplicate of MPI_COMM_WORLD, as the
// engine itself keeps to its own traffic.
int first_failed_rank(bool failed, const MpiSession& mpi) {
  MPI_Comm comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int mine = failed ? mpi.rank() : mpi.size();
  int first = mpi.size();
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  MPI_Comm_free(&comm);
  return first;
}

// Every rank sets up (checks its input) before any runs; the ranks then agree whether all
// succeeded. If not, the lowest failing rank alone reports its error (InputError: exit 2)
// and the others leave quietly with 0, so that mpirun does not stop the reporting rank
// before it has said why. Usually every rank finds the same error and rank 0 reports it;
// errors the engine finds in the run are found by every rank alike and rank 0 reports them.
int run_mpi_engine(const Options& o) {
  MpiSession mpi(nullptr, nullptr);
  std::optional<Setup> s;
  std::optional<Topology> topology;
  std::unique_ptr<Timeline> timeline;
  std::exception_ptr error;
  try {
    s = setup(o);
    topology = resolve_topology(o.topology, *s->strategy.info, workers_of(o), static_cast<std::size_t>(mpi.size()));
    timeline = open_timeline(o, s->strategy, *topology, mpi.rank());  // a file one rank cannot write stops all
  } catch (const std::exception&) {
    error = std::current_exception();
  }
  const int first_failed = first_failed_rank(error != nullptr, mpi);
  if (first_failed == mpi.rank()) {
    try {
      std::rethrow_exception(error);
    } catch (const std::exception& e) {
      return print_error_here(e);  // this rank may be the only one that saw it
    }
  }
  if (first_failed < mpi.size()) return 0;
  s->config.topology = &*topology;
  s->config.timeline = timeline.get();
  try {
    const auto early = start_warnings(*s->app, s->config);
    if (mpi.rank() == 0) warn(early);
    std::optional<RuntimeResult> seq;
    RuntimeResult par;
    {
      std::atomic<std::uint64_t> executed{0};
      ProgressLine progress(mpi.rank() == 0, "dlbkit run");
      progress.phase("sequential run");
      if (!o.no_sequential && mpi.rank() == 0) seq = run_sequential(*s->app, topology->size());
      mpi.barrier();
      progress.phase("MPI engine (rank 0's count)", tasks_executed(executed));
      s->config.progress = &executed;
      if (!o.record) {
        par = run_mpi(*s->app, s->config, mpi);
      } else {  // each rank writes its worker's section; rank 0 merges them (a shared file system)
        RecordingApplication recorded(*s->app, *o.record);
        par = run_mpi(recorded, s->config, mpi);
        recorded.close_sections();
        mpi.barrier();
        if (mpi.rank() == 0) recorded.merge_sections();
      }
      s->config.progress = nullptr;
    }
    if (timeline) timeline->close();
    if (mpi.rank() != 0) return 0;
    report(o, s->app_choice, s->strategy, *topology, *s->app, seq, par);
    warn(par.warnings, early);
    return seq && !same_result(*s->app, *seq, par) ? 1 : 0;
  } catch (const InputError&) {  // the engine's own checks (strategy against topology), alike on every rank
    if (mpi.rank() == 0) throw;
    return 0;
  }
}
#endif

int run(const Options& o) {
  if (o.engine == "threads") return run_threads_engine(o);
#ifdef DLBKIT_HAS_MPI
  if (o.engine == "mpi") return run_mpi_engine(o);
  throw InputError(fmt::format("--engine '{}'; accepted: threads, mpi", o.engine));
#else
  throw InputError(fmt::format("--engine '{}'; accepted: threads (this dlbkit was built without MPI)", o.engine));
#endif
}

}  // namespace

Run add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run an application for real on the threads or MPI engine, beside its "
                                        "sequential run");
  auto o = std::make_shared<Options>();
  cmd->add_option("-a,--app", o->app, "application: busy, bnb, uts, queens (dlbkit list apps)")->required();
  cmd->add_option("--app-param", o->app_params, "application parameter name=value (repeatable)");
  cmd->add_option("-s,--strategy", o->strategy, "strategy name (dlbkit list strategies)")->capture_default_str();
  cmd->add_option("-p,--param", o->params, "strategy parameter name=value (repeatable)");
  cmd->add_option("-t,--topology", o->topology,
                  "virtual topology, one worker per node; auto = the first of hypercube, complete, bisectional, "
                  "ring of the workers (threads) or ranks (mpi) that the strategy accepts")
      ->capture_default_str();
  cmd->add_option("-e,--engine", o->engine, "threads, or mpi (under mpirun)")->capture_default_str();
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
