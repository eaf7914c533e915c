#pragma once
// The protocols that reach every node: a central phase strategy's gather and scatter (every
// node sends its objects' loads to the root, node 0, in one message, through group leaders on
// large machines (gather_tree.hpp); the root decides and sends each node one message with its
// decisions the same way back), and the reduction of a few numbers that a
// distributed one needs to know the whole (the imbalance), along a binomial tree.

#include <dlbkit/phases/gather_tree.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

namespace dlbkit::detail {

inline void gather_to_root(PhaseContext& ctx) {
  const GatherTree tree(ctx.nodes());
  for (NodeId v = 1; v < ctx.nodes(); ++v)
    if (tree.leader(v) != v) ctx.protocol().send(v, tree.leader(v));
  ctx.protocol().end_round();
  if (tree.flat()) return;
  for (NodeId v = static_cast<NodeId>(tree.group); v < ctx.nodes(); v += static_cast<NodeId>(tree.group))
    ctx.protocol().send(v, 0);
  ctx.protocol().end_round();
}

inline void scatter_from_root(PhaseContext& ctx) {
  const GatherTree tree(ctx.nodes());
  if (!tree.flat()) {
    for (NodeId v = static_cast<NodeId>(tree.group); v < ctx.nodes(); v += static_cast<NodeId>(tree.group))
      ctx.protocol().send(0, v);
    ctx.protocol().end_round();
  }
  for (NodeId v = 1; v < ctx.nodes(); ++v)
    if (tree.leader(v) != v) ctx.protocol().send(tree.leader(v), v);
  ctx.protocol().end_round();
}

/// A few numbers (a sum, a maximum) reduced to node 0 along a binomial tree over the node ids,
/// as MPI libraries do, and the result sent back down it: 2 ceil(log2 n) rounds in which a node
/// handles at most one message, 2 (n - 1) messages routed over the network.
inline void all_reduce(PhaseContext& ctx) {
  const std::size_t n = ctx.nodes();
  std::size_t top = 1;
  for (; top < n; top <<= 1) {
    for (std::size_t v = top; v < n; v += 2 * top) ctx.protocol().send(static_cast<NodeId>(v), static_cast<NodeId>(v - top));
    ctx.protocol().end_round();
  }
  for (std::size_t s = top >> 1; s >= 1; s >>= 1) {
    for (std::size_t v = s; v < n; v += 2 * s) ctx.protocol().send(static_cast<NodeId>(v - s), static_cast<NodeId>(v));
    ctx.protocol().end_round();
  }
}

}  // namespace dlbkit::detail
