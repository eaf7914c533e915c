#pragma once
/// \file
/// The pending tasks of every node of a simulation, in one pool.
///
/// A node's queue is a chain of fixed blocks of tasks taken from a pool shared by all
/// nodes: tasks are added at the back, executed from the front and migrated from the back.
/// A block a node empties goes back to the pool for any node, so the memory follows the
/// tasks pending in the whole machine, not each node's largest queue, and a queue costs
/// 16 bytes in its node's state instead of a std::deque's 80 plus a map per node. Blocks
/// live in chunks that never move, so the pool grows without copying.

#include <dlbkit/core/task.hpp>

#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

namespace dlbkit {

class TaskQueues {
public:
  /// One node's queue: where its tasks are in the pool.
  struct Queue {
    std::uint32_t size = 0;
    std::uint32_t first = kNoBlock;  // block holding the front
    std::uint32_t last = kNoBlock;   // block holding the back
    std::uint16_t head = 0;          // index of the front in `first`
    std::uint16_t tail = 0;          // one past the back in `last`
    bool empty() const { return size == 0; }
  };

  const Task& front(const Queue& q) const {
    assert(!q.empty());
    return block(q.first).tasks[q.head];
  }

  void push_back(Queue& q, const Task& task) {
    if (q.size == 0) {
      q.first = q.last = allocate();
      q.head = q.tail = 0;
    } else if (q.tail == kBlockTasks) {
      const std::uint32_t b = allocate();
      block(q.last).next = b;
      block(b).prev = q.last;
      q.last = b;
      q.tail = 0;
    }
    block(q.last).tasks[q.tail++] = task;
    ++q.size;
  }

  Task pop_front(Queue& q) {
    assert(!q.empty());
    const Task task = block(q.first).tasks[q.head++];
    if (--q.size == 0) {
      release(q.first);
      q.first = q.last = kNoBlock;
    } else if (q.head == kBlockTasks) {
      const std::uint32_t next = block(q.first).next;
      release(q.first);
      q.first = next;
      q.head = 0;
    }
    return task;
  }

  Task pop_back(Queue& q) {
    assert(!q.empty());
    const Task task = block(q.last).tasks[--q.tail];
    if (--q.size == 0) {
      release(q.last);
      q.first = q.last = kNoBlock;
    } else if (q.tail == 0) {
      const std::uint32_t prev = block(q.last).prev;
      release(q.last);
      q.last = prev;
      q.tail = kBlockTasks;
    }
    return task;
  }

private:
  static constexpr std::uint32_t kNoBlock = 0xFFFFFFFFu;
  static constexpr std::uint16_t kBlockTasks = 16;     // 384 bytes: small queues waste little
  static constexpr std::uint32_t kChunkBlocks = 4096;  // blocks allocated together

  struct Block {
    Task tasks[kBlockTasks];
    std::uint32_t prev, next;  // neighbouring blocks of the same queue
  };

  Block& block(std::uint32_t b) { return chunks_[b / kChunkBlocks][b % kChunkBlocks]; }
  const Block& block(std::uint32_t b) const { return chunks_[b / kChunkBlocks][b % kChunkBlocks]; }

  std::uint32_t allocate() {
    if (free_ == kNoBlock) {
      assert(chunks_.size() < kNoBlock / kChunkBlocks);
      const auto first = static_cast<std::uint32_t>(chunks_.size() * kChunkBlocks);
      chunks_.push_back(std::make_unique_for_overwrite<Block[]>(kChunkBlocks));
      // The new chunk's blocks join the free list in order, so blocks are handed out in
      // address order.
      for (std::uint32_t i = kChunkBlocks; i-- > 0;) release(first + i);
    }
    const std::uint32_t b = free_;
    free_ = block(b).next;
    block(b).prev = block(b).next = kNoBlock;
    return b;
  }

  void release(std::uint32_t b) {
    block(b).next = free_;
    free_ = b;
  }

  std::vector<std::unique_ptr<Block[]>> chunks_;
  std::uint32_t free_ = kNoBlock;  // a list through Block::next
};

}  // namespace dlbkit
