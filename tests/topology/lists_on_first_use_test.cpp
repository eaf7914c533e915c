// The lists of the families with a formula are written a block of nodes at a time when first
// asked for (src/topology/neighbor_lists.hpp): whatever order the nodes are asked in, and from
// however many threads, they are the lists the formula gives.

#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <thread>
#include <vector>

using namespace dlbkit;

// Asked from the last node back (blocks written out of order), every list is the graph's:
// its neighbours one hop away, each listing the node back; breadth-first search (which
// writes every block) agrees with the closed-form distances.
TEST(ListsOnFirstUse, AreTheFamilysListsInAnyOrder) {
  for (const char* spec : {"mesh:70x60", "torus:3x5x300", "ring:9000", "hypercube:14"}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    std::size_t slots = 0;
    for (NodeId v = static_cast<NodeId>(t.size()); v-- > 0;) {
      const auto nb = t.neighbors(v);
      EXPECT_EQ(nb.size(), t.degree(v));
      slots += nb.size();
      for (const NodeId u : nb) {
        ASSERT_EQ(t.distance(v, u), 1) << v << " lists " << u;
        const auto back = t.neighbors(u);
        EXPECT_NE(std::find(back.begin(), back.end(), v), back.end()) << u << " does not list " << v;
      }
    }
    EXPECT_EQ(slots, 2 * t.edge_count());
    const Topology fresh = parse_topology(spec);  // nothing written yet
    const std::vector<int> dist = fresh.bfs_distances(static_cast<NodeId>(fresh.size() / 2));
    for (NodeId v = 0; v < fresh.size(); v += 7) EXPECT_EQ(dist[v], fresh.distance(static_cast<NodeId>(fresh.size() / 2), v));
  }
}

// Four threads ask for the lists of one hypercube:16 at once, each in its own order.
TEST(ListsOnFirstUse, AreWrittenOnceForSeveralThreads) {
  const Topology t = parse_topology("hypercube:16");
  std::vector<int> wrong(4, 0);
  {
    std::vector<std::jthread> team;
    for (int k = 0; k < 4; ++k)
      team.emplace_back([&, k] {
        for (NodeId i = 0; i < t.size(); ++i) {
          const NodeId v = (i * 2654435761U + static_cast<NodeId>(k) * 40503U) & (t.size() - 1);
          const auto nb = t.neighbors(v);
          for (std::size_t bit = 0; bit < nb.size(); ++bit) wrong[k] += nb[bit] != (v ^ (NodeId{1} << bit)) ? 1 : 0;
        }
      });
  }
  for (const int w : wrong) EXPECT_EQ(w, 0);
}
