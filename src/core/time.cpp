#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>

#include <charconv>
#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

// The duration in nanoseconds, any fraction kept; `fail` for anything but a non-negative
// number with a unit (or 0) up to 1e15 ns.
template <class Fail>
double duration_ns(const std::string& text, Fail fail) {
  double value = 0;
  const char* first = text.data();
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || !std::isfinite(value) || value < 0) fail();
  const std::string unit(end, last);
  double scale = 0;
  if (unit == "ns") scale = 1;
  else if (unit == "us") scale = 1e3;
  else if (unit == "ms") scale = 1e6;
  else if (unit == "s") scale = 1e9;
  else if (unit.empty() && value == 0) scale = 1;
  else fail();
  // A bound that keeps sums of many of them far from overflowing 64 bits.
  if (value * scale > 1e15 + 0.5) fail();
  return value * scale;
}

}  // namespace

SimTime parse_duration(const std::string& text, const std::string& what) {
  const auto fail = [&] {
    throw InputError(fmt::format("{}: '{}' is not a duration; accepted: a non-negative whole number of "
                                 "nanoseconds up to 1e6 s, written with a unit ns, us, ms or s (e.g. 350us, "
                                 "1.3us, 25ms), or 0",
                                 what, text));
  };
  const double exact = duration_ns(text, fail);
  const double ns = std::round(exact);
  // Whole nanoseconds only (1.3us is 1300 ns, 0.4ns is not a time the engine can hold).
  if (std::abs(exact - ns) > 1e-6 * std::max(1.0, exact) || ns > 1e15) fail();
  return static_cast<SimTime>(ns);
}

double parse_fractional_duration(const std::string& text, const std::string& what) {
  return duration_ns(text, [&] {
    throw InputError(fmt::format("{}: '{}' is not a duration; accepted: a non-negative number of nanoseconds "
                                 "(a fraction allowed) up to 1e6 s, written with a unit ns, us, ms or s (e.g. "
                                 "6.3ns, 1.3us, 25ms), or 0",
                                 what, text));
  });
}

std::optional<SimTime> units_work(std::uint64_t units, double per_unit) {
  if (per_unit == std::floor(per_unit)) {
    SimTime work;
    if (units > static_cast<std::uint64_t>(INT64_MAX) ||
        __builtin_mul_overflow(static_cast<SimTime>(units), static_cast<SimTime>(per_unit), &work))
      return std::nullopt;
    return work;
  }
  const double work = std::round(static_cast<double>(units) * per_unit);
  if (!(work < 9e18)) return std::nullopt;
  return static_cast<SimTime>(work);
}

std::string format_duration(SimTime t) {
  const auto in = [t](double unit, const char* name) { return fmt::format("{:.4g}{}", static_cast<double>(t) / unit, name); };
  const SimTime a = t < 0 ? -t : t;
  if (a >= kSecond) return in(1e9, "s");
  if (a >= kMillisecond) return in(1e6, "ms");
  if (a >= kMicrosecond) return in(1e3, "us");
  return fmt::format("{}ns", t);
}

std::string exact_duration(SimTime t) {
  const std::string human = format_duration(t);
  return t >= 0 && parse_duration(human, "duration") == t ? human : fmt::format("{}ns", t);
}

}  // namespace dlbkit
