#include <dlbkit/apps/calibrate_command.hpp>

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/io/output_file.hpp>
#include <dlbkit/runtime/detail/task_stack.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/sim/statistics.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace dlbkit {

namespace {

// An integer option in [min, max], refused as the CLI refuses it.
void check_range(const char* option, int value, int min, int max) {
  if (value < min || value > max)
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from {} to {}", option, value, min,
                                 max));
}

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

}  // namespace

std::optional<CalibrationResult> calibrate_command(const CalibrateInputs& in, const EngineRun& run, int rank) {
  if (!run && in.engine != "threads")
    throw InputError(fmt::format("--engine: '{}' is not accepted; accepted: threads (mpi: under mpirun -np 2 "
                                 "dlbkit calibrate --engine mpi)",
                                 in.engine));
  check_range("--repetitions", in.repetitions, 2, 100000);
  check_range("--app-runs", in.app_runs, 1, 1000);
  const AppChoice app = builtin_apps().configure(in.app, assignments(in.app_params, "--app-param"));
  const CalibrationOptions options{.repetitions = in.repetitions,
                                   .poll_interval = parse_duration(in.poll_interval, "--poll-interval")};
  const EngineRun threads = [](AnyApplication& a, const RuntimeConfig& c) { return run_threads(a, c); };
  CalibrationResult out{.costs = measure_engine_costs(in.engine, run ? run : threads, options)};
  if (rank != 0) return std::nullopt;
  out.loop_ns = loop_ns(in.repetitions);
  out.app = app_time(app, in.app_runs);
  out.model = out.costs.model(in.name.empty() ? "calibrated-" + in.engine : in.name,
                              detail::TaskStack(app.create()->task_bytes()).record_bytes());
  out.model.loop_time = std::max<SimTime>(1, static_cast<SimTime>(std::llround(out.loop_ns)));
  if (auto measured = measured_workload_params(out.app); !measured.empty())
    out.model.workload_params[app.name()] = std::move(measured);
  if (!in.output.empty())
    write_text_file(in.output, to_json(out).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
  return out;
}

nlohmann::json to_json(const CalibrationResult& r) {
  nlohmann::json file = r.model.to_json();
  nlohmann::json engine = r.costs.to_json();
  engine["loop_ns"] = r.loop_ns;
  file["calibration"] = {{"engine", engine}, {"app", r.app}, {"method", "docs/predict.md"}};
  return file;
}

}  // namespace dlbkit
