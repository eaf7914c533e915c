// predict-runtime: the simulator's prediction of a real run beside the run itself
// (docs/predict.md). The threads engine is calibrated first, on this machine, by the same
// probes as `dlbkit calibrate`; the application's time per unit of work comes from its
// sequential run.

#include <dlbkit/apps/runtime_apps.hpp>
#include <dlbkit/workloads/builtin.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/statistics.hpp>
#include "reproduce/predict.hpp"
#include "reproduce/trials.hpp"
#include <dlbkit/runtime/calibration.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/strategies/builtin.hpp>

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

struct Row {
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

ReproductionReport predict_runtime(const ReproductionOptions& options) {
  make_directory(options.out_dir);
  const Parameters params = Parameters::parse(predict_params(), options.params, "reproduction predict-runtime");
  const bool large = params.boolean("at_65536");
  const auto event_budget = static_cast<std::uint64_t>(params.integer("event_budget"));
  const std::size_t large_p = large_size(options.tiny);
  const int runs = std::max(1, options.runs);
  const EngineCosts costs = measure_engine_costs(
      "threads", [](AnyApplication& a, const RuntimeConfig& c) { return run_threads(a, c); },
      {.repetitions = options.tiny ? 20 : 200});
  const std::vector<std::size_t> scales = options.tiny ? std::vector<std::size_t>{64} : std::vector<std::size_t>{64, 1024};

  ReproductionReport report;
  std::string& out = report.text;
  out += fmt::format("threads engine calibrated: one-way message {:.0f} ns (median; {} round trips left out: a worker "
                     "lost its processor, docs/predict.md)\n\n",
                     costs.one_way_message, costs.round_trips_lost);
  std::vector<Row> rows;
  std::vector<ScaleRow> scale_rows;
  nlohmann::json case_data = nlohmann::json::array();
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
    CostModel cost = costs.model("calibrated-threads", TaskStack(app->task_bytes()).record_bytes());
    out += fmt::format("{}: app {} ({}), workload {} ({}), threads engine on this machine, median of {} run(s)\n",
                       c.label, c.app, app_choice.params.to_string(), c.workload, workload.params.to_string(), runs);
    out += fmt::format("calibrated model: {}\n", cost.to_json().dump());
    double sim_work = 0;
    std::size_t first_row = rows.size();
    for (const StrategyInfo& info : builtin_strategies().all()) {
      Row row{.app = c.label, .strategy = info.name};
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
    out += fmt::format("sequential run {:.4f} s measured; the simulated tasks' total work {:.4f} s\n\n", t_seq, sim_work);
    out += fmt::format("{:<20}{:<14}{:>10}{:>10}{:>8}{:>9}{:>9}{:>9}{:>9}\n", "strategy", "topology", "T real",
                       "T pred", "error", "eff real", "eff pred", "moved", "pred");
    std::vector<const Row*> ranked;
    for (std::size_t i = first_row; i < rows.size(); ++i) {
      const Row& r = rows[i];
      if (!r.error.empty()) {
        out += fmt::format("{:<20}{:<14}  error: {}\n", r.strategy, r.topology, r.error);
        continue;
      }
      ranked.push_back(&r);
      out += fmt::format("{:<20}{:<14}{:>10.4f}{:>10.4f}{:>7.1f}%{:>8.1f}%{:>8.1f}%{:>9.0f}{:>9.0f}{}\n", r.strategy,
                         r.topology, r.t_real, r.t_pred, 100 * r.relative_error(), 100 * r.eff_real, 100 * r.eff_pred,
                         r.moved_real, r.moved_pred, r.same_result ? "" : "  (result differs from sequential)");
    }
    std::sort(ranked.begin(), ranked.end(), [](const Row* a, const Row* b) { return a->t_real < b->t_real; });
    ranked.resize(std::min<std::size_t>(4, ranked.size()));
    int within = 0;
    std::string names;
    for (const Row* r : ranked) {
      within += std::abs(r->relative_error()) <= 0.10 ? 1 : 0;
      names += fmt::format("{}{} ({:+.1f}%)", names.empty() ? "" : ", ", r->strategy, 100 * r->relative_error());
    }
    out += fmt::format("\nbest {} by measured T: {}; predicted within 10%: {} of {} (target: all four)\n\n",
                       ranked.size(), names, within, ranked.size());

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
    out += "predicted at scale: makespan s (efficiency)\n";
    out += fmt::format("{:<20}", "strategy");
    for (std::size_t n : scales) out += fmt::format("{:>22}", fmt::format("P = {}", n));
    out += "\n";
    for (std::size_t s = first_scale; s < scale_rows.size(); ++s) {
      const ScaleRow& r = scale_rows[s];
      out += fmt::format("{:<20}", r.strategy);
      for (std::size_t k = 0; k < scales.size(); ++k)
        out += std::isnan(r.makespan[k])
                   ? fmt::format("{:>22}", "refuses the size")
                   : fmt::format("{:>22}", fmt::format("{:.4f} ({:.1f}%)", r.makespan[k], 100 * r.efficiency[k]));
      out += "\n";
    }
    out += "\n";

    // The best four on the largest size, on the scaled instance (at_65536).
    std::optional<WorkloadChoice> large_workload;
    if (large) {
      std::map<std::string, std::string> given = workload_given;
      for (const auto& [name, value] : c.large) given[name] = value;
      large_workload = builtin_workloads().configure(c.workload, given);
      std::vector<ScaleRow*> best;
      for (const Row* r : ranked)
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
          const SimulationResult p = predict(*topology, strategy, *large_workload, cost, event_budget);
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
      out += fmt::format("predicted on {} processors, the best four, instance {} ({}; the time per unit from the "
                         "sequential run above)\n",
                         large_p, c.large_label, large_workload->params.to_string());
      out += fmt::format("{:<20}{:<16}{:>12}{:>10}{:>11}{:>12}\n", "strategy", "topology", "T pred s", "eff", "moved",
                         "work/P s");
      for (const ScaleRow* r : best)
        out += std::isnan(r->large_makespan)
                   ? fmt::format("{:<20}{:<16}  not predicted: {}\n", r->strategy, r->large_topology, r->large_note)
                   : fmt::format("{:<20}{:<16}{:>12.3g}{:>9.3g}%{:>11.0f}{:>12.3g}\n", r->strategy, r->large_topology,
                                 r->large_makespan, 100 * r->large_efficiency, r->large_moved,
                                 r->large_work / static_cast<double>(large_p));
      out += "\n";
    }
    case_data.push_back({{"label", c.label},
                         {"app", c.app},
                         {"app_params", app_choice.params.to_json()},
                         {"workload", c.workload},
                         {"workload_params", workload.params.to_json()},
                         {"sequential_seconds", t_seq},
                         {"simulated_work_seconds", sim_work},
                         {"cost_model", cost.to_json()}});
    if (large_workload)
      case_data.back()["large"] = {{"label", c.large_label},
                                   {"processors", large_p},
                                   {"workload_params", large_workload->params.to_json()}};
  }
  out += "Real times are wall clock on this machine and change with its load; the predictions are exact for the "
         "calibrated model (docs/predict.md).\n";

  std::vector<std::vector<std::string>> csv;
  nlohmann::json row_data = nlohmann::json::array();
  for (const Row& r : rows) {
    csv.push_back({r.app, r.strategy, r.topology, csv_number(r.t_real), csv_number(r.t_pred), csv_number(r.eff_real),
                   csv_number(r.eff_pred), csv_number(r.moved_real), csv_number(r.moved_pred), r.error});
    row_data.push_back({{"app", r.app},
                        {"strategy", r.strategy},
                        {"topology", r.topology},
                        {"error", r.error},
                        {"same_result", r.same_result},
                        {"measured", {{"makespan", r.t_real}, {"efficiency", r.eff_real}, {"tasks_moved", r.moved_real}}},
                        {"predicted", {{"makespan", r.t_pred}, {"efficiency", r.eff_pred}, {"tasks_moved", r.moved_pred}}}});
  }
  const std::string csv_path = path_in(options, "predict-runtime.csv");
  write_csv(csv_path,
            {"app", "strategy", "topology", "T_real", "T_pred", "eff_real", "eff_pred", "moved_real", "moved_pred",
             "error"},
            csv);
  std::vector<std::string> header = {"app", "strategy"};
  for (std::size_t n : scales)
    for (const char* what : {"topology", "T", "eff", "moved"}) header.push_back(fmt::format("{}_{}", what, n));
  if (large)
    for (const char* what : {"topology", "T", "eff", "moved", "work", "note"})
      header.push_back(fmt::format("{}_{}", what, large_p));
  std::vector<std::vector<std::string>> scale_csv;
  nlohmann::json scale_data = nlohmann::json::array();
  for (const ScaleRow& r : scale_rows) {
    std::vector<std::string> line = {r.app, r.strategy};
    nlohmann::json points = nlohmann::json::array();
    for (std::size_t k = 0; k < scales.size(); ++k) {
      const bool ran = !std::isnan(r.makespan[k]);
      line.push_back(r.topology[k]);
      for (double x : {r.makespan[k], r.efficiency[k], r.moved[k]}) line.push_back(ran ? csv_number(x) : "");
      points.push_back({{"processors", scales[k]},
                        {"topology", r.topology[k]},
                        {"makespan", ran ? nlohmann::json(r.makespan[k]) : nlohmann::json()},
                        {"efficiency", ran ? nlohmann::json(r.efficiency[k]) : nlohmann::json()},
                        {"tasks_moved", ran ? nlohmann::json(r.moved[k]) : nlohmann::json()},
                        {"total_work", ran ? nlohmann::json(r.work[k]) : nlohmann::json()}});
    }
    if (large) {
      const bool ran = !std::isnan(r.large_makespan);
      line.push_back(r.large_topology);
      for (double x : {r.large_makespan, r.large_efficiency, r.large_moved, r.large_work})
        line.push_back(ran ? csv_number(x) : "");
      line.push_back(r.large_note);
      if (ran || !r.large_note.empty())  // the best four only
        points.push_back({{"processors", large_p},
                          {"instance", "scaled"},
                          {"topology", r.large_topology},
                          {"note", r.large_note},
                          {"makespan", ran ? nlohmann::json(r.large_makespan) : nlohmann::json()},
                          {"efficiency", ran ? nlohmann::json(r.large_efficiency) : nlohmann::json()},
                          {"tasks_moved", ran ? nlohmann::json(r.large_moved) : nlohmann::json()},
                          {"total_work", ran ? nlohmann::json(r.large_work) : nlohmann::json()}});
    }
    scale_csv.push_back(line);
    scale_data.push_back({{"app", r.app}, {"strategy", r.strategy}, {"points", points}});
  }
  const std::string scale_path = path_in(options, "predict-runtime-scale.csv");
  write_csv(scale_path, header, scale_csv);

  // Measured beside predicted makespan, one pair of bars per strategy.
  const std::string png = path_in(options, "predict-runtime.png");
  std::string script = gnuplot_png_header(png, 900, 500);
  script += fmt::format(
      "set title 'Two workers, threads engine: measured and predicted makespan'\nset ylabel 'makespan (s)'\n"
      "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.7 border -1\n"
      "set xtics rotate by -40\nset key top left\nset yrange [0:*]\n"
      "plot '{}' using 4:xtic(2) skip 1 title 'measured', '' using 5 skip 1 title 'predicted'\n",
      csv_path);
  run_gnuplot(path_in(options, "predict-runtime.gp"), script);
  report.files = {csv_path, scale_path, png};
  report.data = {{"inputs", {{"engine", "threads"}, {"workers", 2}, {"runs", runs}, {"tiny", options.tiny}, {"at_65536", large}, {"event_budget", event_budget}}},
                 {"calibration", costs.to_json()},
                 {"cases", case_data},
                 {"rows", row_data},
                 {"scale", scale_data}};
  return report;
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
