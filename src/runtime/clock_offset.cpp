#include <dlbkit/error.hpp>
#include <dlbkit/runtime/clock_offset.hpp>

#include <fmt/format.h>

namespace dlbkit {

ClockOffset estimate_clock_offset(std::span<const ClockSample> samples) {
  if (samples.empty()) throw InputError("clock offset: no samples; accepted: at least one round trip");
  const ClockSample* best = nullptr;
  for (const ClockSample& s : samples) {
    if (s.receive < s.send)
      throw InputError(fmt::format("clock offset: a round trip received at {} ns before it was sent at {} ns; "
                                   "accepted: receive >= send",
                                   s.receive, s.send));
    if (best == nullptr || s.receive - s.send < best->receive - best->send) best = &s;
  }
  // The reference read `remote` when the local clock read somewhere in [send, receive]:
  // the offset lies in [remote - receive, remote - send]; its midpoint rounded down is at
  // most ceil(trip / 2) from either end.
  const SimTime trip = best->receive - best->send;
  return {.offset = best->remote - best->send - trip / 2, .error = (trip + 1) / 2};
}

}  // namespace dlbkit
