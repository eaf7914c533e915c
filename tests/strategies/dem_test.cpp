#include "fake_context.hpp"

#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <gtest/gtest.h>
#include <set>

using namespace dlbkit;
using dlbkit::test::FakeContext;

namespace {

// DEM's message kinds and bodies, as in src/strategies/dem.cpp.
constexpr std::uint16_t kRequest = 0, kLoad = 1, kTransfer = 2;
struct Request {
  std::uint32_t id;
  NodeId origin;
};
struct Load {
  std::int64_t load;
  std::uint32_t sweep;
  std::int32_t dimension;
};

std::unique_ptr<Strategy> dem() { return builtin_strategies().configure("dem", {}).create(); }

// Given numbers of 1-second tasks on each node at time 0.
class StaticLoads final : public Workload {
public:
  explicit StaticLoads(std::vector<std::int64_t> loads) : loads_(std::move(loads)) {}
  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    for (NodeId v = 0; v < loads_.size(); ++v)
      for (std::int64_t i = 0; i < loads_[v]; ++i) sink.add(v, kSecond);
  }

private:
  std::vector<std::int64_t> loads_;
};

// Task counts per node and load messages before the first task completes (1 s in).
class FirstSecond final : public Observer {
public:
  explicit FirstSecond(std::size_t n) : load(n, 0) {}
  void on_task_created(NodeId node, const Task&, SimTime t) override {
    if (t < kSecond) ++load[node];
  }
  void on_task_migrated(NodeId from, NodeId to, const Task&, SimTime t) override {
    if (t >= kSecond) return;
    --load[from];
    ++load[to];
  }
  void on_message_sent(NodeId, NodeId, int kind, SimTime t) override {
    if (t < kSecond && kind == kLoad) ++load_messages;
  }
  std::vector<std::int64_t> load;
  std::size_t load_messages = 0;
};

// One sweep of dimension exchange done sequentially: in dimension k the heavier of each
// pair sends floor((L_a - L_b) / 2) to the lighter.
std::vector<std::int64_t> reference_sweep(std::vector<std::int64_t> load, int d) {
  for (int k = 0; k < d; ++k)
    for (NodeId a = 0; a < load.size(); ++a) {
      const NodeId b = a ^ (NodeId{1} << k);
      if (b < a) continue;
      const std::int64_t move = (std::max(load[a], load[b]) - std::min(load[a], load[b])) / 2;
      if (load[a] > load[b]) load[a] -= move, load[b] += move;
      else load[b] -= move, load[a] += move;
    }
  return load;
}

// Runs DEM on the ideal machine (free processing): the first sweep is over long before the
// first task completes, one second in. With `slow_tasks` a task batch takes 3 ms more than
// a message, so the announcement overtakes the tasks it announces.
FirstSecond sweep_in_simulator(const Topology& t, const std::vector<std::int64_t>& loads, bool slow_tasks = false) {
  FirstSecond seen(t.size());
  StaticLoads workload(loads);
  const std::map<std::string, std::string> slow{{"latency", "1ms"}, {"per_task", "3ms"}};
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure("dem", {}),
                          .workload = &workload,
                          .cost = make_cost_model("ideal", slow_tasks ? slow : std::map<std::string, std::string>{}),
                          .observers = {&seen}};
  simulate(config);
  return seen;
}

}  // namespace

TEST(Dem, MessageKindsAreTheOnesThisTestAssumes) {
  EXPECT_EQ(builtin_strategies().find("dem").message_kinds,
            (std::vector<std::string>{"request", "load", "transfer"}));
}

TEST(Dem, OneSweepBalancesAStaticLoadDimensionByDimension) {
  // Several nodes start empty and request a sweep at once, all with request ID 1: exactly
  // one sweep runs (N d load messages), and its result is dimension exchange's.
  Rng rng(7);
  for (int d = 2; d <= 6; ++d) {
    const Topology t = parse_topology("hypercube:" + std::to_string(d));
    for (int trial = 0; trial < 5; ++trial) {
      SCOPED_TRACE(d * 100 + trial);
      std::vector<std::int64_t> loads(t.size());
      for (auto& l : loads) l = static_cast<std::int64_t>(rng.below(31));
      loads[0] = 0;
      loads[t.size() - 1] = 0;
      const FirstSecond seen = sweep_in_simulator(t, loads, trial % 2 == 1);
      EXPECT_EQ(seen.load, reference_sweep(loads, d));
      EXPECT_EQ(seen.load_messages, t.size() * static_cast<std::size_t>(d));
      // With rounding down each dimension may leave one task of imbalance in a pair; the
      // spread after a sweep stays within d (half a task per dimension either way).
      const auto [lo, hi] = std::minmax_element(seen.load.begin(), seen.load.end());
      EXPECT_LE(*hi - *lo, d);
    }
  }
}

TEST(Dem, OneSweepBalancesAnEvenlyDivisibleLoadToWithinOneTask) {
  // When every pair difference is even the sweep is exact: all the load on one node, or
  // multiples of 2^d; and the reference shows the floor rule's limit on other loads.
  for (int d = 1; d <= 6; ++d) {
    const Topology t = parse_topology("hypercube:" + std::to_string(d));
    const auto n = static_cast<std::int64_t>(t.size());
    std::vector<std::int64_t> spike(t.size(), 0);
    spike[t.size() / 2] = 3 * n;
    const FirstSecond seen = sweep_in_simulator(t, spike);
    for (std::int64_t l : seen.load) EXPECT_EQ(l, 3);
    std::vector<std::int64_t> blocks(t.size(), 0);
    for (NodeId v = 1; v < t.size(); v += 2) blocks[v] = n * static_cast<std::int64_t>(v % 5);
    const FirstSecond seen_blocks = sweep_in_simulator(t, blocks, true);
    const auto [lo, hi] = std::minmax_element(seen_blocks.load.begin(), seen_blocks.load.end());
    EXPECT_LE(*hi - *lo, 1);
  }
  // Loads 1, 0, 2, 1 on hypercube:2: every pair differs by one, so floor((L_a - L_b) / 2)
  // moves nothing and a spread of 2 remains; "within one task" needs divisible loads.
  EXPECT_EQ(reference_sweep({1, 0, 2, 1}, 2), (std::vector<std::int64_t>{1, 0, 2, 1}));
}

TEST(Dem, IgnoresRequestsWhoseIdIsNotNew) {
  const Topology cube = parse_topology("hypercube:2");  // node 0: partners 1 (dim 0), 2 (dim 1)
  FakeContext ctx(cube, 0, 5);
  auto s = dem();
  s->on_start(ctx);
  EXPECT_TRUE(ctx.sent.empty()) << "load 5 is not below L_LOW = 1";

  s->on_message(ctx, 1, Message::make(kRequest, Request{1, 1}));
  ASSERT_EQ(ctx.of_kind(kLoad).size(), 1u);
  EXPECT_EQ(ctx.of_kind(kLoad)[0].to, 1u);
  EXPECT_EQ(ctx.of_kind(kLoad)[0].message.as<Load>().sweep, 1u);
  EXPECT_TRUE(ctx.of_kind(kRequest).empty()) << "a leaf of node 1's broadcast tree";

  // Node 2 requested at the same time with the same ID: passed on down its tree, ignored here.
  s->on_message(ctx, 2, Message::make(kRequest, Request{1, 2}));
  EXPECT_EQ(ctx.of_kind(kLoad).size(), 1u);
  ASSERT_EQ(ctx.of_kind(kRequest).size(), 1u);
  EXPECT_EQ(ctx.of_kind(kRequest)[0].to, 1u);

  // Finish sweep 1: equal loads in both dimensions, nothing moves.
  s->on_message(ctx, 1, Message::make(kLoad, Load{5, 1, 0}));
  ASSERT_EQ(ctx.of_kind(kLoad).size(), 2u);
  EXPECT_EQ(ctx.of_kind(kLoad)[1].to, 2u);
  s->on_message(ctx, 2, Message::make(kLoad, Load{5, 1, 1}));
  EXPECT_TRUE(ctx.migrations.empty());

  s->on_message(ctx, 1, Message::make(kRequest, Request{1, 1}));  // obsolete
  EXPECT_EQ(ctx.of_kind(kLoad).size(), 2u);
  s->on_message(ctx, 1, Message::make(kRequest, Request{2, 1}));  // new
  ASSERT_EQ(ctx.of_kind(kLoad).size(), 3u);
  EXPECT_EQ(ctx.of_kind(kLoad)[2].message.as<Load>().sweep, 2u);
}

TEST(Dem, HeavierPartnerSendsHalfTheDifferenceAndAnnouncesIt) {
  const Topology cube = parse_topology("hypercube:1");
  FakeContext heavy(cube, 0, 9);
  auto s = dem();
  s->on_start(heavy);
  s->on_message(heavy, 1, Message::make(kLoad, Load{2, 1, 0}));  // the partner is ahead
  s->on_message(heavy, 1, Message::make(kRequest, Request{1, 1}));
  ASSERT_EQ(heavy.migrations.size(), 1u);
  EXPECT_EQ(heavy.migrations[0].to, 1u);
  EXPECT_EQ(heavy.migrations[0].amount, 3);  // floor((9 - 2) / 2)
  const auto transfers = heavy.of_kind(kTransfer);
  ASSERT_EQ(transfers.size(), 1u);
  EXPECT_EQ(transfers[0].message.as<std::int64_t>(), 3);
}

TEST(Dem, IdleNodeBroadcastsARequestDownItsSpanningTree) {
  const Topology cube = parse_topology("hypercube:3");
  FakeContext ctx(cube, 0, 2);
  auto s = dem();
  s->on_start(ctx);
  ctx.set_load(0);
  s->on_load_change(ctx);
  std::vector<NodeId> to;
  for (const auto& m : ctx.of_kind(kRequest)) {
    to.push_back(m.to);
    EXPECT_EQ(m.message.as<Request>().id, 1u);
  }
  EXPECT_EQ(to, (std::vector<NodeId>{1, 2, 4}));
  EXPECT_EQ(ctx.of_kind(kLoad).size(), 1u);
}

TEST(Dem, SweepsCompleteWhateverTheMessageOrder) {
  // A hypercube of DEM agents on FakeContexts; messages and task batches are delivered in a
  // random order (any latencies, no ordering between any two nodes), and tasks complete at
  // random moments, so that nodes empty and request sweeps while others are mid-sweep.
  // Once nothing is in flight, no task is lost and every node has taken part in every
  // sweep up to the highest ID, in each dimension exactly once: no sweep deadlocked.
  struct InFlight {
    NodeId from, to;
    Message message;
    std::int64_t tasks;  // > 0: a task batch, no message
  };
  Rng rng(99);
  for (int d = 1; d <= 5; ++d) {
    for (int trial = 0; trial < 20; ++trial) {
      SCOPED_TRACE(d * 100 + trial);
      const Topology t = parse_topology("hypercube:" + std::to_string(d));
      std::vector<std::unique_ptr<FakeContext>> ctx;
      std::vector<std::unique_ptr<Strategy>> agent;
      std::vector<std::int64_t> notified;
      std::vector<std::set<std::pair<std::uint32_t, std::int32_t>>> exchanges(t.size());
      std::vector<InFlight> pending;
      std::int64_t total = 0;
      std::uint32_t highest = 0;
      const auto take = [&](NodeId v) {
        for (const auto& s : ctx[v]->sent) {
          pending.push_back({v, s.to, s.message, 0});
          if (s.message.kind == kLoad) {
            const auto l = s.message.as<Load>();
            EXPECT_TRUE(exchanges[v].insert({l.sweep, l.dimension}).second) << "an exchange entered twice";
            highest = std::max(highest, l.sweep);
          }
        }
        for (const auto& m : ctx[v]->migrations) {
          EXPECT_EQ(t.distance(v, m.to), 1);
          if (m.amount > 0) pending.push_back({v, m.to, {}, m.amount});
        }
        ctx[v]->sent.clear();
        ctx[v]->migrations.clear();
      };
      const auto collect = [&](NodeId v) {  // after a callback, as the engine does
        take(v);
        if (ctx[v]->load() == notified[v]) return;
        agent[v]->on_load_change(*ctx[v]);
        notified[v] = ctx[v]->load();
        take(v);
      };
      for (NodeId v = 0; v < t.size(); ++v) {
        const auto load = static_cast<std::int64_t>(rng.below(4) == 0 ? 0 : rng.below(25));
        total += load;
        ctx.push_back(std::make_unique<FakeContext>(t, v, load));
        agent.push_back(dem());
        notified.push_back(load);
      }
      for (NodeId v = 0; v < t.size(); ++v) {
        agent[v]->on_start(*ctx[v]);
        collect(v);
      }
      std::int64_t completed = 0;
      for (int step = 0; !pending.empty() || step < 300; ++step) {
        if (pending.empty() || rng.below(6) == 0) {  // a task completes somewhere
          const auto v = static_cast<NodeId>(rng.below(t.size()));
          if (ctx[v]->load() == 0) continue;
          ctx[v]->set_load(ctx[v]->load() - 1);
          ++completed;
          collect(v);
          continue;
        }
        const std::size_t i = rng.below(pending.size());
        const InFlight e = pending[i];
        pending[i] = pending.back();
        pending.pop_back();
        if (e.tasks > 0) {
          ctx[e.to]->set_load(ctx[e.to]->load() + e.tasks);
          agent[e.to]->on_tasks_arrived(*ctx[e.to], e.from, e.tasks);
        } else {
          agent[e.to]->on_message(*ctx[e.to], e.from, e.message);
        }
        collect(e.to);
      }
      std::int64_t left = 0;
      for (const auto& c : ctx) left += c->load();
      EXPECT_EQ(left, total - completed);
      EXPECT_GT(highest, 0u);
      for (NodeId v = 0; v < t.size(); ++v)
        EXPECT_EQ(exchanges[v].size(), static_cast<std::size_t>(highest) * static_cast<std::size_t>(d)) << "node " << v;
    }
  }
}
