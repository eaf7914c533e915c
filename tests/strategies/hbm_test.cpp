#include "fake_context.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

// HBM's message kinds and bodies, as in src/strategies/hbm.cpp.
constexpr std::uint16_t kDomainLoad = 0, kBalanceOrder = 1;
struct DomainLoad {
  std::int64_t load;
  std::int32_t level;
};
struct BalanceOrder {
  std::int64_t delta;
  std::int32_t level;
};

std::unique_ptr<Strategy> hbm(std::map<std::string, std::string> params = {}) {
  return builtin_strategies().configure("hbm", params).create();
}

void report(Strategy& s, FakeContext& ctx, NodeId from, std::int64_t load, std::int32_t level) {
  s.on_message(ctx, from, Message::make(kDomainLoad, DomainLoad{load, level}));
}

// The controller of the whole hypercube:3 (node 0, load 10) hears its halves: level 1 from
// node 1, level 2 from node 2, level 3 from node 4.
void hear(Strategy& s, FakeContext& ctx, std::int64_t l1, std::int64_t l2, std::int64_t l3) {
  report(s, ctx, 1, l1, 1);
  report(s, ctx, 2, l2, 2);
  report(s, ctx, 4, l3, 3);
}

}  // namespace

TEST(Hbm, MessageKindsAreTheOnesThisTestAssumes) {
  EXPECT_EQ(builtin_strategies().find("hbm").message_kinds,
            (std::vector<std::string>{"domain_load", "balance_order"}));
}

TEST(Hbm, LeavesAndIntermediateNodesReportToTheirController) {
  const Topology cube = parse_topology("hypercube:3");
  FakeContext leaf(cube, 5, 30);  // odd: a leaf only, reports its load to 4
  auto s = hbm();
  s->on_start(leaf);
  ASSERT_EQ(leaf.sent.size(), 1u);
  EXPECT_EQ(leaf.sent[0].to, 4u);
  EXPECT_EQ(leaf.sent[0].message.kind, kDomainLoad);
  EXPECT_EQ(leaf.sent[0].message.as<DomainLoad>().load, 30);
  EXPECT_EQ(leaf.sent[0].message.as<DomainLoad>().level, 1);
  leaf.set_load(16);
  s->on_load_change(leaf);
  EXPECT_EQ(leaf.sent.size(), 1u) << "u = 1/2: 16 is more than half of 30";
  leaf.set_load(15);
  s->on_load_change(leaf);
  EXPECT_EQ(leaf.sent.size(), 2u);

  FakeContext mid(cube, 4, 20);  // controls level 1 {4, 5} and level 2 {4..7}; reports to 0
  auto m = hbm();
  m->on_start(mid);
  EXPECT_TRUE(mid.sent.empty()) << "its domain's load is not known before node 5 reports";
  report(*m, mid, 5, 22, 1);
  EXPECT_TRUE(mid.sent.empty()) << "level 2 still waits for node 6";
  report(*m, mid, 6, 40, 2);
  ASSERT_EQ(mid.sent.size(), 1u);
  EXPECT_EQ(mid.sent[0].to, 0u);
  EXPECT_EQ(mid.sent[0].message.as<DomainLoad>().load, 82);
  EXPECT_EQ(mid.sent[0].message.as<DomainLoad>().level, 3);
}

TEST(Hbm, ControllerOrdersTheHeavierHalfWithEq23Amount) {
  // Level 3 of hypercube:3: L_L = 10 + 10 + 20 = 40 (nodes 0..3), L_R = 200 (nodes 4..7).
  // |L_L - L_R| = 160 > L_threshold(3) = 1 x 2^3 (eq. 22): every node of the right half
  // sends delta_3 = 160 / 2^3 = 20 tasks (eq. 23) to its partner; the order goes to the
  // right half's controller, node 4.
  const Topology cube = parse_topology("hypercube:3");
  FakeContext root(cube, 0, 10);
  auto s = hbm();
  s->on_start(root);
  hear(*s, root, 10, 20, 200);
  ASSERT_EQ(root.sent.size(), 1u);
  EXPECT_EQ(root.sent[0].to, 4u);
  EXPECT_EQ(root.sent[0].message.kind, kBalanceOrder);
  EXPECT_EQ(root.sent[0].message.as<BalanceOrder>().delta, 20);
  EXPECT_EQ(root.sent[0].message.as<BalanceOrder>().level, 3);
  EXPECT_TRUE(root.migrations.empty());

  // The order travels down the right half and each node p sends to q = p XOR 2^(i-1) (eq. 24).
  const Message order = root.sent[0].message;
  const std::map<NodeId, std::vector<NodeId>> passes_to = {{4, {5, 6}}, {5, {}}, {6, {7}}, {7, {}}};
  for (const auto& [p, children] : passes_to) {
    SCOPED_TRACE(p);
    FakeContext ctx(cube, p, 50);
    auto agent = hbm();
    agent->on_start(ctx);
    ctx.sent.clear();
    agent->on_message(ctx, 0, order);
    std::vector<NodeId> got;
    for (const auto& m : ctx.of_kind(kBalanceOrder)) got.push_back(m.to);
    EXPECT_EQ(got, children);
    ASSERT_EQ(ctx.migrations.size(), 1u);
    EXPECT_EQ(ctx.migrations[0].to, p ^ 4u);
    EXPECT_EQ(ctx.migrations[0].amount, 20);
  }
}

TEST(Hbm, ControllerOfTheHeavierHalfActsItself) {
  // Level 1 of hypercube:3 at node 0: L_L = 30 (its own load), L_R = 4: delta_1 = 26 / 2 = 13.
  const Topology cube = parse_topology("hypercube:3");
  FakeContext root(cube, 0, 30);
  auto s = hbm();
  s->on_start(root);
  report(*s, root, 1, 4, 1);
  EXPECT_TRUE(root.of_kind(kBalanceOrder).empty()) << "at level 1 the heavier half is node 0 alone";
  ASSERT_EQ(root.migrations.size(), 1u);
  EXPECT_EQ(root.migrations[0].to, 1u);
  EXPECT_EQ(root.migrations[0].amount, 13);
  // Until node 1 reports again the controller assumes the order carried out (17 and 17),
  // so its own load change does not repeat it.
  root.set_load(17);
  s->on_load_change(root);
  EXPECT_EQ(root.migrations.size(), 1u);
}

TEST(Hbm, NoOrderWithinTheLevelThreshold) {
  const Topology cube = parse_topology("hypercube:3");
  FakeContext root(cube, 0, 10);
  auto s = hbm({{"threshold_base", "20"}});  // L_threshold(3) = 160: not exceeded by 160
  s->on_start(root);
  hear(*s, root, 10, 20, 200);
  EXPECT_TRUE(root.sent.empty());
  EXPECT_TRUE(root.migrations.empty());

  FakeContext small(cube, 0, 10);
  auto t = hbm({{"threshold_base", "0"}, {"delta_min", "21"}});  // delta_3 = 20 < delta_MIN
  t->on_start(small);
  hear(*t, small, 10, 20, 200);
  EXPECT_TRUE(small.sent.empty());
}

TEST(Hbm, RunsOnTwoToTheDNodesAndRejectsOtherCounts) {
  const auto& info = builtin_strategies().find("hbm");
  ASSERT_TRUE(info.check_topology);
  for (const std::string spec : {"hypercube:1", "hypercube:5", "torus:4x4", "bisectional:5", "ring:8"})
    EXPECT_NO_THROW(info.check_topology(parse_topology(spec))) << spec;
  for (const std::string spec : {"mesh:3x5", "ring:7", "tree:binary:4", "complete:6", "odd:3"}) {
    const Topology t = parse_topology(spec);
    auto w = builtin_workloads().configure("artificial", {{"granularity", "5"}}).create();
    SimulationConfig config{.topology = &t,
                            .strategy = builtin_strategies().configure("hbm", {}),
                            .workload = w.get(),
                            .cost = make_cost_model("ideal")};
    try {
      simulate(config);
      ADD_FAILURE() << "hbm ran on " << spec;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("hbm"), std::string::npos) << what;
      EXPECT_NE(what.find(spec), std::string::npos) << what;
      EXPECT_NE(what.find("2^d nodes"), std::string::npos) << what;
    }
  }
}
