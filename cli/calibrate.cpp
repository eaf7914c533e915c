// dlbkit calibrate: the runtime's costs on this machine, measured by runs of the engine
// itself, written as a cost model file for `dlbkit simulate --cost file:PATH`
// (docs/predict.md says how each figure is measured).

#include "commands.hpp"

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/io/output_file.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/statistics.hpp>
#include <dlbkit/runtime/calibration.hpp>
#include <dlbkit/runtime/engine.hpp>
#ifdef DLBKIT_HAS_MPI
#include <dlbkit/runtime/mpi_engine.hpp>
#endif

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace dlbkit::cli {

namespace {

struct Options {
  std::string engine = "threads", output, app = "busy", name;
  std::vector<std::string> app_params;
  int repetitions = 200, app_runs = 3;
  std::string poll_interval = "20us";
  bool json = false;
};

// One busy loop of the `busy` app, the unit of the artificial workload: the median over
// repetitions of 1000 loops each.
double loop_ns(int repetitions) {
  std::vector<double> samples;
  std::uint64_t x = 1;
  for (int r = 0; r < repetitions; ++r) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 1000; ++i) x = busy_loop(x);
    samples.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count() / 1000);
  }
  if (x == 0) samples.push_back(0);  // keeps the loops (x is never 0 for xorshift from 1)
  return median(samples);
}

// The application's time per task (and per search step, busy loop or tree node, where its
// result counts them): sequential runs, the median of `runs`.
nlohmann::json app_time(const AppChoice& choice, int runs) {
  std::vector<double> per_task, per_unit;
  std::string unit;
  nlohmann::json result;
  std::uint64_t tasks = 0;
  for (int r = 0; r < runs; ++r) {
    const auto app = choice.create();
    const RuntimeResult seq = run_sequential(*app, 1);
    tasks = seq.tasks_executed();
    result = app->report_bytes(seq.result.data());
    per_task.push_back(seq.elapsed_seconds * 1e9 / static_cast<double>(std::max<std::uint64_t>(1, tasks)));
    for (const char* key : {"steps", "loops", "nodes"})  // the first the result counts
      if (result.contains(key) && result[key].get<double>() > 0) {
        unit = key;
        per_unit.push_back(seq.elapsed_seconds * 1e9 / result[key].get<double>());
        break;
      }
  }
  nlohmann::json j = {{"name", choice.name()},      {"params", choice.params.to_json()}, {"runs", runs},
                      {"tasks", tasks},             {"result", result},                  {"statistic", "median"},
                      {"ns_per_task", median(per_task)}};
  if (!unit.empty()) j["ns_per_" + unit.substr(0, unit.size() - 1)] = median(per_unit);
  return j;
}

// The simulator's workload of the same name takes the time per unit as its own parameter:
// bnb's step_time, busy's loop_time, uts's node_time (a node is the workload's task).
std::map<std::string, std::string> measured_workload_params(const nlohmann::json& app) {
  static const std::map<std::string, std::pair<std::string, std::string>> unit = {
      {"bnb", {"ns_per_step", "step_time"}}, {"busy", {"ns_per_loop", "loop_time"}}, {"uts", {"ns_per_node", "node_time"}}};
  const auto u = unit.find(app["name"].get<std::string>());
  if (u == unit.end() || !app.contains(u->second.first)) return {};
  return {{u->second.second, fmt::format("{:.3f}ns", app[u->second.first].get<double>())}};
}

int calibrate(const Options& o, const EngineRun& run, bool report_here) {
  const AppChoice app = builtin_apps().configure(o.app, assignments(o.app_params, "--app-param"));
  const CalibrationOptions options{.repetitions = o.repetitions,
                                   .poll_interval = parse_duration(o.poll_interval, "--poll-interval")};
  const EngineCosts costs = measure_engine_costs(o.engine, run, options);
  if (!report_here) return 0;
  const double loop = loop_ns(o.repetitions);
  const nlohmann::json app_figures = app_time(app, o.app_runs);
  CostModel model = costs.model(o.name.empty() ? "calibrated-" + o.engine : o.name,
                                detail::TaskStack(app.create()->task_bytes()).record_bytes());
  model.loop_time = std::max<SimTime>(1, static_cast<SimTime>(std::llround(loop)));
  if (auto measured = measured_workload_params(app_figures); !measured.empty())
    model.workload_params[app.name()] = std::move(measured);
  nlohmann::json file = model.to_json();
  nlohmann::json engine_figures = costs.to_json();
  engine_figures["loop_ns"] = loop;
  file["calibration"] = {{"engine", engine_figures}, {"app", app_figures}, {"method", "docs/predict.md"}};
  write_text_file(o.output, json_text(file) + "\n");
  if (o.json) {
    fmt::print("{}\n", json_text(file));
    return 0;
  }
  fmt::print("calibrated the {} engine ({} repetitions, medians), wrote {}\n\n", o.engine, o.repetitions, o.output);
  fmt::print("  one-way message      {:>10.0f} ns   (half a ping-pong round trip; {} round trips left out: a worker "
             "lost its processor)\n",
             costs.one_way_message, costs.round_trips_lost);
  fmt::print("  send                 {:>10.0f} ns   per message, from bursts of {}\n", costs.send, options.burst);
  fmt::print("  handle               {:>10.0f} ns   per message, from bursts handled at one check point\n",
             costs.handle);
  fmt::print("  latency              {:>10.0f} ns   (one-way - send - handle)\n", costs.one_way_message - costs.send -
                                                                                      costs.handle);
  fmt::print("  per task             {:>10.1f} ns   ({}-byte records, {} per transfer)\n", costs.per_task,
             costs.small_record, options.tasks);
  fmt::print("  per byte             {:>10.3f} ns\n", costs.per_byte());
  fmt::print("  check                {:>10.1f} ns   (a look at the clock and a check point)\n", costs.check);
  fmt::print("  busy loop            {:>10.1f} ns\n", loop);
  std::string per_unit;
  for (const char* unit : {"step", "loop", "node"})
    if (const auto it = app_figures.find(fmt::format("ns_per_{}", unit)); it != app_figures.end())
      per_unit = fmt::format(", {:.1f} ns per {}", it->get<double>(), unit);
  fmt::print("  app {:<16} {:>10.1f} ns per task{}\n", app.name(), app_figures["ns_per_task"].get<double>(), per_unit);
  fmt::print("\n  cost model           {}\n", json_text(model.to_json(), -1));
  return 0;
}

}  // namespace

Run add_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure the runtime's costs on this machine and write them as a cost "
                                              "model file (simulate --cost file:PATH)");
  auto o = std::make_shared<Options>();
  cmd->add_option("-e,--engine", o->engine, "threads, or mpi (under mpirun -np 2)")
      ->check(one_of({"threads", "mpi"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "the cost model file to write (JSON)")->required();
  cmd->add_option("-a,--app", o->app, "the application whose time per task is measured (dlbkit list apps)")
      ->capture_default_str();
  cmd->add_option("--app-param", o->app_params, "application parameter name=value (repeatable)");
  cmd->add_option("--name", o->name, "the cost model's name (default calibrated-ENGINE)");
  cmd->add_option("--repetitions", o->repetitions, "round trips, bursts and poll batches per figure")
      ->check(integer_in(2, 100000))
      ->capture_default_str();
  cmd->add_option("--app-runs", o->app_runs, "sequential runs of the application")
      ->check(integer_in(1, 1000))
      ->capture_default_str();
  cmd->add_option("--poll-interval", o->poll_interval, "the runtime's check interval (dlbkit run --poll-interval)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print the written file instead of the table");
  return [o] {
    if (o->engine == "threads")
      return calibrate(*o, [](AnyApplication& a, const RuntimeConfig& c) { return run_threads(a, c); }, true);
#ifdef DLBKIT_HAS_MPI
    MpiSession mpi(nullptr, nullptr);
    if (mpi.size() != 2) {
      // Rank 0 alone fails, as in dlbkit run: a rank that exits with 2 first makes mpirun
      // stop rank 0 before it has printed the error.
      if (mpi.rank() != 0) return 0;
      throw InputError(fmt::format("calibrate --engine mpi: {} MPI ranks; accepted: 2 (mpirun -np 2 dlbkit calibrate "
                                   "--engine mpi ...)",
                                   mpi.size()));
    }
    return calibrate(*o, [&mpi](AnyApplication& a, const RuntimeConfig& c) { return run_mpi(a, c, mpi); },
                     mpi.rank() == 0);
#else
    throw InputError("--engine 'mpi'; accepted: threads (this dlbkit was built without MPI)");
#endif
  };
}

}  // namespace dlbkit::cli
