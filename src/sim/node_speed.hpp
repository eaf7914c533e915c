#pragma once
// Nodes that differ in speed (SimulationConfig::speeds): a node of speed s spends p / s of
// simulated time on p of processor time, the time a node of speed 1 would take, whether
// executing a task, checking for messages, sending or handling one (docs/simulator.md).
// Simulated time is in whole nanoseconds: a node's time is rounded up, and the processor time
// it does in a while is the most whose time fits in it, so that the two agree (a task due to
// end at t is done at t; the time of what was done never exceeds the while).

#include <dlbkit/core/time.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dlbkit {

// The first node whose speed is not a finite number > 0; speeds.size() when there is none.
inline std::size_t first_bad_speed(const std::vector<double>& speeds) {
  return static_cast<std::size_t>(
      std::find_if(speeds.begin(), speeds.end(), [](double s) { return !std::isfinite(s) || !(s > 0); }) -
      speeds.begin());
}

// ceil(processor / speed); -1 when that is beyond 64-bit nanoseconds.
inline SimTime time_at_speed(SimTime processor, double speed) {
  const double t = std::ceil(static_cast<double>(processor) / speed);
  return t < 0x1p63 ? static_cast<SimTime>(t) : -1;
}

// The largest p with time_at_speed(p, speed) <= elapsed. The product is off by at most one
// nanosecond below 2^52 ns (52 days); one step either way puts it right.
inline SimTime processor_at_speed(SimTime elapsed, double speed) {
  auto p = static_cast<SimTime>(std::min(std::floor(static_cast<double>(elapsed) * speed), 0x1p62));
  const SimTime next = time_at_speed(p + 1, speed);
  if (next >= 0 && next <= elapsed) return p + 1;
  if (p > 0 && time_at_speed(p, speed) > elapsed) return p - 1;
  return p;
}

}  // namespace dlbkit
