#pragma once
/// \file
/// Each node's memory under a mapping, kept up to date object move by object move, so that
/// a strategy can ask whether an object fits on a node before it moves it
/// (PhaseContext::move refuses a move that would take a node over the bound).
///
///     memory(node) = node_working_bytes + sum of the shared blocks any of its objects uses
///                  + sum of its objects' footprints + the largest working bytes among them
///
/// (phase.hpp, ObjectMemory: vt's user_defined fields as LBAF reads them).

#include <dlbkit/phases/phase.hpp>

#include <cstdint>
#include <map>
#include <span>
#include <vector>

namespace dlbkit {

class NodeMemory {
public:
  /// An object mapped to kNowhere is not counted anywhere (yet): see place().
  static constexpr NodeId kNowhere = ~NodeId{0};

  /// The memory of every node of `phase` under `mapping`; all zero when the phase has none.
  NodeMemory(const Phase& phase, const std::vector<NodeId>& mapping);

  double of(NodeId node) const;
  /// The memory of `node`'s group: the `group` consecutive nodes it is among, from a multiple of
  /// `group` (the last group holds the rest). A group of 1 is the node.
  double of_group(NodeId node, std::size_t group) const;
  double max() const;
  /// The node's memory if `object` joined it (objects already there: unchanged).
  double with(ObjectIndex object, NodeId node) const { return with(std::span(&object, 1), node); }
  /// The node's memory if all of `objects` (none of them there yet) joined it.
  double with(std::span<const ObjectIndex> objects, NodeId node) const;
  /// The node's memory if all of `objects` (each on it, each once) left it.
  double without(std::span<const ObjectIndex> objects, NodeId node) const;
  /// Moves `object` from its node to `to` in the accounting (`from` kNowhere: places it).
  void move(ObjectIndex object, NodeId from, NodeId to);

private:
  struct Node {
    double own = 0;
    double footprints = 0;
    double shared = 0;
    std::map<std::int32_t, std::uint32_t> blocks;  // block -> objects using it here
    std::map<double, std::uint32_t> working;       // working bytes -> objects with them here
  };
  double total(const Node& node) const;

  const Phase* phase_;
  std::vector<Node> nodes_;
};

}  // namespace dlbkit
