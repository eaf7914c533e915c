#pragma once
/// \file
/// The engines' side of the runtime: a worker's tasks as byte records. Not for programs
/// that use dlbkit::Runtime (runtime/runtime.hpp).

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <vector>

namespace dlbkit::detail {

/// An allocator of whole cache lines, for a buffer one worker writes before every task: it
/// then shares no line with another worker's memory. (Two workers' copies of their current
/// task once sat 32 bytes apart in one line, and each task of one invalidated the other's:
/// a 2-worker uts run of T1L took 1.21 times as long as with lines of their own.)
template <class T>
struct CacheLineAllocator {
  using value_type = T;
  static constexpr std::size_t kLine = 64;
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) {}
  T* allocate(std::size_t n) {
    const std::size_t bytes = (n * sizeof(T) + kLine - 1) / kLine * kLine;
    return static_cast<T*>(::operator new(bytes, std::align_val_t{kLine}));
  }
  void deallocate(T* p, std::size_t) { ::operator delete(p, std::align_val_t{kLine}); }
  friend bool operator==(const CacheLineAllocator&, const CacheLineAllocator&) { return true; }
};

/// The copy of the task a worker executes.
using TaskBuffer = std::vector<std::byte, CacheLineAllocator<std::byte>>;

/// One worker's tasks: a stack of byte records (a task and its hop count). Trivially
/// copyable tasks have records of one size (`task_bytes` and the hop count, 8-byte aligned);
/// serialised tasks (task_bytes 0) have records of their own length (a header with the
/// length and the hop count, the bytes, a trailer with the record's length, so the top can
/// be popped). The worker executes from the top (depth first); migrations take from the
/// bottom, the tasks it would execute last. Not thread-safe: it belongs to one worker.
class TaskStack {
public:
  /// `task_bytes` 0: serialised tasks of any length.
  explicit TaskStack(std::size_t task_bytes)
      : bytes_(task_bytes), stride_((task_bytes + sizeof(std::uint32_t) + 7) / 8 * 8) {}

  std::size_t task_bytes() const { return bytes_; }
  std::size_t size() const { return count_; }
  bool empty() const { return count_ == 0; }

  /// Fixed-size tasks: pushes task_bytes() bytes from `task`.
  void push(const void* task, std::uint32_t hops = 0) { push_record(task, bytes_, hops); }
  /// Pushes a task of either kind (a fixed-size one must be task_bytes() long).
  void push(std::span<const std::byte> task) { push_record(task.data(), task.size(), 0); }
  /// Fixed-size tasks: copies the top task to `task` (task_bytes() bytes) and removes it.
  void pop(void* task) {
    top_ -= stride_;
    --count_;
    std::memcpy(task, data_.data() + top_, bytes_);
  }
  /// Copies the top task of either kind to `task` (resized to its length) and removes it.
  template <class Allocator>
  void pop(std::vector<std::byte, Allocator>& task) {
    if (serialised()) {
      const std::span<const std::byte> top = pop_serialised();
      task.assign(top.begin(), top.end());
      return;
    }
    task.resize(bytes_);
    pop(task.data());
  }
  /// Moves up to `amount` tasks from the bottom whose hop count is below `max_hops` into
  /// `out` (records of task and incremented hop count), never the top `keep` tasks; tasks
  /// passed over stay, in order. Returns how many moved.
  std::size_t take_bottom(std::size_t amount, std::uint32_t max_hops, std::vector<std::byte>& out,
                          std::size_t keep = 0);
  /// Appends `count` records produced by take_bottom() on the top.
  void push_records(const std::byte* records, std::size_t count);
  /// Fixed-size tasks: the length of one record.
  std::size_t record_bytes() const { return stride_; }

private:
  static constexpr std::size_t kFrame = 8;  // a serialised record's header, and its trailer
  bool serialised() const { return bytes_ == 0; }
  std::size_t length_of(const std::byte* record) const;  // a record's length, from its header
  std::size_t hops_offset() const { return serialised() ? sizeof(std::uint32_t) : bytes_; }
  void push_record(const void* task, [[maybe_unused]] std::size_t bytes, std::uint32_t hops) {
    if (serialised()) return push_serialised(task, bytes, hops);
    assert(bytes == bytes_);
    reserve(stride_);
    std::memcpy(data_.data() + top_, task, bytes_);
    std::memcpy(data_.data() + top_ + bytes_, &hops, sizeof hops);
    top_ += stride_;
    ++count_;
  }
  void push_serialised(const void* task, std::size_t bytes, std::uint32_t hops);
  std::span<const std::byte> pop_serialised();  // the popped task's bytes, until the next push
  void reserve(std::size_t more) {  // room for `more` bytes above the top
    if (top_ + more > data_.size()) grow(more);
  }
  void grow(std::size_t more);

  std::size_t bytes_, stride_;
  std::size_t base_ = 0, top_ = 0;  // byte offsets of the bottom record and past the top one
  std::size_t count_ = 0;
  std::vector<std::byte> data_;
};

}  // namespace dlbkit::detail
