#include "../support/same_run.hpp"
#include "../support/thread_processes.hpp"
#include "event_queue.hpp"
#include "instant_ranks.hpp"
#include "spin_barrier.hpp"

#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <thread>
#include <vector>

using namespace dlbkit;

namespace {

struct Case {
  std::string strategy, topology, workload = "artificial", cost = "ipsc2";
  std::uint64_t seed = 1;
  Execution execution = Execution::fcfs;
  std::vector<double> speeds;
  std::map<std::string, std::string> workload_params = {{"granularity", "8"}};
  // A long latency: windows of the lookahead are few, so that the test is quick.
  std::map<std::string, std::string> cost_params = {{"latency", "5ms"}};
  double wall_seconds = 0;  // SimulationConfig::wall_seconds_limit
};

SimulationResult simulate_on(const Case& run, unsigned threads, std::vector<Observer*> observers = {},
                             const ProcessGroup* processes = nullptr, std::uint64_t event_limit = SimulationConfig{}.event_limit) {
  const Topology topology = parse_topology(run.topology);
  auto workload = builtin_workloads().configure(run.workload, run.workload_params).create();
  return simulate({.topology = &topology,
                   .strategy = builtin_strategies().configure(run.strategy, {}),
                   .workload = workload.get(),
                   .cost = make_cost_model(run.cost, run.cost_params),
                   .seed = run.seed,
                   .observers = std::move(observers),
                   .event_limit = event_limit,
                   .wall_seconds_limit = run.wall_seconds,
                   .execution = run.execution,
                   .speeds = run.speeds,
                   .threads = threads,
                   .processes = processes});
}

// The run of `run` on `size` processes (threads standing in for them), as each process returns it.
std::vector<SimulationResult> simulate_on_processes(const Case& run, int size,
                                                    std::uint64_t event_limit = SimulationConfig{}.event_limit,
                                                    std::size_t round_bytes = ProcessGroup::kRoundBytes) {
  test::ThreadProcesses processes(size, round_bytes);
  std::vector<SimulationResult> results(static_cast<std::size_t>(size));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(size));
  {
    std::vector<std::jthread> team;
    for (int r = 0; r < size; ++r)
      team.emplace_back([&, r] {
        try {
          const test::ThreadProcesses::Member me(processes, r);
          results[static_cast<std::size_t>(r)] = simulate_on(run, 1, {}, &me, event_limit);
        } catch (...) {
          errors[static_cast<std::size_t>(r)] = std::current_exception();
        }
      });
  }
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
  return results;
}

// The migrations between the two halves of the node ids: what crosses between two partitions.
struct HalvesCrossed : Observer {
  explicit HalvesCrossed(NodeId half) : half(half) {}
  void on_task_migrated(NodeId from, NodeId to, const Task&, SimTime) override { crossed += (from < half) != (to < half); }
  NodeId half;
  std::uint64_t crossed = 0;
};

const std::vector<Case> kTreeSearches = {
    {.strategy = "work_stealing", .topology = "hypercube:5", .workload = "uts",
     .workload_params = {{"tree", "T1,depth=6"}, {"node_time", "50us"}}},
    {.strategy = "lifeline", .topology = "torus:4x8", .workload = "uts",
     .workload_params = {{"tree", "T3,b0=50"}, {"node_time", "50us"}}},
    {.strategy = "work_stealing", .topology = "hypercube:4", .workload = "bnb",
     .workload_params = {{"placement", "tree"}, {"n", "9"}, {"m", "4"}}},
};

TEST(ParallelWindows, EveryThreadCountGivesTheVeryRunOfOneThread) {
  // Strategies whose runs have ties between partitions (work stealing, diffusion, gm:
  // docs/simulator.md, "Ties and parallel runs"), one that sends tasks far (rid), and the
  // three ways a node runs its tasks; 3 threads split the nodes unevenly.
  std::vector<Case> runs;
  for (const char* s : {"rid", "work_stealing", "diffusion", "gm", "sid", "lifeline", "hbm", "none"})
    for (const char* t : {"hypercube:5", "torus:4x8"}) runs.push_back({.strategy = s, .topology = t, .seed = 2});
  runs.push_back({.strategy = "work_stealing", .topology = "hypercube:4", .execution = Execution::lifo});
  runs.push_back({.strategy = "rid", .topology = "ring:9", .execution = Execution::processor_sharing});
  runs.push_back({.strategy = "rid", .topology = "hypercube:4", .cost = "meiko-cs1"});
  runs.push_back({.strategy = "work_stealing", .topology = "hypercube:4", .cost_params = {}});  // ipsc2 itself
  runs.push_back({.strategy = "work_stealing", .topology = "hypercube:4", .speeds = {1, 2, 1, 2, 1, 2, 1, 2, 3, 1, 1, 1, 1, 0.5, 1, 1}});
  // Tree searches: children made where their parent completes, the tree nodes of the tasks
  // that cross carried to the other partition (Workload::task_state_bytes).
  for (const Case& tree : kTreeSearches) runs.push_back(tree);
  for (const Case& run : runs) {
    const SimulationResult one = simulate_on(run, 1);
    EXPECT_EQ(one.threads, 1u);
    if (run.workload != "artificial") {
      HalvesCrossed halves(static_cast<NodeId>(parse_topology(run.topology).size() / 2));
      simulate_on(run, 1, {&halves});
      EXPECT_GT(halves.crossed, 200u) << run.workload << ": tasks, and their tree nodes, cross partitions";
    }
    for (const unsigned threads : {2u, 3u, 4u}) {
      const std::string what = run.strategy + " on " + run.topology + ", " + std::to_string(threads) + " threads";
      const SimulationResult many = simulate_on(run, threads);
      EXPECT_EQ(many.threads, threads) << what << ": " << many.one_thread_because;
      test::expect_same_run(one, many, what, test::Peak::left_out);
    }
  }
}

// `mpirun -np R dlbkit simulate`: a partition a process, the same windows, what crosses and
// the events' ranks exchanged through the collectives; every process returns the very run
// of one thread.
TEST(ParallelWindows, ProcessesGiveTheVeryRunOfOneThread) {
  std::vector<Case> runs;
  for (const char* s : {"rid", "work_stealing", "gm"}) runs.push_back({.strategy = s, .topology = "hypercube:5", .seed = 2});
  runs.push_back({.strategy = "diffusion", .topology = "torus:4x8", .seed = 2});
  runs.push_back({.strategy = "work_stealing", .topology = "hypercube:4", .execution = Execution::lifo});
  runs.push_back({.strategy = "rid", .topology = "ring:9", .execution = Execution::processor_sharing});
  runs.push_back({.strategy = "work_stealing", .topology = "hypercube:4", .speeds = {1, 2, 1, 2, 1, 2, 1, 2, 3, 1, 1, 1, 1, 0.5, 1, 1}});
  runs.push_back({.strategy = "rid", .topology = "hypercube:1"});  // 3 processes: one holds no node
  for (const Case& tree : kTreeSearches) runs.push_back(tree);
  for (const Case& run : runs) {
    const SimulationResult one = simulate_on(run, 1);
    for (const int size : {2, 3}) {
      const std::string what = run.strategy + " on " + run.topology + ", " + std::to_string(size) + " processes";
      for (const SimulationResult& many : simulate_on_processes(run, size)) {
        EXPECT_EQ(many.processes, static_cast<unsigned>(size)) << what << ": " << many.one_thread_because;
        test::expect_same_run(one, many, what, test::Peak::left_out);
      }
      // The other end of the rounds' size, a crossing a round in every window, for the
      // strategies that send most (each round is a collective).
      if (&run - runs.data() < 2)
        for (const SimulationResult& many : simulate_on_processes(run, size, SimulationConfig{}.event_limit, 1))
          test::expect_same_run(one, many, what + ", a crossing a round", test::Peak::left_out);
    }
  }
}

// A run stopped at the host-time limit says the whole run's figures on threads and on
// processes, as on one thread: every partition's tasks, not the one's that stopped first.
TEST(ParallelWindows, TheHostTimeLimitSaysTheWholeRunsFigures) {
  const Case run{.strategy = "rid", .topology = "hypercube:10", .workload_params = {{"granularity", "100"}},
                 .cost_params = {}, .wall_seconds = 1e-9};
  const std::string whole = "of 102400 tasks completed";
  for (const unsigned threads : {1u, 2u, 3u}) {
    try {
      simulate_on(run, threads);
      ADD_FAILURE() << threads << " threads: not stopped";
    } catch (const EventLimitReached& e) {
      EXPECT_NE(std::string(e.what()).find(whole), std::string::npos) << threads << " threads: " << e.what();
    }
  }
  for (const int processes : {2, 3}) {
    try {
      simulate_on_processes(run, processes);
      ADD_FAILURE() << processes << " processes: not stopped";
    } catch (const std::runtime_error& e) {
      EXPECT_NE(std::string(e.what()).find(whole), std::string::npos) << processes << " processes: " << e.what();
    }
  }
}

// An error in one process reaches every process, which all stop at the same collective.
TEST(ParallelWindows, AnErrorInOneProcessStopsEveryProcess) {
  const Case run{.strategy = "work_stealing", .topology = "hypercube:5", .workload_params = {{"granularity", "50"}},
                 .cost_params = {}};
  EXPECT_THROW(simulate_on_processes(run, 3, 1000), std::runtime_error);
}

// A run that cannot be split runs whole in every process, and says why.
TEST(ParallelWindows, ProcessesRunWhatCannotBeSplitWholeAndSaySo) {
  const Case run{.strategy = "rid", .topology = "hypercube:4", .cost = "ideal", .cost_params = {}};
  const SimulationResult one = simulate_on(run, 1);
  for (const SimulationResult& r : simulate_on_processes(run, 2)) {
    EXPECT_EQ(r.processes, 1u);
    EXPECT_NE(r.one_thread_because.find("no lookahead"), std::string::npos) << r.one_thread_because;
    test::expect_same_run(one, r);
  }
}

// Every observer call, written out.
struct CallRecord final : Observer {
  std::vector<std::string> calls;
  void add(std::string call) { calls.push_back(std::move(call)); }
  static std::string task(const Task& t) { return std::to_string(t.id) + "/" + std::to_string(t.work) + "/" + std::to_string(t.hops); }
  void on_task_created(NodeId v, const Task& t, SimTime at) override { add(fmt("created", v, task(t), at)); }
  void on_task_started(NodeId v, const Task& t, SimTime at) override { add(fmt("started", v, task(t), at)); }
  void on_task_completed(NodeId v, const Task& t, SimTime at) override { add(fmt("completed", v, task(t), at)); }
  void on_task_migrated(NodeId v, NodeId to, const Task& t, SimTime at) override {
    add(fmt("migrated", v, task(t) + " to " + std::to_string(to), at));
  }
  void on_message_sent(NodeId v, NodeId to, int kind, SimTime at) override {
    add(fmt("sent", v, std::to_string(kind) + " to " + std::to_string(to), at));
  }
  void on_task_arrived(NodeId v, NodeId from, const Task& t, SimTime at) override {
    add(fmt("arrived", v, task(t) + " from " + std::to_string(from), at));
  }
  void on_activity(NodeId v, Activity a, SimTime begin, SimTime end) override {
    add(fmt(a == Activity::busy ? "busy" : "overhead", v, std::to_string(end), begin));
  }
  void on_load(NodeId v, std::int64_t load, SimTime at) override { add(fmt("load", v, std::to_string(load), at)); }
  static std::string fmt(const char* what, NodeId v, const std::string& detail, SimTime at) {
    return std::to_string(at) + " " + what + " at " + std::to_string(v) + ": " + detail;
  }
};

// The observers see the calls of one thread's run, in its order and with its task ids: each
// partition's calls are replayed at its windows' ends by the events' ranks in the run.
TEST(ParallelWindows, ObserversSeeTheCallsOfOneThread) {
  std::vector<Case> runs;
  for (const char* s : {"rid", "work_stealing", "diffusion", "gm"}) runs.push_back({.strategy = s, .topology = "hypercube:4", .seed = 3});
  runs.push_back({.strategy = "rid", .topology = "ring:9", .execution = Execution::processor_sharing});
  for (const Case& run : runs) {
    CallRecord one;
    simulate_on(run, 1, {&one});
    ASSERT_GT(one.calls.size(), 100u) << run.strategy;
    for (const unsigned threads : {2u, 3u}) {
      const std::string what = run.strategy + " on " + run.topology + ", " + std::to_string(threads) + " threads";
      CallRecord many;
      const SimulationResult r = simulate_on(run, threads, {&many});
      EXPECT_EQ(r.threads, threads) << what << ": " << r.one_thread_because;
      ASSERT_EQ(one.calls.size(), many.calls.size()) << what;
      for (std::size_t i = 0; i < one.calls.size(); ++i)
        ASSERT_EQ(one.calls[i], many.calls[i]) << what << ", call " << i;
    }
  }
}

TEST(ParallelWindows, AThreadANodeAndMoreThreadsThanNodes) {
  const Case run{.strategy = "work_stealing", .topology = "hypercube:2"};
  const SimulationResult one = simulate_on(run, 1);
  const SimulationResult many = simulate_on(run, 16);
  EXPECT_EQ(many.threads, 4u);
  test::expect_same_run(one, many, "16 threads on 4 nodes", test::Peak::left_out);
}

struct NoTasks final : Workload {
  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink&) override {}
  bool closed() const override { return true; }
};

TEST(ParallelWindows, ARunWithoutTasksHandlesNoEvent) {
  const Topology topology = parse_topology("hypercube:3");
  NoTasks none;
  for (const unsigned threads : {1u, 2u}) {
    const SimulationResult r = simulate({.topology = &topology,
                                         .strategy = builtin_strategies().configure("work_stealing", {}),
                                         .workload = &none,
                                         .cost = make_cost_model("ipsc2"),
                                         .threads = threads});
    EXPECT_EQ(r.threads, threads);
    EXPECT_EQ(r.events, 0u);
    EXPECT_EQ(r.makespan, 0);
  }
}

TEST(ParallelWindows, RunsThatCannotBeSplitRunOnOneThreadAndSaySo) {
  // No lookahead: a message can reach another node in no time.
  SimulationResult r = simulate_on({.strategy = "rid", .topology = "hypercube:3", .cost = "ideal", .cost_params = {}}, 2);
  EXPECT_EQ(r.threads, 1u);
  EXPECT_NE(r.one_thread_because.find("lookahead"), std::string::npos) << r.one_thread_because;
  // Arrivals from outside draw from the workload's one stream.
  r = simulate_on({.strategy = "work_stealing", .topology = "hypercube:3", .workload = "poisson", .workload_params = {}}, 2);
  EXPECT_EQ(r.threads, 1u);
  EXPECT_NE(r.one_thread_because.find("workload"), std::string::npos) << r.one_thread_because;
  // Asked for one: nothing to say.
  r = simulate_on({.strategy = "rid", .topology = "hypercube:3"}, 1);
  EXPECT_TRUE(r.one_thread_because.empty());
}

TEST(ParallelWindows, AnErrorInOnePartitionStopsTheRunWithoutHanging) {
  const Topology topology = parse_topology("hypercube:5");
  auto workload = builtin_workloads().configure("artificial", {{"granularity", "50"}}).create();
  SimulationConfig config{.topology = &topology,
                          .strategy = builtin_strategies().configure("work_stealing", {}),
                          .workload = workload.get(),
                          .cost = make_cost_model("ipsc2"),
                          .event_limit = 1000,
                          .threads = 3};
  EXPECT_THROW(simulate(config), EventLimitReached);
}

// A thread that fails stops at the next barrier, and so does every other, whatever the
// order in which they arrive and leave: each barrier tells them all alike. (The run once
// read a shared flag after the barrier instead; a thread that read it late left while one
// that had read it early waited at the next barrier for ever.)
TEST(ParallelWindows, EveryThreadStopsAtTheBarrierAfterAFailure) {
  for (const unsigned threads : {2u, 3u, 5u}) {
    for (unsigned failing_round = 0; failing_round < 40; failing_round += 7) {
      SpinBarrier barrier(threads);
      std::vector<unsigned> stopped(threads, 0);
      {
        std::vector<std::jthread> team;
        for (unsigned k = 0; k < threads; ++k)
          team.emplace_back([&, k] {
            for (unsigned round = 0;; ++round) {
              if (round % (k + 2) == 0) std::this_thread::yield();  // arrive in varying orders
              if (barrier.arrive_and_wait(k == threads - 1 && round == failing_round, barrier.spin({}))) {
                stopped[k] = round;
                return;
              }
            }
          });
      }
      for (unsigned k = 0; k < threads; ++k) EXPECT_EQ(stopped[k], failing_round) << threads << " threads, thread " << k;
    }
  }
}

// A wait spins for half the waiting thread's work since its last wait, within 20 us and 1 ms,
// and not at all where the threads outnumber the cores (the one waited for needs a core).
TEST(ParallelWindows, AWaitSpinsForAShareOfTheWorkThenSleeps) {
  using namespace std::chrono_literals;
  const SpinBarrier two(2);
  if (std::thread::hardware_concurrency() >= 2) {
    EXPECT_EQ(two.spin(0ns), 20us);
    EXPECT_EQ(two.spin(300us), 150us);
    EXPECT_EQ(two.spin(50ms), 1ms);
  }
  const SpinBarrier crowded(std::thread::hardware_concurrency() + 1);
  EXPECT_EQ(crowded.spin(300us), 0ns);
}

// Two partitions' windows from time 7. Partition 0 handled, due at 10, (creator at 5, rank
// 0) and (creator at 5, rank 2), then at 12 a child of its second event; partition 1, at 10,
// (creator at 5, rank 1), then at 11 a child of that. Creators before the window carry the
// run's ranks; those in it, their place in their partition's list.
TEST(ParallelWindows, EventsOfASharedInstantAreRankedInKeyOrder) {
  const auto key = [](SimTime creator, std::uint64_t rank) { return EventKey{creator, rank << EventKey::kRankShift}; };
  WindowLog zero, one;
  zero.add(10, key(5, 0), 0);
  zero.add(10, key(5, 2), 1);
  zero.add(12, key(10, 1), 0);
  one.add(10, key(5, 1), 0);
  one.add(11, key(10, 0), 0);
  WindowLog* logs[2] = {&zero, &one};
  rank_shared_instants(logs, 7, 100);
  // At 10 the run has partition 0's first, partition 1's, then partition 0's second.
  EXPECT_EQ(zero.global_key(key(10, 0), 7), key(10, 0));
  EXPECT_EQ(zero.global_key(key(10, 1), 7), key(10, 2));
  EXPECT_EQ(one.global_key(key(10, 0), 7), key(10, 1));
  // Instants only one partition had keep its ranks; creators before the window are the run's.
  EXPECT_EQ(zero.global_key(key(12, 2), 7), key(12, 0));
  EXPECT_EQ(one.global_key(key(11, 1), 7), key(11, 0));
  EXPECT_EQ(one.global_key(key(5, 0), 7), key(5, 0));
  EXPECT_EQ(zero.instants().size(), 2u);
}

// Three partitions: at 10 all three have events (the merge of any number of lists), at 20
// two of them (the merge of two, which takes a path of its own), interleaved in key order.
TEST(ParallelWindows, InstantsSharedByTwoOrThreePartitionsAreRankedInKeyOrder) {
  const auto key = [](SimTime creator, std::uint64_t rank) { return EventKey{creator, rank << EventKey::kRankShift}; };
  WindowLog zero, one, two;
  zero.add(10, key(5, 1), 0);
  zero.add(10, key(5, 4), 1);
  one.add(10, key(5, 0), 0);
  one.add(10, key(5, 5), 1);
  two.add(10, key(5, 2), 0);
  two.add(10, key(5, 3), 1);
  zero.add(20, key(6, 0), 0);
  zero.add(20, key(6, 3), 1);
  zero.add(20, key(6, 4), 2);
  two.add(20, key(6, 1), 0);
  two.add(20, key(6, 2), 1);
  two.add(20, key(6, 5), 2);
  WindowLog* logs[3] = {&zero, &one, &two};
  rank_shared_instants(logs, 7, 100);
  const auto ranks = [](const WindowLog& log) {
    std::vector<std::uint64_t> r;
    for (const HandledEvent& e : log.events()) r.push_back(e.rank);
    return r;
  };
  EXPECT_EQ(ranks(zero), (std::vector<std::uint64_t>{1, 4, 0, 3, 4}));
  EXPECT_EQ(ranks(one), (std::vector<std::uint64_t>{0, 5}));
  EXPECT_EQ(ranks(two), (std::vector<std::uint64_t>{2, 3, 1, 2, 5}));
}

TEST(ParallelWindows, SlicesOfAWindowRankAsOneThreadDoes) {
  // A window [7, 100) in two slices, [7, 50) and [50, 100). At 10 the partitions share an
  // instant, which the run orders partition 1's first; at 60 each has an event made by its
  // event at 10, so the run orders them by those creators' ranks: partition 1's first again.
  const auto key = [](SimTime creator, std::uint64_t rank) { return EventKey{creator, rank << EventKey::kRankShift}; };
  const auto logs_of = [&](WindowLog& zero, WindowLog& one) {
    zero.add(10, key(5, 1), 0);
    zero.add(60, key(10, 0), 0);
    one.add(10, key(5, 0), 0);
    one.add(60, key(10, 0), 0);
  };
  WindowLog zero, one, serial_zero, serial_one;
  logs_of(zero, one);
  logs_of(serial_zero, serial_one);
  WindowLog* logs[2] = {&zero, &one};
  WindowLog* serial[2] = {&serial_zero, &serial_one};
  rank_shared_instants(serial, 7, 100);
  EXPECT_EQ(serial_one.events()[1].rank, 0u);
  EXPECT_EQ(serial_zero.events()[1].rank, 1u);
  // The second slice first: its merge asks for the instant 10, and the first slice runs then.
  std::vector<SimTime> waited, ranked;
  const auto first_slice = [&] {
    rank_shared_instants(logs, 7, 7, 50, [](SimTime) { FAIL() << "the first slice waits for none"; },
                         [&](SimTime t) { ranked.push_back(t); });
  };
  rank_shared_instants(
      logs, 7, 50, 100,
      [&](SimTime c) {
        waited.push_back(c);
        if (ranked.empty()) first_slice();
      },
      [&](SimTime t) { ranked.push_back(t); });
  EXPECT_EQ(waited, std::vector<SimTime>{10});
  EXPECT_EQ(ranked, (std::vector<SimTime>{10, 60}));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(zero.events()[i].rank, serial_zero.events()[i].rank);
    EXPECT_EQ(one.events()[i].rank, serial_one.events()[i].rank);
  }
}

struct WindowItem {
  std::int64_t time;
  std::uint64_t key;
};

TEST(ParallelWindows, TheQueueLooksPastAWindowWithoutMovingItsBase) {
  EventQueue<WindowItem> queue;
  queue.push({1000, 1});
  queue.push({5000, 2});
  ASSERT_NE(queue.top_before(2000), nullptr);
  EXPECT_EQ(queue.pop().key, 1u);
  EXPECT_EQ(queue.top_before(2000), nullptr);
  EXPECT_EQ(queue.earliest(), 5000);
  queue.push({2000, 3});  // from the window's end on: still in order
  EXPECT_EQ(queue.pop().key, 3u);
  EXPECT_EQ(queue.pop().key, 2u);
}

}  // namespace
