// Simulator throughput: events per second for RID on hypercubes with 100 tasks per node
// (WLR93's granularity), and heap bytes per pending task at the peak; and for Zambonelli's
// direct-neighbour policy on processor-sharing nodes.
// Targets: >= 6 M events/s on one core at hypercube:16 and >= 3 M at hypercube:20, at most
// 60 B per task (docs/simulator.md has the measured table).

#include <dlbkit/apps/workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <atomic>
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <malloc.h>
#include <new>

// Heap accounting for this binary: current and peak bytes in use.
namespace {
std::atomic<std::size_t> g_in_use{0}, g_peak{0};
void note_alloc(std::size_t n) {
  const std::size_t now = g_in_use.fetch_add(n) + n;
  std::size_t peak = g_peak.load();
  while (now > peak && !g_peak.compare_exchange_weak(peak, now)) {
  }
}
}  // namespace

// Replacing operator new/delete with malloc/free is exactly what GCC's heuristic warns about.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"
void* operator new(std::size_t n) {
  void* p = std::malloc(n);
  if (p == nullptr) throw std::bad_alloc();
  note_alloc(malloc_usable_size(p));
  return p;
}
void operator delete(void* p) noexcept {
  if (p == nullptr) return;
  g_in_use.fetch_sub(malloc_usable_size(p));
  std::free(p);
}
void operator delete(void* p, std::size_t) noexcept { operator delete(p); }
#pragma GCC diagnostic pop

namespace {

void BM_RidHypercube(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:" + std::to_string(d));
  const auto strategy = dlbkit::builtin_strategies().configure("rid", {});
  const auto workload_choice = dlbkit::builtin_workloads().configure("artificial", {{"granularity", "100"}});
  std::uint64_t events = 0, tasks = 0;
  double bytes_per_task = 0;
  for (auto _ : state) {
    auto workload = workload_choice.create();
    const std::size_t base = g_in_use.load();
    g_peak.store(base);
    const dlbkit::SimulationResult r = dlbkit::simulate(
        {.topology = &cube, .strategy = strategy, .workload = workload.get(), .cost = dlbkit::make_cost_model("ipsc2"), .seed = 1});
    events += r.events;
    tasks += r.tasks_completed;
    bytes_per_task = static_cast<double>(g_peak.load() - base) / static_cast<double>(r.peak_pending_tasks);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["tasks_per_second"] = benchmark::Counter(static_cast<double>(tasks), benchmark::Counter::kIsRate);
  state.counters["peak_bytes_per_pending_task"] = bytes_per_task;
  state.counters["nodes"] = static_cast<double>(cube.size());
}

// Processor sharing: Zambonelli's setting (direct_neighbor, w = 0.5, extended, on mesh:10x10
// with the dynamic_load generator at 1 delta-sigma per second, 10 s simulated).
void BM_DirectNeighborProcessorSharing(benchmark::State& state) {
  const dlbkit::Topology mesh = dlbkit::parse_topology("mesh:10x10");
  const auto strategy = dlbkit::builtin_strategies().configure("direct_neighbor", {{"w", "0.5"}, {"extended", "true"}});
  const auto workload_choice =
      dlbkit::builtin_workloads().configure("dynamic_load", {{"dynamicity", "1"}, {"duration", "10s"}});
  std::uint64_t events = 0;
  for (auto _ : state) {
    auto workload = workload_choice.create();
    const dlbkit::SimulationResult r =
        dlbkit::simulate({.topology = &mesh, .strategy = strategy, .workload = workload.get(),
                          .cost = dlbkit::make_cost_model("meiko-cs1"), .seed = 1,
                          .execution = dlbkit::Execution::processor_sharing});
    events += r.events;
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_DirectNeighborProcessorSharing)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_RidHypercube)->Arg(10)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_RidHypercube)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_RidHypercube)->Arg(18)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
