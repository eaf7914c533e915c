// dlbkit run: an application executed for real by dlbkit::Runtime (threads, MPI or
// sequential engine), beside the sequential run of the same tasks (docs/runtime.md). The run
// is run_command()'s; this prints its result.

#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/apps/run_command.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/engine.hpp>

#include <atomic>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace dlbkit::cli {

namespace {

struct RunOptions {
  RunInputs in;
  bool json = false, no_sequential = false;
};

std::string result_text(const nlohmann::json& j) {
  std::string out;
  for (const auto& [k, v] : j.items()) out += fmt::format("{}{} {}", out.empty() ? "" : ", ", k, json_text(v, -1));
  return out;
}

void print_report(const RunResult& r) {
  const RuntimeResult& par = r.parallel;
  const nlohmann::json& in = r.inputs;
  fmt::print("{} on {}{}, app {} ({}), {} engine, {} workers, seed {}\n\n", r.strategy.name(),
             in["topology"].get<std::string>(), in["topology_auto"].get<bool>() ? " (--topology auto)" : "",
             r.app.name(), r.app.params.to_string(), par.engine, par.workers.size(), in["seed"].get<std::string>());
  if (!r.strategy.params.to_string().empty()) fmt::print("  strategy parameters  {}\n", r.strategy.params.to_string());
  fmt::print("  result               {}\n", result_text(r.result));
  if (r.sequential) {
    fmt::print("  same as sequential   {}\n", r.same_result ? "yes" : "NO");
    fmt::print("  elapsed              {:.4f} s   (sequential {:.4f} s)\n", par.elapsed_seconds,
               r.sequential->elapsed_seconds);
    fmt::print("  efficiency           {:.1f} %   (T_seq / (P T_par))\n", 100 * r.efficiency);
    fmt::print("  CPU efficiency       {:.1f} %   (sequential CPU / workers' CPU)\n", 100 * r.cpu_efficiency);
  } else {
    fmt::print("  elapsed              {:.4f} s\n", par.elapsed_seconds);
  }
  fmt::print("{}", format_figures(par));
}

// The progress line (rank 0's: run_command tells no other) shows the phase, and the tasks
// the engine has executed so far.
RunResult run_with_progress(const RunInputs& in) {
  std::atomic<std::uint64_t> executed{0};
  std::optional<ProgressLine> progress;
  const auto line = [&progress]() -> ProgressLine& {
    if (!progress) progress.emplace(true, "dlbkit run");
    return *progress;
  };
  return run_command(in, {.sequential = [&] { line().phase("sequential run"); },
                          .parallel =
                              [&](const std::string& engine) {
                                line().phase(engine, [&executed] {
                                  return fmt::format(", {} tasks executed", executed.load(std::memory_order_relaxed));
                                });
                              },
                          .tasks_executed = &executed});
}

// An error is the same on every rank of a launcher: rank 0 reports it, the others leave
// quietly with 0, so that mpirun does not stop the reporting rank before it has said why.
int run(const RunOptions& o) {
  RunInputs in = o.in;
  in.sequential = !o.no_sequential;
  RunResult r;
  try {
    r = run_with_progress(in);
  } catch (const std::exception&) {
    if (launcher_rank() > 0) return 0;
    throw;
  }
  if (r.rank != 0) return 0;
  if (o.json)
    fmt::print("{}\n", json_text(to_json(r)));
  else
    print_report(r);
  return r.sequential && !r.same_result ? 1 : 0;
}

}  // namespace

Run add_run(CLI::App& app) {
  auto* cmd = app.add_subcommand("run", "Run an application for real on the threads or MPI engine, beside its "
                                        "sequential run (a client of dlbkit::Runtime)");
  auto o = std::make_shared<RunOptions>();
  cmd->add_option("-a,--app", o->in.app, "application: busy, bnb, uts, queens (dlbkit list apps)")->required();
  cmd->add_option("--app-param", o->in.app_params, "application parameter name=value (repeatable)");
  cmd->add_option("-s,--strategy", o->in.strategy, "strategy name (dlbkit list strategies)")->capture_default_str();
  cmd->add_option("-p,--param", o->in.params, "strategy parameter name=value (repeatable)");
  cmd->add_option("-t,--topology", o->in.topology,
                  "virtual topology, one worker per node; auto = the first of hypercube, complete, bisectional, "
                  "ring of the workers (threads) or ranks (mpi) that the strategy accepts")
      ->capture_default_str();
  cmd->add_option("-e,--engine", o->in.engine,
                  "auto (mpi under mpirun, else threads), threads, mpi (under mpirun), or sequential (the baseline alone)")
      ->capture_default_str();
  cmd->add_option("-n,--workers", o->in.workers, "threads engine with --topology auto: worker count (default: cores)");
  cmd->add_option("--seed", o->in.seed, "the workers' random streams")->capture_default_str();
  cmd->add_option("--check-tasks", o->in.check_tasks,
                  "at most this many tasks and poll() calls between a worker's looks at the clock (it adapts below)")
      ->capture_default_str();
  cmd->add_option("--poll-interval", o->in.poll_interval, "least time between a busy worker's check points")
      ->capture_default_str();
  cmd->add_option("--max-delay", o->in.max_delay, "testing: hold every received message up to this long")
      ->capture_default_str();
  cmd->add_option("--record", o->in.record,
                  "write the parallel run's task tree with each task's measured duration to this file, for "
                  "dlbkit simulate -w trace:PATH (docs/trace-format.md)");
  cmd->add_flag("--no-sequential", o->no_sequential, "skip the sequential run (no efficiency, no result check)");
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  auto* timeline = cmd->add_option("--timeline", o->in.timeline,
                                   "write the run as a timeline (Chrome trace JSON, for Perfetto) to this file; "
                                   "under mpirun rank r > 0 writes FILE.r: docs/timeline.md");
  cmd->add_option("--timeline-nodes", o->in.timeline_nodes,
                  "workers the timeline records: all, or a list such as 0-7,12 (default: the first 64)")
      ->needs(timeline);
  return [o] { return run(*o); };
}

}  // namespace dlbkit::cli
