#include "neighbor_lists.hpp"

#include <algorithm>
#include <new>

#include <sys/mman.h>

namespace dlbkit {

NeighborLists::NeighborLists(std::vector<NodeId> lists, std::span<const std::uint32_t> offsets)
    : slots_(lists.size()), offsets_(offsets), written_(std::make_unique<std::atomic<const NodeId*>[]>(blocks())),
      whole_(std::move(lists)) {
  whole_.reserve(1);  // a graph without edges (complete:1) still has somewhere for its empty lists
  data_ = whole_.data();
  for (std::size_t b = 0; b < blocks(); ++b) written_[b].store(data_, std::memory_order_relaxed);
}

NeighborLists::NeighborLists(std::span<const std::uint32_t> offsets, Fill fill)
    : slots_(offsets.back()), offsets_(offsets), written_(std::make_unique<std::atomic<const NodeId*>[]>(blocks())),
      fill_(std::move(fill)) {
  const std::size_t bytes = std::max<std::size_t>(slots_, 1) * sizeof(NodeId);
  // Anonymous pages are the system's zero page until written: a block never asked for
  // takes no memory.
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) throw std::bad_alloc();
  mapped_ = std::unique_ptr<NodeId, Unmap>(static_cast<NodeId*>(p), Unmap{bytes});
  data_ = mapped_.get();
}

void NeighborLists::Unmap::operator()(NodeId* p) const { ::munmap(p, bytes); }

const NodeId* NeighborLists::write_block(std::size_t b) const {
  const std::lock_guard lock(*writing_);
  if (const NodeId* lists = written_[b].load(std::memory_order_relaxed)) return lists;  // another thread was first
  const std::size_t first = b << kBlockShift;
  const std::size_t last = std::min(offsets_.size() - 1, first + (std::size_t{1} << kBlockShift));
  for (std::size_t v = first; v < last; ++v) fill_(static_cast<NodeId>(v), data_ + offsets_[v]);
  written_[b].store(data_, std::memory_order_release);
  return data_;
}

const NodeId* NeighborLists::all() const {
  for (std::size_t b = 0; b < blocks(); ++b) with(static_cast<NodeId>(b << kBlockShift));
  return data_;
}

}  // namespace dlbkit
