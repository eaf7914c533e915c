// lifeline: the lifeline graph, the protocol on a scripted node, conservation and
// termination in the simulator, and the quiet of sleeping thieves.
#include "fake_context.hpp"
#include "stealing_runs.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/strategies/lifeline.hpp>

#include <gtest/gtest.h>
#include <set>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

constexpr std::uint16_t kSteal = 0, kLifeline = 1, kRefused = 2, kGift = 3;

std::unique_ptr<Strategy> make_lifeline(std::map<std::string, std::string> p = {}) {
  return builtin_strategies().configure("lifeline", p).create();
}

// Every node reaches every other along lifelines (breadth-first search).
bool connected(std::size_t nodes, std::size_t base) {
  std::vector<bool> seen(nodes, false);
  std::vector<NodeId> frontier{0};
  seen[0] = true;
  std::size_t count = 1;
  while (!frontier.empty()) {
    const NodeId v = frontier.back();
    frontier.pop_back();
    for (NodeId b : lifeline_buddies(v, nodes, base))
      if (!seen[b]) {
        seen[b] = true;
        ++count;
        frontier.push_back(b);
      }
  }
  return count == nodes;
}

}  // namespace

TEST(Lifeline, MessageKindsAreTheOnesThisTestAssumes) {
  EXPECT_EQ(builtin_strategies().find("lifeline").message_kinds,
            (std::vector<std::string>{"steal_request", "lifeline_request", "steal_refused", "lifeline_gift"}));
}

TEST(Lifeline, BuddiesFormALowDegreeCyclicHypercube) {
  // Base 2 on 2^d nodes: the binary hypercube, node i's buddies i xor 2^j.
  for (NodeId i = 0; i < 16; ++i) {
    const auto b = lifeline_buddies(i, 16, 2);
    EXPECT_EQ(b, (std::vector<NodeId>{i ^ 1u, i ^ 2u, i ^ 4u, i ^ 8u})) << i;
  }
  // Base 3 on 9 nodes: digit j lowered by one cyclically (GLB's example 987 -> 986, 977).
  EXPECT_EQ(lifeline_buddies(4, 9, 3), (std::vector<NodeId>{3, 1}));
  EXPECT_EQ(lifeline_buddies(0, 9, 3), (std::vector<NodeId>{2, 6}));
  // Other sizes: at most ceil(log_l P) buddies, never itself, and every node is reachable.
  for (std::size_t base : {2u, 3u, 4u}) {
    for (std::size_t p = 1; p <= 40; ++p) {
      std::size_t z = 1;
      for (std::size_t span = base; span < p; span *= base) ++z;
      for (NodeId i = 0; i < p; ++i) {
        const auto b = lifeline_buddies(i, p, base);
        EXPECT_LE(b.size(), z);
        for (NodeId v : b) {
          EXPECT_NE(v, i);
          EXPECT_LT(v, p);
        }
      }
      EXPECT_TRUE(connected(p, base)) << p << " nodes, base " << base;
    }
  }
}

TEST(Lifeline, WRandomStealsThenTheLifelinesThenSilence) {
  const Topology t = parse_topology("hypercube:3");
  FakeContext ctx(t, 5, 0);
  auto s = make_lifeline({{"w", "2"}});
  s->on_start(ctx);
  // Two random attempts, one at a time.
  for (int attempt = 0; attempt < 2; ++attempt) {
    ASSERT_EQ(ctx.sent.size(), static_cast<std::size_t>(attempt + 1));
    EXPECT_EQ(ctx.sent.back().message.kind, kSteal);
    EXPECT_NE(ctx.sent.back().to, 5u);
    s->on_idle(ctx);  // nothing new while a request is out
    EXPECT_EQ(ctx.sent.size(), static_cast<std::size_t>(attempt + 1));
    s->on_message(ctx, ctx.sent.back().to, Message::make(kRefused, 0));
  }
  // Then each lifeline buddy (5 xor 1, 2, 4), one at a time.
  std::vector<NodeId> asked;
  for (int k = 0; k < 3; ++k) {
    ASSERT_EQ(ctx.sent.size(), static_cast<std::size_t>(3 + k));
    EXPECT_EQ(ctx.sent.back().message.kind, kLifeline);
    asked.push_back(ctx.sent.back().to);
    s->on_message(ctx, ctx.sent.back().to, Message::make(kRefused, 0));
  }
  EXPECT_EQ(asked, (std::vector<NodeId>{4, 7, 1}));
  // Asleep: no message and no timer until tasks arrive.
  EXPECT_EQ(ctx.sent.size(), 5u);
  EXPECT_TRUE(ctx.timers.empty());
  // A gift comes down lifeline 7 and the node works, then runs dry again: w random steals,
  // then only lifeline 7 (4 and 1 are still active).
  s->on_message(ctx, 7, Message::make(kGift, 0));
  ctx.set_load(3);
  s->on_tasks_arrived(ctx, 7, 3);
  ctx.set_load(0);
  s->on_idle(ctx);
  s->on_message(ctx, ctx.sent.back().to, Message::make(kRefused, 0));
  s->on_message(ctx, ctx.sent.back().to, Message::make(kRefused, 0));
  ASSERT_EQ(ctx.sent.size(), 8u);
  EXPECT_EQ(ctx.sent.back().message.kind, kLifeline);
  EXPECT_EQ(ctx.sent.back().to, 7u);
  s->on_message(ctx, 7, Message::make(kRefused, 0));
  EXPECT_EQ(ctx.sent.size(), 8u);
  EXPECT_TRUE(ctx.timers.empty());
}

TEST(Lifeline, AVictimRecordsLifelineThievesAndFeedsThemLater) {
  const Topology t = parse_topology("hypercube:2");
  FakeContext ctx(t, 0, 1);  // only the executing task
  auto s = make_lifeline();
  s->on_start(ctx);
  s->on_message(ctx, 2, Message::make(kSteal, 0));       // random thief: refused, forgotten
  s->on_message(ctx, 1, Message::make(kLifeline, 0));    // lifeline thief: refused, recorded
  ASSERT_EQ(ctx.sent.size(), 2u);
  EXPECT_EQ(ctx.sent[0].message.kind, kRefused);
  EXPECT_EQ(ctx.sent[1].message.kind, kRefused);
  EXPECT_TRUE(ctx.migrations.empty());
  // Work appears: the recorded thief gets a gift and half the queue, the random one nothing.
  ctx.set_load(9);
  s->on_load_change(ctx);
  ASSERT_EQ(ctx.migrations.size(), 1u);
  EXPECT_EQ(ctx.migrations[0].to, 1u);
  EXPECT_EQ(ctx.migrations[0].amount, 4);
  EXPECT_EQ(ctx.sent.back().message.kind, kGift);
  EXPECT_EQ(ctx.sent.back().to, 1u);
  s->on_load_change(ctx);
  EXPECT_EQ(ctx.migrations.size(), 1u) << "a lifeline is served once per request";
}

// Every task executed once and the run ends, on every topology and cost model, with tasks
// that appear over time (DynamicWorkload) or all at once; work spreads from a node that
// has it all, and the sleeping thieves send far fewer requests than work stealing's.
TEST(Lifeline, ConservesTasksAndTerminatesInTheSimulator) {
  for (const std::string spec : {"hypercube:3", "ring:5", "torus:3x3", "complete:1", "mesh:2x3", "complete:6"}) {
    const Topology t = parse_topology(spec);
    for (const std::map<std::string, std::string>& params :
         {std::map<std::string, std::string>{}, {{"w", "0"}}, {{"w", "3"}, {"l", "3"}}}) {
      for (const std::string cost : {"ideal", "ipsc2"}) {
        for (int which = 0; which < 2; ++which) {
          SCOPED_TRACE(spec + " " + cost + " workload " + std::to_string(which) + " w=" +
                       (params.count("w") ? params.at("w") : "1"));
          test::expect_conserved(t, "lifeline", params, cost, which);
        }
      }
    }
  }
}

TEST(Lifeline, SpreadsOneNodesWorkAndAsksLessThanWorkStealing) {
  const Topology t = parse_topology("hypercube:3");
  std::uint64_t requests[2] = {};
  int k = 0;
  for (const std::string strategy : {"lifeline", "work_stealing"}) {
    test::OnNodeZero w;
    SimulationConfig config{.topology = &t,
                            .strategy = builtin_strategies().configure(strategy, {}),
                            .workload = &w,
                            .cost = make_cost_model("ipsc2"),
                            .seed = 3};
    const SimulationResult r = simulate(config);
    EXPECT_EQ(r.tasks_completed, 400u);
    EXPECT_LT(to_seconds(r.makespan), 0.8) << strategy << ": serial 4 s; on 8 nodes 0.5 s at best";
    for (const NodeStats& n : r.nodes) EXPECT_GT(n.tasks_executed, 20u) << strategy;
    requests[k++] = r.messages_by_kind[0] + (strategy == "lifeline" ? r.messages_by_kind[1] : 0);
  }
  EXPECT_LT(requests[0], requests[1]) << "lifeline " << requests[0] << ", work_stealing " << requests[1];
}
