// distance(), diameter() and bipartite() of every family against breadth-first search, and
// the structural invariants every Topology must hold.

#include <dlbkit/topology/generators.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

// The tests' own BFS, independent of Topology::bfs_distances.
std::vector<int> reference_bfs(const Topology& t, NodeId source) {
  std::vector<int> dist(t.size(), -1);
  std::vector<NodeId> queue{source};
  dist[source] = 0;
  for (std::size_t h = 0; h < queue.size(); ++h)
    for (const NodeId u : t.neighbors(queue[h]))
      if (dist[u] < 0) {
        dist[u] = dist[queue[h]] + 1;
        queue.push_back(u);
      }
  return dist;
}

bool reference_bipartite(const Topology& t) {
  const std::vector<int> dist = reference_bfs(t, 0);
  for (NodeId v = 0; v < t.size(); ++v)
    for (const NodeId u : t.neighbors(v))
      if (dist[u] % 2 == dist[v] % 2) return false;
  return true;
}

// A connected random graph given as adjacency lists: a random spanning tree plus extras.
std::vector<std::vector<NodeId>> random_graph(std::size_t n, std::size_t extra, std::mt19937& rng) {
  std::vector<std::vector<NodeId>> adj(n);
  std::set<std::pair<NodeId, NodeId>> edges;
  const auto add = [&](NodeId a, NodeId b) {
    if (a == b || !edges.insert({std::min(a, b), std::max(a, b)}).second) return;
    adj[a].push_back(b);
    adj[b].push_back(a);
  };
  for (NodeId v = 1; v < n; ++v) add(v, std::uniform_int_distribution<NodeId>(0, v - 1)(rng));
  std::uniform_int_distribution<NodeId> any(0, static_cast<NodeId>(n - 1));
  for (std::size_t i = 0; i < extra; ++i) add(any(rng), any(rng));
  return adj;
}

struct Instance {
  std::string name;
  std::function<Topology()> make;
};

std::vector<Instance> small_instances() {
  std::vector<Instance> out;
  for (int d = 1; d <= 10; ++d) out.push_back({"hypercube " + std::to_string(d), [d] { return make_hypercube(d); }});
  for (const std::vector<int>& e :
       std::vector<std::vector<int>>{{2}, {3}, {5}, {2, 2}, {2, 3}, {4, 4}, {3, 5, 2}, {7, 2, 3}, {6, 5}})
    out.push_back({"torus", [e] { return make_torus(e); }});
  for (const std::vector<int>& e :
       std::vector<std::vector<int>>{{1}, {5}, {1, 4}, {3, 4}, {2, 3, 4}, {4, 1, 3}, {6, 7}})
    out.push_back({"mesh", [e] { return make_mesh(e); }});
  for (int n : {3, 4, 7, 10, 31}) out.push_back({"ring", [n] { return make_ring(n); }});
  for (int l = 1; l <= 8; ++l) out.push_back({"tree", [l] { return make_binary_tree(l); }});
  for (int n : {1, 2, 3, 7}) out.push_back({"complete", [n] { return make_complete(n); }});
  for (int n : {3, 5, 7, 9, 11}) out.push_back({"bisectional", [n] { return make_bisectional(n); }});
  for (int n = 2; n <= 6; ++n) out.push_back({"odd", [n] { return make_odd(n); }});
  out.push_back({"file graph", [] {
                   std::mt19937 rng(7);
                   return Topology::from_adjacency("random:60", random_graph(60, 40, rng));
                 }});
  out.push_back({"file tree", [] {
                   std::mt19937 rng(8);
                   return Topology::from_adjacency("random:200", random_graph(200, 0, rng));
                 }});
  return out;
}

TEST(Invariants, SymmetricSimpleConnectedWithConsistentCounts) {
  for (const Instance& inst : small_instances()) {
    const Topology t = inst.make();
    SCOPED_TRACE(t.spec());
    std::size_t slots = 0;
    std::size_t lo = t.size();
    std::size_t hi = 0;
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto nb = t.neighbors(v);
      ASSERT_EQ(nb.size(), t.degree(v));
      slots += nb.size();
      lo = std::min(lo, nb.size());
      hi = std::max(hi, nb.size());
      std::vector<NodeId> sorted(nb.begin(), nb.end());
      std::sort(sorted.begin(), sorted.end());
      ASSERT_EQ(std::adjacent_find(sorted.begin(), sorted.end()), sorted.end()) << "duplicate neighbour of " << v;
      for (const NodeId u : nb) {
        ASSERT_LT(u, t.size());
        ASSERT_NE(u, v);
        const auto back = t.neighbors(u);
        ASSERT_NE(std::find(back.begin(), back.end(), v), back.end()) << v << " -> " << u << " is one-sided";
      }
    }
    EXPECT_EQ(slots, 2 * t.edge_count());
    EXPECT_EQ(t.min_degree(), lo);
    EXPECT_EQ(t.max_degree(), hi);
    const auto dist = reference_bfs(t, 0);
    EXPECT_EQ(std::count(dist.begin(), dist.end(), -1), 0);
  }
}

// neighbor_index(v, u): u's position in neighbors(v), -1 for every other node (a hypercube
// computes it from the ids).
TEST(NeighborIndex, IsThePositionInTheListOrMinusOne) {
  for (const Instance& inst : small_instances()) {
    const Topology t = inst.make();
    SCOPED_TRACE(t.spec());
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto nb = t.neighbors(v);
      for (NodeId u = 0; u < t.size(); ++u) {
        const auto at = std::find(nb.begin(), nb.end(), u);
        ASSERT_EQ(t.neighbor_index(v, u), at == nb.end() ? -1 : static_cast<int>(at - nb.begin())) << v << ", " << u;
      }
    }
  }
}

TEST(Distance, MatchesBfsOnEveryFamily) {
  std::mt19937 rng(20240611);
  for (const Instance& inst : small_instances()) {
    const Topology t = inst.make();
    SCOPED_TRACE(t.spec());
    std::uniform_int_distribution<NodeId> pick(0, static_cast<NodeId>(t.size() - 1));
    // A few sources against every target, then random pairs.
    for (int round = 0; round < 4; ++round) {
      const NodeId s = pick(rng);
      const std::vector<int> bfs = t.bfs_distances(s);
      ASSERT_EQ(bfs, reference_bfs(t, s));
      for (NodeId v = 0; v < t.size(); ++v) ASSERT_EQ(t.distance(s, v), bfs[v]) << s << " -> " << v;
    }
    for (int pair = 0; pair < 200; ++pair) {
      const NodeId u = pick(rng);
      const NodeId v = pick(rng);
      ASSERT_EQ(t.distance(u, v), t.bfs_distances(u)[v]) << u << " -> " << v;
      ASSERT_EQ(t.distance(u, v), t.distance(v, u));
    }
  }
}

TEST(Distance, MatchesBfsOnLargerClosedFormInstances) {
  std::mt19937 rng(99);
  const Topology instances[] = {make_hypercube(16),
                                make_torus({64, 33, 5}),
                                make_mesh({100, 3, 40}),
                                make_ring(10001),
                                make_binary_tree(16),
                                make_bisectional(15),
                                make_odd(9),
                                make_odd(12)};
  for (const Topology& t : instances) {
    SCOPED_TRACE(t.spec());
    std::uniform_int_distribution<NodeId> pick(0, static_cast<NodeId>(t.size() - 1));
    for (int round = 0; round < 2; ++round) {
      const NodeId s = pick(rng);
      const std::vector<int> bfs = t.bfs_distances(s);
      for (int pair = 0; pair < 2000; ++pair) {
        const NodeId v = pick(rng);
        ASSERT_EQ(t.distance(s, v), bfs[v]) << s << " -> " << v;
      }
    }
  }
}

TEST(Diameter, EqualsLargestBfsEccentricity) {
  for (const Instance& inst : small_instances()) {
    const Topology t = inst.make();
    SCOPED_TRACE(t.spec());
    int eccentricity = 0;
    for (NodeId s = 0; s < t.size(); ++s) {
      const auto d = reference_bfs(t, s);
      eccentricity = std::max(eccentricity, *std::max_element(d.begin(), d.end()));
    }
    EXPECT_EQ(t.diameter(), eccentricity);
  }
}

TEST(Bipartite, AgreesWithBfsTwoColouring) {
  for (const Instance& inst : small_instances()) {
    const Topology t = inst.make();
    SCOPED_TRACE(t.spec());
    EXPECT_EQ(t.bipartite(), reference_bipartite(t));
  }
}

TEST(FileGraph, DistanceAndDiameterPastTheTableLimit) {
  // 5000 nodes (> 4096): distance() searches per call, diameter() from every node.
  std::mt19937 rng(5);
  const Topology t = Topology::from_adjacency("random:5000", random_graph(5000, 300, rng));
  std::uniform_int_distribution<NodeId> pick(0, 4999);
  const NodeId s = pick(rng);
  const std::vector<int> bfs = reference_bfs(t, s);
  for (int pair = 0; pair < 300; ++pair) {
    const NodeId v = pick(rng);
    ASSERT_EQ(t.distance(s, v), bfs[v]);
  }
  int eccentricity = 0;
  for (NodeId v = 0; v < t.size(); ++v) {
    const auto d = reference_bfs(t, v);
    eccentricity = std::max(eccentricity, *std::max_element(d.begin(), d.end()));
  }
  EXPECT_EQ(t.diameter(), eccentricity);
  EXPECT_EQ(t.bipartite(), reference_bipartite(t));

  // A ring as a file graph: known answers for the same code paths.
  std::vector<std::vector<NodeId>> ring(5001);
  for (NodeId v = 0; v < 5001; ++v) ring[v] = {(v + 1) % 5001, (v + 5000) % 5001};
  const Topology r = Topology::from_adjacency("ring-file", ring);
  EXPECT_EQ(r.distance(0, 2500), 2500);
  EXPECT_EQ(r.distance(10, 4990), 21);
  EXPECT_EQ(r.diameter(), 2500);
  EXPECT_FALSE(r.bipartite());
}

// diameter() of a file graph past the table limit (iFUB: a few searches from the nodes
// farthest from a central one) against the eccentricity of every node, on graphs where the
// central node is a poor guess: a random tree, a clique with a long tail, a broom (a path
// ending in a star), a path whose longest path runs through a side branch.
TEST(FileGraph, DiameterEqualsTheLargestEccentricityOnAwkwardGraphs) {
  std::mt19937 rng(11);
  std::vector<std::pair<std::string, std::vector<std::vector<NodeId>>>> graphs;
  graphs.emplace_back("random tree", random_graph(4500, 0, rng));
  graphs.emplace_back("sparse random", random_graph(4500, 40, rng));
  const auto edge = [](std::vector<std::vector<NodeId>>& adj, NodeId a, NodeId b) {
    adj[a].push_back(b);
    adj[b].push_back(a);
  };
  std::vector<std::vector<NodeId>> lollipop(4200);
  for (NodeId a = 0; a < 100; ++a)
    for (NodeId b = a + 1; b < 100; ++b) edge(lollipop, a, b);
  for (NodeId v = 100; v < 4200; ++v) edge(lollipop, v - 1, v);
  graphs.emplace_back("lollipop", lollipop);
  std::vector<std::vector<NodeId>> broom(4200);
  for (NodeId v = 1; v < 3000; ++v) edge(broom, v - 1, v);
  for (NodeId v = 3000; v < 4200; ++v) edge(broom, 2999, v);
  graphs.emplace_back("broom", broom);
  std::vector<std::vector<NodeId>> branch(4300);  // a path 0..3999 with a branch of 300 at node 3000
  for (NodeId v = 1; v < 4000; ++v) edge(branch, v - 1, v);
  edge(branch, 3000, 4000);
  for (NodeId v = 4001; v < 4300; ++v) edge(branch, v - 1, v);
  graphs.emplace_back("branch", branch);
  // Two where a double sweep (from node 0 to its farthest a, from a to its farthest) falls
  // short, so that the diameter needs iFUB's further searches: a path with 7 random chords,
  // a random tree with 400.
  const auto chords = [&](std::vector<std::vector<NodeId>> adj, int count, unsigned seed) {
    std::mt19937 pick(seed);
    std::set<std::pair<NodeId, NodeId>> known;
    for (NodeId a = 0; a < adj.size(); ++a)
      for (NodeId b : adj[a]) known.insert({std::min(a, b), std::max(a, b)});
    for (int i = 0; i < count; ++i) {
      const NodeId a = pick() % adj.size(), b = pick() % adj.size();
      if (a != b && known.insert({std::min(a, b), std::max(a, b)}).second) edge(adj, a, b);
    }
    return adj;
  };
  std::vector<std::vector<NodeId>> path(4200);
  for (NodeId v = 1; v < 4200; ++v) edge(path, v - 1, v);
  graphs.emplace_back("path with chords", chords(path, 7, 27));
  graphs.emplace_back("tree with chords", chords(random_graph(4200, 0, rng), 400, 8));
  for (const auto& [name, adj] : graphs) {
    SCOPED_TRACE(name);
    const Topology t = Topology::from_adjacency(name, adj);
    ASSERT_GT(t.size(), 4096u);
    int eccentricity = 0;
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto d = reference_bfs(t, v);
      eccentricity = std::max(eccentricity, *std::max_element(d.begin(), d.end()));
    }
    EXPECT_EQ(t.diameter(), eccentricity);
    if (name.ends_with("with chords")) {
      const auto from_0 = reference_bfs(t, 0);
      const auto a = static_cast<NodeId>(std::max_element(from_0.begin(), from_0.end()) - from_0.begin());
      const auto from_a = reference_bfs(t, a);
      EXPECT_LT(*std::max_element(from_a.begin(), from_a.end()), eccentricity);  // the sweep alone falls short
    }
  }
}

// A path of a million nodes: its diameter in a few searches (one per node took hours).
TEST(FileGraph, DiameterOfALongPath) {
  std::vector<std::vector<NodeId>> path(1'000'000);
  for (NodeId v = 1; v < path.size(); ++v) {
    path[v - 1].push_back(v);
    path[v].push_back(v - 1);
  }
  EXPECT_EQ(Topology::from_adjacency("path", path).diameter(), 999'999);
}

}  // namespace
}  // namespace dlbkit
