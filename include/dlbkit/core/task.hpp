#pragma once
/// \file
/// A unit of work as the simulator sees it. Strategies never see tasks, only how many a node
/// holds (WLR93 Sec. II: the load is the number of tasks pending execution); task selection
/// is the engine's job.

#include <dlbkit/core/time.hpp>

#include <cstdint>

namespace dlbkit {

struct Task {
  std::uint64_t id = 0;     ///< unique within one run: conservation is checked on it
  SimTime work = 0;         ///< processor time the task needs to execute
  std::uint32_t hops = 0;   ///< times the task has migrated (GM's hop counter, WLR93 Sec. V)
  std::uint32_t tag = 0;    ///< free for the workload (e.g. a subtree index)
};

}  // namespace dlbkit
