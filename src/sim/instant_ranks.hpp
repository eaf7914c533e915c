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

/// The events one partition handled in a window, in its order, and where each of its
/// instants begins in that list.
class WindowLog {
public:
  void clear() {
    events_.clear();
    instants_.clear();
  }
  /// The next event's place in the list: its name as a creator.
  std::uint64_t next_place() const { return events_.size(); }
  void add(SimTime time, EventKey key, std::uint64_t rank) {
    if (events_.empty() || events_.back().time != time) instants_.push_back(static_cast<std::uint32_t>(events_.size()));
    events_.push_back({time, key, rank});
  }

  std::span<const HandledEvent> events() const { return events_; }
  std::span<HandledEvent> events() { return events_; }
  std::span<const std::uint32_t> instants() const { return instants_; }

  /// `key` with its creator's rank in the run's terms: a creator at or after
  /// `window_start` is this partition's own, named by its place in the list.
  EventKey global_key(EventKey key, SimTime window_start) const {
    if (key.creator_time < window_start) return key;
    const std::uint64_t low = key.bits & ((std::uint64_t{1} << EventKey::kRankShift) - 1);
    return {key.creator_time, events_[key.bits >> EventKey::kRankShift].rank << EventKey::kRankShift | low};
  }

private:
  std::vector<HandledEvent> events_;
  std::vector<std::uint32_t> instants_;  // the place of each instant's first event
};

/// Gives every event of the partitions' `logs` at an instant before `until` that two or more
/// of them share its rank in the run (the others keep theirs): the instants in ascending
/// order, so that a creator in the window has its rank before its children are compared.
inline void rank_shared_instants(std::span<WindowLog* const> logs, SimTime window_start, SimTime until) {
  const std::size_t parts = logs.size();
  std::vector<std::size_t> instant(parts, 0), at(parts), end(parts);
  for (;;) {
    SimTime t = until;
    std::size_t sharing = 0;
    for (std::size_t p = 0; p < parts; ++p) {
      const auto starts = logs[p]->instants();
      if (instant[p] == starts.size()) continue;
      const SimTime time = logs[p]->events()[starts[instant[p]]].time;
      if (time < t) {
        t = time;
        sharing = 1;
      } else if (time == t) {
        ++sharing;
      }
    }
    if (t >= until) return;
    for (std::size_t p = 0; p < parts; ++p) {
      const auto starts = logs[p]->instants();
      end[p] = at[p] = 0;
      if (instant[p] == starts.size() || logs[p]->events()[starts[instant[p]]].time != t) continue;
      at[p] = starts[instant[p]];
      end[p] = ++instant[p] < starts.size() ? starts[instant[p]] : logs[p]->events().size();
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
