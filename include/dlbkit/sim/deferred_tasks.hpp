#pragma once
/// \file
/// A workload's tasks at time 0, drawn when the simulator takes one rather than all at the
/// start, so that the tasks of a large machine take memory only once they run or travel
/// (Workload::defer_initial_tasks()).
///
/// Node v's list is the tasks initial_tasks() would give v, in that order, each with the id
/// the engine would give it (ids from 0 in the order initial_tasks() gives the tasks). The
/// engine takes from the front of a list the task to run next and from its back the tasks
/// to migrate, so the same run comes out as with the tasks drawn at the start.

#include <dlbkit/core/task.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstddef>
#include <cstdint>

namespace dlbkit {

class DeferredTasks {
public:
  virtual ~DeferredTasks() = default;
  /// The length of node v's list.
  virtual std::uint32_t count(NodeId v) const = 0;
  /// The first of node v's tasks not yet taken.
  virtual Task take_front(NodeId v) = 0;
  /// The last of node v's tasks not yet taken, of which `left` (at least 1) remain.
  virtual Task take_back(NodeId v, std::uint32_t left) = 0;
  /// From now on tasks are taken from the nodes [first, last) only (a process of a parallel
  /// simulation, which holds those nodes): the others' lists may give their memory back.
  /// count() still answers for every node. Does nothing unless overridden.
  virtual void keep_only(NodeId /*first*/, NodeId /*last*/) {}

  /// Where node v's list is kept, when the lists are one array: at address origin + v x
  /// stride (an address the simulator only prefetches, never reads). Valid until keep_only().
  struct Place {
    std::uintptr_t origin = 0;
    std::size_t stride = 0;  // 0: not one array
  };
  virtual Place place() const { return {}; }
};

}  // namespace dlbkit
