// UTS trees: the published counts of the standard trees (sample_trees.sh of the UTS
// distribution) are the correctness check of the generator, bit for bit. Besides: the
// digests against an independent SHA-1 (Python's hashlib), the per-node functions against
// the whole-tree count, the truncation rule, custom trees, bad input and the CLI.

#include "../support/command.hpp"

#include <dlbkit/apps/uts.hpp>
#include <dlbkit/error.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#ifndef DLBKIT_CLI
#error "DLBKIT_CLI must hold the path of the dlbkit binary"
#endif

using namespace dlbkit;
using namespace dlbkit::uts;

namespace {

const PublishedTree& published(const std::string& name) {
  const auto& trees = published_trees();
  const auto it = std::find_if(trees.begin(), trees.end(), [&](const PublishedTree& t) { return t.name == name; });
  if (it == trees.end()) throw std::logic_error("no published tree " + name);
  return *it;
}

void expect_published(const std::string& name) {
  SCOPED_TRACE(name);
  const PublishedTree& tree = published(name);
  const TreeCounts counts = count_sequential(named_tree(name));
  EXPECT_EQ(counts.nodes, tree.nodes);
  EXPECT_EQ(counts.leaves, tree.leaves);
  EXPECT_EQ(counts.max_depth, tree.max_depth);
}

std::string hex(const Node& node) {
  std::string out;
  for (std::uint8_t b : node.state) out += "0123456789abcdef"[b >> 4], out += "0123456789abcdef"[b & 15];
  return out;
}

/// Walks the tree through the per-node functions only, as a task-parallel runtime does.
TreeCounts walk_by_node_api(const TreeParams& t) {
  TreeCounts counts;
  std::vector<Node> stack{root(t)};
  while (!stack.empty()) {
    const Node node = stack.back();
    stack.pop_back();
    ++counts.nodes;
    counts.max_depth = std::max(counts.max_depth, node.height);
    const int n = child_count(t, node);
    if (n == 0) ++counts.leaves;
    for (int i = 0; i < n; ++i) stack.push_back(child(t, node, i));
  }
  return counts;
}

std::string error_of(const std::string& text) {
  try {
    parse_tree(text);
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError for '" << text << "'";
  return {};
}

}  // namespace

// The standard trees under 5 M nodes: one of each type, and every geometric shape that
// sample_trees.sh uses (it has no expdec tree). T1L and T3L are checked by bench/uts_bench.cpp.
TEST(Uts, T1GeometricFixedMatchesPublishedCounts) { expect_published("T1"); }
TEST(Uts, T2GeometricCyclicMatchesPublishedCounts) { expect_published("T2"); }
TEST(Uts, T3BinomialMatchesPublishedCounts) { expect_published("T3"); }
TEST(Uts, T4HybridMatchesPublishedCounts) { expect_published("T4"); }
TEST(Uts, T5GeometricLinearMatchesPublishedCounts) { expect_published("T5"); }

TEST(Uts, NamedTreesAreSampleTreesSh) {
  // "(T1) Geometric [fixed] ------- Tree size = 4130071, tree depth = 10, num leaves = 3305118"
  // T1="-t 1 -a 3 -d 10 -b 4 -r 19"; T3="-t 0 -b 2000 -q 0.124875 -m 8 -r 42".
  EXPECT_EQ(named_tree("T1"), parse_tree("type=geometric,shape=fixed,b0=4,depth=10,seed=19"));
  EXPECT_EQ(named_tree("T3"), parse_tree("type=binomial,b0=2000,q=0.124875,m=8,seed=42"));
  const PublishedTree& t1 = published("T1");
  EXPECT_EQ((TreeCounts{t1.nodes, t1.leaves, t1.max_depth}), (TreeCounts{4130071, 3305118, 10}));
  const std::vector<std::string> names = tree_names();
  EXPECT_EQ(names.size(), published_trees().size());
  for (const char* name : {"T1", "T2", "T3", "T4", "T5", "T1L", "T2L", "T3L", "T1XL", "T1XXL", "T3XXL"})
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
}

TEST(Uts, DigestsAreSha1OfTheReferenceLayout) {
  // Expected digests from Python: hashlib.sha1(bytes(16) + (19).to_bytes(4, 'big')) for the
  // root of T1, and hashlib.sha1(root + (3).to_bytes(4, 'big')) for its child 3.
  const TreeParams t1 = named_tree("T1");
  const Node r = root(t1);
  EXPECT_EQ(r.height, 0);
  EXPECT_EQ(hex(r), "c6988ab70cc9559ae4d6cba254e29a845a85f86b");
  const Node c = child(t1, r, 3);
  EXPECT_EQ(c.height, 1);
  EXPECT_EQ(hex(c), "4e62c7789552ef31fa428ed5d9023d3f3ec368ef");
  // The root's draw: its last 4 bytes & 0x7fffffff = 1518729323, u = 0.70721...; with
  // p = 1 / (1 + 4), floor(log(1 - u) / log(1 - p)) = 5.
  EXPECT_EQ(child_count(t1, r), 5);
}

TEST(Uts, PerNodeFunctionsGiveTheSequentialCounts) {
  // Small trees of every type and shape (expdec included): a runtime that spawns
  // child(t, node, i) as tasks sees the same tree as count_sequential.
  for (const char* spec :
       {"type=geometric,shape=fixed,b0=4,depth=7,seed=19", "type=geometric,shape=linear,b0=4,depth=12,seed=34",
        "type=geometric,shape=expdec,b0=4,depth=10,seed=1", "type=geometric,shape=cyclic,b0=5,depth=6,seed=1",
        "type=binomial,b0=200,q=0.124875,m=8,seed=1", "type=hybrid,shape=linear,b0=4,depth=10,q=0.2,m=4,seed=1"}) {
    SCOPED_TRACE(spec);
    const TreeParams t = parse_tree(spec);
    const TreeCounts counts = count_sequential(t);
    EXPECT_GT(counts.nodes, 1000u);  // not a trivial tree
    EXPECT_EQ(walk_by_node_api(t), counts);
  }
}

TEST(Uts, TheTabulatedChildCountIsChildCountAtEveryDepth) {
  // ChildCounter (count_sequential's and the `uts` app's) against child_count, which
  // computes log(1 - p) per node: at every depth of the table and beyond it, for every
  // shape, with many digests per depth.
  for (const char* spec :
       {"type=geometric,shape=fixed,b0=4,depth=1500,seed=19", "type=geometric,shape=linear,b0=4,depth=1500,seed=34",
        "type=geometric,shape=expdec,b0=4,depth=10,seed=1", "type=geometric,shape=cyclic,b0=5,depth=300,seed=1",
        "type=binomial,b0=200,q=0.124875,m=8,seed=1", "type=hybrid,shape=linear,b0=4,depth=1500,q=0.2,m=4,seed=1"}) {
    SCOPED_TRACE(spec);
    const TreeParams t = parse_tree(spec);
    const ChildCounter counter(t);
    Node node = root(t);
    for (int height = 0; height < ChildCounter::kTabulatedDepths + 200; ++height) {
      for (int i = 0; i < 8; ++i) {
        Node n = child(t, node, i);
        n.height = height;
        ASSERT_EQ(counter(n), child_count(t, n)) << "height " << height;
      }
      node = child(t, node, 0);
    }
  }
}

TEST(Uts, BinomialRootHasFloorB0Children) {
  const TreeParams t = parse_tree("type=binomial,b0=2000.7,q=0.1,m=5,seed=3");
  EXPECT_EQ(child_count(t, root(t)), 2000);
  // Below the root a node has m children or none.
  const Node r = root(t);
  int with_children = 0;
  for (int i = 0; i < 2000; ++i) {
    const int n = child_count(t, child(t, r, i));
    EXPECT_TRUE(n == 0 || n == 5) << n;
    with_children += n > 0;
  }
  EXPECT_GT(with_children, 150);  // q = 0.1 of 2000: 200 expected
  EXPECT_LT(with_children, 250);
}

TEST(Uts, GeometricDrawsAreTruncatedAtMaxChildren) {
  // b0 = 1e6: a root draw is >= 100 with probability (1 - 1e-6)^100, all but surely.
  const TreeParams t = parse_tree("type=geometric,shape=fixed,b0=1000000,depth=1,seed=7");
  EXPECT_EQ(child_count(t, root(t)), kMaxChildren);
  EXPECT_EQ(count_sequential(t), (TreeCounts{kMaxChildren + 1u, kMaxChildren + 0u, 1}));
}

TEST(Uts, SpecsRoundTripAndStartFromANamedTree) {
  for (const PublishedTree& t : published_trees()) EXPECT_EQ(parse_tree(to_string(t.params)), t.params) << t.name;
  TreeParams expected = named_tree("T1L");
  expected.root_id = 3;
  EXPECT_EQ(parse_tree("T1L,seed=3"), expected);
  EXPECT_EQ(to_string(named_tree("T4")), "type=hybrid,shape=linear,b0=6,depth=16,q=0.234375,m=4,shift=0.5,seed=1");
}

TEST(Uts, AValidTreeTooLargeToSearchIsRefusedWithItsEstimate) {
  // T1 at depth 64 has about 4^64 nodes; it was accepted and never ended.
  const auto size_error = [](const char* spec) {
    try {
      check_size(parse_tree(spec));
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(size_error("T1,depth=64").find("expected to have more than 1e+13 nodes"), std::string::npos)
      << size_error("T1,depth=64");
  EXPECT_THROW(count_sequential(parse_tree("T1,depth=64")), InputError);
  EXPECT_NE(size_error("type=geometric,shape=expdec,b0=4,depth=1000000").find("1e+13"), std::string::npos);
  // Binomial and hybrid: floor(b0) or the last geometric level's nodes, times 1 / (1 - m q).
  EXPECT_NE(size_error("type=binomial,b0=2000,m=2,q=0.49999999999").find("1e+13"), std::string::npos);
  EXPECT_EQ(size_error("type=binomial,b0=2000,m=2,q=0.4999"), "no error");
  EXPECT_NE(size_error("T4,depth=60,q=0.2499").find("1e+13"), std::string::npos);  // 6^30-ish geometric top
  EXPECT_EQ(size_error("T4,q=0.2499"), "no error");
  for (const PublishedTree& t : published_trees()) EXPECT_NO_THROW(check_size(t.params)) << t.name;
}

TEST(Uts, BadInputNamesTheValue) {
  EXPECT_NE(error_of("T9").find("'T9'"), std::string::npos);
  EXPECT_NE(error_of("T9").find("T1, T2, T3"), std::string::npos);
  EXPECT_NE(error_of("b0=-1").find("b0=-1"), std::string::npos);
  EXPECT_NE(error_of("type=binomial,q=1.5").find("q=1.5"), std::string::npos);
  EXPECT_NE(error_of("type=binomial,q=-0.1").find("q=-0.1"), std::string::npos);
  EXPECT_NE(error_of("type=binomial,q=0.5,m=2").find("m q = 1 >= 1"), std::string::npos);
  EXPECT_NE(error_of("T3L,seed=3").find("m q = 1.00007 >= 1"), std::string::npos);
  EXPECT_NO_THROW(check(named_tree("T3L")));  // finite: its published count says so
  EXPECT_NE(error_of("type=hybrid,q=0.3,m=4").find("m q = 1.2 >= 1"), std::string::npos);
  EXPECT_NE(error_of("type=geometric,shape=expdec,b0=1").find("b0=1"), std::string::npos);
  EXPECT_NE(error_of("depth=0").find("depth=0"), std::string::npos);
  EXPECT_NE(error_of("seed=2147483648").find("seed=2147483648"), std::string::npos);
  EXPECT_NE(error_of("type=hybrid,shift=1.5").find("shift=1.5"), std::string::npos);
  EXPECT_NE(error_of("type=tree").find("type=tree"), std::string::npos);
  EXPECT_NE(error_of("shape=square").find("shape=square"), std::string::npos);
  EXPECT_NE(error_of("m=101,type=binomial,q=0.001").find("m=101"), std::string::npos);
  EXPECT_NE(error_of("colour=red").find("'colour'"), std::string::npos);
  EXPECT_NE(error_of("T1,seed=1,seed=2").find("'seed' is given twice"), std::string::npos);
  EXPECT_NE(error_of("T1,").find("empty item"), std::string::npos);
  EXPECT_NE(error_of("").find("empty"), std::string::npos);
  EXPECT_THROW(named_tree("t1"), InputError);  // names are case-sensitive
  // check() guards parameters built in code too, and count_sequential calls it.
  TreeParams infinite = named_tree("T3");
  infinite.q = 0.125;  // m q = 1: a critical Galton-Watson tree, of infinite expected size
  EXPECT_THROW(check(infinite), InputError);
  EXPECT_THROW(count_sequential(infinite), InputError);
}

// ---------------------------------------------------------------------------------------
// The command: `dlbkit uts`.

namespace {

using Output = dlbkit::test::Outcome;

// `dlbkit uts args...`
Output run_cli(std::vector<std::string> args) {
  args.insert(args.begin(), "uts");
  return dlbkit::test::run_cli(args);
}

}  // namespace

TEST(UtsCli, ReportsWhatTheLibraryCounts) {
  const std::string spec = "T1,depth=7";
  const Output o = run_cli({"--tree", spec, "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  const TreeCounts counts = count_sequential(parse_tree(spec));
  EXPECT_EQ(j["nodes"], counts.nodes);
  EXPECT_EQ(j["leaves"], counts.leaves);
  EXPECT_EQ(j["max_depth"], counts.max_depth);
  EXPECT_EQ(j["params"], "type=geometric,shape=fixed,b0=4,depth=7,seed=19");
  EXPECT_GT(j["nodes_per_second"].get<double>(), 0);

  const Output text = run_cli({"--tree", spec});
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("nodes        " + std::to_string(counts.nodes)), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("max depth    7"), std::string::npos) << text.out;
}

TEST(UtsCli, ListsTheStandardTrees) {
  const Output o = run_cli({"--list", "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const nlohmann::json j = nlohmann::json::parse(o.out);
  ASSERT_EQ(j.size(), published_trees().size());
  EXPECT_EQ(j[0]["name"], "T1");
  EXPECT_EQ(j[0]["nodes"], 4130071);
  EXPECT_EQ(j[0]["params"], "type=geometric,shape=fixed,b0=4,depth=10,seed=19");
}

TEST(UtsCli, BadInputIsOneLineAndStatus2) {
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"--tree", "T9"}, {"--tree", "type=binomial,q=0.5,m=2"}, {"--tree", "b0=x"}, {}}) {
    const Output o = run_cli(args);
    EXPECT_EQ(o.status, 2);
    EXPECT_TRUE(o.out.empty()) << o.out;
    EXPECT_EQ(o.err.rfind("dlbkit: error: ", 0), 0u) << o.err;
    EXPECT_EQ(std::count(o.err.begin(), o.err.end(), '\n'), 1) << o.err;
  }
}
