#pragma once
/// \file
/// Many small double-ended queues in one pool: the simulator's pending tasks of every node.
///
/// A queue is a chain of fixed blocks of items taken from a pool shared by all queues. A
/// block a queue empties goes back to the pool for any queue, so the memory follows the
/// items held in all queues together, not the sum of each queue's largest size (as vectors
/// that keep their capacity would), and a queue's handle is 16 bytes instead of a
/// std::deque's 80 plus a map. Blocks live in chunks that never move, so the pool grows
/// without copying. Chunks after the first are 2 MiB pages (huge_pages.hpp); the
/// first is not, since a huge page is cleared whole when first touched and a small run
/// touches a few of its blocks.

#include "huge_pages.hpp"

#include <cassert>
#include <cstdint>
#include <memory>
#include <new>
#include <vector>

namespace dlbkit {

template <class Item, std::uint16_t kBlockItems>
class PooledDeques {
public:
  /// One queue: where its items are in the pool.
  struct Queue {
    std::uint32_t size = 0;
    std::uint32_t first = kNoBlock;  // block holding the front
    std::uint32_t last = kNoBlock;   // block holding the back
    std::uint16_t head = 0;          // index of the front in `first`
    std::uint16_t tail = 0;          // one past the back in `last`
    bool empty() const { return size == 0; }
  };

  const Item& front(const Queue& q) const {
    assert(!q.empty());
    return block(q.first).items[q.head];
  }

  void push_back(Queue& q, const Item& item) {
    if (q.size == 0) {
      q.first = q.last = allocate();
      q.head = q.tail = 0;
    } else if (q.tail == kBlockItems) {
      const std::uint32_t b = allocate();
      block(q.last).next = b;
      block(b).prev = q.last;
      q.last = b;
      q.tail = 0;
    }
    block(q.last).items[q.tail++] = item;
    ++q.size;
  }

  void push_front(Queue& q, const Item& item) {
    if (q.size == 0) {
      q.first = q.last = allocate();
      q.head = q.tail = kBlockItems;
    } else if (q.head == 0) {
      const std::uint32_t b = allocate();
      block(q.first).prev = b;
      block(b).next = q.first;
      q.first = b;
      q.head = kBlockItems;
    }
    block(q.first).items[--q.head] = item;
    ++q.size;
  }

  Item pop_front(Queue& q) {
    assert(!q.empty());
    const Item item = block(q.first).items[q.head++];
    if (--q.size == 0) {
      release(q.first);
      q.first = q.last = kNoBlock;
    } else if (q.head == kBlockItems) {
      const std::uint32_t next = block(q.first).next;
      release(q.first);
      q.first = next;
      q.head = 0;
    }
    return item;
  }

  Item pop_back(Queue& q) {
    assert(!q.empty());
    const Item item = block(q.last).items[--q.tail];
    if (--q.size == 0) {
      release(q.last);
      q.first = q.last = kNoBlock;
    } else if (q.tail == 0) {
      const std::uint32_t prev = block(q.last).prev;
      release(q.last);
      q.last = prev;
      q.tail = kBlockItems;
    }
    return item;
  }

private:
  static constexpr std::uint32_t kNoBlock = 0xFFFFFFFFu;

  struct Block {
    Item items[kBlockItems];
    std::uint32_t prev, next;  // neighbouring blocks of the same queue
  };
  static constexpr std::uint32_t kChunkBlocks = kHugePage / sizeof(Block);  // blocks allocated together
  struct FreeChunk {
    std::size_t bytes;
    void operator()(Block* chunk) const noexcept { free_huge(chunk, bytes); }
  };

  Block& block(std::uint32_t b) { return chunks_[b / kChunkBlocks][b % kChunkBlocks]; }
  const Block& block(std::uint32_t b) const { return chunks_[b / kChunkBlocks][b % kChunkBlocks]; }

  // A block from the free list, else the next one never used (in address order), made when
  // first handed out: a small run touches a few blocks of its first chunk, not all.
  std::uint32_t allocate() {
    std::uint32_t b = free_;
    if (b != kNoBlock) {
      free_ = block(b).next;
    } else {
      if (fresh_ == chunks_.size() * kChunkBlocks) {
        assert(chunks_.size() < kNoBlock / kChunkBlocks);
        const std::size_t bytes = chunks_.empty() ? kChunkBlocks * sizeof(Block) : kHugePage;
        chunks_.emplace_back(static_cast<Block*>(allocate_huge(bytes)), FreeChunk{bytes});
      }
      b = fresh_++;
      new (&block(b)) Block;
    }
    block(b).prev = block(b).next = kNoBlock;
    return b;
  }

  void release(std::uint32_t b) {
    block(b).next = free_;
    free_ = b;
  }

  std::vector<std::unique_ptr<Block[], FreeChunk>> chunks_;
  std::uint32_t free_ = kNoBlock;  // a list through Block::next
  std::uint32_t fresh_ = 0;        // blocks from here on were never handed out
};

}  // namespace dlbkit
