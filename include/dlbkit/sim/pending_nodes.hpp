#pragma once
/// \file
/// The search nodes of a lazily generated tree that are tasks now, for a workload: a task's
/// tag names its node's slot, and a slot is reused once its task has completed. Memory
/// follows the pending tasks, not the tree.
///
/// ```
/// dlbkit::PendingNodes<uts::Node> pending;
/// sink.add(node, work, pending.put(root));          // in initial_tasks
/// uts::Node n = pending.take(done.tag);             // in on_completed
/// ```

#include <dlbkit/error.hpp>

#include <cstdint>
#include <vector>

namespace dlbkit {

template <class Node>
class PendingNodes {
public:
  /// Stores `node`; returns the tag of its task.
  std::uint32_t put(const Node& node) {
    if (!free_.empty()) {
      const std::uint32_t tag = free_.back();
      free_.pop_back();
      slots_[tag] = node;
      return tag;
    }
    if (slots_.size() >= 0xFFFFFFFFu) throw InputError("a tree workload holds more than 2^32 - 1 pending tasks; accepted: a smaller tree");
    slots_.push_back(node);
    return static_cast<std::uint32_t>(slots_.size() - 1);
  }
  /// The node of the task tagged `tag`, whose slot becomes free.
  Node take(std::uint32_t tag) {
    free_.push_back(tag);
    return slots_[tag];
  }
  std::size_t capacity() const { return slots_.size(); }

private:
  std::vector<Node> slots_;
  std::vector<std::uint32_t> free_;
};

}  // namespace dlbkit
