#pragma once
/// \file
/// Time in dlbkit: signed 64-bit nanoseconds, in the simulator (simulated time) and in the
/// runtimes (real time). Integers keep event order and reruns exact.

#include <cstdint>
#include <optional>
#include <string>

namespace dlbkit {

using SimTime = std::int64_t;  ///< nanoseconds

inline constexpr SimTime kNanosecond = 1;
inline constexpr SimTime kMicrosecond = 1'000;
inline constexpr SimTime kMillisecond = 1'000'000;
inline constexpr SimTime kSecond = 1'000'000'000;

constexpr double to_seconds(SimTime t) { return static_cast<double>(t) / static_cast<double>(kSecond); }

/// Parses a duration such as "350us", "1.3us", "25ms", "0.5s", "120ns" or "0": whole
/// nanoseconds, at most 1e6 s.
/// Throws InputError naming `what` and the accepted forms for anything else or a negative value.
SimTime parse_duration(const std::string& text, const std::string& what);
/// As parse_duration, but a fraction of a nanosecond is kept ("6.3ns" is 6.3): a time per
/// unit of work, measured as a sequential run's time over its units, which rounding to whole
/// nanoseconds would shift by up to 8% at 6 ns. Non-negative, at most 1e6 s.
double parse_fractional_duration(const std::string& text, const std::string& what);

/// The work of a task of `units` units at `per_unit` ns each (a fraction allowed): the
/// product rounded to whole nanoseconds, so the tasks' total is the units' total x per_unit
/// within half a nanosecond per task. A whole per_unit multiplies in integers (exactly as
/// before fractions were accepted). Empty when the work would overflow 64 bits.
std::optional<SimTime> units_work(std::uint64_t units, double per_unit);

/// "1.3us", "25ms", "66.3s": a short human form (4 significant digits).
std::string format_duration(SimTime t);
/// The human form when it reads back exactly, else the nanoseconds ("123456ns"): for
/// output that must rerun the same run.
std::string exact_duration(SimTime t);

}  // namespace dlbkit
