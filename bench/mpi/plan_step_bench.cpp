// One balancing step of dlbkit::Balancer (objects/balancer.hpp) under MPI, measured:
//   mpirun -np R build/bench/plan_step_bench --strategy S [--param k=v] [--objects N] [--steps K]
//                                            [--warmup W] [--timed T] [--topology T] [--predict MODEL]
// Each rank holds N objects whose loads make a hot spot around rank 0 (loads 1 + 9 exp(-(r /
// (0.1 R))^2), each times 0.95..1.05 at random); W plans of them, not carried out and not
// timed (the first use of MPI's connections, of the code and of the memory), then K steps in
// a row, each planned T times (its decision time the median of the T) and carried out once by
// migrate() (the objects travel with their loads). Prints one JSON
// line on rank 0: per step the decision's wall time (the slowest rank's), its protocol
// messages and rounds, the imbalance before and after and the objects moved; and each rank's
// peak resident memory (rank 0's beside the others' largest), the figure that shows whether
// one rank holds everyone's objects.
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/objects/balancer.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/phases/protocol_meter.hpp>

#include <mpi.h>
#include <sys/resource.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

struct Settings {
  dlbkit::BalancerOptions balancer{.engine = "mpi"};
  std::uint64_t objects = 1000;
  int steps = 3;
  int warmup = 0;
  int timed = 1;        // plans of each step, its decision time their median
  std::string predict;  // a cost model; empty: no prediction
};

Settings parse(int argc, char** argv) {
  Settings s;
  for (int k = 1; k + 1 < argc; k += 2) {
    const std::string name = argv[k], value = argv[k + 1];
    if (name == "--strategy") s.balancer.strategy = value;
    else if (name == "--param") s.balancer.params.push_back(value);
    else if (name == "--objects") s.objects = std::stoull(value);
    else if (name == "--steps") s.steps = std::stoi(value);
    else if (name == "--warmup") s.warmup = std::stoi(value);
    else if (name == "--timed") s.timed = std::stoi(value);
    else if (name == "--topology") s.balancer.topology = value;
    else if (name == "--predict") s.predict = value;
    else throw dlbkit::InputError(fmt::format(
        "option '{}'; accepted: --strategy, --param, --objects, --steps, --warmup, --timed, --topology, --predict",
        name));
  }
  if (argc % 2 == 0) throw dlbkit::InputError(fmt::format("option '{}' without a value", argv[argc - 1]));
  if (s.timed < 1) throw dlbkit::InputError(fmt::format("--timed {}; accepted: 1 or more", s.timed));
  return s;
}

// Rank r's objects: a hot spot around rank 0.
dlbkit::LocalPhase objects_of(int rank, int size, std::uint64_t objects) {
  dlbkit::LocalPhase mine;
  dlbkit::Rng rng(7, static_cast<std::uint64_t>(rank));
  const double distance = static_cast<double>(rank) / (0.1 * size);
  const double base = 1 + 9 * std::exp(-distance * distance);
  for (std::uint64_t k = 0; k < objects; ++k)
    mine.objects.push_back({.id = static_cast<std::uint64_t>(rank) * objects + k,
                            .load = base * (0.95 + 0.1 * rng.uniform())});
  return mine;
}

// The first step of a strategy with a rank protocol, simulated: its time and messages.
std::string predict(const Settings& s, int size) {
  const auto choice = dlbkit::builtin_phase_strategies().configure(
      s.balancer.strategy, dlbkit::assignments(s.balancer.params, "--param"));
  const dlbkit::RankProtocolFactory make = dlbkit::rank_protocol_factory(choice);
  if (!make) return "";
  std::vector<dlbkit::LocalPhase> ranks;
  for (int r = 0; r < size; ++r) ranks.push_back(objects_of(r, size, s.objects));
  const dlbkit::CostModel cost = dlbkit::make_cost_model(s.predict);
  const dlbkit::Topology topology = dlbkit::parse_topology(
      s.balancer.topology == "auto" ? fmt::format("complete:{}", size) : s.balancer.topology);
  // As many steps not metered as the measured side's warm-up, so that where the agents'
  // computation is timed (protocol_compute) it is timed warm alike; then the median of 5
  // metered steps (the same rounds and messages; the timed computation varies).
  for (int k = 0; k < s.warmup; ++k)
    dlbkit::run_protocol_in_process(make, ranks, topology, s.balancer.memory_bound, s.balancer.seed);
  std::vector<double> seconds;
  std::uint64_t messages = 0, rounds = 0;
  for (int k = 0; k < 5; ++k) {
    dlbkit::ProtocolMeter meter(ranks.size(), cost);
    dlbkit::run_protocol_in_process(meter.metered(make), ranks, topology, s.balancer.memory_bound, s.balancer.seed);
    meter.finish();
    seconds.push_back(static_cast<double>(meter.time()) * 1e-9);
    messages = meter.messages();
    rounds = meter.rounds();
  }
  std::nth_element(seconds.begin(), seconds.begin() + 2, seconds.end());
  return fmt::format(R"("predicted_seconds": {}, "predicted_messages": {}, "predicted_rounds": {}, )", seconds[2],
                     messages, rounds);
}

double peak_resident_bytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) * 1024;  // Linux: kilobytes
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int status = 0;
  try {
    const Settings s = parse(argc, argv);
    dlbkit::Balancer balancer(s.balancer);
    dlbkit::LocalPhase mine = objects_of(rank, size, s.objects);
    std::string prediction;
    if (rank == 0 && !s.predict.empty()) prediction = predict(s, size);
    for (int k = 0; k < s.warmup; ++k) (void)balancer.plan(mine);
    std::vector<std::string> steps;
    for (int step = 0; step < s.steps; ++step) {
      std::vector<double> slowest_of(static_cast<std::size_t>(s.timed));
      dlbkit::MigrationPlan plan;
      for (double& slowest : slowest_of) {
        plan = balancer.plan(mine);
        MPI_Reduce(&plan.decision_seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      }
      std::nth_element(slowest_of.begin(), slowest_of.begin() + s.timed / 2, slowest_of.end());
      const double slowest = slowest_of[static_cast<std::size_t>(s.timed / 2)];
      // The objects travel with their loads; the departed ones leave this rank's list.
      std::unordered_map<std::uint64_t, std::size_t> at;
      for (std::size_t k = 0; k < mine.objects.size(); ++k) at[mine.objects[k].id] = k;
      std::vector<bool> leaves(mine.objects.size(), false);
      std::vector<dlbkit::PhaseObject> arrived;
      balancer.migrate(
          plan,
          [&](std::uint64_t id) {
            leaves[at.at(id)] = true;
            return mine.objects[at.at(id)];
          },
          [&](std::uint64_t, const dlbkit::PhaseObject& o) { arrived.push_back(o); });
      std::vector<dlbkit::PhaseObject> kept;
      for (std::size_t k = 0; k < mine.objects.size(); ++k)
        if (!leaves[k]) kept.push_back(mine.objects[k]);
      kept.insert(kept.end(), arrived.begin(), arrived.end());
      mine.objects = std::move(kept);
      steps.push_back(fmt::format(R"({{"decision_seconds": {}, "protocol_messages": {}, "protocol_rounds": {}, )"
                                  R"("imbalance_before": {}, "imbalance_after": {}, "objects_migrated": {}}})",
                                  slowest, plan.protocol_messages, plan.protocol_rounds, plan.imbalance_before,
                                  plan.imbalance_after, plan.objects_migrated));
    }
    const double peak = peak_resident_bytes();
    std::vector<double> peaks(static_cast<std::size_t>(size));
    MPI_Gather(&peak, 1, MPI_DOUBLE, peaks.data(), 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      const double others = size > 1 ? *std::max_element(peaks.begin() + 1, peaks.end()) : peak;
      fmt::print(R"({{"ranks": {}, "strategy": "{}", "objects_per_rank": {}, {}"steps": [{}], )"
                 R"("peak_resident_bytes_rank0": {}, "peak_resident_bytes_others_max": {}, "rank0_over_others": {}}})"
                 "\n",
                 size, s.balancer.strategy, s.objects, prediction, fmt::join(steps, ", "), peak, others, peak / others);
    }
  } catch (const std::exception& e) {
    if (rank == 0) std::fprintf(stderr, "plan_step_bench: error: %s\n", e.what());
    status = 2;
  }
  MPI_Finalize();
  return status;
}
