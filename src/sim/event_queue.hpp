#pragma once
/// \file
/// The simulator's event queue: a radix heap over the event time, ties in order of key.
///
/// A discrete-event simulation never schedules into the past, so the times it pops only
/// grow. A radix heap exploits that: an item lives in a bucket numbered by the highest
/// hexadecimal digit in which its time differs from a base no later than any item's (the
/// earliest of the items popped next) and its value there, pushes are appends, and an item
/// moves to a lower bucket at most once per digit, so an event a millisecond ahead moves
/// about five times where a bit-wise radix heap moves it up to twenty. (Bytes as digits
/// move items less often but scatter them over 2 048 buckets whose ends are rarely in
/// cache: slower for the simulator; so were a ladder queue's rungs, which deal a dense
/// bucket at once: docs/simulator.md, "Steady state at 2^21".) Unlike a binary heap of a
/// million events, whose every pop walks twenty cache-missing levels, the work here is
/// sequential scans of short vectors. The items popped next wait in a sorted run: the
/// lowest bucket, when it holds at most 32 items, sorted whole (its items would otherwise
/// move down a level or more each, and 32 items sort in fewer steps: 15% fewer
/// instructions per event for RID at 2^12), else its items at its earliest time. An item
/// pushed within the run's times takes its place in it, almost always at its end when keys
/// grow with every push; one beyond goes to its bucket. A drained bucket that held a burst
/// gives its room back, so the queue's memory follows the events pending. Ties cannot
/// occur: keys are unique, so the order is total and runs are reproducible.

#include <algorithm>
#include <array>
#include <cassert>
#include <cstdint>
#include <vector>

namespace dlbkit {

template <class Item>  // Item has `std::int64_t time` (>= 0) and a `key` ordered by < (unique; the
                       // queue is fastest when keys grow with every push)
class EventQueue {
public:
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  /// Adds an item whose time is not below that of the last item popped.
  void push(const Item& item) {
    assert(item.time >= last_time_ && "an event cannot be scheduled before the last one popped");
    if (within_run(item)) {
      // Almost always the run's last item yet; else it goes in its place.
      if (due_head_ == due_.size() || less(due_.back(), item)) due_.push_back(item);
      else
        due_.insert(std::upper_bound(due_.begin() + static_cast<std::ptrdiff_t>(due_head_), due_.end(), item, Less{}),
                    item);
    } else {
      put(item);
    }
    ++size_;
  }

  /// Counts an item that will be pushed before the next pop, for make_room().
  void expect(const Item& item) {
    if (!within_run(item)) ++expected_[bucket_of(item)];
  }
  /// Grows each bucket once to hold the items expect() counted. A burst pushed after this
  /// costs its own room rather than a doubling array's, and a large bucket's pages count in
  /// the process's memory only as they are written (so a burst drained from elsewhere into
  /// the queue is never held twice over).
  void make_room() {
    for (std::size_t b = 0; b < kBuckets; ++b) {
      if (expected_[b] > kKeptCapacity) buckets_[b].reserve(buckets_[b].size() + expected_[b]);
      expected_[b] = 0;
    }
  }

  /// Removes and returns the item with the smallest (time, key). Inlined by force: the
  /// simulator pops in several loops, and GCC then keeps it out of line (2.6% of the
  /// one-thread engine's instructions, cachegrind, work stealing on hypercube:11).
  [[gnu::always_inline]] Item pop() {
    assert(size_ > 0);
    if (due_head_ == due_.size()) refill();
    --size_;
    const Item item = due_[due_head_++];
    if (due_head_ == due_.size()) {
      drain(due_);
      due_head_ = 0;
    } else if (due_head_ > kKeptCapacity && 2 * due_head_ > due_.size()) {
      // Items pushed within the run's times keep it from running out (a far item at its
      // end, and zero-time messages before it): its popped head is given back, else it
      // grew by an item per event for as long (work stealing under the ideal model: GBs).
      due_.erase(due_.begin(), due_.begin() + static_cast<std::ptrdiff_t>(due_head_));
      due_head_ = 0;
    }
    return item;
  }

  /// The item pop() will return next if it is earlier than `end`, else null. Unlike pop(),
  /// this never takes the base past `end`, so that items from `end` on may still be pushed
  /// (a parallel simulation's events from other partitions, after a window ending at `end`).
  const Item* top_before(std::int64_t end) {
    if (due_head_ < due_.size()) return due_[due_head_].time < end ? &due_[due_head_] : nullptr;
    if (size_ == 0) return nullptr;
    const std::size_t i = lowest_occupied();
    const std::int64_t lower = bucket_start(i);
    if (lower >= end) return nullptr;
    // A bucket that reaches past `end` is looked into first.
    const std::int64_t span = std::int64_t{1} << (i / kDigitValues * kDigitBits);
    if (span > end - lower && smallest(buckets_[i])->time >= end)
      return nullptr;
    refill();
    return &due_[due_head_];
  }

  /// The time of the item pop() will return next; the queue must not be empty.
  std::int64_t earliest() const {
    assert(size_ > 0);
    if (due_head_ < due_.size()) return due_[due_head_].time;
    return smallest(buckets_[lowest_occupied()])->time;
  }

  /// Items the queue keeps in memory: those pending and popped ones whose room is not
  /// given back yet (a bounded number).
  std::size_t held() const { return size_ + due_head_; }

  /// The item pop() will return, when that is cheap to tell (it is in the run or in a
  /// bucket of at most 8 items), else null: a hint to prefetch what that item will touch.
  const Item* peek() const {
    if (due_head_ < due_.size()) return &due_[due_head_];
    if (size_ == 0) return nullptr;
    const auto& bucket = buckets_[lowest_occupied()];
    return bucket.size() > 8 ? nullptr : &*smallest(bucket);
  }
  /// The item `ahead` places after the one pop() will return, when both are in the sorted
  /// run, else null.
  const Item* peek_after(std::size_t ahead) const {
    return due_head_ + ahead < due_.size() ? &due_[due_head_ + ahead] : nullptr;
  }

private:
  static constexpr std::size_t kDigitBits = 4;
  static constexpr std::size_t kDigitValues = 1 << kDigitBits;
  static constexpr std::size_t kLevels = 64 / kDigitBits;          // digits of the time
  static constexpr std::size_t kBuckets = kLevels * kDigitValues;  // (level, value 0) stay empty
  static constexpr std::size_t kWords = kBuckets / 64;
  static_assert(kWords <= 64, "one summary word");
  static constexpr std::size_t kKeptCapacity = 4096;  // items a drained bucket keeps room for
  static constexpr std::size_t kRun = 32;            // a bucket this small is sorted whole (24-48: alike)
  using Bucket = std::vector<Item>;

  static bool less(const Item& a, const Item& b) { return a.time != b.time ? a.time < b.time : a.key < b.key; }
  struct Less {  // for the algorithms: a call they inline, not a pointer
    bool operator()(const Item& a, const Item& b) const { return less(a, b); }
  };

  // Whether a pushed item joins the run (its time is within the run's) rather than a bucket.
  bool within_run(const Item& item) const {
    return due_head_ < due_.size() ? item.time <= due_.back().time : item.time == last_time_;
  }

  // (level, value) of the highest digit in which the item's time differs from last_time_
  // (where the item's digit is the larger): the lower the bucket, the earlier the time.
  std::size_t bucket_of(const Item& item) const {
    const auto time = static_cast<std::uint64_t>(item.time);
    const std::uint64_t differs = time ^ static_cast<std::uint64_t>(last_time_);
    const auto level = static_cast<std::size_t>(63 - __builtin_clzll(differs)) / kDigitBits;
    return level * kDigitValues + ((time >> (level * kDigitBits)) & (kDigitValues - 1));
  }

  // The earliest time bucket b can hold: last_time_'s digits above its level, its value at
  // its level, zeros below.
  std::int64_t bucket_start(std::size_t b) const {
    const std::size_t level = b / kDigitValues;
    const std::size_t above = (level + 1) * kDigitBits;
    const std::uint64_t high = above >= 64 ? 0 : static_cast<std::uint64_t>(last_time_) >> above << above;
    return static_cast<std::int64_t>(high | std::uint64_t{b % kDigitValues} << (level * kDigitBits));
  }

  void put(const Item& item) {
    const std::size_t b = bucket_of(item);
    buckets_[b].push_back(item);
    occupied_[b / 64] |= std::uint64_t{1} << (b % 64);
    summary_ |= std::uint64_t{1} << (b / 64);
  }

  std::size_t lowest_occupied() const {
    const auto word = static_cast<std::size_t>(__builtin_ctzll(summary_));
    return word * 64 + static_cast<std::size_t>(__builtin_ctzll(occupied_[word]));
  }

  static typename Bucket::const_iterator smallest(const Bucket& bucket) {
    auto min = bucket.begin();
    for (auto it = bucket.begin() + 1; it != bucket.end(); ++it)
      if (less(*it, *min)) min = it;
    return min;
  }

  // The run is out: the earliest time in the lowest non-empty bucket becomes the base the
  // buckets are relative to. A small bucket becomes the run, sorted; of a larger one, the
  // items at the base do, and the others spread into lower buckets relative to it (they
  // share its digits down to the bucket's level). The buckets stay valid while the run is
  // popped: every item in them is later than every item of the run.
  void refill() {
    const std::size_t i = lowest_occupied();
    auto& bucket = buckets_[i];
    occupied_[i / 64] &= ~(std::uint64_t{1} << (i % 64));
    if (occupied_[i / 64] == 0) summary_ &= ~(std::uint64_t{1} << (i / 64));
    if (bucket.size() <= kRun) {
      due_.assign(bucket.begin(), bucket.end());
      std::sort(due_.begin(), due_.end(), Less{});
      last_time_ = due_.front().time;
      drain(bucket);
      return;
    }
    last_time_ = bucket.front().time;
    for (const Item& item : bucket) last_time_ = std::min(last_time_, item.time);
    for (const Item& item : bucket) {
      if (item.time == last_time_) due_.push_back(item);
      else put(item);
    }
    if (due_.size() > 1) std::sort(due_.begin(), due_.end(), Less{});
    drain(bucket);
  }

  // A bucket that held a burst gives its room back, so the queue's memory follows the
  // events pending rather than the largest size each bucket ever had.
  static void drain(Bucket& bucket) {
    if (bucket.capacity() > kKeptCapacity) Bucket().swap(bucket);
    else bucket.clear();
  }

  std::array<Bucket, kBuckets> buckets_;
  std::array<std::size_t, kBuckets> expected_{};  // make_room()'s counts
  std::array<std::uint64_t, kWords> occupied_{};  // bit b % 64 of word b / 64: bucket b is not empty
  std::uint64_t summary_ = 0;                     // bit w: occupied_[w] is not 0
  Bucket due_;                                    // the run: the items popped next, in order, from due_head_ on
  std::size_t due_head_ = 0;
  std::int64_t last_time_ = 0;  // the base: the run's earliest time; no item is earlier
  std::size_t size_ = 0;
};

}  // namespace dlbkit
