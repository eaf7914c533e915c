// Processor-sharing execution: shares, poll points and handling costs, migration of
// partially executed processes, conservation and determinism under every strategy.
#include "conservation.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>
#include <map>

using namespace dlbkit;
using dlbkit::test::ConservationObserver;

namespace {

// Fixed tasks at time 0: (node, work).
class FixedTasks final : public Workload {
public:
  explicit FixedTasks(std::vector<std::pair<NodeId, SimTime>> tasks) : tasks_(std::move(tasks)) {}
  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    for (auto [node, work] : tasks_) sink.add(node, work);
  }

private:
  std::vector<std::pair<NodeId, SimTime>> tasks_;
};

class CompletionTimes final : public Observer {
public:
  void on_task_completed(NodeId, const Task& t, SimTime time) override { at[t.id] = time; }
  void on_task_created(NodeId, const Task& t, SimTime) override { created_work += t.work; }
  std::map<std::uint64_t, SimTime> at;
  SimTime created_work = 0;
};

SimulationResult run(const Topology& t, const StrategyChoice& s, Workload& w, const CostModel& cost, Execution e,
                     std::vector<Observer*> observers = {}, std::uint64_t seed = 1) {
  return simulate({.topology = &t, .strategy = s, .workload = &w, .cost = cost, .seed = seed,
                   .observers = std::move(observers), .execution = e});
}

}  // namespace

TEST(ProcessorSharing, TasksShareTheProcessorEqually) {
  // Tasks of 1 s and 2 s on one node: FCFS completes them at 1 s and 3 s; shared, the short
  // one gets half the processor and completes at 2 s, the long one alone after it at 3 s.
  const Topology t = parse_topology("ring:3");
  const auto none = builtin_strategies().configure("none", {});
  // lifo executes the newest first: the 2 s task, then the 1 s one.
  for (Execution e : {Execution::fcfs, Execution::processor_sharing, Execution::lifo}) {
    FixedTasks w({{0, kSecond}, {0, 2 * kSecond}, {1, 3 * kSecond / 2}});
    CompletionTimes times;
    const SimulationResult r = run(t, none, w, make_cost_model("ideal"), e, {&times});
    EXPECT_EQ(times.at[0], e == Execution::fcfs ? kSecond : e == Execution::lifo ? 3 * kSecond : 2 * kSecond);
    EXPECT_EQ(times.at[1], e == Execution::lifo ? 2 * kSecond : 3 * kSecond);
    EXPECT_EQ(times.at[2], 3 * kSecond / 2);
    EXPECT_EQ(r.makespan, 3 * kSecond);
    EXPECT_EQ(r.nodes[0].busy, 3 * kSecond);
  }
}

TEST(ProcessorSharing, HandlingAMessagePausesEveryProcess) {
  // Node 1 tells node 0 something at time 0; node 0's two 1 ms processes pause for the 20 us
  // of handling (at the first poll point after arrival, 100 us of execution) and complete
  // together at 2.02 ms.
  SimTime handled = -1;
  struct Tell final : Strategy {
    explicit Tell(SimTime* h) : handled(h) {}
    void on_start(NodeContext& ctx) override {
      if (ctx.self() == 1) ctx.send(0, Message::make(0, 0));
    }
    void on_message(NodeContext& ctx, NodeId, const Message&) override { *handled = ctx.now(); }
    SimTime* handled;
  };
  const StrategyInfo info{.name = "tell", .message_kinds = {"m"},
                          .create = [&handled](const Parameters&) { return std::make_unique<Tell>(&handled); }};
  const Topology t = parse_topology("ring:3");
  FixedTasks w({{0, kMillisecond}, {0, kMillisecond}});
  CompletionTimes times;
  const CostModel cost =
      make_cost_model("ideal", {{"latency", "30us"}, {"poll_interval", "100us"}, {"handle_cost", "20us"}});
  run(t, StrategyChoice{&info, {}}, w, cost, Execution::processor_sharing, {&times});
  EXPECT_EQ(handled, 100 * kMicrosecond + 20 * kMicrosecond);
  EXPECT_EQ(times.at[0], 2 * kMillisecond + 20 * kMicrosecond);
  EXPECT_EQ(times.at[1], 2 * kMillisecond + 20 * kMicrosecond);
}

TEST(ProcessorSharing, AMigratedProcessCarriesItsRemainingWork) {
  // direct_neighbor on two nodes: node 0 starts with 6 processes of 1 s, node 1 with none;
  // the 3 newest leave as soon as node 0 hears of node 1 (partly executed) and the work is
  // conserved: the total busy time is the total work created, whatever moved.
  const Topology t = parse_topology("mesh:1x2");
  FixedTasks w({{0, kSecond}, {0, kSecond}, {0, kSecond}, {0, kSecond}, {0, kSecond}, {0, kSecond}});
  CompletionTimes times;
  ConservationObserver check;
  const SimulationResult r = run(t, builtin_strategies().configure("direct_neighbor", {}), w,
                                 make_cost_model("meiko-cs1"), Execution::processor_sharing, {&times, &check});
  check.expect_all_done();
  EXPECT_GE(r.tasks_transferred, 3u);
  EXPECT_EQ(r.total_work, times.created_work);
  EXPECT_EQ(r.nodes[0].busy + r.nodes[1].busy, times.created_work);
  EXPECT_LT(r.makespan, 4 * kSecond);  // 6 s of work on two nodes, not 6 s on one
}

TEST(ProcessorSharing, EveryTaskIsExecutedExactlyOnceAndRunsRepeat) {
  const std::vector<std::string> topologies = {"hypercube:4", "mesh:3x5", "ring:7", "torus:4x4"};
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> costs = {
      {"ideal", {}}, {"ipsc2", {}}, {"ipsc2", {{"latency", "2s"}}}, {"meiko-cs1", {}}};
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> strategies = {
      {"none", {}}, {"rid", {}}, {"sid", {}}, {"gm", {}}, {"dem", {}}, {"hbm", {}},
      {"direct_neighbor", {{"w", "0.5"}, {"extended", "true"}}},
      {"direct_neighbor", {{"initiation", "receiver"}}}};
  int runs = 0;
  for (const auto& spec : topologies) {
    const Topology t = parse_topology(spec);
    for (const auto& [preset, overrides] : costs)
      for (const auto& [name, params] : strategies) {
        const auto& info = builtin_strategies().find(name);
        if (info.check_topology && (t.size() & (t.size() - 1)) != 0 && name == "hbm") continue;
        const StrategyChoice s = builtin_strategies().configure(name, params);
        const CostModel cost = make_cost_model(preset, overrides);
        for (int which = 0; which < 2; ++which) {
          SCOPED_TRACE(spec + " " + preset + " " + name + " workload " + std::to_string(which));
          auto make = [&]() -> std::unique_ptr<Workload> {
            if (which == 0) return std::make_unique<test::DynamicWorkload>();
            return builtin_workloads().configure("artificial", {{"granularity", "6"}}).create();
          };
          auto w = make();
          ConservationObserver check;
          const std::uint64_t seed = 100 + static_cast<std::uint64_t>(runs);
          const SimulationResult r = run(t, s, *w, cost, Execution::processor_sharing, {&check}, seed);
          check.expect_all_done();
          std::uint64_t sent = 0, received = 0;
          for (const NodeStats& n : r.nodes) {
            sent += n.tasks_sent;
            received += n.tasks_received;
          }
          EXPECT_EQ(sent, r.tasks_transferred);
          EXPECT_EQ(received, r.tasks_transferred);
          auto w2 = make();
          const SimulationResult again = run(t, s, *w2, cost, Execution::processor_sharing, {}, seed);
          EXPECT_EQ(again.makespan, r.makespan);
          EXPECT_EQ(again.events, r.events);
          EXPECT_EQ(again.tasks_transferred, r.tasks_transferred);
          ++runs;
        }
      }
  }
  EXPECT_GT(runs, 200);
}

TEST(ProcessorSharing, ExecutionModeNames) {
  EXPECT_EQ(parse_execution("fcfs"), Execution::fcfs);
  EXPECT_EQ(parse_execution("ps"), Execution::processor_sharing);
  EXPECT_EQ(parse_execution("processor_sharing"), Execution::processor_sharing);
  EXPECT_THROW(parse_execution("round_robin"), InputError);
  EXPECT_STREQ(to_string(Execution::processor_sharing), "processor_sharing");
}
