// Round engine speed: node-updates per second of first-order diffusion (Cyb89 eq. 1a) on
// hypercube:20 and torus:4096x4096, beside the bandwidth bound measured in the same run by
// a plain copy between two arrays of doubles as long as the load vector. A diffusion update
// must at least read one load and write one, as a copy does, so the copy's elements per
// second bound the node-updates per second of one core.
//
// Counters: node_updates_per_s, copy_bound_per_s (elements copied per second, best of five
// copies right after the timed loop) and of_bound = node_updates_per_s / copy_bound_per_s
// (issue target: >= 0.5 on one core). Engine runs add the per-step error norm and max - min.
// A load vector that fits in the last-level cache (hypercube:20's 8 MiB) copies at cache
// speed; memory_copy_per_s and of_memory_bound give the same ratio against a copy of 2^25
// doubles (256 MiB), which only main memory holds, measured once per run.

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/round_engine.hpp>
#include <dlbkit/topology/topology.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <vector>

namespace {

const char* const kTopologies[] = {"hypercube:20", "torus:4096x4096"};

const dlbkit::Topology& topology(std::int64_t index) {
  static std::map<std::int64_t, dlbkit::Topology> cache;
  auto it = cache.find(index);
  if (it == cache.end()) it = cache.emplace(index, dlbkit::parse_topology(kTopologies[index])).first;
  return it->second;
}

double copy_rate(std::size_t n) {
  std::vector<double> a(n, 1.0), b(n, 0.0);
  double best = 0;
  for (int pass = 0; pass < 5; ++pass) {
    const auto start = std::chrono::steady_clock::now();
    std::copy(a.begin(), a.end(), b.begin());
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    best = std::max(best, static_cast<double>(n) / seconds);
  }
  return best;
}

void report(benchmark::State& state, std::size_t nodes, double updates, double seconds) {
  const double rate = updates / seconds;
  const double bound = copy_rate(nodes);
  state.SetLabel(kTopologies[state.range(0)]);
  state.counters["node_updates_per_s"] = rate;
  state.counters["copy_bound_per_s"] = bound;
  state.counters["of_bound"] = rate / bound;
  static const double memory_bound = copy_rate(std::size_t{1} << 25);
  state.counters["memory_copy_per_s"] = memory_bound;
  state.counters["of_memory_bound"] = rate / memory_bound;
}

dlbkit::DiffusionKernel optimal_hypercube_alpha_kernel(const dlbkit::Topology& t) {
  // alpha = 1/(max degree + 1): Cybenko's optimum on the hypercube (Sec. 3).
  return dlbkit::DiffusionKernel(dlbkit::DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1)));
}

// One diffusion step over all nodes by the kernel alone, on one core.
void BM_DiffusionKernel(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  const dlbkit::DiffusionKernel k = optimal_hypercube_alpha_kernel(t);
  std::vector<double> w = dlbkit::continuous_initial_load("uniform:100", t.size(), 1), next(t.size());
  const auto n = static_cast<dlbkit::NodeId>(t.size());
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    k.update(0, w, next, 0, n);
    std::swap(w, next);
    benchmark::ClobberMemory();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report(state, t.size(), static_cast<double>(state.iterations()) * n, seconds);
}
BENCHMARK(BM_DiffusionKernel)->DenseRange(0, 1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Ten steps through the round engine (error norm and max - min after every step), on
// range(1) threads.
void BM_DiffusionEngine(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  const dlbkit::DiffusionKernel k = optimal_hypercube_alpha_kernel(t);
  std::vector<double> w = dlbkit::continuous_initial_load("uniform:100", t.size(), 1);
  const dlbkit::RunOptions options{.until = dlbkit::StopRule::parse("steps:10"),
                                   .threads = static_cast<int>(state.range(1))};
  double seconds = 0;
  for (auto _ : state) seconds += dlbkit::run_rounds(k, w, options).seconds;
  report(state, t.size(), static_cast<double>(state.iterations()) * 10.0 * static_cast<double>(t.size()), seconds);
}
BENCHMARK(BM_DiffusionEngine)
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->ArgNames({"topology", "threads"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
