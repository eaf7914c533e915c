#pragma once
/// \file
/// The simulator's event queue: a radix heap over the 128-bit key (time, sequence).
///
/// A discrete-event simulation never schedules into the past, so the keys it pops only
/// grow. A radix heap exploits that: an item lives in a bucket numbered by the highest
/// hexadecimal digit in which its key differs from the last key popped (and its value
/// there), pushes are appends, and an item moves to a lower bucket at most once per digit,
/// so an event a millisecond ahead moves about five times where a bit-wise radix heap
/// moves it up to twenty. Unlike a binary heap of a million events, whose every pop walks
/// twenty cache-missing levels, the work here is sequential scans of short vectors. A
/// drained bucket that held a burst gives its room back, so the queue's memory follows the
/// events pending. Ties cannot occur: sequence
/// numbers are unique, so the order is total and runs are reproducible.

#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

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
    const Item item = buckets_[0].back();
    buckets_[0].pop_back();
    if (buckets_[0].empty()) occupied_[0] &= ~std::uint64_t{1};
    return item;
  }

  /// The item pop() will return, when that is cheap to tell (it is in bucket 0 or in a
  /// bucket of at most 8 items), else null: a hint to prefetch what that item will touch.
  const Item* peek() const {
    if (!buckets_[0].empty()) return &buckets_[0].back();
    if (size_ == 0) return nullptr;
    const auto& bucket = buckets_[lowest_occupied()];
    return bucket.size() > 8 ? nullptr : &*smallest(bucket);
  }

private:
  static constexpr std::size_t kDigitBits = 4;
  static constexpr std::size_t kDigitValues = 1 << kDigitBits;
  static constexpr std::size_t kLevels = 128 / kDigitBits;  // digits of the 128-bit key
  static constexpr std::size_t kBuckets = 1 + kLevels * kDigitValues;
  static constexpr std::size_t kKeptCapacity = 4096;  // items a drained bucket keeps room for
  using Bucket = std::vector<Item>;

  static bool less(const Item& a, const Item& b) { return a.time != b.time ? a.time < b.time : a.key < b.key; }

  // 0 when the key equals last_'s, else 1 + (level, value) of the highest differing digit
  // of the 128-bit key (time in the upper half): the lower the bucket, the smaller the key.
  std::size_t bucket_of(const Item& item) const {
    const auto time = static_cast<std::uint64_t>(item.time);
    const std::uint64_t t = time ^ static_cast<std::uint64_t>(last_.time);
    if (t != 0) return digit_bucket(kLevels / 2, time, t);
    const std::uint64_t k = item.key ^ last_.key;
    return k == 0 ? 0 : digit_bucket(0, item.key, k);
  }
  static std::size_t digit_bucket(std::size_t first_level, std::uint64_t value, std::uint64_t differs) {
    const auto level = static_cast<std::size_t>(63 - __builtin_clzll(differs)) / kDigitBits;
    return 1 + (first_level + level) * kDigitValues + ((value >> (level * kDigitBits)) & (kDigitValues - 1));
  }

  void put(const Item& item) {
    const std::size_t b = bucket_of(item);
    buckets_[b].push_back(item);
    occupied_[b >> 6] |= std::uint64_t{1} << (b & 63);
  }

  std::size_t lowest_occupied() const {
    std::size_t i = 0;
    while (occupied_[i >> 6] == 0) i += 64;
    return i + static_cast<std::size_t>(__builtin_ctzll(occupied_[i >> 6]));
  }

  static typename Bucket::const_iterator smallest(const Bucket& bucket) {
    auto min = bucket.begin();
    for (auto it = bucket.begin() + 1; it != bucket.end(); ++it)
      if (less(*it, *min)) min = it;
    return min;
  }

  // Bucket 0 is empty: the smallest item of the lowest non-empty bucket becomes last_,
  // and that bucket's items spread into lower buckets relative to it (they share its
  // digits down to the bucket's level).
  void refill() {
    const std::size_t i = lowest_occupied();
    auto& bucket = buckets_[i];
    occupied_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
    last_ = *smallest(bucket);
    for (const Item& item : bucket) put(item);
    // A bucket that held a burst gives its room back, so the queue's memory follows the
    // events pending rather than the largest size each bucket ever had.
    if (bucket.capacity() > kKeptCapacity) Bucket().swap(bucket);
    else bucket.clear();
  }

  std::array<Bucket, kBuckets> buckets_;
  std::array<std::uint64_t, (kBuckets + 63) / 64> occupied_{};  // bit b: bucket b is not empty
  Item last_{};
  std::size_t size_ = 0;
};

}  // namespace dlbkit
