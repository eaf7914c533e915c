// UTS trees: the published counts of the standard trees (sample_trees.sh of the UTS
// distribution) are the correctness check of the generator, bit for bit.

#include <dlbkit/apps/uts.hpp>
#include <dlbkit/error.hpp>

#include <gtest/gtest.h>

#include <string>

using namespace dlbkit;
using namespace dlbkit::uts;

namespace {

void expect_published(const std::string& name) {
  SCOPED_TRACE(name);
  const PublishedTree* published = nullptr;
  for (const PublishedTree& t : published_trees())
    if (t.name == name) published = &t;
  ASSERT_NE(published, nullptr);
  const TreeCounts counts = count_sequential(named_tree(name));
  EXPECT_EQ(counts.nodes, published->nodes);
  EXPECT_EQ(counts.leaves, published->leaves);
  EXPECT_EQ(counts.max_depth, published->max_depth);
}

}  // namespace

// The standard trees under 5 M nodes: one of each type and geometric shape but expdec
// (sample_trees.sh has no expdec tree). T1L and up are checked by bench/uts_bench.cpp.
TEST(Uts, T1GeometricFixedMatchesPublishedCounts) { expect_published("T1"); }
TEST(Uts, T2GeometricCyclicMatchesPublishedCounts) { expect_published("T2"); }
TEST(Uts, T3BinomialMatchesPublishedCounts) { expect_published("T3"); }
TEST(Uts, T4HybridMatchesPublishedCounts) { expect_published("T4"); }
TEST(Uts, T5GeometricLinearMatchesPublishedCounts) { expect_published("T5"); }

TEST(Uts, T1ByItsPublishedCountsLiterally) {
  // sample_trees.sh: "(T1) Geometric [fixed] - Tree size = 4130071, tree depth = 10, num leaves = 3305118".
  EXPECT_EQ(named_tree("T1"), parse_tree("type=geometric,shape=fixed,b0=4,depth=10,seed=19"));
  const TreeCounts counts = count_sequential(named_tree("T1"));
  EXPECT_EQ(counts, (TreeCounts{4130071, 3305118, 10}));
}
