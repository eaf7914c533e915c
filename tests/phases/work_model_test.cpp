#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/work_model.hpp>
#include <dlbkit/topology/generators.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <limits>
#include <map>
#include <vector>

namespace dlbkit {
namespace {

TEST(WorkModel, ParsesLbafsTermsAndRefusesTheRestNamingThem) {
  EXPECT_EQ(parse_work_model("load"), WorkModel{});
  EXPECT_EQ(parse_work_model("beta=1e-9,delta=2"), (WorkModel{.beta = 1e-9, .delta = 2}));
  EXPECT_EQ(parse_work_model("gamma=0.5"), (WorkModel{.gamma = 0.5}));
  EXPECT_EQ(parse_work_model("intra=1e-10,beta=2"), (WorkModel{.beta = 2, .intra = 1e-10}));
  EXPECT_EQ(to_string(WorkModel{}), "load");
  EXPECT_EQ(to_string(WorkModel{.beta = 1e-9, .delta = 2}), "beta=1e-09,delta=2");
  EXPECT_EQ(parse_work_model(to_string(WorkModel{.beta = 0.25, .gamma = 3})), (WorkModel{.beta = 0.25, .gamma = 3}));
  for (const auto& [text, term] : std::vector<std::pair<std::string, std::string>>{{"", ""},
                                                                                   {"beta", "beta"},
                                                                                   {"beta=-1", "beta=-1"},
                                                                                   {"beta=1,beta=2", "beta=2"},
                                                                                   {"alpha=1", "alpha=1"},
                                                                                   {"beta=nan", "beta=nan"},
                                                                                   {"beta=1,", ""},
                                                                                   {"beta=", "beta="}}) {
    try {
      parse_work_model(text, "--work-model");
      ADD_FAILURE() << "accepted " << text;
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()),
                fmt::format("--work-model '{}': term '{}' is not accepted; accepted: load, or "
                            "beta=B,gamma=G,delta=D,intra=I (any of them, numbers >= 0)",
                            text, term));
    }
  }
}

// Three nodes. Objects 0, 1 on node 0, object 2 on node 1, object 3 on node 2; 0 sends 10
// bytes to 1 (local), 1 sends 20 to 2, 3 sends 5 to 0; objects 0 and 2 share block 0 (100
// bytes, so its homes are nodes 0 and 1), object 3 uses block 1 (40 bytes, home node 2).
Phase small_phase() {
  Phase phase{.nodes = 3};
  for (double load : {1.0, 2.0, 4.0, 8.0}) phase.objects.push_back({.id = phase.objects.size(), .load = load});
  phase.node_of = {0, 0, 1, 2};
  phase.communications = {{.from = 0, .to = 1, .messages = 1, .bytes = 10},
                          {.from = 1, .to = 2, .messages = 1, .bytes = 20},
                          {.from = 3, .to = 0, .messages = 1, .bytes = 5}};
  phase.objects[0].memory.block = 0;
  phase.objects[2].memory.block = 0;
  phase.objects[3].memory.block = 1;
  phase.block_bytes = {100, 40};
  phase.block_ids = {7, 8};
  phase.node_alpha = {1, 2, 0.5};
  return phase;
}

TEST(WorkModel, IsLbafsAffineCombinationByHand) {
  const Phase phase = small_phase();
  const WorkModel model{.beta = 1, .gamma = 3, .delta = 0.5};
  // node 0: load 3, sent 20, received 5; node 1: load 4, received 20; node 2: load 8, sent 5.
  EXPECT_EQ(node_works(phase, phase.node_of, model), (std::vector<double>{1 * 3 + 20 + 3, 2 * 4 + 20 + 3, 0.5 * 8 + 5 + 3}));
  // Objects 0 and 3 swap nodes: node 0 sends 20 + 5 and receives 10 (from object 0, now on
  // node 2), and holds block 1 away from its home; node 2 sends 10, receives 5, and holds
  // block 0 away from its homes.
  const std::vector<NodeId> moved{2, 0, 1, 0};
  EXPECT_EQ(node_works(phase, moved, model),
            (std::vector<double>{1 * (2 + 8) + 25 + 3 + 0.5 * 40, 2 * 4 + 20 + 3, 0.5 * 1 + 10 + 3 + 0.5 * 100}));
  // Without placement terms, alpha x load + gamma.
  EXPECT_EQ(node_works(phase, phase.node_of, WorkModel{.gamma = 1}), (std::vector<double>{4, 9, 5}));
  // vt's split: the 10 bytes from object 0 to 1 stay on node 0; once 0 and 3 swap, every
  // message crosses and none stays.
  EXPECT_EQ(node_works(phase, phase.node_of, WorkModel{.intra = 2}), (std::vector<double>{3 + 2 * 10, 8, 4}));
  EXPECT_EQ(node_works(phase, moved, WorkModel{.intra = 2}), (std::vector<double>{10, 8, 0.5}));
}

/// A random phase with communications and blocks spread over the nodes.
Phase random_work_phase(std::uint64_t seed, std::size_t nodes, std::size_t objects) {
  Rng rng(seed, 1);
  Phase phase{.nodes = nodes};
  phase.block_bytes = {100, 200, 300, 50};
  phase.block_ids = {0, 1, 2, 3};
  for (std::size_t i = 0; i < objects; ++i) {
    PhaseObject o{.id = i, .load = 1 + rng.uniform() * 9};
    o.memory.block = static_cast<std::int32_t>(rng.below(6)) - 2;  // -2, -1: none
    if (o.memory.block < 0) o.memory.block = -1;
    phase.objects.push_back(o);
    phase.node_of.push_back(static_cast<NodeId>(rng.below(nodes)));
  }
  for (std::size_t e = 0; e < 3 * objects; ++e)
    phase.communications.push_back({.from = static_cast<ObjectIndex>(rng.below(objects)),
                                    .to = static_cast<ObjectIndex>(rng.below(objects)),
                                    .messages = 1,
                                    .bytes = static_cast<double>(1 + rng.below(100))});
  phase.node_alpha.resize(nodes);
  for (double& a : phase.node_alpha) a = 0.5 + rng.uniform();
  return phase;
}

// What NodeWork predicts for a transfer, and keeps after moves, is the work counted from
// scratch: single objects, sets of objects and swaps, with every term weighed.
TEST(WorkModel, NodeWorkPredictsAndKeepsTheWorksCountedFromScratch) {
  const WorkModel model{.beta = 0.3, .gamma = 1, .delta = 0.02, .intra = 0.1};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const Phase phase = random_work_phase(seed, 5, 40);
    Rng rng(seed, 2);
    std::vector<NodeId> mapping = phase.node_of;
    NodeWork work(phase, mapping, model);
    for (int step = 0; step < 60; ++step) {
      const NodeId from = static_cast<NodeId>(rng.below(phase.nodes));
      NodeId to = static_cast<NodeId>(rng.below(phase.nodes - 1));
      if (to >= from) ++to;
      std::vector<ObjectIndex> out, back;
      for (ObjectIndex i = 0; i < phase.objects.size(); ++i) {
        if (mapping[i] == from && rng.below(3) == 0) out.push_back(i);
        if (mapping[i] == to && step % 2 == 1 && rng.below(4) == 0) back.push_back(i);
      }
      std::vector<NodeId> after = mapping;
      for (ObjectIndex i : out) after[i] = to;
      for (ObjectIndex i : back) after[i] = from;
      const std::vector<double> expected = node_works(phase, after, model);
      const auto [w_from, w_to] = work.after(out, from, to, back);
      SCOPED_TRACE(fmt::format("seed {} step {}: {} out, {} back", seed, step, out.size(), back.size()));
      EXPECT_NEAR(w_from, expected[from], 1e-9 * expected[from]);
      EXPECT_NEAR(w_to, expected[to], 1e-9 * expected[to]);
      if (step % 3 == 0) continue;  // a transfer weighed, not made
      for (ObjectIndex i : out) work.move(i, from, to);
      for (ObjectIndex i : back) work.move(i, to, from);
      mapping = after;
      for (NodeId v = 0; v < phase.nodes; ++v) EXPECT_NEAR(work.of(v), expected[v], 1e-9 * expected[v]);
    }
  }
}

// The tempered criterion on works never lets a transfer raise the larger work of its pair,
// and a transfer changes only its pair's works: the largest work never rises, whether messages
// weigh little (transfers happen) or much (few do). Weighed on the loads alone, tempered's
// transfers raise it where messages weigh much.
TEST(WorkModel, TemperedOnWorksNeverRaisesTheLargestWork) {
  std::size_t raised_on_loads = 0, moved = 0;
  for (const double beta : {0.01, 1.0}) {
    const WorkModel model{.beta = beta, .delta = beta / 10};
    for (std::uint64_t seed = 1; seed <= 12; ++seed) {
      Phase phase = random_work_phase(seed, 6, 60);
      phase.node_alpha.clear();
      for (std::size_t i = 0; i < phase.objects.size(); ++i) phase.node_of[i] = i % 2;  // 4 nodes idle
      const Topology t = parse_topology("complete:6");
      for (const std::string transfer : {"Recursive", "Clustering"}) {
        SCOPED_TRACE(fmt::format("beta {} seed {} {}", beta, seed, transfer));
        const auto strategy = builtin_phase_strategies().configure("tempered", {{"transfer_strategy", transfer}});
        const Rebalanced weighed = rebalance(strategy, phase, t, {.work_model = model, .seed = seed});
        ASSERT_TRUE(weighed.max_work_after);
        EXPECT_LE(*weighed.max_work_after, *weighed.max_work_before * (1 + 1e-12));
        moved += weighed.objects_migrated;
        const Rebalanced on_loads = rebalance(strategy, phase, t, {.seed = seed});
        EXPECT_FALSE(on_loads.max_work_after);  // the work is the load
        const std::vector<double> works = node_works(phase, on_loads.mapping, model);
        if (*std::max_element(works.begin(), works.end()) > *weighed.max_work_before) ++raised_on_loads;
      }
    }
  }
  EXPECT_GT(moved, 100u);
  EXPECT_GT(raised_on_loads, 0u);
}

// At the ends of its parameters, weighing works, tempered ends and never raises the largest
// work, with a memory bound too (objects footprints of 1 byte, blocks of 50 to 300).
TEST(WorkModel, TemperedOnWorksEndsAtTheEndsOfItsParameters) {
  Phase phase = random_work_phase(7, 8, 80);
  phase.has_memory = true;
  phase.node_working_bytes.assign(phase.nodes, 0.0);
  for (PhaseObject& o : phase.objects) o.memory.footprint_bytes = 1;
  const std::vector<std::map<std::string, std::string>> ends = {
      {{"n_iterations", "1"}}, {{"n_iterations", "1000"}}, {{"fanout", "1000000000"}},
      {{"deterministic_transfer", "true"}}, {{"max_objects_per_transfer", "1"}}, {{"peers", "LBAF"}},
      {{"order_strategy", "small_objects"}}, {{"transfer_strategy", "Clustering"}},
      {{"transfer_strategy", "Clustering"}, {"deterministic_transfer", "true"}, {"max_objects_per_transfer", "3"}},
      {{"transfer_strategy", "Clustering"}, {"separate_subclustering", "true"}, {"cluster_swap_rtol", "0"}}};
  for (const double bound : {std::numeric_limits<double>::infinity(), 700.0}) {
    for (const auto& params : ends) {
      SCOPED_TRACE(fmt::format("bound {} {}={}", bound, params.begin()->first, params.begin()->second));
      const Rebalanced r = rebalance(builtin_phase_strategies().configure("tempered", params), phase,
                                     parse_topology("complete:8"),
                                     {.memory_bound = bound, .work_model = {.beta = 0.05, .delta = 0.01}});
      ASSERT_TRUE(r.max_work_after);
      EXPECT_LE(*r.max_work_after, *r.max_work_before * (1 + 1e-12));
      EXPECT_EQ(r.nodes_over_memory_bound, 0u);
    }
  }
}

// LBAF's Recursive extends a transfer the criterion refuses with further objects: where
// messages weigh, two partners that cannot move alone move together.
TEST(WorkModel, TemperedRecursiveMovesPartnersTogetherUpToMaxObjectsPerTransfer) {
  Phase phase{.nodes = 2};
  for (double load : {1.0, 1.0, 10.0}) phase.objects.push_back({.id = phase.objects.size(), .load = load});
  phase.objects[2].migratable = false;
  phase.node_of = {0, 0, 0};
  phase.communications = {{.from = 0, .to = 1, .messages = 1, .bytes = 100},
                          {.from = 1, .to = 0, .messages = 1, .bytes = 100}};
  const Topology t = parse_topology("complete:2");
  const WorkModel model{.beta = 1};
  for (const std::string most : {"1", "2", "inf"}) {
    SCOPED_TRACE(most);
    const auto strategy = builtin_phase_strategies().configure("tempered", {{"max_objects_per_transfer", most}});
    const Rebalanced r = rebalance(strategy, phase, t, {.work_model = model});
    ASSERT_TRUE(r.max_work_after);
    EXPECT_EQ(*r.max_work_before, 12);
    // Alone, either object would leave 100 bytes crossing each way: works 111 and 101.
    EXPECT_EQ(r.objects_migrated, most == "1" ? 0u : 2u);
    EXPECT_EQ(*r.max_work_after, most == "1" ? 12 : 10);
  }
}

// A node's alpha weighs its load: a node of alpha 4 takes a quarter of what the others do.
TEST(WorkModel, TemperedWeighsEachNodesAlpha) {
  Phase phase{.nodes = 2};
  for (int i = 0; i < 100; ++i) {
    phase.objects.push_back({.id = static_cast<std::uint64_t>(i), .load = 1});
    phase.node_of.push_back(0);
  }
  phase.node_alpha = {1, 4};
  const auto strategy = builtin_phase_strategies().configure("tempered", {{"deterministic_transfer", "true"}});
  const Rebalanced r = rebalance(strategy, phase, parse_topology("complete:2"), {});
  ASSERT_TRUE(r.max_work_after);
  EXPECT_EQ(*r.max_work_before, 100);
  // Equal works: 100 - x = 4x, x = 20 objects on node 1.
  EXPECT_EQ(r.objects_migrated, 20u);
  EXPECT_EQ(*r.max_work_after, 80);
}

}  // namespace
}  // namespace dlbkit
