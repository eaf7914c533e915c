#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/stop_rule.hpp>

#include <fmt/format.h>

#include <cmath>

namespace dlbkit {

namespace {

constexpr const char* kAccepted = "steps:N (N >= 0), eps:X (0 < X < 1) or balanced:TOL (TOL >= 0)";

[[noreturn]] void reject(const std::string& spec) {
  throw InputError(fmt::format("stop rule '{}' is not accepted; accepted: {}", spec, kAccepted));
}

template <class T>
T parse_whole(const std::string& text, const std::string& spec) {
  T x{};
  if (!parse_number(text, x)) reject(spec);
  return x;
}

}  // namespace

StopRule StopRule::parse(const std::string& spec) {
  const auto colon = spec.find(':');
  if (colon == std::string::npos) reject(spec);
  const std::string kind = spec.substr(0, colon), value = spec.substr(colon + 1);
  StopRule r;
  if (kind == "steps") {
    r.kind = Kind::steps;
    r.steps = parse_whole<std::uint64_t>(value, spec);
  } else if (kind == "eps") {
    r.kind = Kind::eps;
    r.threshold = parse_whole<double>(value, spec);
    if (!(r.threshold > 0 && r.threshold < 1)) reject(spec);
  } else if (kind == "balanced") {
    r.kind = Kind::balanced;
    r.threshold = parse_whole<double>(value, spec);
    if (!(r.threshold >= 0) || !std::isfinite(r.threshold)) reject(spec);
  } else {
    reject(spec);
  }
  return r;
}

std::string StopRule::to_string() const {
  switch (kind) {
    case Kind::steps: return fmt::format("steps:{}", steps);
    case Kind::eps: return fmt::format("eps:{}", threshold);
    case Kind::balanced: return fmt::format("balanced:{}", threshold);
  }
  return {};
}

}  // namespace dlbkit
