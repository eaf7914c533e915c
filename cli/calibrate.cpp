// dlbkit calibrate: the runtime's costs on this machine, measured by runs of the engine
// itself, written as a cost model file for `dlbkit simulate --cost file:PATH`
// (docs/predict.md says how each figure is measured). The measuring and the file are
// calibrate_command()'s; this prints the result. Under MPI it adds the plan API's own costs
// (objects/balancer.hpp), which the task runtime's layers below it do not know.

#include "commands.hpp"

#include <dlbkit/apps/calibrate_command.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/io/output_file.hpp>
#ifdef DLBKIT_HAS_MPI
#include <dlbkit/objects/balancer.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/phases/protocol_meter.hpp>
#include <dlbkit/runtime/mpi_engine.hpp>
#include <dlbkit/sim/statistics.hpp>
#endif

#include <fmt/format.h>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace dlbkit::cli {

namespace {

struct CalibrateOptions {
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
  if (in.engine == "mpi")
    fmt::print("  plan API             {:>10} ns   per round, {} ns per step, {:.1f} ns per object (beyond its messages "
               "and collectives)\n",
               r.model.protocol_round, r.model.protocol_step, r.model.protocol_object);
  std::string per_unit;
  for (const char* unit : {"step", "loop", "node"})
    if (const auto it = r.app.find(fmt::format("ns_per_{}", unit)); it != r.app.end())
      per_unit = fmt::format(", {:.1f} ns per {}", it->get<double>(), unit);
  fmt::print("  app {:<16} {:>10.1f} ns per task{}\n", r.app["name"].get<std::string>(),
             r.app["ns_per_task"].get<double>(), per_unit);
  fmt::print("\n  cost model           {}\n", json_text(r.model.to_json(), -1));
}

// The file's text, as calibrate_command() writes it.
std::string file_text(const nlohmann::json& file) {
  return file.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

void print(const CalibrateOptions& o, const CalibrationResult& r, const nlohmann::json& file) {
  if (o.json)
    fmt::print("{}\n", json_text(file));
  else
    print_report(o.in, r);
}

#ifdef DLBKIT_HAS_MPI
// An agent that sends nothing and is done in round `rounds` - 1: a step of the plan API with
// nothing in it but the API's own work.
class Idle : public RankProtocol {
public:
  explicit Idle(std::uint64_t rounds) : rounds_(rounds) {}
  void round(const RoundInput& in, RoundOutput& out) override { out.done = in.round + 1 >= rounds_; }
  std::vector<ObjectMove> departures() const override { return {}; }
  std::vector<ObjectMove> arrivals() const override { return {}; }
  double load() const override { return 0; }

private:
  std::uint64_t rounds_;
};

constexpr std::uint64_t kIdleRounds = 50;
constexpr std::uint64_t kIdleObjects = 2000;  // a rank's, for the plan API's time per object

// This rank's kIdleObjects objects, of load 1, their ids distinct over the ranks.
LocalPhase idle_objects() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  LocalPhase mine;
  for (std::uint64_t k = 0; k < kIdleObjects; ++k)
    mine.objects.push_back({.id = static_cast<std::uint64_t>(rank) * kIdleObjects + k, .load = 1});
  return mine;
}

RankProtocolFactory idle_agents(std::uint64_t rounds) {
  return [rounds](const RankSetup&) { return std::make_unique<Idle>(rounds); };
}

// A Balancer (MPI, this session's two ranks) whose strategy is idle agents of `rounds` rounds.
std::unique_ptr<Balancer> idle_balancer(std::uint64_t rounds) {
  PhaseStrategyInfo idle{.name = fmt::format("idle-{}", rounds), .description = "calibration: rounds without messages",
                         .create = [](const Parameters&) -> std::unique_ptr<PhaseStrategy> { return nullptr; },
                         .rank_protocol = [make = idle_agents(rounds)](const Parameters&, const RankSetup& setup) {
                           return make(setup);
                         }};
  return std::make_unique<Balancer>(BalancerOptions{.engine = "mpi"}, std::move(idle));
}

// Collective: the median over `repetitions` of the slowest rank's plan() of `mine`, in ns.
double median_step_ns(Balancer& balancer, int repetitions, const LocalPhase& mine = {}) {
  std::vector<double> samples;
  for (int k = 0; k < repetitions; ++k) {
    const double seconds = balancer.plan(mine).decision_seconds;
    double slowest = 0;
    MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    samples.push_back(slowest * 1e9);
  }
  return median(samples);
}

// What the cost model `model` already prices of a step of idle agents of `rounds` rounds on
// two ranks (each round's collectives).
double priced_ns(const CostModel& model, std::uint64_t rounds) {
  ProtocolMeter meter(2, model);
  run_protocol_in_process(meter.metered(idle_agents(rounds)), std::vector<LocalPhase>(2), parse_topology("complete:2"),
                          std::numeric_limits<double>::infinity(), 1);
  meter.finish();
  return static_cast<double>(meter.time());
}

// Collective: the plan API's own costs (CostModel::protocol_round, protocol_step and
// protocol_object) into rank 0's model, from steps of idle agents of 1 and of 1 + kIdleRounds
// rounds, and of 1 round with kIdleObjects objects a rank (after a step of each, not timed:
// MPI's first messages), beyond what the model prices already; on rank 0 the figures measured.
nlohmann::json measure_plan_api(CalibrationResult* r, int repetitions) {
  const auto one = idle_balancer(1), more = idle_balancer(1 + kIdleRounds);
  const LocalPhase objects = idle_objects();
  (void)one->plan(LocalPhase{});
  (void)more->plan(LocalPhase{});
  (void)one->plan(objects);
  const double step1 = median_step_ns(*one, repetitions), step_more = median_step_ns(*more, repetitions);
  const double step_objects = median_step_ns(*one, repetitions, objects);
  if (!r) return {};
  CostModel& m = r->model;
  const double round = (step_more - step1 - (priced_ns(m, 1 + kIdleRounds) - priced_ns(m, 1))) / kIdleRounds;
  m.protocol_round = std::max<SimTime>(0, std::llround(round));
  m.protocol_step = std::max<SimTime>(0, std::llround(step1 - priced_ns(m, 1) - static_cast<double>(m.protocol_round)));
  m.protocol_object = std::max(0.0, (step_objects - step1) / kIdleObjects);
  m.protocol_compute = 1;  // the agents' computation as this machine times it (protocol_meter.hpp)
  return {{"method", "Balancer steps of agents that send nothing, medians of the slowest rank's decision time"},
          {"step_ns_1_round", step1}, {fmt::format("step_ns_{}_rounds", 1 + kIdleRounds), step_more},
          {fmt::format("step_ns_1_round_{}_objects", kIdleObjects), step_objects}};
}

// Collective over the session's two ranks: calibrate_command() and the plan API's costs.
int calibrate_mpi(const CalibrateOptions& o, MpiSession& mpi) {
  CalibrateInputs in = o.in;
  in.output.clear();  // written below, with the plan API's costs
  std::optional<CalibrationResult> r = calibrate_command(
      in, [&mpi](AnyApplication& a, const RuntimeConfig& c) { return run_mpi(a, c, mpi); }, mpi.rank());
  const nlohmann::json plan_api = measure_plan_api(r ? &*r : nullptr, o.in.repetitions);
  if (!r) return 0;
  nlohmann::json file = to_json(*r);
  file["calibration"]["plan_api"] = plan_api;
  write_text_file(o.in.output, file_text(file));
  print(o, *r, file);
  return 0;
}
#endif

int calibrate(const CalibrateOptions& o) {
  if (const std::optional<CalibrationResult> r = calibrate_command(o.in)) print(o, *r, to_json(*r));
  return 0;
}

}  // namespace

Run add_calibrate(CLI::App& app) {
  auto* cmd = app.add_subcommand("calibrate", "Measure the runtime's costs on this machine and write them as a cost "
                                              "model file (simulate --cost file:PATH)");
  auto o = std::make_shared<CalibrateOptions>();
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
    return calibrate_mpi(*o, mpi);
#else
    throw InputError("--engine 'mpi'; accepted: threads (this dlbkit was built without MPI)");
#endif
  };
}

}  // namespace dlbkit::cli
