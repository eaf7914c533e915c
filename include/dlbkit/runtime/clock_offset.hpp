#pragma once
/// \file
/// The offset of a reference clock to a local one, from round trips, as Cristian measures it
/// (F. Cristian, "Probabilistic clock synchronization", Distributed Computing 3, 1989): the
/// local node reads its clock (`send`), asks the reference for its clock (`remote`) and reads
/// its own again when the answer comes (`receive`). The reference was read somewhere within
/// the round trip, so reference - local lies within half the round trip of
/// remote - (send + receive) / 2, however the trip divides into its two ways; of several
/// exchanges, the shortest round trip bounds it tightest. The MPI engine puts every rank's
/// timeline in rank 0's time with it (docs/timeline.md).
///
/// ```
/// dlbkit::ClockOffset o = dlbkit::estimate_clock_offset(samples);  // reference = local + o.offset, +- o.error
/// ```

#include <dlbkit/core/time.hpp>

#include <span>

namespace dlbkit {

/// One exchange: `send` and `receive` on the local clock, `remote` on the reference clock.
struct ClockSample {
  SimTime send = 0, remote = 0, receive = 0;
};

/// Reference clock - local clock, within +- error (ns).
struct ClockOffset {
  SimTime offset = 0;
  SimTime error = 0;
};

/// The offset from the sample with the shortest round trip (the first of equals): the
/// reference's reading minus the midpoint of the local ones, error half the round trip
/// (rounded up, so that the bound holds in whole nanoseconds). Throws InputError when
/// `samples` is empty or a sample's round trip is negative.
ClockOffset estimate_clock_offset(std::span<const ClockSample> samples);

}  // namespace dlbkit
