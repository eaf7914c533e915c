#pragma once
// What the tests of the round-based agents (liquid, nna, diffusion, dimension_exchange, sos,
// chebyshev) share: every task executed exactly once under every cost model and runs that
// repeat, and the lock-step comparison with the round kernels.

#include "../sim/conservation.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/rounds/round_kernel.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>
#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace dlbkit::test {

using Loads = std::vector<std::int64_t>;
using Params = std::map<std::string, std::string>;

inline SimulationResult run(const Topology& t, const std::string& strategy, const Params& params,
                            const CostModel& cost, Workload& w, std::uint64_t seed,
                            std::vector<Observer*> observers = {}) {
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure(strategy, params),
                          .workload = &w,
                          .cost = cost,
                          .seed = seed,
                          .observers = std::move(observers)};
  return simulate(config);
}

// A strategy, its parameters and the topologies to run it on.
using AgentCase = std::tuple<std::string, Params, std::vector<std::string>>;

// Runs each case under four cost models (ideal, ipsc2, a 2 s latency, three tasks per
// message) and two workloads (tasks appearing over time, three per node at once), seeds
// first_seed, first_seed + 1, ...: every task executed exactly once, none left in flight, and
// the same seed gives the same run. Returns the number of runs.
inline int expect_conserved_and_repeatable(const std::vector<AgentCase>& agents, std::uint64_t first_seed) {
  const std::vector<std::pair<std::string, Params>> costs = {
      {"ideal", {}}, {"ipsc2", {}}, {"ipsc2", {{"latency", "2s"}}}, {"ipsc2", {{"tasks_per_message", "3"}}}};
  int runs = 0;
  for (const auto& [strategy, params, topologies] : agents)
    for (const auto& spec : topologies) {
      const Topology t = parse_topology(spec);
      for (const auto& [preset, overrides] : costs) {
        const CostModel cost = make_cost_model(preset, overrides);
        for (int which = 0; which < 2; ++which) {
          SCOPED_TRACE(strategy + " " + params.begin()->second + " on " + spec + ", " + preset +
                       (overrides.empty() ? "" : " " + overrides.begin()->first) + ", workload " +
                       std::to_string(which));
          const auto workload = [&]() -> std::unique_ptr<Workload> {
            if (which == 0) return std::make_unique<DynamicWorkload>();
            return builtin_workloads().configure("artificial", {{"granularity", "3"}}).create();
          };
          const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(runs);
          ConservationObserver check;
          auto w = workload();
          const SimulationResult r = run(t, strategy, params, cost, *w, seed, {&check});
          check.expect_all_done();
          EXPECT_EQ(r.tasks_completed, r.tasks_created);
          std::uint64_t sent = 0, received = 0;
          for (const NodeStats& n : r.nodes) {
            sent += n.tasks_sent;
            received += n.tasks_received;
          }
          EXPECT_EQ(sent, r.tasks_transferred);
          EXPECT_EQ(received, r.tasks_transferred) << "tasks still in flight at the end";
          auto w2 = workload();
          const SimulationResult again = run(t, strategy, params, cost, *w2, seed);
          EXPECT_EQ(again.makespan, r.makespan);
          EXPECT_EQ(again.messages_by_kind, r.messages_by_kind);
          ++runs;
        }
      }
    }
  return runs;
}

// ----- lock-step -----

inline constexpr SimTime kPeriod = kMillisecond;

// Every node first gets one anchor task that executes for a second, longer than the rounds
// compared, then L_i queued unit tasks: the agents' load elements (they see migratable()).
class AnchoredLoads final : public Workload {
public:
  explicit AnchoredLoads(Loads loads) : loads_(std::move(loads)) {}
  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    for (NodeId v = 0; v < loads_.size(); ++v) {
      sink.add(v, kSecond);
      for (std::int64_t i = 0; i < loads_[v]; ++i) sink.add(v, kMillisecond);
    }
  }

private:
  Loads loads_;
};

struct Migration {
  SimTime time;
  NodeId from, to;
};

class MigrationLog final : public Observer {
public:
  void on_task_migrated(NodeId from, NodeId to, const Task&, SimTime t) override { log.push_back({t, from, to}); }
  std::vector<Migration> log;
};

// The agent's queued loads after rounds 0, 1, ..., rounds - 1 (round r runs at r * period
// under the ideal cost model), beside the kernel's steps from the same loads; with
// `expect_moves`, some task must have moved.
inline void expect_lock_step(const std::string& strategy, const Params& params, const Topology& t,
                             const RoundKernel& kernel, const Loads& start, std::uint64_t rounds,
                             bool expect_moves) {
  SCOPED_TRACE(strategy + " on " + t.spec());
  AnchoredLoads w(start);
  MigrationLog log;
  Params with_period = params;
  with_period["period"] = "1ms";
  run(t, strategy, with_period, make_cost_model("ideal"), w, 1, {&log});
  Loads agent = start, expected = start, next(start.size());
  std::size_t m = 0;
  std::uint64_t moved = 0;
  for (std::uint64_t r = 0; r < rounds; ++r) {
    const SimTime at = static_cast<SimTime>(r) * kPeriod;
    for (; m < log.log.size() && log.log[m].time <= at; ++m) {
      ASSERT_EQ(log.log[m].time, at) << "a migration between rounds";
      --agent[log.log[m].from];
      ++agent[log.log[m].to];
      ++moved;
    }
    kernel.update(r, expected, next, 0, static_cast<NodeId>(expected.size()));
    expected.swap(next);
    ASSERT_EQ(agent, expected) << "after round " << r;
  }
  if (expect_moves) {
    EXPECT_GT(moved, 0u);
  }
}

}  // namespace dlbkit::test
