#pragma once
/// \file
/// The simulator's tie-break among events due at one instant: (the creator's time, the
/// creator's rank among the events handled at its instant, the child's index among the
/// events it created). On one thread this is the order in which the events were created,
/// so runs are those of a plain sequence number; unlike a sequence number it names the
/// creator by its instant, which partitions running apart can agree on (docs/simulator.md,
/// "Ties and parallel runs").

#include <dlbkit/core/time.hpp>

#include <cstdint>
#include <fmt/format.h>
#include <stdexcept>

namespace dlbkit {

struct EventKey {
  SimTime creator_time = -1;  // -1: made at the start, before any event
  std::uint64_t bits = 0;     // rank << kRankShift | child << kTypeBits | type
  bool operator==(const EventKey&) const = default;
  // Without branches: the queue sorts runs of events at one instant by their keys.
  bool operator<(const EventKey& o) const {
    return (creator_time < o.creator_time) | ((creator_time == o.creator_time) & (bits < o.bits));
  }

  static constexpr unsigned kTypeBits = 2;       // the event's type, in the low bits
  static constexpr unsigned kChildBits = 26;     // 67 M events made by one event
  static constexpr unsigned kRankShift = kChildBits + kTypeBits;
  static constexpr std::uint64_t kRanks = std::uint64_t{1} << (64 - kRankShift);  // 69 G events at one instant
  static constexpr std::uint64_t kChildren = std::uint64_t{1} << kChildBits;

  unsigned type() const { return static_cast<unsigned>(bits & ((1u << kTypeBits) - 1)); }
};

/// Hands out the keys of the events one event creates, in order.
class KeyMaker {
public:
  /// The event handled next is the `rank`-th (from 0) handled at `time` (-1: the start).
  void creator(SimTime time, std::uint64_t rank) {
    if (rank >= EventKey::kRanks) [[unlikely]] fail("events at one instant", EventKey::kRanks);
    time_ = time;
    base_ = rank << EventKey::kRankShift;
    child_ = 0;
  }

  EventKey next(unsigned type) {
    if (child_ >= EventKey::kChildren) [[unlikely]] fail("events created by one event", EventKey::kChildren);
    return {time_, base_ | child_++ << EventKey::kTypeBits | type};
  }

private:
  [[noreturn, gnu::cold, gnu::noinline]] static void fail(const char* what, std::uint64_t limit) {
    throw std::runtime_error(
        fmt::format("simulation stopped: more than {} {}, which the event order cannot rank", limit, what));
  }

  SimTime time_ = -1;
  std::uint64_t base_ = 0;
  std::uint64_t child_ = 0;
};

}  // namespace dlbkit
