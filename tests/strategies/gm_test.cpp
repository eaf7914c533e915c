#include "fake_context.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <deque>
#include <utility>
#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

constexpr std::uint16_t kProximity = 0;  // GM's only message kind

std::unique_ptr<Strategy> gm(std::map<std::string, std::string> params = {}) {
  return builtin_strategies().configure("gm", params).create();
}

Message proximity(std::int32_t p) { return Message::make(kProximity, p); }

// A whole network of GM agents on FakeContexts, messages delivered first in, first out by
// hand; when none is left, time moves on by a second and the timers fire (announcements
// GM held back to damp flip-flops). A node's proximity is what it last told its neighbours
// (w_max if it never did: every node starts there). Loads stay below HWM, so no tasks move.
class Network {
public:
  Network(const Topology& t, const std::vector<std::int64_t>& loads, std::map<std::string, std::string> params) {
    for (NodeId v = 0; v < t.size(); ++v) {
      contexts_.push_back(std::make_unique<FakeContext>(t, v, loads[v]));
      agents_.push_back(gm(params));
    }
    told_.assign(t.size(), t.diameter());
    for (NodeId v = 0; v < t.size(); ++v) {
      agents_[v]->on_start(*contexts_[v]);
      collect(v);
    }
    run();
  }

  void set_load(NodeId v, std::int64_t load) {
    contexts_[v]->set_load(load);
    agents_[v]->on_load_change(*contexts_[v]);
    collect(v);
    run();
  }
  int proximity(NodeId v) const { return told_[v]; }
  std::size_t messages() const { return messages_; }

private:
  void collect(NodeId v) {
    for (const auto& s : contexts_[v]->sent) {
      EXPECT_EQ(s.message.kind, kProximity);
      told_[v] = s.message.as<std::int32_t>();
      queue_.push_back({v, s.to, s.message});
      ++messages_;
    }
    contexts_[v]->sent.clear();
    EXPECT_TRUE(contexts_[v]->migrations.empty());
  }
  void run() {
    for (bool fired = true; fired;) {
      while (!queue_.empty()) {
        const auto [from, to, m] = queue_.front();
        queue_.pop_front();
        agents_[to]->on_message(*contexts_[to], from, m);
        collect(to);
      }
      fired = false;
      for (auto& c : contexts_) c->time += kSecond;
      for (NodeId v = 0; v < contexts_.size(); ++v) {
        const auto tags = std::exchange(contexts_[v]->timers, {});
        for (std::uint64_t tag : tags) agents_[v]->on_timer(*contexts_[v], tag);
        fired = fired || !tags.empty();
        collect(v);
      }
    }
  }

  struct InFlight {
    NodeId from, to;
    Message message;
  };
  std::vector<std::unique_ptr<FakeContext>> contexts_;
  std::vector<std::unique_ptr<Strategy>> agents_;
  std::vector<int> told_;
  std::deque<InFlight> queue_;
  std::size_t messages_ = 0;
};

// min(BFS distance to the nearest light node, w_max = diameter).
std::vector<int> expected_proximity(const Topology& t, const std::vector<NodeId>& light) {
  std::vector<int> p(t.size(), t.diameter());
  for (NodeId l : light) {
    const auto d = t.bfs_distances(l);
    for (NodeId v = 0; v < t.size(); ++v) p[v] = std::min(p[v], d[v]);
  }
  return p;
}

}  // namespace

TEST(Gm, MessageKindsAreTheOnesThisTestAssumes) {
  EXPECT_EQ(builtin_strategies().find("gm").message_kinds, std::vector<std::string>{"proximity"});
}

TEST(Gm, ProximitiesAreTheDistanceToTheNearestLightNodeOnceQuiet) {
  // LWM = 5, HWM = 100: load 2 is light, load 7 moderate.
  const std::map<std::string, std::string> params{{"lwm", "5"}, {"hwm", "100"}};
  for (const std::string spec : {"torus:4x4", "mesh:3x5", "hypercube:4", "tree:binary:4", "ring:7"}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    std::vector<NodeId> light = {0, static_cast<NodeId>(t.size() - 2)};
    std::vector<std::int64_t> loads(t.size(), 7);
    for (NodeId l : light) loads[l] = 2;
    Network net(t, loads, params);
    auto expect_map = [&] {
      const auto want = expected_proximity(t, light);
      for (NodeId v = 0; v < t.size(); ++v) EXPECT_EQ(net.proximity(v), want[v]) << "node " << v;
    };
    expect_map();
    // A light node turns moderate: the map forgets it (eq. 5 counts up to the cap).
    net.set_load(0, 7);
    light.erase(light.begin());
    expect_map();
    // A new light node appears.
    net.set_load(3, 1);
    light.push_back(3);
    expect_map();
    // No light node left: every proximity back at w_max, the saturated system.
    net.set_load(3, 8);
    net.set_load(static_cast<NodeId>(t.size() - 2), 8);
    light.clear();
    expect_map();
  }
}

TEST(Gm, NoMessagesWhileNoNodeIsLight) {
  const Topology t = parse_topology("hypercube:3");
  Network net(t, std::vector<std::int64_t>(8, 7), {{"lwm", "5"}, {"hwm", "100"}});
  EXPECT_EQ(net.messages(), 0u);
}

TEST(Gm, HeavyNodeSendsDeltaToTheLowestProximityNeighbour) {
  const Topology cube = parse_topology("hypercube:2");  // node 0: neighbours 1, 2; w_max = 2
  FakeContext ctx(cube, 0, 20);
  auto s = gm({{"lwm", "2"}, {"hwm", "4"}, {"delta", "3"}});
  s->on_start(ctx);
  s->on_load_change(ctx);
  EXPECT_TRUE(ctx.migrations.empty()) << "every neighbour at w_max: the system is saturated";
  s->on_message(ctx, 2, proximity(1));
  s->on_message(ctx, 1, proximity(1));
  EXPECT_TRUE(ctx.migrations.empty()) << "a proximity message alone does not move tasks (act_on_proximity=false)";
  ctx.set_load(19);
  s->on_load_change(ctx);
  ASSERT_EQ(ctx.migrations.size(), 1u);
  EXPECT_EQ(ctx.migrations[0].to, 1u) << "tie: the lowest neighbour index";
  EXPECT_EQ(ctx.migrations[0].amount, 3);
  s->on_message(ctx, 2, proximity(0));
  s->on_load_change(ctx);
  ASSERT_EQ(ctx.migrations.size(), 2u);
  EXPECT_EQ(ctx.migrations[1].to, 2u);
  // No load change: the condition is tested again at a check `retest` (30 ms) after the last send.
  ASSERT_EQ(ctx.timers.size(), 1u);
  ctx.time = 29 * kMillisecond;
  s->on_timer(ctx, ctx.timers.back());
  EXPECT_EQ(ctx.migrations.size(), 2u) << "not before retest has passed";
  ASSERT_EQ(ctx.timers.size(), 2u);
  ctx.time = 30 * kMillisecond;
  s->on_timer(ctx, ctx.timers.back());
  ASSERT_EQ(ctx.migrations.size(), 3u);
  EXPECT_EQ(ctx.migrations[2].to, 2u);

  FakeContext moderate(cube, 0, 4);  // not above HWM
  auto m = gm({{"lwm", "2"}, {"hwm", "4"}});
  m->on_start(moderate);
  m->on_message(moderate, 1, proximity(0));
  moderate.set_load(4);
  m->on_load_change(moderate);
  EXPECT_TRUE(moderate.migrations.empty());
}

TEST(Gm, ActOnProximityAlsoSendsOnProximityMessages) {
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 20);
  auto s = gm({{"lwm", "2"}, {"hwm", "4"}, {"act_on_proximity", "true"}});
  s->on_start(ctx);
  s->on_message(ctx, 2, proximity(0));
  ASSERT_EQ(ctx.migrations.size(), 1u);
  EXPECT_EQ(ctx.migrations[0].to, 2u);
}

TEST(Gm, ArrivingTasksMoveOnTowardALowerProximity) {
  const Topology cube = parse_topology("hypercube:3");  // node 0: neighbours 1, 2, 4
  FakeContext ctx(cube, 0, 6);                          // moderate: LWM 2 <= 6 <= HWM 10
  auto s = gm({{"lwm", "2"}, {"hwm", "10"}});
  s->on_start(ctx);
  s->on_tasks_arrived(ctx, 1, 3);
  EXPECT_TRUE(ctx.migrations.empty()) << "every neighbour at w_max = 3, like the node itself";
  s->on_message(ctx, 4, proximity(1));  // own proximity becomes 2
  s->on_tasks_arrived(ctx, 1, 3);
  ASSERT_EQ(ctx.migrations.size(), 1u);
  EXPECT_EQ(ctx.migrations[0].to, 4u);
  EXPECT_EQ(ctx.migrations[0].amount, 3);

  ctx.set_load(1);  // light: tasks stop here
  s->on_load_change(ctx);
  s->on_tasks_arrived(ctx, 1, 2);
  EXPECT_EQ(ctx.migrations.size(), 1u);
}

TEST(Gm, NoTaskMovesMoreThanMaxHops) {
  // In the simulator, where the hop counter lives on the tasks.
  class HopCheck final : public Observer {
  public:
    explicit HopCheck(std::uint32_t limit) : limit_(limit) {}
    void on_task_migrated(NodeId, NodeId, const Task& t, SimTime) override {
      EXPECT_LE(t.hops, limit_);
      max_ = std::max(max_, t.hops);
    }
    std::uint32_t max_ = 0;

  private:
    std::uint32_t limit_;
  };
  const Topology t = parse_topology("hypercube:5");
  for (std::uint32_t limit : {1u, 2u, 5u}) {
    HopCheck check(limit);
    auto w = builtin_workloads().configure("artificial", {{"granularity", "40"}}).create();
    SimulationConfig config{.topology = &t,
                            .strategy = builtin_strategies().configure("gm", {{"max_hops", std::to_string(limit)}}),
                            .workload = w.get(),
                            .cost = make_cost_model("ipsc2"),
                            .seed = 3,
                            .observers = {&check}};
    const SimulationResult r = simulate(config);
    EXPECT_GT(r.tasks_transferred, 0u);
    EXPECT_GE(check.max_, 1u);
  }
}
