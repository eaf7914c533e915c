#include "fake_context.hpp"

#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/strategies/load_update.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

constexpr std::uint16_t kSidLoadUpdate = 0;  // SID's only message kind

std::unique_ptr<Strategy> sid(std::map<std::string, std::string> params = {}) {
  return builtin_strategies().configure("sid", params).create();
}

void tell_sid_load(Strategy& s, FakeContext& ctx, NodeId from, std::int64_t load) {
  s.on_message(ctx, from, Message::make(kSidLoadUpdate, LoadUpdate{load}));
}

// Tells the strategy its neighbours' loads while its own load is 0, so that no update
// triggers a transfer, then restores the load.
void know(Strategy& s, FakeContext& ctx, std::vector<std::pair<NodeId, std::int64_t>> loads) {
  const std::int64_t own = ctx.load();
  ctx.set_load(0);
  for (auto [from, load] : loads) tell_sid_load(s, ctx, from, load);
  ctx.set_load(own);
}

std::int64_t moved_to(const FakeContext& ctx, NodeId to) {
  std::int64_t moved = 0;
  for (const auto& m : ctx.migrations)
    if (m.to == to) moved += m.amount;
  return moved;
}

}  // namespace

TEST(Sid, MessageKindsAreTheOnesThisTestAssumes) {
  EXPECT_EQ(builtin_strategies().find("sid").message_kinds, std::vector<std::string>{"load_update"});
}

TEST(Sid, ApportionsTheSurplusByDeficiencyAsInFig2) {
  // WLR93 Fig. 2: K = 4, Lbar = 10, surplus S = l_p - Lbar = 21. The figure's deficiency
  // H = 20 cannot hold together with these under eq. (8) (the deviations from the mean sum
  // to zero, so H >= S), so we keep K, Lbar and S: l_p = 31 and neighbours 1, 2, 4, 12
  // (sum 50, Lbar = 10), h = (9, 8, 6, 0), H = 23 (eq. 10-11), delta = 21 h / 23 =
  // (8.2, 7.3, 5.5, 0) (eq. 12), sent rounded down: 8, 7, 5 and nothing to the fourth.
  const Topology torus = parse_topology("torus:4x4");
  FakeContext ctx(torus, 5, 31);
  auto s = sid();
  s->on_start(ctx);
  const auto nb = torus.neighbors(5);
  know(*s, ctx, {{nb[0], 12}, {nb[1], 1}, {nb[2], 2}, {nb[3], 4}});
  ASSERT_TRUE(ctx.migrations.empty());
  tell_sid_load(*s, ctx, nb[0], 12);  // with L_LOW = inf (Table II) every update triggers
  EXPECT_EQ(moved_to(ctx, nb[0]), 0);
  EXPECT_EQ(moved_to(ctx, nb[1]), 8);
  EXPECT_EQ(moved_to(ctx, nb[2]), 7);
  EXPECT_EQ(moved_to(ctx, nb[3]), 5);
}

TEST(Sid, BalancesOnlyWhenANeighbourReportsBelowLLow) {
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 40);
  auto s = sid({{"l_low", "5"}});
  s->on_start(ctx);
  tell_sid_load(*s, ctx, 1, 5);  // not below L_LOW
  EXPECT_TRUE(ctx.migrations.empty());
  s->on_load_change(ctx);  // SID never balances on its own load
  EXPECT_TRUE(ctx.migrations.empty());
  tell_sid_load(*s, ctx, 2, 4);  // below: Lbar = 49/3, excess 23.7, h = (11.3, 12.3)
  ASSERT_EQ(ctx.migrations.size(), 2u);
  EXPECT_EQ(moved_to(ctx, 1), 11);
  EXPECT_EQ(moved_to(ctx, 2), 12);
}

TEST(Sid, NothingWithinThresholdOrBelowDeltaMin) {
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 6);
  auto s = sid();
  s->on_start(ctx);
  know(*s, ctx, {{1, 5}, {2, 5}});
  tell_sid_load(*s, ctx, 2, 5);  // Lbar = 16/3, excess 0.67 <= L_threshold = 1
  EXPECT_TRUE(ctx.migrations.empty());

  FakeContext big(cube, 0, 10);
  auto t = sid({{"delta_min", "3"}});
  t->on_start(big);
  know(*t, big, {{1, 10}, {2, 4}});
  tell_sid_load(*t, big, 2, 4);  // Lbar = 8, excess 2: delta = 2 < delta_MIN = 3
  EXPECT_TRUE(big.migrations.empty());
}

TEST(Sid, CountsWhatItSentBeforeTheNeighbourReports) {
  // Without the neighbour's next update, a second trigger must not send the same surplus again.
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 30);
  auto s = sid();
  s->on_start(ctx);
  know(*s, ctx, {{1, 30}, {2, 0}});
  tell_sid_load(*s, ctx, 2, 0);  // Lbar = 20, excess 10, all to node 2
  EXPECT_EQ(moved_to(ctx, 2), 10);
  // Node 2 is now known to hold 10 and this node holds 20: Lbar = 20, no excess. Had it
  // kept node 2 at 0, it would see an excess of 3.3 and send again.
  tell_sid_load(*s, ctx, 1, 30);
  EXPECT_EQ(moved_to(ctx, 2), 10);
}

TEST(Sid, LLowAutoIsOnePlusATenthOfTheInitialLoad) {
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 100);  // L_LOW = 11
  auto s = sid({{"l_low", "auto"}});
  s->on_start(ctx);
  tell_sid_load(*s, ctx, 1, 11);
  EXPECT_TRUE(ctx.migrations.empty());
  tell_sid_load(*s, ctx, 2, 10);
  EXPECT_FALSE(ctx.migrations.empty());
}

TEST(Sid, IntegerAverageRoundsLbarDownAndSendsMore) {
  // l_p = 12, neighbours 2 and 3. Eq. (8) real: Lbar = 17/3, excess 6.3, h = (3.7, 2.7):
  // delta = (3.7, 2.7), sent 3 and 2. Integer: Lbar = 5, excess 7, h = (3, 2), H = 5:
  // delta = (4.2, 2.8), sent 4 and 2.
  const Topology cube = parse_topology("hypercube:2");
  for (auto [average, to_1, to_2] : {std::tuple{"real", 3, 2}, std::tuple{"integer", 4, 2}}) {
    FakeContext ctx(cube, 0, 12);
    auto s = sid({{"average", average}});
    s->on_start(ctx);
    know(*s, ctx, {{1, 2}, {2, 3}});
    tell_sid_load(*s, ctx, 2, 3);
    EXPECT_EQ(moved_to(ctx, 1), to_1) << average;
    EXPECT_EQ(moved_to(ctx, 2), to_2) << average;
  }
}

TEST(Sid, AverageOverTheNeighboursGivesFig2sCaption) {
  // Fig. 2's caption: K = 4, Lbar = 10, S = 21, H = 20. With Lbar over the four neighbours
  // (0, 0, 20, 20) and l_p = 31 all three hold: delta = 21 x 10 / 20 = 10.5, sent 10 to each
  // empty neighbour. Over the domain (eq. 8) Lbar = 71/5, S = 16.8, H = 28.4: 8 each.
  const Topology torus = parse_topology("torus:4x4");
  const auto nb = torus.neighbors(5);
  for (auto [over, each] : {std::pair{"neighbours", 10}, std::pair{"domain", 8}}) {
    FakeContext ctx(torus, 5, 31);
    auto s = sid({{"average_over", over}});
    s->on_start(ctx);
    know(*s, ctx, {{nb[0], 0}, {nb[1], 0}, {nb[2], 20}, {nb[3], 20}});
    tell_sid_load(*s, ctx, nb[0], 0);
    EXPECT_EQ(moved_to(ctx, nb[0]), each) << over;
    EXPECT_EQ(moved_to(ctx, nb[1]), each) << over;
    EXPECT_EQ(moved_to(ctx, nb[2]) + moved_to(ctx, nb[3]), 0) << over;
  }
}
