// The runtimes' speed targets (docs/runtime.md, "Efficiency"): what one task costs, and the
// parallel efficiency of the threads engine with 2 workers on the network hypercube:1.
//
// UtsSequential/<tree>: the `uts` app through run_sequential (the baseline of `dlbkit run`:
// a task stack and one virtual call per task) beside uts::count_sequential's plain walk
// (`dlbkit uts`, the fastest sequential counter); counters nodes_per_s and walk_nodes_per_s.
// UtsThreads/<tree>/<strategy>/<tasks>: the threads engine, the app's tasks=node (0) or
// tasks=subtree (1); counters nodes_per_s, efficiency =
// T_seq / (2 T_par) with T_seq the run_sequential run just before, efficiency_vs_counter
// with T_seq count_sequential's time (one run per tree; the target is 95 % on T1L and T3L),
// and idle_cpu_ms_w0, _w1: the processor time each worker used while it had no task.
// QueensThreads/<strategy>: the `queens` app (n = 15: tasks of about 0.5 ms below row 3
// that never call poll()); counters efficiency (against run_sequential; target 95 %),
// cpu_efficiency, ms_per_task and idle_cpu_ms_w0, _w1 (work_stealing against lifeline).
// Every run's result is checked (UTS: the published counts; queens: the sequential run's);
// a difference is an error.
// MPI (2 ranks through mpirun, and the reference UTS-MPI beside it):
// scripts/runtime-efficiency.sh.

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <string>

namespace {

const char* const kTrees[] = {"T1", "T3", "T1L", "T3L"};
const char* const kStrategies[] = {"work_stealing", "lifeline", "rid", "sid", "gm", "hbm", "dem", "none"};
const char* const kTaskModes[] = {"node", "subtree"};

const dlbkit::uts::PublishedTree& published(const std::string& name) {
  if (const auto* t = dlbkit::uts::find_published(name)) return *t;
  std::abort();
}

bool counts_ok(benchmark::State& state, const dlbkit::AnyApplication& app, const dlbkit::RuntimeResult& r,
               const std::string& tree) {
  const auto j = app.report_bytes(r.result.data());
  if (j["nodes"] == published(tree).nodes && j["leaves"] == published(tree).leaves) return true;
  state.SkipWithError(("counts differ from the published ones: " + j.dump()).c_str());
  return false;
}

void UtsSequential(benchmark::State& state) {
  const std::string tree = kTrees[state.range(0)];
  auto app = dlbkit::builtin_apps().configure("uts", {{"tree", tree}}).create();
  double walk_seconds = 0, runtime_seconds = 0;
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(dlbkit::uts::count_sequential(published(tree).params));
    walk_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const dlbkit::RuntimeResult r = dlbkit::run_sequential(*app, 1);
    if (!counts_ok(state, *app, r, tree)) return;
    runtime_seconds += r.elapsed_seconds;
  }
  const double nodes = static_cast<double>(published(tree).nodes) * static_cast<double>(state.iterations());
  state.SetLabel(tree);
  state.counters["nodes_per_s"] = nodes / runtime_seconds;
  state.counters["walk_nodes_per_s"] = nodes / walk_seconds;
}

// count_sequential's wall time on `tree`, measured once per tree and program run.
double counter_seconds(const std::string& tree) {
  static std::map<std::string, double> seconds;
  if (!seconds.contains(tree)) {
    const auto t0 = std::chrono::steady_clock::now();
    benchmark::DoNotOptimize(dlbkit::uts::count_sequential(published(tree).params));
    seconds[tree] = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  return seconds[tree];
}

dlbkit::RuntimeConfig two_workers(const std::string& strategy, const dlbkit::Topology& topology) {
  std::map<std::string, std::string> params;
  if (strategy == "rid") params = {{"retry_on_update", "true"}};
  return {.topology = &topology, .strategy = dlbkit::builtin_strategies().configure(strategy, params)};
}

// Idle CPU per worker, in ms, summed over the iterations (one each here).
void count_idle_cpu(benchmark::State& state, const dlbkit::RuntimeResult& r) {
  for (std::size_t w = 0; w < r.workers.size(); ++w)
    state.counters["idle_cpu_ms_w" + std::to_string(w)] += 1000 * dlbkit::to_seconds(r.workers[w].idle_cpu);
}

void UtsThreads(benchmark::State& state) {
  const std::string tree = kTrees[state.range(0)];
  const std::string strategy = kStrategies[state.range(1)];
  const std::string tasks = kTaskModes[state.range(2)];
  auto app = dlbkit::builtin_apps().configure("uts", {{"tree", tree}, {"tasks", tasks}}).create();
  const dlbkit::Topology topology = dlbkit::parse_topology("hypercube:1");
  const dlbkit::RuntimeConfig config = two_workers(strategy, topology);
  const double counter = counter_seconds(tree);
  double seq = 0, par = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const dlbkit::RuntimeResult s = dlbkit::run_sequential(*app, 1);
    state.ResumeTiming();
    const dlbkit::RuntimeResult r = dlbkit::run_threads(*app, config);
    if (!counts_ok(state, *app, r, tree)) return;
    seq += s.elapsed_seconds;
    par += r.elapsed_seconds;
    count_idle_cpu(state, r);
  }
  const auto iterations = static_cast<double>(state.iterations());
  state.SetLabel(tree + " " + strategy + " tasks=" + tasks);
  state.counters["nodes_per_s"] = static_cast<double>(published(tree).nodes) * iterations / par;
  state.counters["efficiency"] = seq / (2 * par);
  state.counters["efficiency_vs_counter"] = counter * iterations / (2 * par);
}

void QueensThreads(benchmark::State& state) {
  const std::string strategy = kStrategies[state.range(0)];
  auto app = dlbkit::builtin_apps().configure("queens", {}).create();
  const dlbkit::Topology topology = dlbkit::parse_topology("hypercube:1");
  const dlbkit::RuntimeConfig config = two_workers(strategy, topology);
  double seq = 0, par = 0, seq_cpu = 0, par_cpu = 0, tasks = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const dlbkit::RuntimeResult s = dlbkit::run_sequential(*app, 1);
    state.ResumeTiming();
    const dlbkit::RuntimeResult r = dlbkit::run_threads(*app, config);
    if (!dlbkit::same_result(*app, s, r)) {
      state.SkipWithError(("the count differs from the sequential run's: " + app->report_bytes(r.result.data()).dump())
                              .c_str());
      return;
    }
    seq += s.elapsed_seconds;
    par += r.elapsed_seconds;
    seq_cpu += dlbkit::to_seconds(s.workers[0].cpu);
    for (const auto& w : r.workers) par_cpu += dlbkit::to_seconds(w.cpu);
    tasks += static_cast<double>(s.tasks_executed());
    count_idle_cpu(state, r);
  }
  state.SetLabel(std::string("queens n=15 ") + strategy);
  state.counters["efficiency"] = seq / (2 * par);
  state.counters["cpu_efficiency"] = seq_cpu / par_cpu;
  state.counters["ms_per_task"] = 1000 * seq / tasks;
}

}  // namespace

BENCHMARK(UtsSequential)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(UtsThreads)
    ->ArgsProduct({benchmark::CreateDenseRange(0, 3, 1), benchmark::CreateDenseRange(0, 7, 1), {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

BENCHMARK(QueensThreads)->DenseRange(0, 1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

BENCHMARK_MAIN();
