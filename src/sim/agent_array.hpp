#pragma once
/// \file
/// The simulator's agents, one per node. A strategy that can be built in place
/// (StrategyInfo::in_place) gets one array, on huge pages from 2 MiB on, agent v at
/// v times the agent's size: the engine finds an agent without loading a pointer, and a
/// million agents share a few hundred pages instead of being scattered over the heap with
/// an allocator's header each. Any other strategy's agents are made one by one (create()).
///
/// ```
/// dlbkit::AgentArray agents(dlbkit::builtin_strategies().configure("rid", {}), 1024);
/// agents[7].on_start(context_of_node_7);
/// ```

#include "huge_pages.hpp"

#include <dlbkit/core/registry.hpp>

#include <cstddef>
#include <memory>
#include <new>
#include <vector>

namespace dlbkit {

class AgentArray {
public:
  /// `count` agents of `strategy`; what the strategy's constructor throws passes through.
  AgentArray(const StrategyChoice& strategy, std::size_t count) : AgentArray(strategy, count, 0, count) {}
  /// Of `count` nodes, agents only for [lo, hi) (a process's partition), still at their
  /// nodes' places: the others' room is mapped but never touched.
  AgentArray(const StrategyChoice& strategy, std::size_t count, std::size_t lo, std::size_t hi) : lo_(lo), built_(lo) {
    const InPlace& layout = strategy.info->in_place;
    if (layout.construct == nullptr || layout.align > 64) {  // allocate_huge aligns to 64
      owned_.resize(count);
      for (std::size_t v = lo; v < hi; ++v) owned_[v] = strategy.create();
      return;
    }
    stride_ = (layout.size + layout.align - 1) / layout.align * layout.align;
    bytes_ = stride_ * count;
    base_ = static_cast<std::byte*>(allocate_huge(bytes_));
    try {
      for (; built_ < hi; ++built_) {
        std::byte* where = base_ + built_ * stride_;
        Strategy* agent = layout.construct(where, strategy.params);
        offset_ = static_cast<std::size_t>(reinterpret_cast<std::byte*>(agent) - where);  // the same for every agent
      }
    } catch (...) {
      destroy();
      throw;
    }
  }
  AgentArray(const AgentArray&) = delete;
  AgentArray& operator=(const AgentArray&) = delete;
  ~AgentArray() { destroy(); }

  Strategy& operator[](std::size_t v) const {
    if (base_ == nullptr) return *owned_[v];
    return *std::launder(reinterpret_cast<Strategy*>(base_ + v * stride_ + offset_));
  }
  /// Whether the agents are in one array (false: one allocation each).
  bool contiguous() const { return base_ != nullptr; }
  /// Bytes from one agent to the next in the array (0 when not contiguous).
  std::size_t stride() const { return stride_; }

private:
  void destroy() noexcept {
    if (base_ == nullptr) return;
    for (std::size_t v = lo_; v < built_; ++v) (*this)[v].~Strategy();
    free_huge(base_, bytes_);
    base_ = nullptr;
  }

  std::byte* base_ = nullptr;  // in place: agent v at base_ + v * stride_
  std::size_t lo_ = 0, stride_ = 0, offset_ = 0, bytes_ = 0, built_ = 0;  // agents [lo_, built_) are made
  std::vector<std::unique_ptr<Strategy>> owned_;  // otherwise
};

}  // namespace dlbkit
