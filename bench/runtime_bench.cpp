// The runtimes on UTS: what one task costs, and the parallel efficiency of the threads
// engine with 2 workers (docs/runtime.md).
//
// UtsSequential/<tree>: the `uts` app through run_sequential (the baseline of efficiency:
// a task stack and one virtual call per task) beside uts::count_sequential's plain walk;
// counter nodes_per_s (nodes per second of wall time) and, for the walk, the same.
// UtsThreads/<tree>/<strategy>: the threads engine on complete:2; counters nodes_per_s and
// efficiency = T_seq / (2 T_par), T_seq from a sequential run just before.
// Every run's count is checked against the published one; a difference is an error.
// MPI: scripts/runtime-efficiency.sh runs the same through mpirun.

#include <dlbkit/apps/runtime_apps.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <string>

namespace {

const char* const kTrees[] = {"T1", "T3", "T1L", "T3L"};
const char* const kStrategies[] = {"work_stealing", "rid", "sid", "gm", "hbm", "dem", "none"};

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

void UtsThreads(benchmark::State& state) {
  const std::string tree = kTrees[state.range(0)];
  const std::string strategy = kStrategies[state.range(1)];
  auto app = dlbkit::builtin_apps().configure("uts", {{"tree", tree}}).create();
  const dlbkit::Topology topology = dlbkit::parse_topology("complete:2");
  std::map<std::string, std::string> params;
  if (strategy == "rid") params = {{"retry_on_update", "true"}};
  const dlbkit::RuntimeConfig config{.topology = &topology,
                                     .strategy = dlbkit::builtin_strategies().configure(strategy, params)};
  double seq = 0, par = 0;
  for (auto _ : state) {
    state.PauseTiming();
    const dlbkit::RuntimeResult s = dlbkit::run_sequential(*app, 1);
    state.ResumeTiming();
    const dlbkit::RuntimeResult r = dlbkit::run_threads(*app, config);
    if (!counts_ok(state, *app, r, tree)) return;
    seq += s.elapsed_seconds;
    par += r.elapsed_seconds;
  }
  state.SetLabel(tree + " " + strategy);
  state.counters["nodes_per_s"] = static_cast<double>(published(tree).nodes) * static_cast<double>(state.iterations()) / par;
  state.counters["efficiency"] = seq / (2 * par);
}

}  // namespace

BENCHMARK(UtsSequential)->DenseRange(0, 3)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(UtsThreads)
    ->ArgsProduct({benchmark::CreateDenseRange(0, 3, 1), benchmark::CreateDenseRange(0, 6, 1)})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(1)
    ->UseRealTime();

BENCHMARK_MAIN();
