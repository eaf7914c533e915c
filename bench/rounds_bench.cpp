// Round loop speed: node-updates per second of first-order diffusion (Cyb89 eq. 1a), of SOS
// and Chebyshev, of an OPS step, and of the integer roundings on hypercube:20 and
// torus:4096x4096, beside the bandwidth bound measured in the same run by
// a plain copy between two arrays of doubles as long as the load vector. A diffusion update
// must at least read one load and write one, as a copy does, so the copy's elements per
// second bound the node-updates per second of one core.
//
// Counters: node_updates_per_s, copy_bound_per_s (elements copied per second, best of five
// copies right after the timed loop) and of_bound = node_updates_per_s / copy_bound_per_s
// (target: >= 0.5 on one core). Engine runs add the per-step error norm and max - min.
// A load vector that fits in the last-level cache (hypercube:20's 8 MiB) copies at cache
// speed; memory_copy_per_s and of_memory_bound give the same ratio against a copy of 2^25
// doubles (256 MiB), which only main memory holds, measured once per run.
// In bytes: bytes_per_s counts the traffic a kernel cannot avoid (FOS reads w and writes w',
// 16 bytes a node; a second-order step also reads w(t-1), 24 bytes), memory_copy_bytes_per_s
// the copy's 16 bytes an element, and of_memory_bandwidth is their ratio: the fraction of the
// memory-copy bound, comparable between FOS and SOS.

#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/rounds/round_loop.hpp>
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

void report(benchmark::State& state, std::size_t nodes, double updates, double seconds, double bytes_per_update = 16) {
  const double rate = updates / seconds;
  const double bound = copy_rate(nodes);
  state.SetLabel(kTopologies[state.range(0)]);
  state.counters["node_updates_per_s"] = rate;
  state.counters["copy_bound_per_s"] = bound;
  state.counters["of_bound"] = rate / bound;
  static const double memory_bound = copy_rate(std::size_t{1} << 25);
  state.counters["memory_copy_per_s"] = memory_bound;
  state.counters["of_memory_bound"] = rate / memory_bound;
  state.counters["bytes_per_s"] = rate * bytes_per_update;
  state.counters["memory_copy_bytes_per_s"] = memory_bound * 2 * sizeof(double);
  state.counters["of_memory_bandwidth"] = rate * bytes_per_update / (memory_bound * 2 * sizeof(double));
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

// Ten steps through the round loop (error norm and max - min after every step), on
// range(1) threads.
void BM_DiffusionEngine(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  const dlbkit::DiffusionKernel k = optimal_hypercube_alpha_kernel(t);
  std::vector<double> w = dlbkit::continuous_initial_load("uniform:100", t.size(), 1);
  const dlbkit::RoundLoopOptions options{.until = dlbkit::StopRule::parse("steps:10"),
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

// One SOS (range(1) = 0) or Chebyshev (1) step by the kernel alone, in the engine's buffer
// discipline: `next` holds w(t-1) on entry. Steps past the first, where beta != 1 (Chebyshev
// at step 3, still varying). A second-order step reads two vectors and writes one, in one pass
// (DiffusionKernel::update_second_order): 1.5 times the traffic of the copy the bound counts.
void BM_SecondOrderKernel(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  dlbkit::DiffusionMatrix m = dlbkit::DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
  const double gamma = dlbkit::scheme_spectrum(m).gamma;
  const dlbkit::PolynomialKernel k = state.range(1) == 0 ? dlbkit::PolynomialKernel::sos(std::move(m), gamma, {})
                                                         : dlbkit::PolynomialKernel::chebyshev(std::move(m), gamma, {});
  std::vector<double> w = dlbkit::continuous_initial_load("uniform:100", t.size(), 1), next = w;
  const auto n = static_cast<dlbkit::NodeId>(t.size());
  const auto start = std::chrono::steady_clock::now();
  for (auto _ : state) {
    k.update(3, w, next, 0, n);
    std::swap(w, next);
    benchmark::ClobberMemory();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  report(state, t.size(), static_cast<double>(state.iterations()) * n, seconds, 24);
}
BENCHMARK(BM_SecondOrderKernel)
    ->ArgsProduct({{0, 1}, {0, 1}})
    ->ArgNames({"topology", "chebyshev"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// One OPS step (s_t = 1/mu_k != 1) on torus:4096x4096 by the kernel alone; OPS needs m - 1 of
// them, m the distinct eigenvalues (steps_for_exact_balance).
void BM_OpsTorusStep(benchmark::State& state) {
  const dlbkit::Topology& t = topology(1);
  dlbkit::DiffusionMatrix m = dlbkit::DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
  const auto mu = dlbkit::distinct_graph_laplacian_eigenvalues(t);
  // The kernel needs only the first steps' eigenvalues here; Leja-ordering all 2.1 million
  // would take hours, so the step uses the largest few.
  std::vector<double> few(mu->end() - 8, mu->end());
  for (double& x : few) x /= static_cast<double>(t.max_degree() + 1);
  few.insert(few.begin(), 0.0);
  const dlbkit::PolynomialKernel k = dlbkit::PolynomialKernel::ops(std::move(m), few, {});
  std::vector<double> w = dlbkit::continuous_initial_load("uniform:100", t.size(), 1), next(t.size());
  const auto n = static_cast<dlbkit::NodeId>(t.size());
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t step = 0;
  for (auto _ : state) {
    k.update(step++, w, next, 0, n);
    std::swap(w, next);
    benchmark::ClobberMemory();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.SetLabel(kTopologies[1]);
  state.counters["node_updates_per_s"] = static_cast<double>(state.iterations()) * n / seconds;
  state.counters["steps_for_exact_balance"] = static_cast<double>(mu->size() - 1);
  state.counters["seconds_for_exact_balance"] =
      static_cast<double>(mu->size() - 1) * seconds / static_cast<double>(state.iterations());
}
BENCHMARK(BM_OpsTorusStep)->Unit(benchmark::kMillisecond)->UseRealTime();

// One integer first-order step (alpha = 1/(degree + 1)) by the kernel alone, rounding
// range(1): 0 deterministic (DiffusionKernel), 1 randomized, 2 flow imitation, 3 deterministic
// through PolynomialKernel's neighbour-list path (what the coin costs beside it).
void BM_IntegerRounding(benchmark::State& state) {
  const dlbkit::Topology& t = topology(state.range(0));
  dlbkit::DiffusionMatrix m = dlbkit::DiffusionMatrix::uniform(t, 1.0 / static_cast<double>(t.max_degree() + 1));
  std::unique_ptr<dlbkit::RoundKernel> k;
  if (state.range(1) == 0) k = std::make_unique<dlbkit::DiffusionKernel>(std::move(m));
  else
    k = std::make_unique<dlbkit::PolynomialKernel>(dlbkit::PolynomialKernel::fos(
        std::move(m), {.rounding = state.range(1) == 1   ? dlbkit::Rounding::randomized
                                   : state.range(1) == 2 ? dlbkit::Rounding::flow_imitation
                                                         : dlbkit::Rounding::deterministic}));
  std::vector<std::int64_t> w = dlbkit::integer_initial_load("uniform:1000", t.size(), 1), next(t.size());
  const auto n = static_cast<dlbkit::NodeId>(t.size());
  const auto start = std::chrono::steady_clock::now();
  std::uint64_t step = 0;
  for (auto _ : state) {
    k->update(step++, w, next, 0, n);
    std::swap(w, next);
    benchmark::ClobberMemory();
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  state.SetLabel(kTopologies[state.range(0)]);
  state.counters["node_updates_per_s"] = static_cast<double>(state.iterations()) * n / seconds;
}
BENCHMARK(BM_IntegerRounding)
    ->ArgsProduct({{0, 1}, {0, 1, 2, 3}})
    ->ArgNames({"topology", "rounding"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
