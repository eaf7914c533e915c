// The flow phase strategies (diffusion, dimension_exchange, sos, chebyshev, hbm;
// phases/flows.hpp) at the scale: one rebalance of 65 536 nodes x 100 objects with
// loads uniform in [0, 1), on torus:256x256 and hypercube:16 (hbm: hypercube only); issue
// target: at most 10 s of wall time each on the project's machine. Default parameters.
//
// Counters: wall_seconds (Rebalanced::wall_seconds, the strategy alone), objects_per_s
// (objects / wall_seconds), the scheme's rounds and protocol messages, imbalance before and
// after, flow_error and objects migrated.

#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/topology/topology.hpp>

#include <benchmark/benchmark.h>

#include <random>

namespace {

const char* const kStrategies[] = {"diffusion", "dimension_exchange", "sos", "chebyshev", "hbm"};
const char* const kTopologies[] = {"torus:256x256", "hypercube:16"};
constexpr std::size_t kObjectsPerNode = 100;

dlbkit::Phase random_phase(std::size_t nodes) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> load(0, 1);
  dlbkit::Phase phase{.nodes = nodes};
  phase.objects.reserve(nodes * kObjectsPerNode);
  for (dlbkit::NodeId v = 0; v < nodes; ++v)
    for (std::size_t i = 0; i < kObjectsPerNode; ++i) {
      phase.objects.push_back({.id = phase.objects.size(), .load = load(rng)});
      phase.node_of.push_back(v);
    }
  return phase;
}

void BM_FlowRebalance(benchmark::State& state) {
  const auto strategy = dlbkit::builtin_phase_strategies().configure(kStrategies[state.range(0)], {});
  const dlbkit::Topology topology = dlbkit::parse_topology(kTopologies[state.range(1)]);
  const dlbkit::Phase phase = random_phase(topology.size());
  state.SetLabel(std::string(kStrategies[state.range(0)]) + " " + kTopologies[state.range(1)]);
  dlbkit::Rebalanced r;
  for (auto _ : state) {
    r = dlbkit::rebalance(strategy, phase, topology, {});
    benchmark::DoNotOptimize(r.mapping.data());
  }
  state.counters["wall_seconds"] = r.wall_seconds;
  state.counters["objects_per_s"] = static_cast<double>(phase.objects.size()) / r.wall_seconds;
  state.counters["protocol_rounds"] = static_cast<double>(r.rounds);
  state.counters["messages"] = static_cast<double>(r.messages);
  state.counters["imbalance_before"] = r.before.imbalance;
  state.counters["imbalance_after"] = r.after.imbalance;
  state.counters["flow_error"] = r.flow_error.value_or(-1);
  state.counters["migrated"] = static_cast<double>(r.objects_migrated);
}
BENCHMARK(BM_FlowRebalance)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1}})
    ->Args({4, 1})  // hbm: hypercubes only
    ->Iterations(1)
    ->Unit(benchmark::kSecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
