// Every phase strategy (docs/phases.md) at the target's scale: one rebalance of 65 536 nodes x
// 100 objects, on torus:256x256 (hbm: hypercube:16), default parameters, on two phases:
// loads uniform in [0, 1) and the first phase of the hotspot workload (a hot spot over a
// 2-D mesh, with its halo). The target: at most 10 s of wall time each on the
// project's machine.
//
// Counters: wall_seconds (Rebalanced::wall_seconds, the strategy alone), objects_per_s
// (objects / wall_seconds), protocol rounds and messages, imbalance before and after,
// objects migrated, and the flow error where the strategy has one.

#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/topology/topology.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <benchmark/benchmark.h>

#include <random>

namespace {

constexpr std::size_t kNodes = 65536, kObjectsPerNode = 100;
const char* const kPhases[] = {"random", "hotspot"};

dlbkit::Phase make_phase(int which) {
  if (which == 1)
    return dlbkit::builtin_phase_workloads().configure("hotspot", {}).create()->first_phase(kNodes, 1);
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> load(0, 1);
  dlbkit::Phase phase{.nodes = kNodes};
  phase.objects.reserve(kNodes * kObjectsPerNode);
  for (dlbkit::NodeId v = 0; v < kNodes; ++v)
    for (std::size_t i = 0; i < kObjectsPerNode; ++i) {
      phase.objects.push_back({.id = phase.objects.size(), .load = load(rng)});
      phase.node_of.push_back(v);
    }
  return phase;
}

void BM_Rebalance(benchmark::State& state) {
  const auto& info = dlbkit::builtin_phase_strategies().all()[static_cast<std::size_t>(state.range(0))];
  const auto strategy = dlbkit::builtin_phase_strategies().configure(info.name, {});
  const dlbkit::Topology topology = dlbkit::parse_topology(info.name == "hbm" ? "hypercube:16" : "torus:256x256");
  const dlbkit::Phase phase = make_phase(static_cast<int>(state.range(1)));
  state.SetLabel(info.name + " " + kPhases[state.range(1)] + " " + topology.spec());
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
  state.counters["migrated"] = static_cast<double>(r.objects_migrated);
  if (r.flow_error) state.counters["flow_error"] = *r.flow_error;
}

void every_strategy(benchmark::internal::Benchmark* b) {
  const auto& all = dlbkit::builtin_phase_strategies().all();
  for (std::size_t s = 0; s < all.size(); ++s)
    if (all[s].name != "none")
      for (int p = 0; p < 2; ++p) b->Args({static_cast<long>(s), p});
}
BENCHMARK(BM_Rebalance)->Apply(every_strategy)->Iterations(1)->Unit(benchmark::kSecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
