#pragma once
/// \file
/// The simulator's event queue: a radix heap over the 128-bit key (time, sequence).
///
/// A discrete-event simulation never schedules into the past, so the keys it pops only
/// grow. A radix heap exploits that: an item lives in the bucket numbered by the highest
/// bit in which its key differs from the last key popped, pushes are appends, and an item
/// moves to a lower bucket at most once per bit level. Unlike a binary heap of a million
/// events, whose every pop walks twenty cache-missing levels, the work here is sequential
/// scans of short lists. The buckets are chains of blocks from one pool, so the queue holds
/// memory for the items it holds, not for the largest size each bucket ever had. Ties cannot occur: sequence numbers are unique, so the order
/// is total and runs are reproducible.

#include <dlbkit/sim/pooled_deques.hpp>

#include <array>
#include <cassert>
#include <cstdint>

namespace dlbkit {

template <class Item>  // Item has `std::int64_t time` (>= 0) and `std::uint64_t key` (unique)
class EventQueue {
public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  /// Adds an item whose (time, key) is not below that of the last item popped.
  void push(const Item& item) {
    assert(!(less(item, last_)) && "an event cannot be scheduled before the last one popped");
    put(item);
    ++size_;
  }

  /// Removes and returns the item with the smallest (time, key).
  Item pop() {
    assert(size_ > 0);
    if (buckets_[0].empty()) refill();
    --size_;
    const Item item = pool_.pop_back(buckets_[0]);
    if (buckets_[0].empty()) occupied_[0] &= ~std::uint64_t{1};
    return item;
  }

  /// The item pop() will return, when that is cheap to tell (it is in bucket 0 or in a
  /// bucket of at most 8 items), else null: a hint to prefetch what that item will touch.
  const Item* peek() const {
    if (!buckets_[0].empty()) return &pool_.back(buckets_[0]);
    std::size_t i = 0;
    while (i < 192 && occupied_[i >> 6] == 0) i += 64;
    if (i >= 192) return nullptr;
    i += static_cast<std::size_t>(__builtin_ctzll(occupied_[i >> 6]));
    const auto& bucket = buckets_[i];
    if (bucket.size > 8) return nullptr;
    const Item* min = &pool_.front(bucket);
    pool_.for_each(bucket, [&](const Item& item) {
      if (less(item, *min)) min = &item;
    });
    return min;
  }

private:
  static bool less(const Item& a, const Item& b) { return a.time != b.time ? a.time < b.time : a.key < b.key; }

  // 0 when the key equals last_'s, else 1 + the index of the highest differing bit of
  // the 128-bit key (time in the upper half).
  std::size_t bucket_of(const Item& item) const {
    const auto t = static_cast<std::uint64_t>(item.time) ^ static_cast<std::uint64_t>(last_.time);
    if (t != 0) return 128 - static_cast<std::size_t>(__builtin_clzll(t));  // 65 + bit index
    const std::uint64_t k = item.key ^ last_.key;
    return k == 0 ? 0 : 64 - static_cast<std::size_t>(__builtin_clzll(k));  // 1 + bit index
  }

  void put(const Item& item) {
    const std::size_t b = bucket_of(item);
    pool_.push_back(buckets_[b], item);
    occupied_[b >> 6] |= std::uint64_t{1} << (b & 63);
  }

  // Bucket 0 is empty: the smallest item of the lowest non-empty bucket becomes last_,
  // and that bucket's items spread into lower buckets relative to it.
  void refill() {
    std::size_t i = 0;
    while (occupied_[i >> 6] == 0) i += 64;
    i += static_cast<std::size_t>(__builtin_ctzll(occupied_[i >> 6]));
    auto& bucket = buckets_[i];
    occupied_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    const Item* min = &pool_.front(bucket);
    pool_.for_each(bucket, [&](const Item& item) {
      if (less(item, *min)) min = &item;
    });
    last_ = *min;
    while (!bucket.empty()) put(pool_.pop_front(bucket));
  }

  PooledDeques<Item, 32> pool_;  // blocks of 32 items
  std::array<typename PooledDeques<Item, 32>::Queue, 129> buckets_;
  std::array<std::uint64_t, 3> occupied_{};  // bit b: bucket b is not empty
  Item last_{};
  std::size_t size_ = 0;
};

}  // namespace dlbkit
