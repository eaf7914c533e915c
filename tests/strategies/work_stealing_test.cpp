// work_stealing: the protocol on a scripted node, and conservation in the simulator.
#include "fake_context.hpp"
#include "stealing_runs.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>
#include <set>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

constexpr std::uint16_t kStealRequest = 0, kStealRefused = 1;

std::unique_ptr<Strategy> make_stealing(std::map<std::string, std::string> p = {}) {
  return builtin_strategies().configure("work_stealing", p).create();
}

// The victim's refusal of a request: the request's body (its number) comes back.
Message refusal_of(const Message& request) {
  Message m = request;
  m.kind = kStealRefused;
  return m;
}

}  // namespace

TEST(WorkStealing, MessageKindsAreTheOnesThisTestAssumes) {
  const auto& info = builtin_strategies().find("work_stealing");
  EXPECT_EQ(info.message_kinds, (std::vector<std::string>{"steal_request", "steal_refused"}));
}

TEST(WorkStealing, AnIdleNodeAsksOneRandomOtherNode) {
  const Topology t = parse_topology("ring:8");
  std::set<NodeId> victims;
  for (int trial = 0; trial < 200; ++trial) {
    FakeContext ctx(t, 3, 0);
    ctx.rng() = Rng(static_cast<std::uint64_t>(trial));
    auto s = make_stealing();
    s->on_start(ctx);
    ASSERT_EQ(ctx.sent.size(), 1u);  // one request outstanding
    EXPECT_EQ(ctx.sent[0].message.kind, kStealRequest);
    EXPECT_NE(ctx.sent[0].to, 3u);
    victims.insert(ctx.sent[0].to);
    s->on_idle(ctx);
    EXPECT_EQ(ctx.sent.size(), 1u) << "a second request while one is outstanding";
  }
  EXPECT_EQ(victims.size(), 7u) << "every other node is a possible victim";
}

TEST(WorkStealing, NeighborsOptionKeepsVictimsAmongNeighbours) {
  const Topology t = parse_topology("ring:8");
  for (int trial = 0; trial < 100; ++trial) {
    FakeContext ctx(t, 3, 0);
    ctx.rng() = Rng(static_cast<std::uint64_t>(trial));
    auto s = make_stealing({{"neighbors", "true"}});
    s->on_start(ctx);
    ASSERT_EQ(ctx.sent.size(), 1u);
    EXPECT_TRUE(ctx.sent[0].to == 2 || ctx.sent[0].to == 4) << ctx.sent[0].to;
  }
}

TEST(WorkStealing, VictimGivesHalfItsQueueOrRefuses) {
  const Topology t = parse_topology("complete:4");
  FakeContext rich(t, 0, 8);  // 7 queued, one executing
  auto s = make_stealing();
  s->on_start(rich);
  EXPECT_TRUE(rich.sent.empty());
  s->on_message(rich, 2, Message::make(kStealRequest, 0));
  ASSERT_EQ(rich.migrations.size(), 1u);
  EXPECT_EQ(rich.migrations[0].to, 2u);
  EXPECT_EQ(rich.migrations[0].amount, 4);  // half of 7, rounded up
  EXPECT_TRUE(rich.sent.empty());

  FakeContext poor(t, 1, 1);  // only the executing task
  auto p = make_stealing();
  p->on_start(poor);
  p->on_message(poor, 3, Message::make(kStealRequest, 42));
  EXPECT_TRUE(poor.migrations.empty());
  ASSERT_EQ(poor.sent.size(), 1u);
  EXPECT_EQ(poor.sent[0].to, 3u);
  EXPECT_EQ(poor.sent[0].message.kind, kStealRefused);
  EXPECT_EQ(poor.sent[0].message.as<int>(), 42) << "the refusal carries the request's number back";
}

// A node that executes nothing keeps its next task: a simulated node handling the message
// that brought it one task gives nothing to a thief whose request came with it.
TEST(WorkStealing, AVictimThatExecutesNothingKeepsItsNextTask) {
  const Topology t = parse_topology("complete:2");
  for (const std::int64_t queued : {1, 2, 5}) {
    FakeContext ctx(t, 0, queued);
    ctx.executing = false;  // all queued
    auto s = make_stealing();
    s->on_message(ctx, 1, Message::make(kStealRequest, 0));
    if (queued == 1) {
      EXPECT_TRUE(ctx.migrations.empty());
      ASSERT_EQ(ctx.sent.size(), 1u);
      EXPECT_EQ(ctx.sent[0].message.kind, kStealRefused);
    } else {
      ASSERT_EQ(ctx.migrations.size(), 1u);
      EXPECT_EQ(ctx.migrations[0].amount, queued / 2) << "half of the " << queued - 1 << " spare, rounded up";
    }
  }
}

// A later message of an earlier answer may end a thief's wait before its latest request is
// answered; that request's refusal then answers nothing more, and a refusal of an earlier
// request never makes the thief ask again: it has one request unanswered, not two.
TEST(WorkStealing, OnlyTheLatestRequestsRefusalCounts) {
  const Topology t = parse_topology("complete:2");
  FakeContext ctx(t, 0, 0);
  auto s = make_stealing();
  s->on_start(ctx);
  ASSERT_EQ(ctx.sent.size(), 1u);
  const Message first = ctx.sent[0].message;
  s->on_tasks_arrived(ctx, 1, 1);  // the first message of the answer
  s->on_idle(ctx);                 // its task done
  ASSERT_EQ(ctx.sent.size(), 2u);
  const Message second = ctx.sent[1].message;
  s->on_tasks_arrived(ctx, 1, 1);  // the second message of the first answer
  s->on_idle(ctx);
  ASSERT_EQ(ctx.sent.size(), 3u) << "taken for the answer to the second request";
  const Message third = ctx.sent[2].message;
  s->on_message(ctx, 1, refusal_of(first));
  s->on_message(ctx, 1, refusal_of(second));
  EXPECT_EQ(ctx.sent.size(), 3u) << "earlier requests' refusals";
  EXPECT_TRUE(ctx.timers.empty());
  s->on_message(ctx, 1, refusal_of(third));
  EXPECT_EQ(ctx.timers.size(), 1u) << "the only victim refused the latest request: wait, then ask again";
  s->on_message(ctx, 1, refusal_of(third));
  EXPECT_EQ(ctx.timers.size(), 1u) << "answered already";
}

TEST(WorkStealing, RefusedThiefTriesAnotherVictimThenWaits) {
  const Topology t = parse_topology("complete:3");  // two victims
  FakeContext ctx(t, 0, 0);
  auto s = make_stealing();
  s->on_start(ctx);
  ASSERT_EQ(ctx.sent.size(), 1u);
  s->on_message(ctx, ctx.sent[0].to, refusal_of(ctx.sent[0].message));
  EXPECT_EQ(ctx.sent.size(), 2u) << "after one refusal: ask the next victim at once";
  s->on_message(ctx, ctx.sent[1].to, refusal_of(ctx.sent[1].message));
  EXPECT_EQ(ctx.sent.size(), 2u) << "every victim refused: wait";
  EXPECT_EQ(ctx.timers.size(), 1u);
  s->on_timer(ctx, ctx.timers[0]);
  EXPECT_EQ(ctx.sent.size(), 3u);
  // Tasks arrive: the request is answered, no new one until the node is idle again.
  s->on_tasks_arrived(ctx, ctx.sent[2].to, 3);
  ctx.set_load(3);
  s->on_load_change(ctx);
  EXPECT_EQ(ctx.sent.size(), 3u);
  ctx.set_load(0);
  s->on_idle(ctx);
  EXPECT_EQ(ctx.sent.size(), 4u);
}

// The simulator: every task executed once, whatever the topology, cost model and workload;
// work spreads from a node that has it all.
TEST(WorkStealing, ConservesTasksInTheSimulator) {
  for (const std::string spec : {"hypercube:3", "ring:5", "torus:3x3", "complete:1", "mesh:2x3"}) {
    const Topology t = parse_topology(spec);
    for (const std::string neighbors : {"false", "true"}) {
      for (const std::string cost : {"ideal", "ipsc2"}) {
        for (int which = 0; which < 2; ++which) {
          SCOPED_TRACE(spec + " neighbors=" + neighbors + " " + cost + " workload " + std::to_string(which));
          test::expect_conserved(t, "work_stealing", {{"neighbors", neighbors}}, cost, which);
        }
      }
    }
  }
}

TEST(WorkStealing, SpreadsOneNodesWorkInTheSimulator) {
  // All tasks on node 0: the others steal and the makespan drops well below the serial time.
  const Topology t = parse_topology("hypercube:3");
  test::OnNodeZero w;
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure("work_stealing", {}),
                          .workload = &w,
                          .cost = make_cost_model("ipsc2"),
                          .seed = 3};
  const SimulationResult r = simulate(config);
  EXPECT_EQ(r.tasks_completed, 400u);
  EXPECT_GT(r.tasks_transferred, 300u);
  EXPECT_LT(to_seconds(r.makespan), 0.8) << "serial: 4 s; on 8 nodes 0.5 s at best";
  for (const NodeStats& n : r.nodes) EXPECT_GT(n.tasks_executed, 20u);
}
