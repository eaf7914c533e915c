#include <dlbkit/apps/run_command.hpp>

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <exception>
#include <limits>
#include <memory>

namespace dlbkit {

namespace {

// The options of the Runtime, read in the CLI's order.
RuntimeOptions runtime_options(const RunInputs& in, SimTime max_delay, std::atomic<std::uint64_t>* progress) {
  return RuntimeOptions{.engine = in.engine,
                        .strategy = in.strategy,
                        .params = in.params,
                        .topology = in.topology,
                        .workers = in.workers.empty() ? 0 : parse_workers(in.workers),
                        .seed = parse_unsigned(in.seed, "--seed", std::numeric_limits<std::uint64_t>::max()),
                        .check_tasks = parse_check_tasks(in.check_tasks),
                        .poll_interval = parse_duration(in.poll_interval, "--poll-interval"),
                        .quiet = in.quiet,
                        .record = in.record,
                        .timeline = in.timeline,
                        .timeline_nodes = in.timeline_nodes,
                        .timeline_label = "app " + in.app,
                        .progress = progress,
                        .max_delay = max_delay};
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

}  // namespace

// dlbkit::Runtime chooses the engine (from in.engine, or the launcher), checks the strategy,
// the topology and the outputs, and writes the record and the timeline. Under MPI every rank
// then sets up the application (whose input only it may fail at) before any runs, and every
// rank throws the error of the lowest rank that failed.
RunResult run_command(const RunInputs& in, const RunProgress& progress) {
  const SimTime max_delay = parse_duration(in.max_delay, "--max-delay");
  Runtime runtime(runtime_options(in, max_delay, progress.tasks_executed));
  RunResult out;
  std::unique_ptr<AnyApplication> app;
  on_every_rank(runtime, [&] {
    out.app = builtin_apps().configure(in.app, assignments(in.app_params, "--app-param"));
    app = out.app.create();
  });

  out.strategy = runtime.strategy();
  out.rank = runtime.rank();
  std::exception_ptr error;
  if (in.sequential && runtime.engine() != "sequential" && out.rank == 0) {
    try {
      if (progress.sequential) progress.sequential();
      out.sequential = run_sequential(*app, runtime.topology().size());
    } catch (...) {
      error = std::current_exception();
    }
  }
  runtime.barrier();     // sleeping while rank 0 alone runs the baseline
  runtime.agree(error);  // then its error, if any, on every rank
  if (progress.parallel && out.rank == 0)
    progress.parallel(runtime.engine() == "mpi" ? "MPI engine (rank 0's count)" : runtime.engine() + " engine");
  out.parallel = runtime.run(*app);

  out.result = app->report_bytes(out.parallel.result.data());
  if (out.sequential) {
    out.sequential_result = app->report_bytes(out.sequential->result.data());
    out.same_result = dlbkit::same_result(*app, *out.sequential, out.parallel);
    out.efficiency = dlbkit::efficiency(*out.sequential, out.parallel);
    out.cpu_efficiency = dlbkit::cpu_efficiency(*out.sequential, out.parallel);
  }
  out.inputs = {{"app", out.app.name()},
                {"app_params", out.app.params.to_json()},
                {"strategy", out.strategy.name()},
                {"strategy_params", out.strategy.params.to_json()},
                {"topology", runtime.topology().spec()},
                {"topology_auto", in.topology == "auto"},
                {"engine", out.parallel.engine},
                {"workers", out.parallel.workers.size()},
                {"seed", in.seed},
                {"check_tasks", in.check_tasks},
                {"poll_interval", in.poll_interval}};
  return out;
}

nlohmann::json to_json(const RunResult& r) {
  const RuntimeResult& par = r.parallel;
  nlohmann::json messages = nlohmann::json::object();
  for (std::size_t k = 0; k < par.message_kinds.size(); ++k) messages[par.message_kinds[k]] = par.messages_by_kind[k];
  nlohmann::json j = {
      {"inputs", r.inputs},
      {"result", r.result},
      {"elapsed_seconds", par.elapsed_seconds},
      {"tasks_executed", par.tasks_executed()},
      {"tasks_moved", par.tasks_moved()},
      {"messages", messages},
      {"workers", workers_json(par)},
      {"warnings", par.warnings},
  };
  if (r.sequential) {
    j["sequential"] = {{"elapsed_seconds", r.sequential->elapsed_seconds},
                       {"cpu_seconds", to_seconds(r.sequential->workers[0].cpu)},
                       {"result", r.sequential_result}};
    j["same_result"] = r.same_result;
    j["efficiency"] = r.efficiency;
    j["cpu_efficiency"] = r.cpu_efficiency;
  }
  return j;
}

}  // namespace dlbkit
