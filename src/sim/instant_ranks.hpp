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
#include <span>
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
    events_.clear();
    instants_.clear();
  }
  /// Empties the log once its keys are no longer needed (the window's crossings packed),
  /// giving back the room of one that grew past kKeptEvents (32 MB): a window of the
  /// start's burst (4 million events a partition at 2^22 nodes) would otherwise keep its
  /// room beside the messages it made, and so would the copy of another partition's log.
  /// Smaller logs keep theirs: making it again every window would cost more than it saves.
  void release() {
    if (events_.capacity() <= kKeptEvents) return clear();
    std::vector<HandledEvent>().swap(events_);
    std::vector<Instant>().swap(instants_);
  }
  static constexpr std::size_t kKeptEvents = std::size_t{1} << 20;
  /// Room for n events (a copy of another partition's log, whose length is known).
  void reserve(std::size_t n) { events_.reserve(n); }
  /// The next event's place in the list: its name as a creator.
  std::uint64_t next_place() const { return events_.size(); }
  void add(SimTime time, EventKey key, std::uint64_t rank) {
    if (instants_.empty() || instants_.back().time != time)
      instants_.push_back({time, static_cast<std::uint32_t>(events_.size())});
    events_.push_back({time, key, rank});
  }

  std::span<const HandledEvent> events() const { return events_; }
  std::span<HandledEvent> events() { return events_; }
  std::span<const Instant> instants() const { return instants_; }
  /// The end of instant i's events.
  std::uint32_t end_of(std::size_t i) const {
    return i + 1 < instants_.size() ? instants_[i + 1].first : static_cast<std::uint32_t>(events_.size());
  }

  /// `key` with its creator's rank in the run's terms: a creator at or after
  /// `window_start` is this partition's own, named by its place in the list.
  EventKey global_key(EventKey key, SimTime window_start) const {
    if (key.creator_time < window_start) return key;
    return with_rank(key, events_[key.bits >> EventKey::kRankShift].rank);
  }

  static EventKey with_rank(EventKey key, std::uint64_t rank) {
    const std::uint64_t low = key.bits & ((std::uint64_t{1} << EventKey::kRankShift) - 1);
    return {key.creator_time, rank << EventKey::kRankShift | low};
  }

private:
  std::vector<HandledEvent> events_;
  std::vector<Instant> instants_;
};

/// Gives every event of the partitions' `logs` at an instant before `until` that two or more
/// of them share its rank in the run (the others keep theirs): the instants in ascending
/// order, so that a creator in the window has its rank before its children are compared.
inline void rank_shared_instants(std::span<WindowLog* const> logs, SimTime window_start, SimTime until) {
  const std::size_t parts = logs.size();
  std::vector<std::size_t> next(parts, 0), at(parts), end(parts);
  for (;;) {
    SimTime t = until;
    std::size_t sharing = 0;
    for (std::size_t p = 0; p < parts; ++p) {
      const auto instants = logs[p]->instants();
      if (next[p] == instants.size()) continue;
      const SimTime time = instants[next[p]].time;
      sharing = time < t ? 1 : sharing + (time == t ? 1 : 0);
      t = std::min(t, time);
    }
    if (t >= until) return;
    for (std::size_t p = 0; p < parts; ++p) {
      const auto instants = logs[p]->instants();
      at[p] = end[p] = 0;
      if (next[p] == instants.size() || instants[next[p]].time != t) continue;
      at[p] = instants[next[p]].first;
      end[p] = logs[p]->end_of(next[p]++);
    }
    if (sharing < 2) continue;  // one partition's instant: its ranks are the run's
    for (std::uint64_t rank = 0;; ++rank) {
      std::size_t best = parts;
      EventKey best_key;
      for (std::size_t p = 0; p < parts; ++p) {
        if (at[p] == end[p]) continue;
        const EventKey key = logs[p]->global_key(logs[p]->events()[at[p]].key, window_start);
        if (best == parts || key < best_key) {
          best = p;
          best_key = key;
        }
      }
      if (best == parts) break;
      logs[best]->events()[at[best]++].rank = rank;
    }
  }
}

}  // namespace dlbkit
