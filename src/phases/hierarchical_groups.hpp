#pragma once
// The steps of the hierarchical strategy (hierarchical.cpp) on a group's nodes as its leader
// holds them: the transport between groups from their totals, a giving group's choice of
// objects for a flow, a receiving group's placement of them, and the balancing inside a group.
// The phase strategy runs them for every group in one place; its rank protocol
// (hierarchical_protocol.cpp) runs each group's at its leader, with the objects travelling
// between leaders as ObjectRecords.

#include "rank_holdings.hpp"

#include <algorithm>
#include <cstddef>
#include <span>
#include <vector>

namespace dlbkit::detail {

/// A node of a group as its leader holds it: its objects, their load and, under a memory
/// bound (`bounded`), its memory; its speed, so that its time is load / speed.
struct GroupMember {
  NodeId rank = 0;
  bool bounded = false;
  double load = 0;
  double speed = 1;
  RankMemory memory{0};
  std::vector<ObjectRecord> objects;

  void add(const ObjectRecord& o) {
    objects.push_back(o);
    load += o.load;
    if (bounded) memory.add(o);
  }
  void remove(std::size_t k) {
    load -= objects[k].load;
    if (bounded) memory.remove(objects[k]);
    objects.erase(objects.begin() + static_cast<std::ptrdiff_t>(k));
  }
  /// Its time with `added` more load.
  double time(double added = 0) const { return (load + added) / speed; }
  /// Whether `o` fits here within `bound`.
  bool fits(const ObjectRecord& o, double bound) const { return !bounded || memory.with(o) <= bound; }
};

/// The groups: `size` consecutive ranks each (the last may be smaller), led by their first.
struct Groups {
  std::size_t nodes = 0, size = 1;
  /// Every node's speed, known alike (RankSetup::speeds); empty: all 1.
  std::span<const double> speeds;
  double speed(NodeId v) const { return speeds.empty() ? 1.0 : speeds[v]; }
  std::size_t count() const { return (nodes + size - 1) / size; }
  NodeId leader(std::size_t g) const { return static_cast<NodeId>(g * size); }
  std::size_t members(std::size_t g) const { return std::min(nodes, (g + 1) * size) - g * size; }
  std::size_t of(NodeId rank) const { return rank / size; }
};

/// A flow of load from one group to another.
struct GroupFlow {
  std::size_t from = 0, to = 0;
  double amount = 0;
};

/// The transport between groups from their totals, the same at every leader: the groups above
/// (1 + tolerance) x their share (the total load in proportion to their speed, summed over
/// their nodes: on equal nodes the mean per node times their nodes) give their excess to the
/// groups below their share, in group order (the north-west corner rule).
std::vector<GroupFlow> group_transport(const Groups& groups, const std::vector<double>& totals, double tolerance);

/// The giving group's objects for each of its flows, in order: from its busiest node first,
/// each its heaviest movable object not above the flow still owed, else its lightest where that
/// lands nearer the flow than the gap. They leave `members`.
std::vector<std::vector<ObjectRecord>> take_for_flows(std::vector<GroupMember>& members,
                                                      const std::vector<double>& flows);

/// The receiving group places `objects`, in order, each on its node with room within `bound`
/// where it ends first, least time with it (on equal nodes the least loaded); the index in
/// `members` of each one's node, or none (-1: no room anywhere).
std::vector<std::ptrdiff_t> place(std::vector<GroupMember>& members, const std::vector<ObjectRecord>& objects,
                                  double bound);

/// Inside the group, on times (load / speed) as the phase strategies refine and greedy weigh
/// them: refine (the nodes above (1 + tolerance) x the group's load over its speed give their
/// heaviest objects to the node of least time, Charm++'s RefineLB) or greedy (every movable
/// object dealt again, heaviest first, to the node with room where it ends first, Charm++'s
/// GreedyLB). On equal nodes, times are loads. The objects a node could not take within the
/// bound stay and are returned.
std::vector<ObjectRecord> balance_inside(std::vector<GroupMember>& members, bool greedy, double tolerance,
                                         double bound);

}  // namespace dlbkit::detail
