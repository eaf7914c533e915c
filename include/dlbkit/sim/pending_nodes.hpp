#pragma once
/// \file
/// The search nodes of a lazily generated tree that are tasks now, for a workload: a task's
/// tag names its node's slot, and a slot is reused once its task has completed. Memory
/// follows the pending tasks, not the tree. In a run of partitions (Workload::split) each
/// partition keeps its tasks' nodes in a table of its own, and a node travels as bytes with a
/// task that crosses to another partition.
///
/// ```
/// dlbkit::PendingNodes<uts::Node> pending;
/// sink.add(node, work, pending.put(node, root));    // in initial_tasks
/// uts::Node n = pending.take(node, done.tag);       // in on_completed
/// ```

#include <dlbkit/error.hpp>
#include <dlbkit/sim/workload.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <type_traits>
#include <vector>

namespace dlbkit {

template <class Node>
class PendingNodes {
  static_assert(std::is_trivially_copyable_v<Node>, "a pending node travels as bytes");
  static_assert(std::has_unique_object_representations_v<Node>, "a pending node's bytes are all defined: no padding");

public:
  /// Partition p holds the simulated nodes [bounds[p], bounds[p + 1]); each gets a table of
  /// its own, empty. Without it, one table.
  void split(std::span<const NodeId> bounds) {
    if (bounds.size() < 2) throw std::logic_error("PendingNodes::split: fewer than one partition");
    bounds_.assign(bounds.begin(), bounds.end());
    tables_.assign(bounds.size() - 1, {});
  }
  /// Stores `node` for a task at simulated node `at`; returns the task's tag.
  std::uint32_t put(NodeId at, const Node& node) { return tables_[part_of(at)].put(node); }
  /// The node of the task tagged `tag` at `at`, whose slot becomes free.
  Node take(NodeId at, std::uint32_t tag) { return tables_[part_of(at)].take(tag); }

  /// A task of partition `part` leaving it: its node's bytes into `out` (sizeof(Node)), its slot freed.
  void export_node(unsigned part, std::uint32_t tag, std::span<std::byte> out) {
    const Node node = tables_.at(part).take(tag);
    std::memcpy(out.data(), &node, sizeof node);
  }
  /// A task arriving in partition `part` with a node's bytes: its tag there.
  std::uint32_t import_node(unsigned part, std::span<const std::byte> in) {
    Node node;
    std::memcpy(&node, in.data(), sizeof node);
    return tables_.at(part).put(node);
  }

private:
  class Table {
  public:
    std::uint32_t put(const Node& node) {
      if (!free_.empty()) {
        const std::uint32_t tag = free_.back();
        free_.pop_back();
        slots_[tag] = node;
        return tag;
      }
      if (slots_.size() >= 0xFFFFFFFFu)
        throw InputError("a tree workload holds more than 2^32 - 1 pending tasks; accepted: a smaller tree");
      slots_.push_back(node);
      return static_cast<std::uint32_t>(slots_.size() - 1);
    }
    Node take(std::uint32_t tag) {
      free_.push_back(tag);
      return slots_[tag];
    }

  private:
    std::vector<Node> slots_;
    std::vector<std::uint32_t> free_;
  };

  std::size_t part_of(NodeId v) const {
    return tables_.size() == 1 ? 0 : partition_of(bounds_, v);
  }

  std::vector<NodeId> bounds_;
  std::vector<Table> tables_ = std::vector<Table>(1);
};

}  // namespace dlbkit
