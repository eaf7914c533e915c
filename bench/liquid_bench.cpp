// Liquid model speed: processor-updates per second of LM-C5 (Henrich Definition 1) on
// torus:4096x4096 and ring:16777216, beside the bandwidth bound measured in the same run by a
// plain copy between two arrays of 64-bit loads as long as the load vector. One shift must at
// least read every load and write every new one, as a copy does, so the copy's elements per
// second bound the processor-updates per second of one core.
//
// One processor-update = one processor's sub-step in one dimension (one shift); a Definition-1
// step on the 2-D torus is two. Steps alternate the dimensions, as the model does.
//
// Counters: updates_per_s, copy_bound_per_s (best of five copies right after the timed loop),
// of_bound = updates_per_s / copy_bound_per_s (target: >= 0.5 on one core). Both rates are
// per second of this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that other processes on a
// shared machine do not skew the ratio; on a quiet machine CPU and wall time agree. path 0 = the
// default (vectorised runs at fixed offsets), 1 = the reference path (coordinates per node).
// BM_LiquidToBalance adds the driver's per-shift check (max - min, fixed point) on a ring.

#include <dlbkit/rounds/balance_time.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/liquid.hpp>
#include <dlbkit/topology/topology.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <vector>

namespace {

const char* const kTopologies[] = {"torus:4096x4096", "ring:16777216"};

const dlbkit::Topology& topology(std::int64_t index) {
  static std::map<std::int64_t, dlbkit::Topology> cache;
  auto it = cache.find(index);
  if (it == cache.end()) it = cache.emplace(index, dlbkit::parse_topology(kTopologies[index])).first;
  return it->second;
}

double cpu_seconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

double copy_rate(std::size_t n) {
  std::vector<std::int64_t> a(n, 1), b(n, 0);
  double best = 0;
  for (int pass = 0; pass < 5; ++pass) {
    const double start = cpu_seconds();
    std::copy(a.begin(), a.end(), b.begin());
    benchmark::DoNotOptimize(b.data());
    benchmark::ClobberMemory();
    const double seconds = cpu_seconds() - start;
    best = std::max(best, static_cast<double>(n) / seconds);
  }
  return best;
}

void report(benchmark::State& state, const char* label, std::size_t nodes, double updates, double seconds) {
  const double rate = updates / seconds;
  const double bound = copy_rate(nodes);
  state.SetLabel(label);
  state.counters["updates_per_s"] = rate;
  state.counters["copy_bound_per_s"] = bound;
  state.counters["of_bound"] = rate / bound;
}

// One shift over all processors by the kernel alone, on one core.
void BM_LiquidKernel(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  const dlbkit::LiquidKernel k(t, dlbkit::ShiftCondition::c5,
                               state.range(1) == 0 ? dlbkit::LiquidPath::fast : dlbkit::LiquidPath::reference);
  std::vector<std::int64_t> w = dlbkit::integer_initial_load("uniform:100", t.size(), 1), next(t.size());
  const auto n = static_cast<dlbkit::NodeId>(t.size());
  std::uint64_t step = 0;
  const double start = cpu_seconds();
  for (auto _ : state) {
    k.update(step++, w, next, 0, n);
    std::swap(w, next);
    benchmark::ClobberMemory();
  }
  const double seconds = cpu_seconds() - start;
  report(state, kTopologies[state.range(0)], t.size(), static_cast<double>(state.iterations()) * n, seconds);
}
BENCHMARK(BM_LiquidKernel)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"topology", "path"})
    ->Unit(benchmark::kMillisecond);

// Ten shifts through run_to_balance (max - min and the fixed-point check after every shift).
void BM_LiquidToBalance(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  const dlbkit::LiquidKernel k(t, dlbkit::ShiftCondition::c5);
  std::vector<std::int64_t> w = dlbkit::integer_initial_load("uniform:100", t.size(), 1);
  const double start = cpu_seconds();
  for (auto _ : state) dlbkit::run_to_balance(k, w, {.stop_when_balanced = false, .max_shifts = 10});
  const double seconds = cpu_seconds() - start;
  report(state, kTopologies[state.range(0)], t.size(), static_cast<double>(state.iterations()) * 10.0 * t.size(),
         seconds);
}
BENCHMARK(BM_LiquidToBalance)->DenseRange(0, 1)->ArgName("topology")->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
