// Cristian's offset estimate (runtime/clock_offset.hpp) on exchanges built by hand: a
// reference clock `truth` ns ahead of the local one, trips that divide into their two ways
// in every proportion.

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/clock_offset.hpp>

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

namespace dlbkit {
namespace {

// An exchange sent at local time `send`, out `out` ns, back `back` ns, on a reference
// clock `truth` ns ahead.
ClockSample exchange(SimTime truth, SimTime send, SimTime out, SimTime back) {
  return {.send = send, .remote = send + out + truth, .receive = send + out + back};
}

TEST(ClockOffset, ASymmetricTripGivesTheOffsetExactly) {
  const ClockOffset o = estimate_clock_offset(std::vector{exchange(-7000, 100, 5, 5)});
  EXPECT_EQ(o.offset, -7000);
  EXPECT_EQ(o.error, 5);
}

TEST(ClockOffset, AnyDivisionOfTheTripStaysWithinHalfOfIt) {
  for (const SimTime out : {0, 1, 6, 13}) {  // trips of 13 ns, odd: the bound rounds up
    SCOPED_TRACE(out);
    const ClockOffset o = estimate_clock_offset(std::vector{exchange(250, 40, out, 13 - out)});
    EXPECT_EQ(o.error, 7);
    EXPECT_LE(std::abs(o.offset - 250), o.error);
  }
}

TEST(ClockOffset, TheShortestTripDecides) {
  // A long trip all on the way out would put the offset 40 ns off; the short one, 1 ns.
  const std::vector samples = {exchange(1000, 0, 80, 0), exchange(1000, 200, 2, 0), exchange(1000, 400, 3, 3)};
  const ClockOffset o = estimate_clock_offset(samples);
  EXPECT_EQ(o.offset, 1001);
  EXPECT_EQ(o.error, 1);
}

TEST(ClockOffset, RandomTripsAreWithinTheBound) {
  Rng rng(17);
  for (int trial = 0; trial < 1000; ++trial) {
    const SimTime truth = static_cast<SimTime>(rng.below(2'000'000)) - 1'000'000;
    std::vector<ClockSample> samples;
    for (int k = 0; k < 8; ++k)
      samples.push_back(exchange(truth, 1000 * k, static_cast<SimTime>(rng.below(5000)),
                                 static_cast<SimTime>(rng.below(5000))));
    const ClockOffset o = estimate_clock_offset(samples);
    ASSERT_LE(std::abs(o.offset - truth), o.error) << "trial " << trial;
  }
}

TEST(ClockOffset, NoSampleOrATripBackwardsIsAnError) {
  EXPECT_THROW(estimate_clock_offset({}), InputError);
  EXPECT_THROW(estimate_clock_offset(std::vector{ClockSample{.send = 10, .remote = 0, .receive = 9}}), InputError);
}

}  // namespace
}  // namespace dlbkit
