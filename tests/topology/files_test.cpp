// Edge-list files, from_adjacency, spec parsing, describe() and concurrent use of the lazy caches.

#include <dlbkit/error.hpp>
#include <dlbkit/topology/describe.hpp>
#include <dlbkit/topology/generators.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace dlbkit {
namespace {

const std::string kDir = std::string(DLBKIT_TEST_DATA) + "/topology/";

std::vector<NodeId> neighbours_of(const Topology& t, NodeId v) {
  const auto s = t.neighbors(v);
  return {s.begin(), s.end()};
}

TEST(LoadEdgeList, PetersenFileHasPetersenInvariants) {
  const Topology t = load_edge_list(kDir + "petersen.txt");
  EXPECT_EQ(t.kind(), TopologyKind::file);
  EXPECT_EQ(t.spec(), "file:" + kDir + "petersen.txt");
  EXPECT_EQ(t.size(), 10U);
  EXPECT_EQ(t.edge_count(), 15U);
  EXPECT_EQ(t.min_degree(), 3U);
  EXPECT_EQ(t.max_degree(), 3U);
  EXPECT_EQ(t.diameter(), 2);
  EXPECT_FALSE(t.bipartite());
  EXPECT_TRUE(t.extents().empty());
  EXPECT_FALSE(t.edge_dimension(0, 0).has_value());
  EXPECT_EQ(neighbours_of(t, 0), (std::vector<NodeId>{1, 4, 5}));
  EXPECT_EQ(neighbours_of(t, 9), (std::vector<NodeId>{4, 6, 7}));
  EXPECT_EQ(t.distance(0, 7), 2);
  EXPECT_EQ(t.distance(5, 7), 1);
  EXPECT_EQ(t.distance(3, 3), 0);
  // Same invariants as the generated Petersen graph.
  const Topology odd3 = parse_topology("odd:3");
  EXPECT_EQ(describe(t)["edges"], describe(odd3)["edges"]);
  EXPECT_EQ(describe(t)["diameter"], describe(odd3)["diameter"]);
}

TEST(LoadEdgeList, NeighbourListsAreSortedWhateverTheFileOrder) {
  const Topology t = parse_topology("file:" + kDir + "star.txt");
  EXPECT_EQ(neighbours_of(t, 0), (std::vector<NodeId>{1, 2, 3, 4}));
  EXPECT_EQ(neighbours_of(t, 3), (std::vector<NodeId>{0}));
  EXPECT_EQ(t.diameter(), 2);
  EXPECT_TRUE(t.bipartite());
  EXPECT_EQ(t.min_degree(), 1U);
  EXPECT_EQ(t.max_degree(), 4U);
}

TEST(LoadEdgeList, TheExampleInTheDocs) {
  const Topology t = load_edge_list(kDir + "ring6_chord.txt");
  EXPECT_EQ(t.size(), 6U);
  EXPECT_EQ(t.edge_count(), 7U);
  EXPECT_EQ(neighbours_of(t, 0), (std::vector<NodeId>{1, 3, 5}));
  EXPECT_EQ(neighbours_of(t, 3), (std::vector<NodeId>{0, 2, 4}));
  EXPECT_EQ(t.distance(1, 4), 3);
  EXPECT_EQ(t.distance(5, 3), 2);
  EXPECT_EQ(t.diameter(), 3);
  EXPECT_TRUE(t.bipartite());
}

TEST(LoadEdgeList, SingleNodeAndCrlfFiles) {
  const Topology one = load_edge_list(kDir + "single_node.txt");
  EXPECT_EQ(one.size(), 1U);
  EXPECT_EQ(one.edge_count(), 0U);
  EXPECT_EQ(one.diameter(), 0);
  EXPECT_EQ(one.distance(0, 0), 0);

  const Topology path = load_edge_list(kDir + "path_crlf.txt");
  EXPECT_EQ(path.size(), 3U);
  EXPECT_EQ(neighbours_of(path, 1), (std::vector<NodeId>{0, 2}));
  EXPECT_EQ(path.distance(0, 2), 2);
  EXPECT_EQ(path.diameter(), 2);
}

TEST(FromAdjacency, KeepsTheGivenOrder) {
  const Topology t = Topology::from_adjacency("square", {{3, 1}, {0, 2}, {3, 1}, {2, 0}});
  EXPECT_EQ(t.spec(), "square");
  EXPECT_EQ(t.kind(), TopologyKind::file);
  EXPECT_EQ(neighbours_of(t, 0), (std::vector<NodeId>{3, 1}));
  EXPECT_EQ(neighbours_of(t, 2), (std::vector<NodeId>{3, 1}));
  EXPECT_EQ(t.edge_count(), 4U);
  EXPECT_EQ(t.distance(0, 2), 2);
  EXPECT_TRUE(t.bipartite());
}

TEST(ParseTopology, CanonicalSpecs) {
  EXPECT_EQ(parse_topology("hypercube:05").spec(), "hypercube:5");
  EXPECT_EQ(parse_topology("torus:4x04").spec(), "torus:4x4");
  EXPECT_EQ(parse_topology("mesh:3x1x2").spec(), "mesh:3x1x2");
  EXPECT_EQ(parse_topology("ring:9").spec(), "ring:9");
  EXPECT_EQ(parse_topology("tree:binary:4").spec(), "tree:binary:4");
  EXPECT_EQ(parse_topology("complete:6").spec(), "complete:6");
  EXPECT_EQ(parse_topology("bisectional:9").spec(), "bisectional:9");
  EXPECT_EQ(parse_topology("odd:4").spec(), "odd:4");
  EXPECT_EQ(parse_topology("torus:4x4").kind(), TopologyKind::torus);
  EXPECT_EQ(parse_topology("tree:binary:4").kind(), TopologyKind::tree);
  EXPECT_EQ(parse_topology("odd:4").size(), 35U);
}

TEST(ParseTopology, EverySpecFormIsAFamilyTheParserKnows) {
  const auto& forms = topology_spec_forms();
  ASSERT_EQ(forms.size(), 9U);
  for (const std::string& line : forms) {
    const std::string family = line.substr(0, line.find(':'));
    SCOPED_TRACE(family);
    try {
      parse_topology(family + ":?");
      ADD_FAILURE() << "accepted " << family << ":?";
    } catch (const InputError& e) {
      EXPECT_EQ(std::string(e.what()).find("unknown topology family"), std::string::npos) << e.what();
    }
  }
}

TEST(Describe, JsonFields) {
  const nlohmann::json j = describe(parse_topology("torus:4x4"));
  EXPECT_EQ(j["spec"], "torus:4x4");
  EXPECT_EQ(j["kind"], "torus");
  EXPECT_EQ(j["nodes"], 16);
  EXPECT_EQ(j["edges"], 32);
  EXPECT_EQ(j["degree"]["min"], 4);
  EXPECT_EQ(j["degree"]["max"], 4);
  EXPECT_EQ(j["diameter"], 4);
  EXPECT_EQ(j["bipartite"], true);
  EXPECT_EQ(j["extents"], nlohmann::json::array({4, 4}));

  const nlohmann::json tree = describe(make_binary_tree(3));
  EXPECT_EQ(tree["kind"], "tree");
  EXPECT_EQ(tree["degree"]["min"], 1);
  EXPECT_EQ(tree["degree"]["max"], 3);
  EXPECT_FALSE(tree.contains("extents"));
}

TEST(Describe, TextTable) {
  const std::string text = describe_text(make_mesh({3, 4}));
  EXPECT_NE(text.find("spec       mesh:3x4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("nodes      12\n"), std::string::npos) << text;
  EXPECT_NE(text.find("edges      17\n"), std::string::npos) << text;
  EXPECT_NE(text.find("degree     2 to 4\n"), std::string::npos) << text;
  EXPECT_NE(text.find("diameter   5\n"), std::string::npos) << text;
  EXPECT_NE(text.find("bipartite  yes\n"), std::string::npos) << text;
  EXPECT_NE(text.find("extents    3x4\n"), std::string::npos) << text;
  EXPECT_EQ(describe_text(make_complete(3)).find("extents"), std::string::npos);
  EXPECT_NE(describe_text(make_odd(3)).find("degree     3\n"), std::string::npos);
}

TEST(LazyCaches, ConcurrentFirstUseAgreesAcrossThreadsAndCopies) {
  // A 40 x 40 grid as a file graph: distance is Manhattan, diameter 78, bipartite.
  constexpr NodeId side = 40;
  std::vector<std::vector<NodeId>> adj(side * side);
  for (NodeId y = 0; y < side; ++y)
    for (NodeId x = 0; x < side; ++x) {
      const NodeId v = x + side * y;
      if (x + 1 < side) adj[v].push_back(v + 1);
      if (x > 0) adj[v].push_back(v - 1);
      if (y + 1 < side) adj[v].push_back(v + side);
      if (y > 0) adj[v].push_back(v - side);
    }
  const Topology t = Topology::from_adjacency("grid-file", adj);
  std::vector<int> bad(4, 0);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([copy = t, i, &bad] {
      bad[i] += copy.diameter() != 78;
      bad[i] += !copy.bipartite();
      for (NodeId v = 0; v < side * side; v += 7) {
        const int expected = static_cast<int>(v % side + v / side);
        bad[i] += copy.distance(0, v) != expected;
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(bad, std::vector<int>(4, 0));
}

}  // namespace
}  // namespace dlbkit
