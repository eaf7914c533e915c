#pragma once
// Private to src/topology: every node's neighbour list, one after another (CSR order).
//
// A family with a formula (hypercube, torus, ring, mesh) writes the lists a block of nodes
// at a time, when a node of the block is first asked for, into memory the system gives as
// it is written: a process of a parallel simulation reads only its own nodes' lists, so the
// others' take no memory (a hypercube:22's lists are 385 MB). Graphs without a formula are
// written whole when built. Safe to read from several threads at once.

#include <dlbkit/topology/topology.hpp>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

namespace dlbkit {

class NeighborLists {
public:
  /// Writes node v's list at `list`.
  using Fill = std::function<void(NodeId v, NodeId* list)>;
  static constexpr unsigned kBlockShift = 12;  // 4096 nodes a block

  NeighborLists() = default;
  /// The lists of `offsets.size() - 1` nodes, written already.
  NeighborLists(std::vector<NodeId> lists, std::span<const std::uint32_t> offsets);
  /// The lists at `offsets` (which must outlive this), written by `fill` a block of nodes
  /// at a time on first use.
  NeighborLists(std::span<const std::uint32_t> offsets, Fill fill);

  std::size_t size() const { return slots_; }
  /// The lists, with node v's written.
  const NodeId* with(NodeId v) const {
    const std::size_t b = v >> kBlockShift;
    const NodeId* lists = written_[b].load(std::memory_order_acquire);
    return lists != nullptr ? lists : write_block(b);
  }
  /// The lists, every node's written (for a whole-graph pass).
  const NodeId* all() const;

private:
  struct Unmap {
    std::size_t bytes;
    void operator()(NodeId* p) const;
  };
  const NodeId* write_block(std::size_t b) const;
  std::size_t blocks() const { return (offsets_.size() - 1 + (std::size_t{1} << kBlockShift) - 1) >> kBlockShift; }

  NodeId* data_ = nullptr;
  std::size_t slots_ = 0;
  std::span<const std::uint32_t> offsets_;
  // A block's lists once written (data_), else null: one load tells whether and where.
  std::unique_ptr<std::atomic<const NodeId*>[]> written_;
  std::vector<NodeId> whole_;                                      // lists written whole
  std::unique_ptr<NodeId, Unmap> mapped_{nullptr, Unmap{0}};       // or written on demand,
  std::unique_ptr<std::mutex> writing_ = std::make_unique<std::mutex>();  // by one thread at a time
  Fill fill_;
};

}  // namespace dlbkit
