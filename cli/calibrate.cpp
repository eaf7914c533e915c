// dlbkit calibrate: the runtime's costs on this machine, measured by runs of the engine
// itself, written as a cost model file for `dlbkit simulate --cost file:PATH`
// (docs/predict.md says how each figure is measured). The measuring and the file are
// calibrate_command()'s; this prints the result.

#include "commands.hpp"

#include <dlbkit/apps/calibrate_command.hpp>
#include <dlbkit/error.hpp>
#ifdef DLBKIT_HAS_MPI
#include <dlbkit/runtime/mpi_engine.hpp>
#endif

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace dlbkit::cli {

namespace {

struct Options {
  CalibrateInputs in;
  bool json = false;
};

void print_report(const CalibrateInputs& in, const CalibrationResult& r) {
  const EngineCosts& costs = r.costs;
  const CalibrationOptions& options = costs.options;
  fmt::print("calibrated the {} engine ({} repetitions, medians), wrote {}\n\n", in.engine, in.repetitions, in.output);
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
  fmt::print("  busy loop            {:>10.1f} ns\n", r.loop_ns);
  std::string per_unit;
  for (const char* unit : {"step", "loop", "node"})
    if (const auto it = r.app.find(fmt::format("ns_per_{}", unit)); it != r.app.end())
      per_unit = fmt::format(", {:.1f} ns per {}", it->get<double>(), unit);
  fmt::print("  app {:<16} {:>10.1f} ns per task{}\n", r.app["name"].get<std::string>(),
             r.app["ns_per_task"].get<double>(), per_unit);
  fmt::print("\n  cost model           {}\n", json_text(r.model.to_json(), -1));
}

int calibrate(const Options& o, const EngineRun& run = {}, int rank = 0) {
  const std::optional<CalibrationResult> r = calibrate_command(o.in, run, rank);
  if (!r) return 0;
  if (o.json)
    fmt::print("{}\n", json_text(to_json(*r)));
  else
    print_report(o.in, *r);
  return 0;
}

}  // namespace

Run add_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure the runtime's costs on this machine and write them as a cost "
                                              "model file (simulate --cost file:PATH)");
  auto o = std::make_shared<Options>();
  cmd->add_option("-e,--engine", o->in.engine, "threads, or mpi (under mpirun -np 2)")
      ->check(one_of({"threads", "mpi"}))
      ->capture_default_str();
  cmd->add_option("-o,--output", o->in.output, "the cost model file to write (JSON)")->required();
  cmd->add_option("-a,--app", o->in.app, "the application whose time per task is measured (dlbkit list apps)")
      ->capture_default_str();
  cmd->add_option("--app-param", o->in.app_params, "application parameter name=value (repeatable)");
  cmd->add_option("--name", o->in.name, "the cost model's name (default calibrated-ENGINE)");
  cmd->add_option("--repetitions", o->in.repetitions, "round trips, bursts and poll batches per figure")
      ->check(integer_in(2, 100000))
      ->capture_default_str();
  cmd->add_option("--app-runs", o->in.app_runs, "sequential runs of the application")
      ->check(integer_in(1, 1000))
      ->capture_default_str();
  cmd->add_option("--poll-interval", o->in.poll_interval, "the runtime's check interval (dlbkit run --poll-interval)")
      ->capture_default_str();
  cmd->add_flag("--json", o->json, "print the written file instead of the table");
  return [o] {
    if (o->in.engine == "threads") return calibrate(*o);
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
    return calibrate(*o, [&mpi](AnyApplication& a, const RuntimeConfig& c) { return run_mpi(a, c, mpi); }, mpi.rank());
#else
    throw InputError("--engine 'mpi'; accepted: threads (this dlbkit was built without MPI)");
#endif
  };
}

}  // namespace dlbkit::cli
