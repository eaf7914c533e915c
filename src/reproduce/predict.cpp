// predict-runtime: the simulator's prediction of a real run beside the run itself
// (docs/predict.md). The threads engine is calibrated first, on this machine, by the same
// probes as `dlbkit calibrate`; the application's time per unit of work comes from its
// sequential run.

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/statistics.hpp>
#include "reproduce/predict.hpp"
#include "reproduce/render.hpp"
#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/runtime/calibration.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <map>
#include <optional>

namespace dlbkit {

namespace {

// An application that runs in both engines: the app for the runtime, the workload that
// builds the same tasks for the simulator, given what the sequential run measured.
struct AppCase {
  std::string label;
  std::string app;
  std::map<std::string, std::string> app_params;
  std::string workload;
  /// The workload's parameters from the sequential run's result and seconds.
  std::function<std::map<std::string, std::string>(const nlohmann::json& result, double seconds)> workload_params;
  /// The instance scaled up for the largest size (at_65536): these parameters replace the
  /// workload's; the time per unit stays the one the sequential run above measured.
  std::string large_label;
  std::map<std::string, std::string> large;
};

// The largest size: 65536 processors (at_65536); the test's tiny form stands in 256.
std::size_t large_size(bool tiny) { return tiny ? 256 : 65536; }

// A duration parameter for the workload: `seconds` spread over `units` of work, to the
// picosecond (the workloads keep the fraction: bnb's 6.3 ns as 6 was 5% of its work).
std::string per_unit(double seconds, double units) {
  return fmt::format("{}ns", std::max(1.0, std::round(seconds * 1e12 / std::max(1.0, units)) / 1000));
}

// The applications with the workload that runs their exact tasks (docs/apps/workloads.md):
// bnb in threshold mode (optimise mode's pruning depends on when bounds arrive, which the
// simulator does not model), a UTS tree, the busy loops with a fixed total load.
//
// Scaled up for the largest size P: bnb n=12, m=6 (773 563 tasks, 12 per processor), the
// uts tree T1 (depth 10, 4 130 071 nodes, 63 per processor), busy with the total load
// growing with P (the two-worker run's load per processor, 20 tasks each).
std::vector<AppCase> cases(bool tiny) {
  const std::string n = tiny ? "8" : "10", m = tiny ? "5" : "7";
  const auto tree_of = [](int depth) { return fmt::format("type=geometric,shape=fixed,b0=4,depth={},seed=19", depth); };
  const std::string tree = tree_of(tiny ? 5 : 8);
  const std::string total_load = tiny ? "20000" : "100000";
  const std::string large_n = tiny ? "9" : "12", large_m = tiny ? "5" : "6";
  const int large_depth = tiny ? 6 : 10;
  const std::string large_load = fmt::format("{}", std::stoull(total_load) / 2 * large_size(tiny));
  return {
      {.label = "bnb n=" + n,
       .app = "bnb",
       .app_params = {{"n", n}, {"m", m}, {"instance_seed", "1"}, {"mode", "threshold"}},
       .workload = "bnb",
       .workload_params =
           [n, m](const nlohmann::json& result, double seconds) {
             return std::map<std::string, std::string>{{"n", n},
                                                       {"m", m},
                                                       {"instance_seed", "1"},
                                                       {"placement", "tree"},
                                                       {"step_time", per_unit(seconds, result.value("steps", 1.0))}};
           },
       .large_label = "bnb n=" + large_n + " m=" + large_m,
       .large = {{"n", large_n}, {"m", large_m}}},
      {.label = "uts depth " + std::string(tiny ? "5" : "8"),
       .app = "uts",
       .app_params = {{"tree", tree}},
       .workload = "uts",
       .workload_params =
           [tree](const nlohmann::json& result, double seconds) {
             return std::map<std::string, std::string>{{"tree", tree},
                                                       {"node_time", per_unit(seconds, result.value("nodes", 1.0))}};
           },
       .large_label = fmt::format("uts depth {}{}", large_depth, tiny ? "" : " (T1)"),
       .large = {{"tree", tree_of(large_depth)}}},
      {.label = "busy " + total_load + " loops",
       .app = "busy",
       .app_params = {{"total_load", total_load}, {"granularity", "20"}},
       .workload = "busy",
       .workload_params =
           [total_load](const nlohmann::json& result, double seconds) {
             return std::map<std::string, std::string>{{"total_load", total_load},
                                                       {"granularity", "20"},
                                                       {"loop_time", per_unit(seconds, result.value("loops", 1.0))}};
           },
       .large_label = "busy " + large_load + " loops",
       .large = {{"total_load", large_load}}},
  };
}

struct PredictedRow {
  std::string app, strategy, topology, error;
  double t_real = 0, eff_real = 0, moved_real = 0;
  double t_pred = 0, eff_pred = 0, moved_pred = 0;
  bool same_result = true;
  double relative_error() const { return t_pred / t_real - 1; }
};

struct ScaleRow {
  std::string app, strategy;
  std::vector<std::string> topology;
  std::vector<double> makespan, efficiency, moved, work;  // NaN where the strategy refuses the size
  // At the largest size (at_65536): the best four strategies only, on the scaled instance.
  std::string large_topology = "-", large_note;  // the note: why there is no prediction
  double large_makespan = NAN, large_efficiency = NAN, large_moved = NAN, large_work = NAN;
};

SimulationResult predict(const Topology& topology, const StrategyChoice& strategy, const WorkloadChoice& workload,
                         const CostModel& cost, std::uint64_t event_limit = SimulationConfig{}.event_limit) {
  auto w = workload.create();
  // lifo: a node runs its newest task first and gives away its oldest, as a runtime worker
  // pops its stack and migrates from the bottom.
  return simulate({.topology = &topology,
                   .strategy = strategy,
                   .workload = w.get(),
                   .cost = cost,
                   .seed = 1,
                   .event_limit = event_limit,
                   .execution = Execution::lifo});
}

double sim_efficiency(const SimulationResult& r, std::size_t nodes) {
  return r.makespan > 0 ? to_seconds(r.total_work) / (static_cast<double>(nodes) * to_seconds(r.makespan)) : 0;
}

// A prediction at the largest size handles at most `event_budget` events (default 6e7: a
// few tens of seconds here): work stealing's idle nodes ask every retry_delay, 65536 of
// them for the whole run, which is hundreds of millions of events for uts T1 (minutes);
// such a row says so (the budget is a parameter).
std::vector<ParamSpec> predict_params() {
  return {{.name = "at_65536",
           .type = ParamType::boolean,
           .default_value = "false",
           .description = "also predict each case's best four strategies (by measured makespan) on 65536 processors, "
                          "on instances scaled up to have work for them (bnb n=12 m=6, uts T1, busy 3.3e9 loops), "
                          "with the time per unit from the two-worker case's sequential run; adds minutes "
                          "(docs/predict.md)"},
          {.name = "event_budget",
           .type = ParamType::integer,
           .default_value = "60000000",
           .description = "the most events one prediction on 65536 processors may take (about 20 s per 6e7 here); "
                          "a strategy over it is listed as not predicted",
           .min = 1e6,
           .max = 1e11}};
}

ReproductionResult predict_runtime(const ReproductionOptions& options) {
  const Parameters params = Parameters::parse(predict_params(), options.params, "reproduction predict-runtime");
  const bool large = params.boolean("at_65536");
  const auto event_budget = static_cast<std::uint64_t>(params.integer("event_budget"));
  const std::size_t large_p = large_size(options.tiny);
  const int runs = std::max(1, options.runs);
  const EngineCosts costs = measure_engine_costs(
      "threads", [](AnyApplication& a, const RuntimeConfig& c) { return run_threads(a, c); },
      {.repetitions = options.tiny ? 20 : 200});
  const std::vector<std::size_t> scales = options.tiny ? std::vector<std::size_t>{64} : std::vector<std::size_t>{64, 1024};

  std::vector<PredictedRow> rows;
  std::vector<ScaleRow> scale_rows;
  Results results;
  Table case_table{.name = "predict-runtime-cases",
                   .title = fmt::format("predict-runtime: the threads engine on this machine, two workers, median of {} "
                                        "run(s); calibrated one-way message {:.0f} ns (median; {} round trips left "
                                        "out: a worker lost its processor, docs/predict.md)",
                                        runs, costs.one_way_message, costs.round_trips_lost),
                   .columns = {{.name = "case", .left = true}, {.name = "app", .left = true},
                               {.name = "app params", .left = true}, {.name = "workload", .left = true},
                               {.name = "workload params", .left = true}, {.name = "T seq s", .format = "{:.4f}"},
                               {.name = "work s", .format = "{:.4f}"}},
                   .written = false};
  if (large)
    for (const char* name : {"large instance", "large workload params"})
      case_table.columns.push_back({.name = name, .left = true});
  nlohmann::json cost_models = nlohmann::json::object();
  for (const AppCase& c : cases(options.tiny)) {
    const AppChoice app_choice = builtin_apps().configure(c.app, c.app_params);
    auto app = app_choice.create();
    std::vector<double> seq_seconds;
    RuntimeResult seq;
    for (int r = 0; r < runs; ++r) {
      seq = run_sequential(*app, 2);
      seq_seconds.push_back(seq.elapsed_seconds);
    }
    const double t_seq = median(seq_seconds);
    const nlohmann::json seq_result = app->report_bytes(seq.result.data());
    const std::map<std::string, std::string> workload_given = c.workload_params(seq_result, t_seq);
    const WorkloadChoice workload = builtin_workloads().configure(c.workload, workload_given);
    CostModel cost = costs.model("calibrated-threads", detail::TaskStack(app->task_bytes()).record_bytes());
    cost_models[c.label] = cost.to_json();
    double sim_work = 0;
    std::size_t first_row = rows.size();
    for (const StrategyInfo& info : builtin_strategies().all()) {
      PredictedRow row{.app = c.label, .strategy = info.name};
      std::optional<Topology> pair;
      try {
        pair = auto_topology(info, 2);
      } catch (const InputError&) {
        continue;  // the strategy runs on no network of two nodes
      }
      row.topology = pair->spec();
      const StrategyChoice strategy = builtin_strategies().configure(info.name, {});
      try {
        std::vector<double> t, eff, moved;
        for (int r = 0; r < runs; ++r) {
          const RuntimeResult par = run_threads(*app, {.topology = &*pair, .strategy = strategy});
          row.same_result = row.same_result && same_result(*app, seq, par);
          t.push_back(par.elapsed_seconds);
          eff.push_back(t_seq / (2 * par.elapsed_seconds));
          moved.push_back(static_cast<double>(par.tasks_moved()));
        }
        row.t_real = median(t);
        row.eff_real = median(eff);
        row.moved_real = median(moved);
        const SimulationResult p = predict(*pair, strategy, workload, cost);
        row.t_pred = to_seconds(p.makespan);
        row.eff_pred = sim_efficiency(p, 2);
        row.moved_pred = static_cast<double>(p.tasks_transferred);
        sim_work = to_seconds(p.total_work);
      } catch (const std::exception& e) {
        row.error = e.what();
      }
      rows.push_back(row);
    }
    std::vector<const PredictedRow*> ranked;
    for (std::size_t i = first_row; i < rows.size(); ++i)
      if (rows[i].error.empty()) ranked.push_back(&rows[i]);
    std::sort(ranked.begin(), ranked.end(),
              [](const PredictedRow* a, const PredictedRow* b) { return a->t_real < b->t_real; });
    ranked.resize(std::min<std::size_t>(4, ranked.size()));
    int within = 0;
    std::string names;
    for (const PredictedRow* r : ranked) {
      within += std::abs(r->relative_error()) <= 0.10 ? 1 : 0;
      names += fmt::format("{}{} ({:+.1f}%)", names.empty() ? "" : ", ", r->strategy, 100 * r->relative_error());
    }
    results.notes.push_back(fmt::format("{}: best {} by measured T: {}; predicted within 10%: {} of {} (target: all four)",
                                        c.label, ranked.size(), names, within, ranked.size()));

    // The same strategies predicted at scale.
    const std::size_t first_scale = scale_rows.size();
    for (std::size_t i = first_row; i < rows.size(); ++i)
      if (rows[i].error.empty()) scale_rows.push_back({.app = c.label, .strategy = rows[i].strategy});
    for (std::size_t s = first_scale; s < scale_rows.size(); ++s) {
      scale_rows[s].topology.assign(scales.size(), "-");
      scale_rows[s].makespan.assign(scales.size(), NAN);
      scale_rows[s].efficiency.assign(scales.size(), NAN);
      scale_rows[s].moved.assign(scales.size(), NAN);
      scale_rows[s].work.assign(scales.size(), NAN);
    }
    const std::size_t count = (scale_rows.size() - first_scale) * scales.size();
    parallel_for(count, options.jobs, [&](std::size_t i) {
      ScaleRow& row = scale_rows[first_scale + i / scales.size()];
      const std::size_t k = i % scales.size();
      const StrategyChoice strategy = builtin_strategies().configure(row.strategy, {});
      std::optional<Topology> topology;
      try {
        topology = auto_topology(*strategy.info, scales[k]);
      } catch (const InputError&) {
        return;
      }
      const SimulationResult p = predict(*topology, strategy, workload, cost);
      row.topology[k] = topology->spec();
      row.makespan[k] = to_seconds(p.makespan);
      row.efficiency[k] = sim_efficiency(p, scales[k]);
      row.moved[k] = static_cast<double>(p.tasks_transferred);
      row.work[k] = to_seconds(p.total_work);
    });

    std::vector<Cell> case_row{c.label, c.app, app_choice.params.to_string(), c.workload, workload.params.to_string(),
                               t_seq, sim_work};
    // The best four on the largest size, on the scaled instance (at_65536).
    if (large) {
      std::map<std::string, std::string> given = workload_given;
      for (const auto& [name, value] : c.large) given[name] = value;
      const WorkloadChoice large_workload = builtin_workloads().configure(c.workload, given);
      case_row.push_back(c.large_label);
      case_row.push_back(large_workload.params.to_string());
      std::vector<ScaleRow*> best;
      for (const PredictedRow* r : ranked)
        for (std::size_t s = first_scale; s < scale_rows.size(); ++s)
          if (scale_rows[s].strategy == r->strategy) best.push_back(&scale_rows[s]);
      parallel_for(best.size(), options.jobs, [&](std::size_t i) {
        ScaleRow& row = *best[i];
        const StrategyChoice strategy = builtin_strategies().configure(row.strategy, {});
        std::optional<Topology> topology;
        try {
          topology = auto_topology(*strategy.info, large_p);
        } catch (const InputError&) {
          row.large_note = "refuses the size";
          return;
        }
        row.large_topology = topology->spec();
        try {
          const SimulationResult p = predict(*topology, strategy, large_workload, cost, event_budget);
          row.large_makespan = to_seconds(p.makespan);
          row.large_efficiency = sim_efficiency(p, large_p);
          row.large_moved = static_cast<double>(p.tasks_transferred);
          row.large_work = to_seconds(p.total_work);
        } catch (const EventLimitReached&) {
          row.large_note = fmt::format("over the budget of {} events (-p event_budget)", event_budget);
        } catch (const std::runtime_error& e) {
          row.large_note = e.what();
        }
      });
    }
    case_table.rows.push_back(std::move(case_row));
  }

  // Measured beside predicted on two workers; a row's error says why it has no figures.
  Table pair_table{.name = "predict-runtime",
                   .title = "Two workers: measured (real) beside predicted (pred) makespan, efficiency and tasks moved",
                   .columns = {{.name = "app", .left = true}, {.name = "strategy", .left = true},
                               {.name = "topology", .left = true}, {.name = "T_real", .format = "{:.4f}"},
                               {.name = "T_pred", .format = "{:.4f}"}, {.name = "error %", .format = "{:+.1f}", .written = false},
                               {.name = "eff_real", .format = "{:.3f}"}, {.name = "eff_pred", .format = "{:.3f}"},
                               {.name = "moved_real", .format = "{:.0f}"}, {.name = "moved_pred", .format = "{:.0f}"},
                               {.name = "error", .left = true}}};
  for (const PredictedRow& r : rows) {
    const std::string error = !r.error.empty() || r.same_result ? r.error : "result differs from the sequential run";
    if (!r.error.empty()) {
      pair_table.rows.push_back({r.app, r.strategy, r.topology, {}, {}, {}, {}, {}, {}, {}, error});
      continue;
    }
    pair_table.rows.push_back({r.app, r.strategy, r.topology, r.t_real, r.t_pred, 100 * r.relative_error(), r.eff_real,
                               r.eff_pred, r.moved_real, r.moved_pred, error});
  }
  // At scale: topology "-" and empty cells where the strategy refuses the size (or, at the largest, is not
  // predicted: the note says why).
  Table scale_table{.name = "predict-runtime-scale",
                    .title = "Predicted at scale: makespan s and efficiency",
                    .columns = {{.name = "app", .left = true}, {.name = "strategy", .left = true}}};
  const auto size_columns = [&](std::size_t n, bool with_work) {
    scale_table.columns.push_back({.name = fmt::format("topology_{}", n), .left = true, .printed = with_work});
    scale_table.columns.push_back({.name = fmt::format("T_{}", n), .format = "{:.4g}"});
    scale_table.columns.push_back({.name = fmt::format("eff_{}", n), .format = "{:.3f}"});
    scale_table.columns.push_back({.name = fmt::format("moved_{}", n), .format = "{:.0f}", .printed = with_work});
    if (with_work) scale_table.columns.push_back({.name = fmt::format("work_{}", n), .format = "{:.3g}"});
  };
  for (const std::size_t n : scales) size_columns(n, false);
  if (large) {
    size_columns(large_p, true);
    scale_table.columns.push_back({.name = fmt::format("note_{}", large_p), .left = true});
  }
  const auto number = [](double x) { return std::isnan(x) ? Cell{} : Cell{x}; };
  for (const ScaleRow& r : scale_rows) {
    std::vector<Cell> cells{r.app, r.strategy};
    for (std::size_t k = 0; k < scales.size(); ++k) {
      cells.push_back(r.topology[k]);
      for (const double x : {r.makespan[k], r.efficiency[k], r.moved[k]}) cells.push_back(number(x));
    }
    if (large) {
      cells.push_back(r.large_topology);
      for (const double x : {r.large_makespan, r.large_efficiency, r.large_moved, r.large_work}) cells.push_back(number(x));
      cells.push_back(r.large_note);
    }
    scale_table.rows.push_back(std::move(cells));
  }
  results.inputs = {{"engine", "threads"}, {"workers", 2}, {"runs", runs}, {"tiny", options.tiny},
                    {"at_65536", large}, {"event_budget", event_budget}, {"calibration", costs.to_json()},
                    {"cost_models", cost_models}};
  results.tables = {std::move(case_table), std::move(pair_table), std::move(scale_table)};
  results.figures = {{.name = "predict-runtime",
                      .table = "predict-runtime",
                      .ylabel = "makespan (s)",
                      .x = "strategy",
                      .panels = {{.title = "Two workers, threads engine: measured and predicted makespan",
                                  .series = {{.y = "T_real", .title = "measured"}, {.y = "T_pred", .title = "predicted"}}}},
                      .bars = true,
                      .y_from_zero = true,
                      .key = "top left",
                      .width = 900,
                      .height = 500,
                      .slanted_x_labels = true}};
  results.notes.push_back(fmt::format(
      "error % = T_pred / T_real - 1; efficiency = sequential time / (P T); an empty T at scale: the strategy "
      "refuses the size{}.",
      large ? fmt::format(", or on {} processors is not of the best four or not predicted (note_{})", large_p, large_p)
            : ""));
  results.notes.push_back("Real times are wall clock on this machine and change with its load; the predictions are "
                          "exact for the calibrated model (docs/predict.md).");
  return render(results, options);
}

}  // namespace

ReproductionInfo predict_runtime_reproduction() {
  return {.name = "predict-runtime",
          .description = "the simulator with a cost model calibrated on this machine beside real runs of the threads "
                         "engine on two workers, every strategy; then predictions for 64 and 1024 processors (and 65536: -p "
                         "at_65536=true)",
          .source = "dlbkit's own validation (docs/predict.md)",
          .params = predict_params(),
          .default_runs = 3,
          .run = predict_runtime,
          .scoreboard_skip = "no published figure: real runs on this machine beside their prediction"};
}

}  // namespace dlbkit
