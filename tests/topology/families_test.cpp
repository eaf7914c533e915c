// Known sizes, diameters and the numbering / neighbour-order contract of generators.hpp.

#include <dlbkit/topology/generators.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace dlbkit {
namespace {

std::vector<NodeId> nbrs(const Topology& t, NodeId v) {
  const auto s = t.neighbors(v);
  return {s.begin(), s.end()};
}

std::vector<EdgeDimension> dims(const Topology& t, NodeId v) {
  std::vector<EdgeDimension> out;
  for (std::size_t i = 0; i < t.degree(v); ++i) out.push_back(t.edge_dimension(v, i).value());
  return out;
}

// Shortest cycle length by BFS from every node.
int girth(const Topology& t) {
  int best = 1 << 30;
  for (NodeId s = 0; s < t.size(); ++s) {
    std::vector<int> dist(t.size(), -1);
    std::vector<NodeId> parent(t.size(), s);
    std::vector<NodeId> queue{s};
    dist[s] = 0;
    for (std::size_t h = 0; h < queue.size(); ++h) {
      const NodeId v = queue[h];
      for (const NodeId u : t.neighbors(v)) {
        if (dist[u] < 0) {
          dist[u] = dist[v] + 1;
          parent[u] = v;
          queue.push_back(u);
        } else if (parent[v] != u) {
          best = std::min(best, dist[u] + dist[v] + 1);
        }
      }
    }
  }
  return best;
}

TEST(Hypercube, SizesDiameterBipartite) {
  for (int d = 1; d <= 10; ++d) {
    SCOPED_TRACE(d);
    const Topology t = make_hypercube(d);
    EXPECT_EQ(t.kind(), TopologyKind::hypercube);
    EXPECT_EQ(t.spec(), "hypercube:" + std::to_string(d));
    EXPECT_EQ(t.size(), std::size_t{1} << d);
    EXPECT_EQ(t.edge_count(), static_cast<std::size_t>(d) << (d - 1));
    EXPECT_EQ(t.min_degree(), static_cast<std::size_t>(d));
    EXPECT_EQ(t.max_degree(), static_cast<std::size_t>(d));
    EXPECT_EQ(t.diameter(), d);
    EXPECT_TRUE(t.bipartite());
    EXPECT_EQ(std::vector<int>(t.extents().begin(), t.extents().end()),
              std::vector<int>(static_cast<std::size_t>(d), 2));
  }
}

TEST(Hypercube, NeighboursInBitOrderWithBitAsAxis) {
  const Topology t = make_hypercube(4);
  EXPECT_EQ(nbrs(t, 5), (std::vector<NodeId>{4, 7, 1, 13}));
  for (NodeId v = 0; v < t.size(); ++v)
    for (std::size_t i = 0; i < 4; ++i) {
      EXPECT_EQ(t.neighbors(v)[i], v ^ (NodeId{1} << i));
      EXPECT_EQ(t.edge_dimension(v, i), (EdgeDimension{static_cast<int>(i), 0}));
    }
  EXPECT_EQ(t.distance(0, 15), 4);
  EXPECT_EQ(t.distance(5, 6), 2);
}

TEST(Hypercube, LargestUsualSizesBuild) {
  const Topology t = make_hypercube(20);
  EXPECT_EQ(t.size(), std::size_t{1} << 20);
  EXPECT_EQ(t.edge_count(), std::size_t{20} << 19);
  EXPECT_EQ(nbrs(t, (1u << 20) - 1).back(), (1u << 19) - 1);
  EXPECT_EQ(t.distance(0, (1u << 20) - 1), 20);
}

TEST(Torus, SizesAndDiameters) {
  struct Case {
    std::vector<int> extents;
    std::size_t nodes, edges;
    int diameter;
    bool bipartite;
  };
  const Case cases[] = {
      {{4, 4}, 16, 32, 4, true},       {{3, 5}, 15, 30, 3, false}, {{2, 2}, 4, 4, 2, true},
      {{2, 3}, 6, 9, 2, false},        {{2}, 2, 1, 1, true},       {{6, 4, 2}, 48, 120, 6, true},
      {{5, 5, 5}, 125, 375, 6, false},
  };
  for (const Case& c : cases) {
    const Topology t = make_torus(c.extents);
    SCOPED_TRACE(t.spec());
    EXPECT_EQ(t.kind(), TopologyKind::torus);
    EXPECT_EQ(t.size(), c.nodes);
    EXPECT_EQ(t.edge_count(), c.edges);
    EXPECT_EQ(t.diameter(), c.diameter);
    EXPECT_EQ(t.bipartite(), c.bipartite);
    EXPECT_EQ(std::vector<int>(t.extents().begin(), t.extents().end()), c.extents);
  }
  EXPECT_EQ(make_torus({3, 5}).spec(), "torus:3x5");
}

TEST(Torus, PlusThenMinusPerAxisAxisZeroFastest) {
  const Topology t = make_torus({4, 3});  // id = x + 4y
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{1, 3, 4, 8}));
  EXPECT_EQ(nbrs(t, 5), (std::vector<NodeId>{6, 4, 9, 1}));
  EXPECT_EQ(nbrs(t, 11), (std::vector<NodeId>{8, 10, 3, 7}));
  EXPECT_EQ(dims(t, 5), (std::vector<EdgeDimension>{{0, +1}, {0, -1}, {1, +1}, {1, -1}}));
  EXPECT_EQ(t.distance(0, 10), 2 + 1);
}

TEST(Torus, ExtentTwoGivesOneNeighbour) {
  const Topology t = make_torus({2, 3});
  EXPECT_EQ(t.degree(0), 3U);
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{1, 2, 4}));
  EXPECT_EQ(nbrs(t, 1), (std::vector<NodeId>{0, 3, 5}));
  EXPECT_EQ(dims(t, 1), (std::vector<EdgeDimension>{{0, +1}, {1, +1}, {1, -1}}));
}

TEST(Torus, LargestBuilds) {
  const Topology t = make_torus({4096, 4096});
  EXPECT_EQ(t.size(), kMaxTopologyNodes);
  EXPECT_EQ(t.edge_count(), 2 * kMaxTopologyNodes);
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{1, 4095, 4096, 4095 * 4096}));
  EXPECT_EQ(t.distance(0, 2048 + 2048 * 4096), 4096);
  EXPECT_EQ(t.diameter(), 4096);
}

TEST(Mesh, SizesAndBorderSkips) {
  const Topology t = make_mesh({3, 4});  // id = x + 3y
  EXPECT_EQ(t.size(), 12U);
  EXPECT_EQ(t.edge_count(), 17U);  // 2 * 4 along x, 3 * 3 along y
  EXPECT_EQ(t.diameter(), 5);
  EXPECT_TRUE(t.bipartite());
  EXPECT_EQ(t.min_degree(), 2U);
  EXPECT_EQ(t.max_degree(), 4U);
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{1, 3}));
  EXPECT_EQ(nbrs(t, 4), (std::vector<NodeId>{5, 3, 7, 1}));
  EXPECT_EQ(nbrs(t, 11), (std::vector<NodeId>{10, 8}));
  EXPECT_EQ(dims(t, 0), (std::vector<EdgeDimension>{{0, +1}, {1, +1}}));
  EXPECT_EQ(dims(t, 11), (std::vector<EdgeDimension>{{0, -1}, {1, -1}}));
  EXPECT_EQ(dims(t, 4), (std::vector<EdgeDimension>{{0, +1}, {0, -1}, {1, +1}, {1, -1}}));
  EXPECT_EQ(t.distance(0, 11), 5);
}

TEST(Mesh, ExtentOneAxesCarryNoEdges) {
  const Topology t = make_mesh({1, 4, 1, 2});  // only axes 1 and 3 have edges
  EXPECT_EQ(t.size(), 8U);
  EXPECT_EQ(t.edge_count(), 3 * 2 + 4U);
  EXPECT_EQ(t.diameter(), 4);
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{1, 4}));
  EXPECT_EQ(dims(t, 5), (std::vector<EdgeDimension>{{1, +1}, {1, -1}, {3, -1}}));
  const Topology one = make_mesh({1});
  EXPECT_EQ(one.size(), 1U);
  EXPECT_EQ(one.edge_count(), 0U);
  EXPECT_EQ(one.diameter(), 0);
}

TEST(Ring, SizesOrderAndDimensions) {
  for (int n : {3, 4, 7, 10}) {
    const Topology t = make_ring(n);
    SCOPED_TRACE(n);
    EXPECT_EQ(t.kind(), TopologyKind::ring);
    EXPECT_EQ(t.spec(), "ring:" + std::to_string(n));
    EXPECT_EQ(t.size(), static_cast<std::size_t>(n));
    EXPECT_EQ(t.edge_count(), static_cast<std::size_t>(n));
    EXPECT_EQ(t.diameter(), n / 2);
    EXPECT_EQ(t.bipartite(), n % 2 == 0);
    EXPECT_EQ(std::vector<int>(t.extents().begin(), t.extents().end()), std::vector<int>{n});
  }
  const Topology r = make_ring(5);
  EXPECT_EQ(nbrs(r, 0), (std::vector<NodeId>{1, 4}));
  EXPECT_EQ(nbrs(r, 4), (std::vector<NodeId>{0, 3}));
  EXPECT_EQ(dims(r, 4), (std::vector<EdgeDimension>{{0, +1}, {0, -1}}));
  EXPECT_EQ(r.distance(1, 4), 2);
}

TEST(BinaryTree, SizesAndHeapOrder) {
  for (int levels = 1; levels <= 10; ++levels) {
    const Topology t = make_binary_tree(levels);
    SCOPED_TRACE(levels);
    EXPECT_EQ(t.size(), (std::size_t{1} << levels) - 1);
    EXPECT_EQ(t.edge_count(), (std::size_t{1} << levels) - 2);
    EXPECT_EQ(t.diameter(), 2 * (levels - 1));
    EXPECT_TRUE(t.bipartite());
    EXPECT_TRUE(t.extents().empty());
  }
  const Topology t = make_binary_tree(3);
  EXPECT_EQ(t.spec(), "tree:binary:3");
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{1, 2}));
  EXPECT_EQ(nbrs(t, 1), (std::vector<NodeId>{0, 3, 4}));
  EXPECT_EQ(nbrs(t, 6), (std::vector<NodeId>{2}));
  EXPECT_EQ(t.distance(3, 6), 4);
  EXPECT_EQ(t.distance(3, 4), 2);
  EXPECT_EQ(t.distance(0, 5), 2);
  EXPECT_FALSE(t.edge_dimension(1, 0).has_value());
}

TEST(Complete, SizesAndOrder) {
  for (int n : {1, 2, 3, 6}) {
    const Topology t = make_complete(n);
    SCOPED_TRACE(n);
    const auto un = static_cast<std::size_t>(n);
    EXPECT_EQ(t.size(), un);
    EXPECT_EQ(t.edge_count(), un * (un - 1) / 2);
    EXPECT_EQ(t.min_degree(), un - 1);
    EXPECT_EQ(t.diameter(), n == 1 ? 0 : 1);
    EXPECT_EQ(t.bipartite(), n <= 2);
  }
  const Topology t = make_complete(4);
  EXPECT_EQ(nbrs(t, 2), (std::vector<NodeId>{0, 1, 3}));
  EXPECT_EQ(t.distance(3, 0), 1);
  EXPECT_EQ(t.distance(3, 3), 0);
}

TEST(Bisectional, B7HasSixtyFourNodesDegreeSevenDiameterThree) {
  const Topology t = make_bisectional(7);
  EXPECT_EQ(t.spec(), "bisectional:7");
  EXPECT_EQ(t.size(), 64U);
  EXPECT_EQ(t.min_degree(), 7U);
  EXPECT_EQ(t.max_degree(), 7U);
  EXPECT_EQ(t.edge_count(), 64U * 7 / 2);
  EXPECT_EQ(t.diameter(), 3);
  EXPECT_FALSE(t.bipartite());
  EXPECT_TRUE(t.extents().empty());
}

TEST(Bisectional, WordsAndNeighbourOrder) {
  for (int n : {3, 5, 7, 9}) {
    SCOPED_TRACE(n);
    const Topology t = make_bisectional(n);
    EXPECT_EQ(t.size(), std::size_t{1} << (n - 1));
    for (NodeId v = 0; v < t.size(); ++v) {
      const std::uint64_t w = bisectional_word(n, v);
      ASSERT_EQ(std::popcount(w) % 2, 0);
      ASSERT_EQ(w & ((std::uint64_t{1} << (n - 1)) - 1), v);
      for (std::size_t i = 0; i < t.degree(v); ++i) {
        const std::uint64_t x = w ^ bisectional_word(n, t.neighbors(v)[i]);
        // Neighbour i keeps bit i and differs everywhere else (Hamming distance n-1).
        ASSERT_EQ(x, ((std::uint64_t{1} << n) - 1) ^ (std::uint64_t{1} << i));
      }
    }
  }
  EXPECT_EQ(nbrs(make_bisectional(5), 0), (std::vector<NodeId>{14, 13, 11, 7, 15}));
  EXPECT_EQ(make_bisectional(3).edge_count(), 6U);  // B_3 is K_4
}

TEST(Odd, PetersenGraph) {
  const Topology t = make_odd(3);
  EXPECT_EQ(t.spec(), "odd:3");
  EXPECT_EQ(t.size(), 10U);
  EXPECT_EQ(t.edge_count(), 15U);
  EXPECT_EQ(t.min_degree(), 3U);
  EXPECT_EQ(t.max_degree(), 3U);
  EXPECT_EQ(t.diameter(), 2);
  EXPECT_FALSE(t.bipartite());
  EXPECT_EQ(girth(t), 5);
  EXPECT_EQ(odd_word(3, 0), 0b00011U);
  EXPECT_EQ(odd_word(3, 9), 0b11000U);
  EXPECT_EQ(nbrs(t, 0), (std::vector<NodeId>{5, 8, 9}));  // {2,3}, {2,4}, {3,4}
}

TEST(Odd, WordsRankedInIncreasingOrderAndNeighboursDisjoint) {
  const std::size_t expected_nodes[] = {0, 0, 3, 10, 35, 126, 462, 1716};
  for (int n = 2; n <= 7; ++n) {
    SCOPED_TRACE(n);
    const Topology t = make_odd(n);
    ASSERT_EQ(t.size(), expected_nodes[n]);
    EXPECT_EQ(t.min_degree(), static_cast<std::size_t>(n));
    EXPECT_EQ(t.max_degree(), static_cast<std::size_t>(n));
    EXPECT_EQ(t.diameter(), n - 1);
    EXPECT_FALSE(t.bipartite());
    std::uint64_t previous = 0;
    for (NodeId v = 0; v < t.size(); ++v) {
      const std::uint64_t w = odd_word(n, v);
      ASSERT_EQ(std::popcount(w), n - 1);
      ASSERT_LT(w, std::uint64_t{1} << (2 * n - 1));
      if (v > 0) {
        ASSERT_GT(w, previous);
      }
      previous = w;
      const auto nb = t.neighbors(v);
      ASSERT_TRUE(std::is_sorted(nb.begin(), nb.end()));
      for (const NodeId u : nb) ASSERT_EQ(std::popcount(w ^ odd_word(n, u)), 2 * n - 2);
    }
  }
}

TEST(Odd, LargestBuildsWithTheRightCount) {
  const Topology t = make_odd(12);
  EXPECT_EQ(t.size(), 1352078U);
  EXPECT_EQ(t.edge_count(), 1352078U * 12 / 2);
  EXPECT_EQ(odd_word(12, 0), (std::uint64_t{1} << 11) - 1);
  EXPECT_EQ(odd_word(12, 1352077), ((std::uint64_t{1} << 11) - 1) << 12);
  EXPECT_EQ(t.distance(0, 1352077), 1);
}

TEST(EdgeDimension, AbsentWhereTheNetworkHasNone) {
  EXPECT_FALSE(make_complete(3).edge_dimension(0, 1).has_value());
  EXPECT_FALSE(make_bisectional(5).edge_dimension(3, 4).has_value());
  EXPECT_FALSE(make_odd(3).edge_dimension(0, 0).has_value());
}

}  // namespace
}  // namespace dlbkit
