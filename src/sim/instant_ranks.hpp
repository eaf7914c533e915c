#pragma once
/// \file
/// The ranks in the whole run of the events that partitions running apart handled in one
/// window. Events due at one instant are ordered by (the creator's time, the creator's rank
/// among the events of its instant, the child's index) (event_key.hpp). Within a window a
/// partition names a creator of its own by its place in its list of the events it handled,
/// which orders the events of one instant as their ranks do. Each event's rank in the run is
/// its rank in its partition at an instant no other partition had, and its place in the
/// merge of the partitions' events in key order at one they shared (docs/simulator.md,
/// "Parallel windows").

#include "event_key.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <memory>
#include <new>
#include <span>
#include <type_traits>
#include <vector>

namespace dlbkit {

/// An event a partition handled, and its rank among the events of its instant: in its
/// partition, then in the run.
struct HandledEvent {
  SimTime time;
  EventKey key;
  std::uint64_t rank;
};

/// The events one partition handled in a window, in its order, and its instants.
class WindowLog {
public:
  struct Instant {
    SimTime time;
    std::uint32_t first;  // the place of its first event
  };

  void clear() {
    events_size_ = 0;
    instants_size_ = 0;
  }
  /// Empties the log once its keys are no longer needed (the window's crossings packed),
  /// giving back the room of one that grew past kKeptEvents (32 MB): a window of the
  /// start's burst (4 million events a partition at 2^22 nodes) would otherwise keep its
  /// room beside the messages it made, and so would the copy of another partition's log.
  /// Smaller logs keep theirs: making it again every window would cost more than it saves.
  void release() {
    clear();
    if (events_.capacity() <= kKeptEvents) return;
    events_ = {};
    instants_ = {};
  }
  static constexpr std::size_t kKeptEvents = std::size_t{1} << 20;
  /// Room for n events (a copy of another partition's log, whose length is known).
  void reserve(std::size_t n) {
    if (events_.capacity() < n) events_.grow(events_size_, n);
  }
  /// The next event's place in the list: its name as a creator.
  std::uint64_t next_place() const { return events_size_; }
  /// A store or two, inlined by force: a parallel run adds every event it handles.
  [[gnu::always_inline]] void add(SimTime time, EventKey key, std::uint64_t rank) {
    if (instants_size_ == 0 || instants_.data()[instants_size_ - 1].time != time) {
      if (instants_size_ == instants_.capacity()) [[unlikely]] instants_.grow(instants_size_, instants_size_ + 1);
      instants_.data()[instants_size_++] = {time, static_cast<std::uint32_t>(events_size_)};
    }
    if (events_size_ == events_.capacity()) [[unlikely]] events_.grow(events_size_, events_size_ + 1);
    events_.data()[events_size_++] = {time, key, rank};
  }

  std::span<const HandledEvent> events() const { return {events_.data(), events_size_}; }
  std::span<HandledEvent> events() { return {events_.data(), events_size_}; }
  std::span<const Instant> instants() const { return {instants_.data(), instants_size_}; }
  /// The end of instant i's events.
  std::uint32_t end_of(std::size_t i) const {
    return i + 1 < instants_size_ ? instants_.data()[i + 1].first : static_cast<std::uint32_t>(events_size_);
  }

  /// `key` with its creator's rank in the run's terms: a creator at or after
  /// `window_start` is this partition's own, named by its place in the list.
  EventKey global_key(EventKey key, SimTime window_start) const {
    if (key.creator_time < window_start) return key;
    return with_rank(key, events_.data()[key.bits >> EventKey::kRankShift].rank);
  }

  static EventKey with_rank(EventKey key, std::uint64_t rank) {
    const std::uint64_t low = key.bits & ((std::uint64_t{1} << EventKey::kRankShift) - 1);
    return {key.creator_time, rank << EventKey::kRankShift | low};
  }

private:
  // Room for a list that the log fills itself: a vector's push_back, at every event, GCC
  // keeps out of line, and a vector's resize would write the room, where this commits its
  // pages only as the log fills them (a window of the start's burst).
  template <class T>
  class Room {
    static_assert(std::is_trivially_copyable_v<T>);

  public:
    T* data() const { return data_.get(); }
    std::size_t capacity() const { return capacity_; }
    /// Room for at least n, keeping the first `used`.
    [[gnu::noinline]] void grow(std::size_t used, std::size_t n) {
      const std::size_t capacity = std::max({n, 2 * capacity_, std::size_t{1024}});
      Pointer data(static_cast<T*>(std::malloc(capacity * sizeof(T))));
      if (data == nullptr) throw std::bad_alloc();
      if (used > 0) std::memcpy(data.get(), data_.get(), used * sizeof(T));
      data_ = std::move(data);
      capacity_ = capacity;
    }

  private:
    struct Free {
      void operator()(T* p) const { std::free(p); }
    };
    using Pointer = std::unique_ptr<T, Free>;
    Pointer data_;
    std::size_t capacity_ = 0;
  };

  Room<HandledEvent> events_;
  Room<Instant> instants_;
  std::size_t events_size_ = 0, instants_size_ = 0;
};

/// Gives every event of the partitions' `logs` at an instant in [from, until) that two or
/// more of them share its rank in the run (the others keep theirs): the instants in
/// ascending order, so that a creator in the window has its rank before its children are
/// compared. Threads may share a window's instants out in slices of time: a merge needs the
/// ranks of an earlier instant only where two partitions' events have their creators at one
/// instant of the window, and then calls `wait_for(c)`, which returns once the instants up
/// to c are ranked (those before `from` are another slice's); `ranked(t)` says that those up
/// to t are.
template <class WaitFor, class Ranked>
void rank_shared_instants(std::span<WindowLog* const> logs, SimTime window_start, SimTime from, SimTime until,
                          WaitFor&& wait_for, Ranked&& ranked) {
  const std::size_t parts = logs.size();
  std::vector<std::size_t> next(parts);
  struct List {
    HandledEvent* at;  // the next event to rank
    HandledEvent* end;
    const WindowLog* log;
  };
  std::vector<List> lists;
  lists.reserve(parts);
  for (std::size_t p = 0; p < parts; ++p) {
    const auto instants = logs[p]->instants();
    next[p] = static_cast<std::size_t>(
        std::lower_bound(instants.begin(), instants.end(), from,
                         [](const WindowLog::Instant& i, SimTime t) { return i.time < t; }) -
        instants.begin());
  }
  // Whether event key a (in log of_a) comes before b (in of_b) at their instant: by the
  // creators' times, then, creators at one instant of the window, by their ranks.
  const auto precedes = [&](EventKey a, const WindowLog& of_a, EventKey b, const WindowLog& of_b) {
    if (a.creator_time != b.creator_time || a.creator_time < window_start) return a < b;
    wait_for(a.creator_time);
    return of_a.global_key(a, window_start) < of_b.global_key(b, window_start);
  };
  for (;;) {
    // The earliest instant not yet passed, and the next after it in another partition.
    SimTime t = until, second = until;
    std::size_t first = parts;
    for (std::size_t p = 0; p < parts; ++p) {
      const auto instants = logs[p]->instants();
      if (next[p] == instants.size()) continue;
      const SimTime time = instants[next[p]].time;
      if (time < t) {
        second = t;
        t = time;
        first = p;
      } else if (time < second) {
        second = time;
      }
    }
    if (t >= until) return;
    if (t < second) {  // the instants before `second` are this partition's alone: its ranks are the run's
      const auto instants = logs[first]->instants();
      std::size_t i = next[first] + 1;  // a local index, which the compiler keeps in a register
      while (i < instants.size() && instants[i].time < second) ++i;
      next[first] = i;
      continue;
    }
    // The lists of the partitions that have the instant, merged in key order.
    lists.clear();
    for (std::size_t p = 0; p < parts; ++p) {
      const auto instants = logs[p]->instants();
      if (next[p] == instants.size() || instants[next[p]].time != t) continue;
      HandledEvent* const events = logs[p]->events().data();
      lists.push_back({events + instants[next[p]].first, events + logs[p]->end_of(next[p]++), logs[p]});
    }
    std::uint64_t rank = 0;
    if (lists.size() == 2) {  // the usual case: the two heads compared, a and b kept in registers
      HandledEvent *a = lists[0].at, *b = lists[1].at;
      while (a != lists[0].end && b != lists[1].end) {
        const bool a_first = precedes(a->key, *lists[0].log, b->key, *lists[1].log);
        (a_first ? a : b)->rank = rank++;
        a += a_first;
        b += !a_first;
      }
      lists[0].at = a;
      lists[1].at = b;
      if (a == lists[0].end) lists[0] = lists[1];  // one of the two is through: the other's rest follows
      lists.pop_back();
    }
    while (lists.size() > 1) {  // the earliest head of three or more; an emptied list leaves
      std::size_t best = 0;
      for (std::size_t i = 1; i < lists.size(); ++i)
        if (precedes(lists[i].at->key, *lists[i].log, lists[best].at->key, *lists[best].log)) best = i;
      (lists[best].at++)->rank = rank++;
      if (lists[best].at == lists[best].end) {
        lists[best] = lists.back();
        lists.pop_back();
      }
    }
    for (HandledEvent* e = lists[0].at; e != lists[0].end; ++e) e->rank = rank++;
    ranked(t);
  }
}

/// The same on one thread: every shared instant before `until`.
inline void rank_shared_instants(std::span<WindowLog* const> logs, SimTime window_start, SimTime until) {
  rank_shared_instants(logs, window_start, std::numeric_limits<SimTime>::min(), until, [](SimTime) {}, [](SimTime) {});
}

}  // namespace dlbkit
