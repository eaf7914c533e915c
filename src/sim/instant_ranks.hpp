#pragma once
/// \file
/// The ranks in the whole run of the events that partitions running apart handled in one
/// window. Events due at one instant are ordered by (the creator's time, the creator's rank
/// among the events of its instant, the child's index) (event_key.hpp). Within a window a
/// partition names a creator of its own by its place in the list of events it handled,
/// which orders the events of one instant as their ranks do; after the window each place
/// gets the rank in the run: where only one partition had events at an instant, their order
/// there; where two or more had, the place in the merge of their lists in key order (docs/
/// simulator.md, "Parallel windows").

#include "event_key.hpp"

#include <cstdint>
#include <span>
#include <vector>

namespace dlbkit {

/// An event a partition handled, in its order.
struct HandledEvent {
  SimTime time;
  EventKey key;
};

/// One partition's ranks in the run of the events it handled in a window, by their place
/// in its list.
class WindowRanks {
public:
  void clear() { ranks_.clear(); }
  void append(std::uint64_t rank) { ranks_.push_back(rank); }
  std::size_t size() const { return ranks_.size(); }

  /// `key` with its creator's rank in the run's terms: a creator at or after
  /// `window_start` is this partition's own, named by its place in the list.
  EventKey global_key(EventKey key, SimTime window_start) const {
    if (key.creator_time < window_start) return key;
    const std::uint64_t low = key.bits & ((std::uint64_t{1} << EventKey::kRankShift) - 1);
    return {key.creator_time, ranks_[key.bits >> EventKey::kRankShift] << EventKey::kRankShift | low};
  }

private:
  std::vector<std::uint64_t> ranks_;
};

/// Appends to `ranks[p]` the run's rank of each event in `logs[p]` (each in its handling
/// order, from `window_start` on, ranks[p] holding those before `ranks[p].size()`) up to the
/// first at or after `until`.
inline void rank_window(std::span<const std::span<const HandledEvent>> logs, SimTime window_start, SimTime until,
                        std::span<WindowRanks* const> ranks) {
  const std::size_t parts = logs.size();
  for (;;) {
    // The earliest instant left, and who has events at it.
    SimTime t = until, next = until;  // next: the earliest instant of any other partition
    std::size_t sharing = 0, first = parts;
    for (std::size_t p = 0; p < parts; ++p) {
      if (ranks[p]->size() == logs[p].size()) continue;
      const SimTime time = logs[p][ranks[p]->size()].time;
      if (time < t) {
        next = t;
        t = time;
        sharing = 1;
        first = p;
      } else if (time == t) {
        ++sharing;
      } else {
        next = std::min(next, time);
      }
    }
    if (t >= until) return;
    if (sharing == 1) {
      // Up to the others' next instant the partition's instants are its own: its order there.
      const std::span<const HandledEvent> log = logs[first];
      WindowRanks& r = *ranks[first];
      const std::size_t from = r.size();  // the first event of an instant
      std::uint64_t rank = 0;
      for (std::size_t i = from; i < log.size() && log[i].time < next; ++i) {
        rank = i > from && log[i].time == log[i - 1].time ? rank + 1 : 0;
        r.append(rank);
      }
      continue;
    }
    // Two or more share the instant: merge their events there in key order.
    for (std::uint64_t rank = 0;; ++rank) {
      std::size_t best = parts;
      EventKey best_key;
      for (std::size_t p = 0; p < parts; ++p) {
        const std::size_t at = ranks[p]->size();
        if (at == logs[p].size() || logs[p][at].time != t) continue;
        const EventKey key = ranks[p]->global_key(logs[p][at].key, window_start);
        if (best == parts || key < best_key) {
          best = p;
          best_key = key;
        }
      }
      if (best == parts) break;
      ranks[best]->append(rank);
    }
  }
}

}  // namespace dlbkit
