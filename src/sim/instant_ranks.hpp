#pragma once
/// \file
/// The ranks in the whole run of the events that partitions running apart handled at one
/// instant. Events due at one instant are ordered by (the creator's time, the creator's rank
/// among the events of its instant, the child's index) (event_key.hpp). A partition ranks
/// its own events of an instant as it handles them; where two partitions handled events at
/// one instant, their ranks in the whole run come from merging the two lists in key order,
/// after the window (docs/simulator.md, "Parallel windows").

#include "event_key.hpp"

#include <algorithm>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

namespace dlbkit {

/// An event a partition handled, in its order.
struct HandledEvent {
  SimTime time;
  EventKey key;
};

/// One partition's translation of its own ranks into the run's, for the instants of one
/// window that another partition shared (at the others its ranks are the run's).
class RankTable {
public:
  void clear() {
    instants_.clear();
    ranks_.clear();
  }

  /// The run's rank of this partition's `local`-th event (from 0) at `instant`.
  std::uint64_t global(SimTime instant, std::uint64_t local) const {
    const auto it = std::lower_bound(instants_.begin(), instants_.end(), instant,
                                     [](const auto& entry, SimTime t) { return entry.first < t; });
    if (it == instants_.end() || it->first != instant) return local;
    return ranks_[it->second + local];
  }

  /// `key` with its creator's rank in the run's terms: a creator at or after
  /// `window_start` is this partition's own, ranked in its terms.
  EventKey global_key(EventKey key, SimTime window_start) const {
    if (key.creator_time < window_start || instants_.empty()) return key;
    const std::uint64_t low = key.bits & ((std::uint64_t{1} << EventKey::kRankShift) - 1);
    return {key.creator_time, global(key.creator_time, key.bits >> EventKey::kRankShift) << EventKey::kRankShift | low};
  }

  /// Starts the instant `t` (later than the last one begun), whose events get ranks in turn.
  void begin(SimTime t) { instants_.emplace_back(t, ranks_.size()); }
  void append(std::uint64_t rank) { ranks_.push_back(rank); }

private:
  std::vector<std::pair<SimTime, std::size_t>> instants_;  // ascending: (instant, its first rank in ranks_)
  std::vector<std::uint64_t> ranks_;
};

/// Fills `tables[p]` for every instant before `until` at which two or more of the
/// partitions' `logs` (each in its handling order, from `window_start` on) have events.
inline void rank_shared_instants(std::span<const std::span<const HandledEvent>> logs, SimTime window_start,
                                 SimTime until, std::span<RankTable* const> tables) {
  const std::size_t parts = logs.size();
  std::vector<std::size_t> at(parts, 0), end(parts, 0), head(parts, 0);
  for (;;) {
    SimTime t = until;
    for (std::size_t p = 0; p < parts; ++p)
      if (at[p] < logs[p].size()) t = std::min(t, logs[p][at[p]].time);
    if (t == until) return;
    std::size_t sharing = 0;
    for (std::size_t p = 0; p < parts; ++p) {
      end[p] = at[p];
      while (end[p] < logs[p].size() && logs[p][end[p]].time == t) ++end[p];
      sharing += end[p] > at[p] ? 1 : 0;
    }
    if (sharing > 1) {
      for (std::size_t p = 0; p < parts; ++p) {
        head[p] = at[p];
        if (end[p] > at[p]) tables[p]->begin(t);
      }
      for (std::uint64_t rank = 0;; ++rank) {
        std::size_t best = parts;
        EventKey best_key;
        for (std::size_t p = 0; p < parts; ++p) {
          if (head[p] == end[p]) continue;
          const EventKey key = tables[p]->global_key(logs[p][head[p]].key, window_start);
          if (best == parts || key < best_key) {
            best = p;
            best_key = key;
          }
        }
        if (best == parts) break;
        tables[best]->append(rank);
        ++head[best];
      }
    }
    for (std::size_t p = 0; p < parts; ++p) at[p] = end[p];
  }
}

}  // namespace dlbkit
