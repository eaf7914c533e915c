#pragma once
/// \file
/// Time in dlbkit: signed 64-bit nanoseconds, in the simulator (simulated time) and in the
/// runtimes (real time). Integers keep event order and reruns exact.

#include <cstdint>
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

/// "1.3us", "25ms", "66.3s": a short human form (4 significant digits).
std::string format_duration(SimTime t);
/// The human form when it reads back exactly, else the nanoseconds ("123456ns"): for
/// output that must rerun the same run.
std::string exact_duration(SimTime t);

}  // namespace dlbkit
