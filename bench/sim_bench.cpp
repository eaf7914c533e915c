// Simulator throughput: events per second for RID on hypercubes with 100 tasks per node
// (WLR93's granularity), and heap bytes per pending task at the peak; and for Zambonelli's
// direct-neighbour policy on processor-sharing nodes.
// Targets: >= 6 M events/s on one core at hypercube:16 and >= 3 M at hypercube:20, at most
// 40 B per task, so that 2^22 nodes of 100 tasks fit 20 GB (docs/simulator.md, "Memory per
// task", has the measured table).
// BM_RidCurve: the same case from 2^10 to 2^16 nodes (2^20 with DLBKIT_BENCH_LARGE=1),
// events/s and resident bytes per task. BM_ParallelWindows: the same on 1 and 2 threads.
// BM_RankSharedInstants: the parallel windows' merge alone, events ranked per second.

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include "instant_ranks.hpp"

#include <algorithm>
#include <atomic>
#include <benchmark/benchmark.h>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <malloc.h>
#include <new>
#include <numeric>
#include <random>
#include <vector>

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

// Peak resident memory since the last reset_peak_rss(), and the current one, in bytes
// (Linux: /proc/self/status; writing 5 to clear_refs resets the peak).
std::size_t status_kb(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field, 0) == 0) return std::stoull(line.substr(std::strlen(field)));
  return 0;
}
bool reset_peak_rss() {
  std::ofstream clear("/proc/self/clear_refs");
  clear << "5";
  return static_cast<bool>(clear.flush());
}

// The curve: RID, 100 tasks per node, one run at each hypercube:10 .. :16, and on to :20
// with DLBKIT_BENCH_LARGE=1; events per second of processor time (the run is one thread:
// on a shared machine its own time). bytes_per_task is the peak resident memory of the run
// over the memory before it, per task.
void BM_RidCurve(benchmark::State& state) {
  const int d = static_cast<int>(state.range(0));
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:" + std::to_string(d));
  const auto strategy = dlbkit::builtin_strategies().configure("rid", {});
  const auto workload_choice = dlbkit::builtin_workloads().configure("artificial", {{"granularity", "100"}});
  std::uint64_t events = 0;
  double bytes_per_task = 0;
  for (auto _ : state) {
    auto workload = workload_choice.create();
    const bool reset = reset_peak_rss();
    const std::size_t before = status_kb("VmRSS:");
    const dlbkit::SimulationResult r = dlbkit::simulate(
        {.topology = &cube, .strategy = strategy, .workload = workload.get(), .cost = dlbkit::make_cost_model("ipsc2"), .seed = 1});
    const std::size_t peak = status_kb("VmHWM:");
    events += r.events;
    bytes_per_task = reset ? 1024.0 * static_cast<double>(peak - before) / static_cast<double>(r.tasks_created) : -1;
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.counters["bytes_per_task"] = bytes_per_task;
  state.counters["nodes"] = static_cast<double>(cube.size());
}

[[maybe_unused]] const bool rid_curve_registered = [] {
  const int top = std::getenv("DLBKIT_BENCH_LARGE") != nullptr ? 20 : 16;
  for (int d = 10; d <= top; ++d)
    benchmark::RegisterBenchmark("BM_RidCurve", BM_RidCurve)->Arg(d)->Iterations(1)->Unit(benchmark::kSecond);
  return true;
}();

// Parallel windows (docs/simulator.md, "Parallel windows"): RID (arg 0) or work stealing
// (arg 1), 100 tasks a node, at hypercube:D on T threads: events per second of wall time,
// the same run on every thread count. Target: 2 threads at least 1.7x one at 2^16.
void BM_ParallelWindows(benchmark::State& state) {
  const char* name = state.range(0) == 0 ? "rid" : "work_stealing";
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:" + std::to_string(state.range(1)));
  const auto strategy = dlbkit::builtin_strategies().configure(name, {});
  const auto workload_choice = dlbkit::builtin_workloads().configure("artificial", {{"granularity", "100"}});
  std::uint64_t events = 0;
  for (auto _ : state) {
    auto workload = workload_choice.create();
    const dlbkit::SimulationResult r =
        dlbkit::simulate({.topology = &cube, .strategy = strategy, .workload = workload.get(),
                          .cost = dlbkit::make_cost_model("ipsc2"), .seed = 1,
                          .threads = static_cast<unsigned>(state.range(2))});
    events += r.events;
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["events_per_second"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
  state.SetLabel(name);
}

// The merge of a window's shared instants (src/sim/instant_ranks.hpp) on P partitions' logs
// (arg): 100 000 instants of work stealing's kind, each with 3 events a partition whose
// creators' ranks interleave at random, all creators before the window. Events ranked a second.
void BM_RankSharedInstants(benchmark::State& state) {
  const auto parts = static_cast<std::size_t>(state.range(0));
  constexpr std::size_t kInstants = 100'000, kPerPartition = 3;
  std::vector<dlbkit::WindowLog> logs(parts);
  std::mt19937_64 rng(1);
  std::vector<std::uint64_t> ranks(parts * kPerPartition);
  for (std::size_t i = 0; i < kInstants; ++i) {
    std::iota(ranks.begin(), ranks.end(), 0);
    std::shuffle(ranks.begin(), ranks.end(), rng);
    for (std::size_t p = 0; p < parts; ++p) {
      const auto first = ranks.begin() + static_cast<std::ptrdiff_t>(p * kPerPartition);
      std::sort(first, first + kPerPartition);
      for (std::size_t j = 0; j < kPerPartition; ++j)
        logs[p].add(static_cast<dlbkit::SimTime>(1000 + 10 * i),
                    {500, first[static_cast<std::ptrdiff_t>(j)] << dlbkit::EventKey::kRankShift}, j);
    }
  }
  std::vector<dlbkit::WindowLog*> pointers;
  for (auto& log : logs) pointers.push_back(&log);
  for (auto _ : state) {
    dlbkit::rank_shared_instants(pointers, 1000, 1000 + 10 * kInstants);
    benchmark::DoNotOptimize(logs[0].events()[0].rank);
  }
  state.counters["events_per_second"] = benchmark::Counter(
      static_cast<double>(state.iterations() * kInstants * kPerPartition * parts), benchmark::Counter::kIsRate);
}

}  // namespace

BENCHMARK(BM_RankSharedInstants)->Arg(2)->Arg(3)->Arg(4)->Arg(8)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ParallelWindows)
    ->ArgsProduct({{0, 1}, {12, 14, 16}, {1, 2}})
    ->Iterations(1)
    ->UseRealTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_DirectNeighborProcessorSharing)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_RidHypercube)->Arg(10)->Unit(benchmark::kMillisecond)->MinTime(1.0);
BENCHMARK(BM_RidHypercube)->Arg(16)->Unit(benchmark::kMillisecond)->Iterations(2);
BENCHMARK(BM_RidHypercube)->Arg(18)->Unit(benchmark::kMillisecond)->Iterations(1);

BENCHMARK_MAIN();
