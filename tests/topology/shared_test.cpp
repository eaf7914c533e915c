#include <dlbkit/topology/edge_coloring.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace dlbkit;

TEST(TopologyShared, ComputedOnceAndSharedByCopiesAndThreads) {
  const Topology t = parse_topology("torus:5x7");
  int calls = 0;
  const auto count_nodes = [&](const Topology& g) {
    ++calls;
    return g.size();
  };
  const Topology copy = t;
  std::vector<const std::size_t*> seen(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < seen.size(); ++i)
    threads.emplace_back([&, i] { seen[i] = &(i % 2 ? copy : t).shared<std::size_t>("nodes", count_nodes); });
  for (auto& th : threads) th.join();
  EXPECT_EQ(calls, 1);
  for (const auto* p : seen) {
    EXPECT_EQ(p, seen[0]);
    EXPECT_EQ(*p, 35u);
  }
  // Another key, or another type under the same key, is another value.
  EXPECT_EQ(t.shared<std::size_t>("edges", [](const Topology& g) { return g.edge_count(); }), 70u);
  EXPECT_EQ(t.shared<int>("nodes", [](const Topology&) { return -1; }), -1);
  EXPECT_EQ(calls, 1);
  // A separately parsed topology has its own values.
  EXPECT_EQ(parse_topology("torus:5x7").shared<std::size_t>("nodes", count_nodes), 35u);
  EXPECT_EQ(calls, 2);
}

TEST(TopologyShared, EdgeColouringMatchesAFreshOne) {
  const Topology t = parse_topology("mesh:4x6");
  const auto& shared = t.shared<EdgeColoring>("edge_coloring", edge_coloring);
  const EdgeColoring fresh = edge_coloring(t);
  ASSERT_EQ(shared.colors(), fresh.colors());
  for (NodeId v = 0; v < t.size(); ++v)
    for (std::size_t i = 0; i < t.degree(v); ++i) EXPECT_EQ(shared.color(v, i), fresh.color(v, i));
}
