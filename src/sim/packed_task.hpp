#pragma once
/// \file
/// A pending task as the simulator's task pool holds it: 16 bytes where a Task takes 24, so
/// that the tasks of a machine of 2^22 nodes with 100 each fit in memory.
///
/// The work takes 50 bits (1.1e15 ns, past the 1e6 s a task may take), the hop count the 14
/// bits left beside it, the id 32 bits (the engine refuses tasks past a run's 2^32nd) and
/// the tag its 32. A task that migrated 16 383 times or more (tasks juggled in zero time
/// until the engine stops the run) keeps its count in a table by id, so no count is cut.

#include <dlbkit/core/task.hpp>

#include <cassert>
#include <cstdint>
#include <unordered_map>

namespace dlbkit {

struct PackedTask {
  std::uint64_t work_hops;  // work | hops << kWorkBits
  std::uint32_t id;
  std::uint32_t tag;
};

class TaskPacker {
public:
  static constexpr unsigned kWorkBits = 50;
  static constexpr std::uint64_t kIds = std::uint64_t{1} << 32;
  static constexpr std::uint32_t kManyHops = (1u << (64 - kWorkBits)) - 1;  // and more: in the table

  PackedTask pack(const Task& t) {
    assert(t.id < kIds && t.work >= 0 && t.work < (SimTime{1} << kWorkBits));
    std::uint32_t hops = t.hops;
    if (hops >= kManyHops) [[unlikely]] {
      many_hops_[static_cast<std::uint32_t>(t.id)] = hops;
      hops = kManyHops;
    }
    return {static_cast<std::uint64_t>(t.work) | std::uint64_t{hops} << kWorkBits, static_cast<std::uint32_t>(t.id),
            t.tag};
  }

  Task unpack(const PackedTask& p) {
    auto hops = static_cast<std::uint32_t>(p.work_hops >> kWorkBits);
    if (hops == kManyHops) [[unlikely]] hops = many_hops_.extract(p.id).mapped();
    return {p.id, static_cast<SimTime>(p.work_hops & ((std::uint64_t{1} << kWorkBits) - 1)), hops, p.tag};
  }

private:
  std::unordered_map<std::uint32_t, std::uint32_t> many_hops_;  // by id, while the task is packed
};

}  // namespace dlbkit
