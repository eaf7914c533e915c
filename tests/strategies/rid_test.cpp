#include "fake_context.hpp"

#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/strategies/load_update.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

// RID's message kinds, in the order of its StrategyInfo::message_kinds.
constexpr std::uint16_t kLoadUpdate = 0, kLoadRequest = 1, kRequestAck = 2;

std::unique_ptr<Strategy> rid(std::map<std::string, std::string> params = {}) {
  return builtin_strategies().configure("rid", params).create();
}

void tell_load(Strategy& s, FakeContext& ctx, NodeId from, std::int64_t load) {
  s.on_message(ctx, from, Message::make(kLoadUpdate, LoadUpdate{load}));
}

}  // namespace

TEST(Rid, MessageKindsAreTheOnesThisTestAssumes) {
  const auto& kinds = builtin_strategies().find("rid").message_kinds;
  ASSERT_EQ(kinds, (std::vector<std::string>{"load_update", "load_request", "request_ack"}));
}

TEST(Rid, RequestsProportionalAmountsFromAboveAverageNeighbours) {
  // Torus node with K = 4 neighbours; an example in the spirit of WLR93 Fig. 3: the node
  // holds 2, its neighbours 16, 12, 8, 12, so Lbar = 50/5 = 10 (eq. 8), the deficiency is
  // 8 > L_threshold (eq. 16), h = (6, 2, 0, 2), H = 10 (eq. 11, 17) and
  // delta = 8 h / H = (4.8, 1.6, 0, 1.6) (eq. 18), requested rounded down: 4, 1, -, 1.
  const Topology torus = parse_topology("torus:4x4");
  FakeContext ctx(torus, 5, 50);
  auto s = rid({{"l_low", "11"}});
  s->on_start(ctx);
  const auto nb = torus.neighbors(5);
  const std::int64_t loads[] = {16, 12, 8, 12};
  for (int k = 0; k < 4; ++k) tell_load(*s, ctx, nb[k], loads[k]);
  ctx.sent.clear();
  ctx.set_load(2);
  s->on_load_change(ctx);
  const auto requests = ctx.of_kind(kLoadRequest);
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].to, nb[0]);
  EXPECT_EQ(requests[0].message.as<std::int64_t>(), 4);
  EXPECT_EQ(requests[1].to, nb[1]);
  EXPECT_EQ(requests[1].message.as<std::int64_t>(), 1);
  EXPECT_EQ(requests[2].to, nb[3]);
  EXPECT_EQ(requests[2].message.as<std::int64_t>(), 1);
}

TEST(Rid, NoNewRequestsWhileRequestsAreOutstanding) {
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 30);
  auto s = rid({{"l_low", "11"}});
  s->on_start(ctx);
  tell_load(*s, ctx, 1, 30);
  tell_load(*s, ctx, 2, 30);
  ctx.set_load(3);
  s->on_load_change(ctx);
  ASSERT_EQ(ctx.of_kind(kLoadRequest).size(), 2u);

  ctx.sent.clear();
  ctx.set_load(2);
  s->on_load_change(ctx);  // both requests unanswered
  EXPECT_TRUE(ctx.of_kind(kLoadRequest).empty());

  s->on_message(ctx, 1, Message::make(kRequestAck, std::int64_t{5}));
  s->on_message(ctx, 2, Message::make(kRequestAck, std::int64_t{0}));
  ctx.set_load(1);
  s->on_load_change(ctx);  // acknowledged, but 5 tasks are still on their way
  EXPECT_TRUE(ctx.of_kind(kLoadRequest).empty());

  s->on_tasks_arrived(ctx, 1, 5);
  ctx.set_load(6);
  s->on_load_change(ctx);  // all answered and arrived: requests again
  EXPECT_EQ(ctx.of_kind(kLoadRequest).size(), 2u);
}

TEST(Rid, GivesAtMostHalfOfItsLoadToOneRequest) {
  const Topology cube = parse_topology("hypercube:3");
  for (std::int64_t load : {0, 1, 2, 3, 9, 10, 101}) {
    for (std::int64_t asked : {1, 3, 50, 1000}) {
      FakeContext ctx(cube, 0, load);
      auto s = rid();
      s->on_start(ctx);
      s->on_message(ctx, 4, Message::make(kLoadRequest, asked));
      const auto acks = ctx.of_kind(kRequestAck);
      ASSERT_EQ(acks.size(), 1u);
      const std::int64_t granted = acks[0].message.as<std::int64_t>();
      const std::int64_t queued = load > 0 ? load - 1 : 0;  // the executing task stays
      EXPECT_EQ(granted, std::min({asked, load / 2, queued})) << "load " << load << " asked " << asked;
      EXPECT_LE(2 * granted, load);
      std::int64_t moved = 0;
      for (const auto& m : ctx.migrations) {
        EXPECT_EQ(m.to, 4u);
        moved += m.amount;
      }
      EXPECT_EQ(moved, granted);
    }
  }
}

TEST(Rid, DoesNotBalanceAboveLLowOrWithinThreshold) {
  const Topology cube = parse_topology("hypercube:2");
  FakeContext ctx(cube, 0, 100);
  auto s = rid();  // L_LOW = 1 + 100/10 = 11
  s->on_start(ctx);
  tell_load(*s, ctx, 1, 100);
  tell_load(*s, ctx, 2, 100);
  ctx.set_load(11);
  s->on_load_change(ctx);
  EXPECT_TRUE(ctx.of_kind(kLoadRequest).empty()) << "load 11 is not below L_LOW = 11";
  ctx.set_load(10);
  s->on_load_change(ctx);
  EXPECT_EQ(ctx.of_kind(kLoadRequest).size(), 2u);

  FakeContext flat(cube, 0, 5);
  auto t = rid({{"l_low", "inf"}});
  t->on_start(flat);
  tell_load(*t, flat, 1, 6);
  tell_load(*t, flat, 2, 6);
  flat.set_load(5);
  t->on_load_change(flat);  // Lbar - l_p = 17/3 - 5 < 1
  EXPECT_TRUE(flat.of_kind(kLoadRequest).empty());
}

TEST(Rid, RetryOnUpdateIsAnOptionNotTheDefault) {
  const Topology cube = parse_topology("hypercube:2");
  for (bool retry : {false, true}) {
    FakeContext ctx(cube, 0, 0);
    auto s = rid({{"l_low", "5"}, {"retry_on_update", retry ? "true" : "false"}});
    s->on_start(ctx);
    tell_load(*s, ctx, 1, 0);  // every neighbour has reported: nothing to ask for yet
    tell_load(*s, ctx, 2, 0);
    tell_load(*s, ctx, 1, 40);  // only a neighbour changed: WLR93 RID does not react
    EXPECT_EQ(ctx.of_kind(kLoadRequest).size(), retry ? 1u : 0u);
  }
}

TEST(LoadUpdatePolicy, ReportsWhenTheLoadChangesByFactorU) {
  LoadUpdatePolicy p(0.5);
  EXPECT_TRUE(p.due(10));  // nothing reported yet
  p.reported(10);
  EXPECT_FALSE(p.due(10));
  EXPECT_FALSE(p.due(6));
  EXPECT_TRUE(p.due(5));   // halved
  EXPECT_FALSE(p.due(19));
  EXPECT_TRUE(p.due(20));  // doubled
  LoadUpdatePolicy every(1.0);
  every.reported(10);
  EXPECT_TRUE(every.due(9));
  EXPECT_TRUE(every.due(11));
  EXPECT_FALSE(every.due(10));
}

TEST(LoadUpdatePolicy, SendsToEveryNeighbourOnce) {
  const Topology cube = parse_topology("hypercube:3");
  FakeContext ctx(cube, 6, 40);
  LoadUpdatePolicy p(0.9);
  EXPECT_TRUE(p.update_neighbors(ctx, 7));
  ASSERT_EQ(ctx.sent.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(ctx.sent[i].to, cube.neighbors(6)[i]);
    EXPECT_EQ(ctx.sent[i].message.kind, 7);
    EXPECT_EQ(ctx.sent[i].message.as<LoadUpdate>().load, 40);
  }
  ctx.set_load(37);
  EXPECT_FALSE(p.update_neighbors(ctx, 7));  // 37 > 0.9 * 40
  ctx.set_load(36);
  EXPECT_TRUE(p.update_neighbors(ctx, 7));
}

// RID balances on changes of a node's own load: a node that starts empty never asks, unless
// a neighbour's update may trigger it (retry_on_update), and its declaration says so.
TEST(Rid, WarnsOfNodesThatStartEmptyUnlessItRetries) {
  const StrategyInfo& info = builtin_strategies().find("rid");
  ASSERT_TRUE(info.start_warning);
  const Parameters defaults = builtin_strategies().configure("rid", {}).params;
  const std::vector<std::int64_t> one_root = {1, 0, 0};
  EXPECT_EQ(info.start_warning(defaults, one_root),
            "rid with retry_on_update=false: 2 of the 3 workers start without tasks and will never ask for any (RID "
            "acts on changes of a node's own load); -p retry_on_update=true makes them ask");
  EXPECT_EQ(info.start_warning(builtin_strategies().configure("rid", {{"retry_on_update", "true"}}).params, one_root),
            std::nullopt);
  EXPECT_EQ(info.start_warning(defaults, std::vector<std::int64_t>{4, 1, 2}), std::nullopt);
}
