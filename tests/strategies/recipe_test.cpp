// docs/architecture.md's recipes for a strategy and a workload, followed step by step: classes
// that declare themselves in static members, their entries from strategy_info<S>() and
// workload_info<W>(), and the same strategy run by the simulator and by the threads runtime.

#include <dlbkit/core/registry.hpp>
#include <dlbkit/runtime/runtime.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <vector>

using namespace dlbkit;

namespace {

// Step 1: the class. A node that first holds `threshold` tasks or more it can move gives half
// of them to its first neighbour, once: a toy, but conserving and finite at any parameter.
constexpr IntegerParam kThreshold{.name = "threshold", .default_value = "4",
                                  .description = "tasks a node must hold before it gives half away", .min = 2};

class HalfOnce final : public Strategy {
public:
  static constexpr const char* name = "half_once";
  static constexpr const char* description = "a heavy node gives half of its tasks to its first neighbour, once";
  static constexpr const char* source = "docs/architecture.md";
  static std::vector<ParamSpec> params() { return {kThreshold}; }
  enum Kind : std::uint16_t { kKinds };  // it sends no message of its own
  static constexpr std::array<const char*, kKinds> message_kinds{};

  explicit HalfOnce(const Parameters& p) : threshold_(p[kThreshold]) {}

  void on_load_change(NodeContext& ctx) override {
    if (given_ || ctx.migratable() < threshold_ || ctx.topology().degree(ctx.self()) == 0) return;
    given_ = true;
    ctx.migrate(ctx.topology().neighbors(ctx.self())[0], ctx.migratable() / 2);
  }

private:
  long long threshold_;
  bool given_ = false;
};

// A workload the same way: every task on node 0, 1 ms each.
constexpr IntegerParam kTasks{.name = "tasks", .default_value = "100", .description = "tasks on node 0", .min = 1};

class AllOnNodeZero final : public Workload {
public:
  static constexpr const char* name = "all_on_node_zero";
  static constexpr const char* description = "every task on node 0, 1 ms each";
  static constexpr const char* source = "docs/architecture.md";
  static std::vector<ParamSpec> params() { return {kTasks}; }

  explicit AllOnNodeZero(const Parameters& p) : tasks_(p[kTasks]) {}
  bool closed() const override { return true; }
  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    for (long long i = 0; i < tasks_; ++i) sink.add(0, kMillisecond);
  }

private:
  long long tasks_;
};

struct Node {
  std::uint32_t depth;
};

}  // namespace

// Step 2: the registry entries (builtin.cpp declares `half_once_strategy_info()` and adds it;
// workloads/builtin_workloads.cpp the same for the workload).
TEST(Recipe, AStrategyDeclaredOnceRunsInTheSimulatorAndTheRuntime) {
  StrategyRegistry strategies;
  strategies.add(strategy_info<HalfOnce>());
  const StrategyChoice half = strategies.configure("half_once", {{"threshold", "8"}});
  EXPECT_EQ(half.params.to_string(), "threshold=8");
  WorkloadRegistry workloads;
  workloads.add(workload_info<AllOnNodeZero>());
  const auto workload = workloads.configure("all_on_node_zero", {{"tasks", "100"}}).create();

  // Step 3: the simulator runs it ...
  const Topology ring = parse_topology("ring:4");
  const SimulationResult r =
      simulate({.topology = &ring, .strategy = half, .workload = workload.get(), .cost = make_cost_model("ideal")});
  EXPECT_EQ(r.tasks_completed, 100u);
  EXPECT_GT(r.tasks_transferred, 0u);

  // ... and so does the runtime, the class given beside the options. Its check points come
  // where the tree's depth-first stack holds a few tasks (7 at most in a run that measured
  // them), so the threshold is the lowest: with 8, one run in six moved nothing.
  Runtime runtime(RuntimeOptions{.engine = "threads", .params = {"threshold=2"}, .topology = "complete:2", .quiet = true},
                  strategy_info<HalfOnce>());
  const std::uint64_t nodes = runtime.run(
      std::vector{Node{0}},
      [](const Node& n, auto& ctx) {
        ++ctx.result();
        if (n.depth < 16)
          for (int c = 0; c < 2; ++c) ctx.spawn(Node{n.depth + 1});
      },
      std::uint64_t{0}, std::plus<>{});
  EXPECT_EQ(nodes, (1u << 17) - 1);
  EXPECT_GT(runtime.last_run().tasks_moved(), 0u);
}
