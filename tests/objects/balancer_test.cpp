// dlbkit::Balancer, the plan API, with every rank's objects in one process (the threads form):
// plans that move every object once and match the strategy's decision, and the bad inputs.
// Under MPI: tests/objects/mpi_program/balancer_ranks.cpp.
#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <string>
#include <vector>

namespace {

using dlbkit::Balancer;
using dlbkit::LocalPhase;
using dlbkit::MigrationPlan;

// Rank r holds objects r * 100 + k, k < 5 + 3r, heavier on the last ranks, ids listed backwards
// on odd ranks (the plan must not depend on the order a rank lists them in).
std::vector<LocalPhase> ranks(std::size_t count) {
  std::vector<LocalPhase> out(count);
  for (std::size_t r = 0; r < count; ++r) {
    for (std::uint64_t k = 0; k < 5 + 3 * r; ++k)
      out[r].objects.push_back({.id = r * 100 + k, .load = 0.5 + static_cast<double>((k * 7 + r) % 5) * (1 + r)});
    if (r % 2) std::reverse(out[r].objects.begin(), out[r].objects.end());
    if (r + 1 < count) out[r].edges.push_back({.from = r * 100, .to = (r + 1) * 100, .messages = 2, .bytes = 64});
  }
  return out;
}

// Where each object ends under `plans`, checking that it left where it was and arrived where
// its plan says: each object on exactly one rank.
std::map<std::uint64_t, dlbkit::NodeId> carry_out(const std::vector<LocalPhase>& before,
                                              const std::vector<MigrationPlan>& plans) {
  std::map<std::uint64_t, dlbkit::NodeId> where;
  for (dlbkit::NodeId r = 0; r < before.size(); ++r)
    for (const auto& o : before[r].objects) where[o.id] = r;
  std::size_t departures = 0, arrivals = 0;
  for (dlbkit::NodeId r = 0; r < plans.size(); ++r) {
    for (const auto& d : plans[r].departures) {
      EXPECT_EQ(where.at(d.id), r) << "object " << d.id << " leaves a rank that does not hold it";
      where[d.id] = d.rank;
      ++departures;
    }
  }
  for (dlbkit::NodeId r = 0; r < plans.size(); ++r)
    for (const auto& a : plans[r].arrivals) {
      EXPECT_EQ(where.at(a.id), r) << "object " << a.id << " arrives where its departure does not send it";
      ++arrivals;
    }
  EXPECT_EQ(departures, arrivals);
  EXPECT_EQ(departures, plans.at(0).objects_migrated);
  return where;
}

TEST(Balancer, EveryStrategysPlanMovesEachObjectOnceAsItsDecisionDoes) {
  const auto before = ranks(4);
  for (const std::string name : {"greedy", "refine", "tempered", "diffusion", "partition", "none"}) {
    SCOPED_TRACE(name);
    Balancer balancer({.engine = "threads", .strategy = name});
    EXPECT_EQ(balancer.engine(), "threads");
    const auto plans = balancer.plan(before);
    ASSERT_EQ(plans.size(), 4u);
    const auto where = carry_out(before, plans);
    std::vector<double> loads(4, 0.0);
    for (const auto& rank : before)
      for (const auto& o : rank.objects) loads[where.at(o.id)] += o.load;
    const double mean = (loads[0] + loads[1] + loads[2] + loads[3]) / 4;
    EXPECT_NEAR(plans[0].imbalance_after, *std::max_element(loads.begin(), loads.end()) / mean - 1, 1e-12);
    for (const auto& plan : plans) {
      EXPECT_EQ(plan.imbalance_before, plans[0].imbalance_before);
      EXPECT_EQ(plan.protocol_rounds, plans[0].protocol_rounds);
    }
    // A central strategy's gather and scatter; a distributed one's own protocol.
    const bool distributed = name == "tempered" || name == "diffusion";
    if (distributed) EXPECT_GT(plans[0].protocol_rounds, 2u);
    else EXPECT_EQ(plans[0].protocol_messages, 6u);
    if (name != "none") {
      EXPECT_LT(plans[0].imbalance_after, plans[0].imbalance_before);
    } else {
      EXPECT_EQ(plans[0].objects_migrated, 0u);
    }
  }
}

TEST(Balancer, TemperedClusteringPlansByItsProtocol) {
  // Objects in shared blocks, rank 0 a hot spot: the plan comes from the protocol's own rounds,
  // not from the central path's gather and scatter, and moves each object once.
  std::vector<LocalPhase> before(4);
  for (std::size_t r = 0; r < 4; ++r) {
    const auto first = static_cast<std::int64_t>(2 * r);
    before[r].blocks = {{.id = first, .bytes = 100}, {.id = first + 1, .bytes = 100}};
    for (std::uint64_t k = 0; k < 8; ++k)
      before[r].objects.push_back({.id = r * 100 + k,
                                   .load = (r == 0 ? 4.0 : 1.0) * static_cast<double>(1 + k % 3),
                                   .memory = {.footprint_bytes = 10, .block = static_cast<std::int32_t>(k % 2)}});
  }
  Balancer balancer({.engine = "threads", .strategy = "tempered", .params = {"transfer_strategy=Clustering"}});
  const auto plans = balancer.plan(before);
  carry_out(before, plans);
  EXPECT_GT(plans[0].protocol_rounds, 2u);
  EXPECT_NE(plans[0].protocol_messages, 6u);
  EXPECT_GT(plans[0].objects_migrated, 0u);
  EXPECT_LT(plans[0].imbalance_after, plans[0].imbalance_before);
}

TEST(Balancer, ThePlanDoesNotDependOnTheOrderARankListsItsObjectsIn) {
  auto before = ranks(3);
  Balancer balancer({.engine = "threads", .strategy = "tempered"});
  const auto plans = balancer.plan(before);
  for (auto& rank : before) std::reverse(rank.objects.begin(), rank.objects.end());
  const auto again = balancer.plan(before);
  for (std::size_t r = 0; r < 3; ++r) {
    ASSERT_EQ(plans[r].departures.size(), again[r].departures.size());
    for (std::size_t k = 0; k < plans[r].departures.size(); ++k) {
      EXPECT_EQ(plans[r].departures[k].id, again[r].departures[k].id);
      EXPECT_EQ(plans[r].departures[k].rank, again[r].departures[k].rank);
    }
  }
}

// Objects that come and go between plans (ObjectRuntime's split and merge, a program's own):
// a plan on a changed set of ids is the plan a new balancer makes on it, nothing kept from the
// last, for a central and a distributed strategy.
TEST(Balancer, APlanTakesADifferentSetOfIdsFromOneCallToTheNext) {
  for (const std::string name : {"greedy", "tempered"}) {
    SCOPED_TRACE(name);
    Balancer balancer({.engine = "threads", .strategy = name});
    const auto first = ranks(3);
    balancer.plan(first);
    auto changed = first;
    changed[2].objects.erase(changed[2].objects.begin());  // destroyed, its edge with it
    changed[1].edges.clear();
    for (std::uint64_t k = 0; k < 4; ++k) changed[0].objects.push_back({.id = 9000 + k, .load = 2.5});  // split
    const auto plans = balancer.plan(changed);
    const auto where = carry_out(changed, plans);
    EXPECT_EQ(where.size(), first[0].objects.size() + first[1].objects.size() + first[2].objects.size() + 3);
    const auto fresh = Balancer({.engine = "threads", .strategy = name}).plan(changed);
    for (std::size_t r = 0; r < 3; ++r) {
      ASSERT_EQ(plans[r].departures.size(), fresh[r].departures.size());
      for (std::size_t k = 0; k < plans[r].departures.size(); ++k) {
        EXPECT_EQ(plans[r].departures[k].id, fresh[r].departures[k].id);
        EXPECT_EQ(plans[r].departures[k].rank, fresh[r].departures[k].rank);
      }
    }
  }
}

TEST(Balancer, TheMemoryBoundHolds) {
  auto before = ranks(3);
  for (auto& rank : before)
    for (auto& o : rank.objects) o.memory.footprint_bytes = 100;
  // Rank 2 holds 11 objects: a bound of 1100 bytes keeps every rank at 11 objects at most.
  Balancer balancer({.engine = "threads", .strategy = "greedy", .memory_bound = 1100});
  const auto plans = balancer.plan(before);
  const auto where = carry_out(before, plans);
  std::vector<int> count(3, 0);
  for (const auto& [id, r] : where) ++count[r];
  for (int c : count) EXPECT_LE(c, 11);
  EXPECT_GT(plans[0].objects_migrated, 0u);
  EXPECT_EQ(plans[0].bytes_migrated, 100.0 * static_cast<double>(plans[0].objects_migrated));
}

TEST(Balancer, BadInputIsOneLineNamingIt) {
  const auto expect_error = [](auto&& f, const std::string& part) {
    try {
      f();
      ADD_FAILURE() << "no error; expected one with: " << part;
    } catch (const dlbkit::InputError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
    }
  };
  expect_error([] { Balancer({.engine = "threads", .strategy = "nope"}); }, "nope");
  expect_error([] { Balancer({.engine = "threads", .strategy = "greedy", .params = {"x=1"}}); }, "x");
  expect_error([] { Balancer({.engine = "sequential"}); }, "sequential");
  expect_error([] { Balancer({.engine = "threads", .memory_bound = 0}); }, "memory bound 0");
  Balancer balancer({.engine = "threads"});
  auto twice = ranks(2);
  twice[1].objects.push_back({.id = 3, .load = 1});
  expect_error([&] { balancer.plan(twice); }, "object 3 is on ranks 0 and 1");
  auto unknown = ranks(2);
  unknown[0].edges.push_back({.from = 0, .to = 77});
  expect_error([&] { balancer.plan(unknown); }, "to object 77, which no rank lists");
  for (const char* strategy : {"greedy", "tempered"}) {  // the central path and a protocol's
    Balancer b({.engine = "threads", .strategy = strategy});
    expect_error([&] { b.plan(twice); }, "object 3 is on ranks 0 and 1");
    expect_error([&] { b.plan(unknown); }, "object 77, which no rank lists");
  }
  auto stranger = ranks(2);
  stranger[1].edges.push_back({.from = 5, .to = 0});
  expect_error([&] { balancer.plan(stranger); }, "edge from object 5");
  for (const double load : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
    auto bad = ranks(2);
    bad[1].objects[2].load = load;
    expect_error([&] { balancer.plan(bad); }, "rank 1: the load of object");
  }
  auto slow = ranks(2);
  slow[0].speed = 0;
  expect_error([&] { balancer.plan(slow); }, "rank 0: the rank's speed is 0");
  expect_error([&] { balancer.plan(std::vector<LocalPhase>{}); }, "no rank");
  expect_error([] { Balancer({.engine = "threads", .topology = "ring:3"}).plan(ranks(2)); }, "topology ring:3");
}

TEST(Balancer, APlanIsCarriedOutOnceAndOnlyTheLatest) {
  Balancer balancer({.engine = "threads"});
  auto one = balancer.plan(LocalPhase{.objects = {{.id = 1, .load = 1}}});
  balancer.migrate(one, [](std::uint64_t id) { return id; }, [](std::uint64_t, std::uint64_t) {});
  EXPECT_THROW(balancer.migrate(one, [](std::uint64_t id) { return id; }, [](std::uint64_t, std::uint64_t) {}),
               dlbkit::InputError);
  auto old = balancer.plan(LocalPhase{});
  auto latest = balancer.plan(LocalPhase{});
  EXPECT_THROW(balancer.migrate(old, [](std::uint64_t id) { return id; }, [](std::uint64_t, std::uint64_t) {}),
               dlbkit::InputError);
  balancer.migrate(latest, [](std::uint64_t id) { return id; }, [](std::uint64_t, std::uint64_t) {});
}

}  // namespace
