// Initial tasks drawn when taken (sim/deferred_tasks.hpp, task_queues.hpp): the artificial
// workload's lists give its tasks as drawn at the start, the queues behave as deques, and a
// simulation gives the same result whether the tasks are deferred or held.

#include "../support/same_run.hpp"
#include "task_queues.hpp"

#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <deque>
#include <vector>

using namespace dlbkit;

namespace {

struct Drawn {
  NodeId node;
  SimTime work;
};

// The tasks as initial_tasks() gives them: task i has id i.
std::vector<Drawn> drawn_at_start(Workload& w, const Topology& topology, const CostModel& cost, Rng& rng) {
  struct Sink final : TaskSink {
    std::vector<Drawn> tasks;
    void add(NodeId node, SimTime work, std::uint32_t tag) override {
      EXPECT_EQ(tag, 0u);
      tasks.push_back({node, work});
    }
  } sink;
  w.initial_tasks(topology, cost, rng, sink);
  return sink.tasks;
}

TEST(DeferredTasks, ArtificialListsAreTheTasksDrawnAtTheStart) {
  const Topology topology = parse_topology("hypercube:5");
  const CostModel cost = make_cost_model("ipsc2");
  for (const char* g : {"1", "7", "100"}) {
    SCOPED_TRACE(g);
    const WorkloadChoice choice = builtin_workloads().configure("artificial", {{"granularity", g}});
    Rng at_start(9, 0), deferring(9, 0);
    const std::vector<Drawn> expected = drawn_at_start(*choice.create(), topology, cost, at_start);
    auto lists = choice.create()->defer_initial_tasks(topology, cost, deferring);
    ASSERT_NE(lists, nullptr);
    EXPECT_EQ(deferring.next(), at_start.next());  // the stream left where the draw at the start leaves it
    // Each node's list taken from both ends in a random order.
    Rng pick(5);
    std::size_t first = 0;
    for (NodeId v = 0; v < topology.size(); ++v) {
      const std::uint32_t count = lists->count(v);
      std::size_t front = first, back = first + count;
      for (std::uint32_t left = count; left > 0; --left) {
        const bool from_front = pick.below(2) == 0;
        const Task t = from_front ? lists->take_front(v) : lists->take_back(v, left);
        const std::size_t i = from_front ? front++ : --back;
        ASSERT_LT(i, expected.size());
        EXPECT_EQ(expected[i].node, v);
        EXPECT_EQ(t.id, i);
        EXPECT_EQ(t.work, expected[i].work);
        EXPECT_EQ(t.hops, 0u);
        EXPECT_EQ(t.tag, 0u);
      }
      first += count;
    }
    EXPECT_EQ(first, expected.size());
  }
}

// A process of a parallel simulation keeps only its nodes' lists (keep_only): they give the
// same tasks as the whole lists, twice over (a range, then a range within it), and count()
// still answers for every node.
TEST(DeferredTasks, ArtificialListsKeptForARangeGiveItsTasks) {
  const Topology topology = parse_topology("hypercube:5");
  const CostModel cost = make_cost_model("ipsc2");
  const WorkloadChoice choice = builtin_workloads().configure("artificial", {{"granularity", "7"}});
  Rng at_start(4, 0), deferring(4, 0);
  const std::vector<Drawn> expected = drawn_at_start(*choice.create(), topology, cost, at_start);
  auto lists = choice.create()->defer_initial_tasks(topology, cost, deferring);
  ASSERT_NE(lists, nullptr);
  lists->keep_only(8, 24);
  lists->keep_only(11, 20);
  for (NodeId v = 0; v < topology.size(); ++v) EXPECT_EQ(lists->count(v), 7u);
  for (NodeId v = 11; v < 20; ++v) {
    const Task back = lists->take_back(v, 7);
    EXPECT_EQ(back.id, v * 7 + 6);
    EXPECT_EQ(back.work, expected[back.id].work);
    for (std::uint32_t j = 0; j < 6; ++j) {
      const Task t = lists->take_front(v);
      EXPECT_EQ(t.id, v * 7 + j);
      EXPECT_EQ(t.work, expected[t.id].work);
      EXPECT_EQ(expected[t.id].node, v);
    }
  }
}

// Node v's list: tasks v * 1000 + j of work j, for j below 10 + 60 v (beyond 256 from node
// 5 on: lists the queues draw whole before they take from the back).
class Counting final : public DeferredTasks {
public:
  explicit Counting(std::size_t nodes) : taken_(nodes, 0) {}
  static Task task(NodeId v, std::uint32_t j) { return {std::uint64_t{v} * 1000 + j, j, 0, 0}; }
  std::uint32_t count(NodeId v) const override { return 10 + 60 * v; }
  Task take_front(NodeId v) override { return task(v, taken_[v]++); }
  Task take_back(NodeId v, std::uint32_t left) override { return task(v, taken_[v] + left - 1); }

private:
  std::vector<std::uint32_t> taken_;
};

TEST(DeferredTasks, QueuesBehaveAsDequesBehindTheDeferredTasks) {
  constexpr std::size_t kNodes = 8;
  TaskQueues pool;
  std::vector<TaskQueues::Queue> queues(kNodes);
  std::vector<std::deque<Task>> reference(kNodes);
  Counting lists(kNodes);
  for (NodeId v = 0; v < kNodes; ++v) {
    pool.defer(lists, queues[v], v);
    for (std::uint32_t j = 0; j < 10 + 60 * v; ++j) reference[v].push_back(Counting::task(v, j));
    EXPECT_EQ(queues[v].size(), 10 + 60 * v);
  }
  Rng pick(3);
  std::uint64_t next_id = 100'000;
  for (int step = 0; step < 20'000; ++step) {
    const auto v = static_cast<NodeId>(pick.below(kNodes));
    const std::uint64_t op = pick.below(3);
    if (op == 0) {  // a task joins: after the deferred ones
      const Task t{next_id++, static_cast<SimTime>(pick.below(100)), static_cast<std::uint32_t>(pick.below(5)), 7};
      pool.push_back(queues[v], t);
      reference[v].push_back(t);
    } else if (!reference[v].empty()) {
      const Task t = op == 1 ? pool.pop_front(queues[v], v) : pool.pop_back(queues[v], v);
      const Task& want = op == 1 ? reference[v].front() : reference[v].back();
      ASSERT_EQ(t.id, want.id) << step;
      EXPECT_EQ(t.work, want.work);
      EXPECT_EQ(t.hops, want.hops);
      EXPECT_EQ(t.tag, want.tag);
      if (op == 1) reference[v].pop_front();
      else reference[v].pop_back();
    }
    ASSERT_EQ(queues[v].size(), reference[v].size());
  }
}

// The workload's tasks, given only at the start: the engine holds them all.
class Held final : public Workload {
public:
  explicit Held(std::unique_ptr<Workload> inner) : inner_(std::move(inner)) {}
  void initial_tasks(const Topology& topology, const CostModel& cost, Rng& rng, TaskSink& sink) override {
    inner_->initial_tasks(topology, cost, rng, sink);
  }
  bool closed() const override { return inner_->closed(); }

private:
  std::unique_ptr<Workload> inner_;
};

TEST(DeferredTasks, SimulationsAreTheSameAsWithTheTasksHeld) {
  const WorkloadChoice artificial = builtin_workloads().configure("artificial", {{"granularity", "20"}});
  int compared = 0;
  for (const char* spec : {"hypercube:4", "torus:4x4", "ring:7"}) {
    const Topology topology = parse_topology(spec);
    for (const char* strategy : {"rid", "sid", "gm", "work_stealing", "diffusion"}) {
      for (const std::map<std::string, std::string>& overrides : std::vector<std::map<std::string, std::string>>{
               {}, {{"tasks_per_message", "3"}}, {{"handle_cost", "20us"}, {"poll_interval", "0"}}}) {
        for (std::uint64_t seed : {1, 2}) {
          SCOPED_TRACE(fmt::format("{} {} ipsc2 {} seed {}", spec, strategy, overrides.size(), seed));
          const SimulationConfig config{.topology = &topology,
                                        .strategy = builtin_strategies().configure(strategy, {}),
                                        .cost = make_cost_model("ipsc2", overrides),
                                        .seed = seed};
          auto deferring = artificial.create();
          Held held(artificial.create());
          SimulationConfig a = config, b = config;
          a.workload = deferring.get();
          b.workload = &held;
          const SimulationResult x = simulate(a), y = simulate(b);
          test::expect_same_run(x, y);
          EXPECT_GT(x.tasks_transferred, 0u);
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 3 * 5 * 3 * 2);
}

}  // namespace
