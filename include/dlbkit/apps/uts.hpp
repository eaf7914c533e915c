#pragma once
/// \file
/// UTS, the Unbalanced Tree Search benchmark (Olivier, Huan, Liu, Prins, Dinan, Sadayappan,
/// Tseng, "UTS: An Unbalanced Tree Search Benchmark", LCPC 2006): implicit trees whose
/// every node is a 20-byte SHA-1 digest, so any node's children can be generated anywhere
/// from the node alone, and the tree is the same on every machine and in every order of
/// the search. docs/apps/uts.md describes the trees, the random number generator and the
/// standard named trees with their published counts.
///
/// ```
/// const dlbkit::uts::TreeParams t1 = dlbkit::uts::named_tree("T1");
/// dlbkit::uts::TreeCounts counts = dlbkit::uts::count_sequential(t1);   // 4130071 nodes
///
/// // The same tree node by node, as a task-parallel runtime walks it:
/// dlbkit::uts::Node root = dlbkit::uts::root(t1);
/// for (int i = 0, n = dlbkit::uts::child_count(t1, root); i < n; ++i)
///   spawn(dlbkit::uts::child(t1, root, i));                            // a Node is a task's bytes
///
/// // A custom tree:
/// auto custom = dlbkit::uts::parse_tree("type=geometric,shape=fixed,b0=4,depth=10,seed=19");
/// ```
///
/// No global state: every function may be called from several threads at once.

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace dlbkit::uts {

/// How a node's number of children is drawn (UTS's -t option: 0 binomial, 1 geometric, 2 hybrid).
enum class TreeType { binomial, geometric, hybrid };
/// How a geometric tree's expected branching factor b_d varies with the depth d (UTS's -a).
enum class GeoShape { linear, expdec, cyclic, fixed };

/// The parameters of a tree; the defaults are those of the reference implementation.
/// The UTS option that sets each one is given in brackets.
struct TreeParams {
  TreeType type = TreeType::geometric;  ///< [-t]
  GeoShape shape = GeoShape::linear;    ///< [-a] geometric and hybrid
  double b0 = 4.0;                      ///< [-b] root branching factor (expected, for geometric)
  int gen_mx = 6;                       ///< [-d] geometric and hybrid: the depth parameter of the shape
  double q = 15.0 / 64.0;               ///< [-q] binomial and hybrid: probability that a node has m children
  int m = 4;                            ///< [-m] binomial and hybrid: children of a non-leaf node
  std::int32_t root_id = 0;             ///< [-r] seed of the root's digest, 0 to 2^31 - 1
  double shift = 0.5;                   ///< [-f] hybrid: geometric above depth shift * gen_mx, binomial below

  bool operator==(const TreeParams&) const = default;
};

/// A node: its SHA-1 digest and its depth (the root has height 0). Trivially copyable,
/// 24 bytes: a task's bytes as a runtime moves them.
struct Node {
  std::array<std::uint8_t, 20> state;
  std::int32_t height;
};
static_assert(std::is_trivially_copyable_v<Node> && sizeof(Node) == 24);

/// The most children of any node but a binomial tree's root (the reference's
/// MAXNUMCHILDREN): larger draws are truncated to it, as in the reference.
inline constexpr int kMaxChildren = 100;

/// The standard named trees of the UTS distribution (sample_trees.sh), in its order.
std::vector<std::string> tree_names();
/// A standard tree by name (case-sensitive, "T1", "T3L", ...); an unknown name is an
/// InputError naming it and listing the names.
TreeParams named_tree(std::string_view name);

/// Published statistics of a standard tree (sample_trees.sh). Zero where the distribution
/// does not publish the figure (the leaves and depth of T1XXL and T3XXL).
struct PublishedTree {
  std::string name;
  std::string description;  ///< "Geometric [fixed]", ...
  TreeParams params;
  std::uint64_t nodes = 0, leaves = 0;
  std::int32_t max_depth = 0;
};
/// Every standard tree with its published statistics, in tree_names() order.
const std::vector<PublishedTree>& published_trees();
/// The standard tree of that name (case-sensitive), or nullptr.
const PublishedTree* find_published(std::string_view name);

/// A standard tree's name, or a custom tree as comma-separated key=value pairs:
/// type (binomial|geometric|hybrid), shape (linear|expdec|cyclic|fixed), b0, depth, q, m,
/// seed, shift; keys left out take TreeParams' defaults. The result passes check().
/// A bad key or value is an InputError naming it and saying what is accepted.
TreeParams parse_tree(std::string_view text);
/// The key=value form parse_tree reads, with the keys that matter for the tree's type.
std::string to_string(const TreeParams& params);

/// Throws InputError unless the parameters define a finite tree this code can walk:
/// b0 in [0, 2^31 - 1]; depth >= 1 (geometric, hybrid); q in [0, 1] and m in [0, 100]
/// (binomial, hybrid) with m q < 1; seed in [0, 2^31 - 1]; shift in [0, 1] (hybrid);
/// b0 > 1 for a geometric tree of the expdec shape; m q >= 1 only with exactly a standard
/// tree's parameters (T3L). docs/apps/uts.md explains why these bounds keep every tree finite.
void check(const TreeParams& params);
/// Throws InputError when a tree is expected to have more than 1e13 nodes
/// (valid, but a search would not end in practice); called before a tree is searched.
void check_size(const TreeParams& params);

/// The root: SHA-1 of 16 zero bytes followed by root_id as 4 big-endian bytes (rng_init).
Node root(const TreeParams& params);
/// The number of children of `node`, drawn from the last 4 bytes of its digest.
int child_count(const TreeParams& params, const Node& node);
/// child_count for one tree with log(1 - p) of the geometric levels tabulated per depth
/// (the first kTabulatedDepths; deeper ones are computed): the same draws without a
/// logarithm per node. What count_sequential and the runtimes' `uts` app use. Immutable
/// once made, so threads may share one.
class ChildCounter {
public:
  static constexpr int kTabulatedDepths = 1024;
  explicit ChildCounter(const TreeParams& params);
  int operator()(const Node& node) const;

private:
  TreeParams params_;
  std::vector<double> log_1mp_;  // by depth; empty for a binomial tree
};

/// Child `index` of `parent`: SHA-1 of the parent's digest followed by index as 4
/// big-endian bytes (rng_spawn), one level deeper.
Node child(const TreeParams& params, const Node& parent, int index);

struct TreeCounts {
  std::uint64_t nodes = 0, leaves = 0;  ///< leaves: nodes with no children
  std::int32_t max_depth = 0;           ///< the largest height of a node
  bool operator==(const TreeCounts&) const = default;
};

/// Walks the whole tree depth-first with an explicit stack (no recursion, so trees
/// thousands of levels deep are fine) and counts it. Checks the parameters first.
TreeCounts count_sequential(const TreeParams& params);

}  // namespace dlbkit::uts
