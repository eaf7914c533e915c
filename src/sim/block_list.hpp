#pragma once
/// \file
/// A list that grows and shrinks by blocks of 2 MiB, for a parallel simulation's events
/// that wait for a window's end.
///
/// At the start every node reports to every neighbour, and in a parallel run those
/// messages wait for the first window's end before they join the queue: 2.4 million
/// events a partition at 2^18 nodes on 2 processes. A std::vector holding them doubles to
/// the next power of two (134 MB for 75 MB of events) and keeps that room after they have
/// left, while the queue builds the same events up again. Here an append never copies,
/// the room is the events' own plus one block, and draining the list into the queue gives
/// each block back to the system (its own mapping) as soon as its events have left. The
/// first few blocks stay (16 MiB), so that windows of a few hundred thousand events do not
/// map and unmap blocks each time.

#include "huge_pages.hpp"

#include <algorithm>
#include <cstddef>
#include <type_traits>
#include <vector>

namespace dlbkit {

template <class T>
class BlockList {
  static_assert(std::is_trivially_copyable_v<T> && alignof(T) <= 64);

public:
  BlockList() = default;
  BlockList(const BlockList&) = delete;
  BlockList& operator=(const BlockList&) = delete;
  ~BlockList() {
    for (T* block : blocks_) free_huge(block, kBlockBytes);
  }

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  T& operator[](std::size_t i) { return blocks_[i / kPerBlock][i % kPerBlock]; }

  void push_back(const T& item) {
    if (tail_ == tail_end_) next_block();
    *tail_++ = item;
    ++size_;
  }

  /// Keeps the first n items; the blocks past them, beyond the kept few, go back.
  void truncate(std::size_t n) {
    size_ = n;
    release_from(std::max(kKeptBlocks, (n + kPerBlock - 1) / kPerBlock));
    point_tail();
  }

  /// Calls f on every item in order, giving each block beyond the kept few back once f has
  /// seen its items; the list is then empty.
  template <class F>
  void drain(F&& f) {
    for (std::size_t b = 0; size_ > 0; ++b) {
      const std::size_t n = std::min(size_, kPerBlock);
      for (std::size_t i = 0; i < n; ++i) f(blocks_[b][i]);
      size_ -= n;
      if (b >= kKeptBlocks) {
        free_huge(blocks_[b], kBlockBytes);
        blocks_[b] = nullptr;
      }
    }
    release_from(kKeptBlocks);
    point_tail();
  }

private:
  static constexpr std::size_t kBlockBytes = kHugePage;
  static constexpr std::size_t kPerBlock = kBlockBytes / sizeof(T);
  static constexpr std::size_t kKeptBlocks = 8;

  void next_block() {
    const std::size_t b = size_ / kPerBlock;
    if (b == blocks_.size()) blocks_.push_back(static_cast<T*>(allocate_huge(kBlockBytes)));
    tail_ = blocks_[b];
    tail_end_ = tail_ + kPerBlock;
  }

  void release_from(std::size_t kept) {
    for (std::size_t b = kept; b < blocks_.size(); ++b) free_huge(blocks_[b], kBlockBytes);
    if (blocks_.size() > kept) blocks_.resize(kept);
  }

  // The next append's place, or none when the blocks held are full.
  void point_tail() {
    const std::size_t b = size_ / kPerBlock;
    if (b < blocks_.size()) {
      tail_ = blocks_[b] + size_ % kPerBlock;
      tail_end_ = blocks_[b] + kPerBlock;
    } else {
      tail_ = tail_end_ = nullptr;
    }
  }

  std::vector<T*> blocks_;
  T* tail_ = nullptr;
  T* tail_end_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace dlbkit
