// The liquid and nna agents (Henrich): every task executed exactly once under every cost
// model, and in lock-step (ideal cost model, static loads) the same loads as the round
// kernels, round by round.

#include "../sim/conservation.hpp"

#include <dlbkit/apps/workloads.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/liquid.hpp>
#include <dlbkit/rounds/nna.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::ConservationObserver;

namespace {

using Loads = std::vector<std::int64_t>;
using Params = std::map<std::string, std::string>;

const std::vector<std::pair<std::string, Params>> kCosts = {
    {"ideal", {}},
    {"ipsc2", {}},
    {"ipsc2", {{"latency", "2s"}}},
    {"ipsc2", {{"tasks_per_message", "3"}}},
};

SimulationResult run(const Topology& t, const std::string& strategy, const Params& params, const CostModel& cost,
                     Workload& w, std::uint64_t seed, std::vector<Observer*> observers = {}) {
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure(strategy, params),
                          .workload = &w,
                          .cost = cost,
                          .seed = seed,
                          .observers = std::move(observers)};
  return simulate(config);
}

TEST(LiquidAgents, EveryTaskIsExecutedExactlyOnceAndRunsRepeat) {
  const std::vector<std::tuple<std::string, Params, std::vector<std::string>>> agents = {
      {"liquid", {{"condition", "c5"}}, {"ring:7", "torus:4x4", "torus:3x2x2", "hypercube:3"}},
      {"liquid", {{"condition", "c0"}}, {"ring:7", "torus:3x2x2"}},
      {"liquid", {{"condition", "c2"}}, {"ring:7", "torus:4x4"}},
      {"liquid", {{"condition", "c4"}}, {"torus:4x4", "hypercube:3"}},
      {"nna", {{"transfer", "net"}}, {"ring:7", "torus:5"}},
      {"nna", {{"transfer", "gross"}}, {"ring:7"}},
  };
  int runs = 0;
  for (const auto& [strategy, params, topologies] : agents)
    for (const auto& spec : topologies) {
      const Topology t = parse_topology(spec);
      for (const auto& [preset, overrides] : kCosts) {
        const CostModel cost = make_cost_model(preset, overrides);
        for (int which = 0; which < 2; ++which) {
          SCOPED_TRACE(strategy + " " + params.begin()->second + " on " + spec + ", " + preset +
                       (overrides.empty() ? "" : " " + overrides.begin()->first) + ", workload " +
                       std::to_string(which));
          const auto workload = [&]() -> std::unique_ptr<Workload> {
            if (which == 0) return std::make_unique<test::DynamicWorkload>();
            return builtin_workloads().configure("artificial", {{"granularity", "3"}}).create();
          };
          const std::uint64_t seed = 21 + static_cast<std::uint64_t>(runs);
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
  EXPECT_EQ(runs, 13 * 4 * 2);
}

TEST(LiquidAgents, TopologiesTheyCannotUseAreRefused) {
  const auto& liquid = builtin_strategies().find("liquid");
  const auto& nna = builtin_strategies().find("nna");
  EXPECT_THROW(liquid.check_topology(parse_topology("mesh:3x3")), InputError);
  EXPECT_THROW(liquid.check_topology(parse_topology("complete:4")), InputError);
  EXPECT_NO_THROW(liquid.check_topology(parse_topology("hypercube:4")));
  EXPECT_THROW(nna.check_topology(parse_topology("torus:4x4")), InputError);
  EXPECT_NO_THROW(nna.check_topology(parse_topology("ring:9")));
  EXPECT_THROW(builtin_strategies().configure("liquid", {{"condition", "c6"}}), InputError);
  EXPECT_THROW(builtin_strategies().configure("nna", {{"transfer", "both"}}), InputError);
  const Topology mesh = parse_topology("mesh:3x3");
  auto w = builtin_workloads().configure("artificial", {{"granularity", "3"}}).create();
  EXPECT_THROW(run(mesh, "liquid", {}, make_cost_model("ideal"), *w, 1), InputError);
}

// ----- lock-step -----

constexpr SimTime kPeriod = kMillisecond;
constexpr std::uint64_t kRounds = 60;

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

// The agent's queued loads after rounds 0, 1, ..., kRounds - 1 (round r runs at r * period
// under the ideal cost model), beside the kernel's steps from the same loads.
void expect_lock_step(const std::string& strategy, const Params& params, const std::string& spec,
                      const RoundKernel& kernel, const Loads& start) {
  SCOPED_TRACE(strategy + " on " + spec);
  const Topology t = parse_topology(spec);
  AnchoredLoads w(start);
  MigrationLog log;
  Params with_period = params;
  with_period["period"] = "1ms";
  run(t, strategy, with_period, make_cost_model("ideal"), w, 1, {&log});
  Loads agent = start, expected = start, next(start.size());
  std::size_t m = 0;
  for (std::uint64_t r = 0; r < kRounds; ++r) {
    const SimTime at = static_cast<SimTime>(r) * kPeriod;
    for (; m < log.log.size() && log.log[m].time <= at; ++m) {
      ASSERT_EQ(log.log[m].time, at) << "a migration between rounds";
      --agent[log.log[m].from];
      ++agent[log.log[m].to];
    }
    kernel.update(r, expected, next, 0, static_cast<NodeId>(expected.size()));
    expected.swap(next);
    ASSERT_EQ(agent, expected) << "after round " << r;
  }
}

TEST(LiquidAgents, LockStepReproducesTheKernelRoundByRound) {
  // Table 3's example, then random loads on tori of one to three dimensions.
  for (const char* c : {"c0", "c1", "c2", "c3", "c4", "c5"}) {
    const ShiftCondition condition = parse_shift_condition(c);
    expect_lock_step("liquid", {{"condition", c}}, "ring:8", LiquidKernel(parse_topology("ring:8"), condition),
                     {16, 0, 0, 0, 0, 0, 0, 0});
    Rng rng(static_cast<std::uint64_t>(condition) + 1);
    for (const char* spec : {"ring:9", "torus:4x3", "torus:3x2x3", "hypercube:3"}) {
      const Topology t = parse_topology(spec);
      Loads start(t.size());
      for (auto& x : start) x = static_cast<std::int64_t>(rng.below(7));
      expect_lock_step("liquid", {{"condition", c}}, spec, LiquidKernel(t, condition), start);
    }
  }
}

TEST(LiquidAgents, NnaLockStepReproducesTheKernelIterationByIteration) {
  for (const char* transfer : {"net", "gross"}) {
    const NnaTransfer rule = parse_nna_transfer(transfer);
    const Topology ring = parse_topology("ring:8");
    expect_lock_step("nna", {{"transfer", transfer}}, "ring:8", NnaKernel(ring, rule), {16, 0, 0, 0, 0, 0, 0, 0});
    Rng rng(7);
    const Topology ring11 = parse_topology("ring:11");
    Loads start(11);
    for (auto& x : start) x = static_cast<std::int64_t>(rng.below(20));
    expect_lock_step("nna", {{"transfer", transfer}}, "ring:11", NnaKernel(ring11, rule), start);
  }
}

}  // namespace
