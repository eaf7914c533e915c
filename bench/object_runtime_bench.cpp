// dlbkit::ObjectRuntime (objects/object_runtime.hpp) on 2 worker threads, against its targets:
//   BM_PhaseOverhead  a 10 ms phase (each worker's objects spin 10 ms in all, and each object
//                     sends a 64-double halo), balancing off: overhead_percent = (phase
//                     seconds - busiest worker's load) / 10 ms; target: under 1%.
//   BM_Stencil        examples/stencil with its moving hot spot and a strategy balancing every
//                     `every` phases: balanced_over_ideal = the mean phase time, balancing
//                     included, over total work / P; target: at most 1.10. Also the
//                     unbalanced run's ratio, for scale.
//   BM_SmallObjects   100 000 objects of about 20 ns of work, each sending one 8-byte message
//                     to the next, 2 threads, `none`: each phase runs on the runtime and as a
//                     plain loop on 2 threads of its own (the same work, the messages in an
//                     array), ten phases of each in turn; ns_per_object of each and runtime_over_plain; target:
//                     at most 2. BM_SmallObjectsSequential: the same on the sequential engine
//                     and one thread, in CPU time (a loaded machine's waits left out).
//   BM_SlowerWorker   two workers at speeds 1 and 2 (emulated: worker 0's objects spin twice as
//                     long), declared to the runtime, measured by it, or neither:
//                     balanced_over_ideal = the balanced phases' time over total work / total
//                     speed; target: at most 1.10.
// The MPI engine's figures come from the example under mpirun (docs/objects.md).

#include "../examples/stencil/stencil.hpp"

#include <dlbkit/objects/object_runtime.hpp>

#include <benchmark/benchmark.h>

#include <barrier>
#include <chrono>
#include <ctime>
#include <thread>
#include <vector>

namespace {

using Halo64 = std::vector<double>;

struct Spinner {
  std::uint64_t spins = 0;
};

void BM_PhaseOverhead(benchmark::State& state) {
  const auto per_worker = static_cast<std::uint64_t>(state.range(0));
  constexpr double kPhase = 0.010;
  dlbkit::ObjectRuntime<Spinner, Halo64> rt({.engine = "threads", .strategy = "none", .workers = 2, .every = 0});
  const std::uint64_t objects = 2 * per_worker;
  for (std::uint64_t id = 0; id < objects; ++id) rt.add(id, Spinner{}, static_cast<dlbkit::NodeId>(id % 2));
  const auto spin = std::chrono::duration<double>(kPhase / static_cast<double>(per_worker));
  const auto work = [&](Spinner& s, dlbkit::ObjectContext<Halo64>& ctx) {
    const auto until = std::chrono::steady_clock::now() + spin;
    while (std::chrono::steady_clock::now() < until) ++s.spins;
    ctx.send((ctx.id() + 1) % objects, Halo64(64, 1.0));
  };
  for (auto _ : state) rt.run_phase(work);
  double overhead = 0;
  for (const auto& phase : rt.report().phases) overhead += phase.seconds - phase.max_load;
  overhead /= static_cast<double>(rt.report().phases.size());
  state.counters["overhead_us"] = overhead * 1e6;
  state.counters["overhead_percent"] = 100 * overhead / kPhase;
  state.counters["phases_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_PhaseOverhead)->ArgName("objects_per_worker")->Arg(4)->Arg(32)->Arg(256)->Unit(benchmark::kMillisecond);

// About 20 ns of dependent work (the plain loop's cpu_ns_per_object on one thread says how long
// here): rounds of xor-shift and multiply, which a compiler cannot fold into one step as it
// folds the rounds of a linear congruential generator (a x + c composed is still affine).
std::uint64_t small_work(std::uint64_t x) {
  for (int k = 0; k < 24; ++k) {
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ULL;
  }
  return x;
}

constexpr std::uint64_t kSmallObjects = 100000;

// A small object's phase: what it received, its work, a message to the next. A lambda: its own
// type, so that the runtime's loop calls it inline, as a program's usually is.
constexpr auto small_object = [](std::uint64_t& x, dlbkit::ObjectContext<std::uint64_t>& ctx) {
  for (const auto& r : ctx.received()) x += r.message;
  x = small_work(x);
  ctx.send(ctx.id() + 1 == kSmallObjects ? 0 : ctx.id() + 1, x);
};

void BM_SmallObjects(benchmark::State& state) {
  using Clock = std::chrono::steady_clock;
  dlbkit::ObjectRuntime<std::uint64_t, std::uint64_t> rt({.engine = "threads", .strategy = "none", .workers = 2});
  for (std::uint64_t id = 0; id < kSmallObjects; ++id) rt.add(id, id, static_cast<dlbkit::NodeId>(id * 2 / kSmallObjects));
  // The plain loop: each of 2 threads runs its half, a barrier ends the phase.
  std::vector<std::uint64_t> values(kSmallObjects), inbox(kSmallObjects), next(kSmallObjects);
  bool stop = false;
  std::barrier start(3);
  std::barrier end(3, [&]() noexcept { inbox.swap(next); });
  std::vector<std::jthread> plain;
  for (std::uint64_t t = 0; t < 2; ++t)
    plain.emplace_back([&, t] {
      for (;;) {
        start.arrive_and_wait();
        if (stop) return;
        for (std::uint64_t i = t * kSmallObjects / 2; i < (t + 1) * kSmallObjects / 2; ++i) {
          values[i] = small_work(values[i] + inbox[i]);
          next[i + 1 == kSmallObjects ? 0 : i + 1] = values[i];
        }
        end.arrive_and_wait();
      }
    });
  // Ten phases of each in turn: the threads of one that wait do not overlap the other's for long.
  constexpr int kPhases = 10;
  double runtime_seconds = 0, plain_seconds = 0;
  for (auto _ : state) {
    const auto t0 = Clock::now();
    for (int k = 0; k < kPhases; ++k) rt.run_phase(small_object);
    const auto t1 = Clock::now();
    for (int k = 0; k < kPhases; ++k) {
      start.arrive_and_wait();
      end.arrive_and_wait();
    }
    const auto t2 = Clock::now();
    runtime_seconds += std::chrono::duration<double>(t1 - t0).count();
    plain_seconds += std::chrono::duration<double>(t2 - t1).count();
  }
  stop = true;
  start.arrive_and_wait();
  const double per = 1e9 / static_cast<double>(kSmallObjects * kPhases * state.iterations());
  state.counters["ns_per_object"] = runtime_seconds * per;
  state.counters["plain_ns_per_object"] = plain_seconds * per;
  state.counters["runtime_over_plain"] = runtime_seconds / plain_seconds;
  state.counters["objects_per_s"] = static_cast<double>(kSmallObjects * kPhases * state.iterations()) / runtime_seconds;
  benchmark::DoNotOptimize(values.data());
}
BENCHMARK(BM_SmallObjects)->Unit(benchmark::kMillisecond);

// The same objects on the sequential engine, in CPU time, which a loaded machine's waits for a
// core leave out: cpu_ns_per_object of the runtime and of the plain loop on one thread, and
// runtime_over_plain.
void BM_SmallObjectsSequential(benchmark::State& state) {
  dlbkit::ObjectRuntime<std::uint64_t, std::uint64_t> rt({.engine = "sequential", .strategy = "none"});
  for (std::uint64_t id = 0; id < kSmallObjects; ++id) rt.add(id, id, 0);
  std::vector<std::uint64_t> values(kSmallObjects), inbox(kSmallObjects), next(kSmallObjects);
  constexpr int kPhases = 10;
  double runtime_seconds = 0, plain_seconds = 0;
  for (auto _ : state) {
    const std::clock_t t0 = std::clock();
    for (int k = 0; k < kPhases; ++k) rt.run_phase(small_object);
    const std::clock_t t1 = std::clock();
    for (int k = 0; k < kPhases; ++k) {
      for (std::uint64_t i = 0; i < kSmallObjects; ++i) {
        values[i] = small_work(values[i] + inbox[i]);
        next[i + 1 == kSmallObjects ? 0 : i + 1] = values[i];
      }
      inbox.swap(next);
    }
    const std::clock_t t2 = std::clock();
    runtime_seconds += static_cast<double>(t1 - t0) / CLOCKS_PER_SEC;
    plain_seconds += static_cast<double>(t2 - t1) / CLOCKS_PER_SEC;
  }
  const double per = 1e9 / static_cast<double>(kSmallObjects * kPhases * state.iterations());
  state.counters["cpu_ns_per_object"] = runtime_seconds * per;
  state.counters["plain_cpu_ns_per_object"] = plain_seconds * per;
  state.counters["runtime_over_plain"] = runtime_seconds / plain_seconds;
  benchmark::DoNotOptimize(values.data());
}
BENCHMARK(BM_SmallObjectsSequential)->Unit(benchmark::kMillisecond);

const char* const kStrategies[] = {"greedy", "refine", "tempered", "diffusion"};

void BM_Stencil(benchmark::State& state) {
  const char* strategy = kStrategies[state.range(0)];
  const auto every = static_cast<std::size_t>(state.range(1));
  stencil::Settings s;
  dlbkit::ObjectRuntimeOptions on{.engine = "threads", .strategy = strategy, .workers = 2, .every = every};
  dlbkit::ObjectRuntimeOptions off = on;
  off.strategy = "none";
  stencil::RunFigures balanced, unbalanced;
  for (auto _ : state) {
    unbalanced = stencil::run(off, s);
    balanced = stencil::run(on, s);
  }
  double ideal = 0;
  for (const auto& phase : balanced.report.phases) ideal += phase.mean_load;
  ideal /= static_cast<double>(balanced.report.phases.size());
  state.SetLabel(std::string(strategy) + (balanced.checksum == unbalanced.checksum ? "" : " CHECKSUMS DIFFER"));
  state.counters["balanced_over_ideal"] = stencil::mean_seconds(balanced.report, true) / ideal;
  state.counters["unbalanced_over_ideal"] = stencil::mean_seconds(unbalanced.report, false) / ideal;
  state.counters["balancing_ms_per_step"] =
      1e3 * balanced.report.balancing_seconds / static_cast<double>(std::max<std::size_t>(1, balanced.report.balances.size()));
  state.counters["objects_migrated"] = static_cast<double>(balanced.report.objects_migrated);
}
BENCHMARK(BM_Stencil)
    ->ArgNames({"strategy", "every"})
    ->ArgsProduct({{0, 1, 2, 3}, {1, 4}})
    ->Iterations(1)
    ->Unit(benchmark::kSecond);

// Two workers at speeds 1 and 2, emulated on equal cores: 64 objects of 2.5 to 7.5 ms of work
// at speed 1, each spinning its work on worker 0 and half of it on worker 1, dealt alternately.
// With the speeds declared (speeds=1: greedy, refine, the strategies that weigh them), measured
// by the runtime (speeds=2: the same), or neither (speeds=0), balancing every phase for 12 phases:
// balanced_over_ideal = the mean time of the last 6 phases over total work / total speed (3);
// target: at most 1.10. Unbalanced, the start's dealing gives 1.5. busiest_over_ideal: the same
// of the busiest worker's measured time, without the waits between objects. speed_ratio, measured:
// worker 1's speed over worker 0's as estimated after the last phase (2 emulated).
void BM_SlowerWorker(benchmark::State& state) {
  const char* strategy = kStrategies[state.range(0)];
  const auto speeds = state.range(1);
  constexpr int kPhases = 12;
  constexpr std::uint64_t kObjects = 64;
  const double emulated[] = {1, 2};
  double total = 0, balanced = 0, busiest = 0, ratio = 0;
  for (auto _ : state) {
    dlbkit::ObjectRuntimeOptions o{.engine = "threads", .strategy = strategy, .workers = 2, .quiet = true};
    if (speeds == 1) o.speeds = {emulated[0], emulated[1]};
    o.measure_speeds = speeds == 2;
    dlbkit::ObjectRuntime<Spinner, int> rt(o);
    total = 0;
    for (std::uint64_t id = 0; id < kObjects; ++id) {
      total += 2.5e-3 + 5e-3 * static_cast<double>(id % 8) / 7;
      rt.add(id, Spinner{}, static_cast<dlbkit::NodeId>(id % 2));
    }
    const auto work = [&](Spinner& s, dlbkit::ObjectContext<int>& ctx) {
      const double seconds = (2.5e-3 + 5e-3 * static_cast<double>(ctx.id() % 8) / 7) / emulated[ctx.worker()];
      const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
      while (std::chrono::steady_clock::now() < until) ++s.spins;
    };
    for (int k = 0; k < kPhases; ++k) rt.run_phase(work);
    balanced = busiest = 0;
    for (int k = kPhases / 2; k < kPhases; ++k) {
      balanced += rt.report().phases[static_cast<std::size_t>(k)].seconds;
      busiest += rt.report().phases[static_cast<std::size_t>(k)].max_load;
    }
    balanced /= kPhases / 2;
    busiest /= kPhases / 2;
    if (speeds == 2) ratio = rt.report().phases.back().speeds[1] / rt.report().phases.back().speeds[0];
  }
  const char* how[] = {", speeds not declared", ", speeds 1,2 declared", ", speeds measured"};
  state.SetLabel(std::string(strategy) + how[speeds]);
  state.counters["balanced_over_ideal"] = balanced / (total / (emulated[0] + emulated[1]));
  state.counters["busiest_over_ideal"] = busiest / (total / (emulated[0] + emulated[1]));
  if (speeds == 2) state.counters["speed_ratio"] = ratio;
}
BENCHMARK(BM_SlowerWorker)
    ->ArgNames({"strategy", "speeds"})
    ->ArgsProduct({{0, 1}, {1, 2}})
    ->ArgsProduct({{0, 1, 2, 3}, {0}})
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
