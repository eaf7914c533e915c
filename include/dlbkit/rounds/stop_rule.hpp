#pragma once
/// \file
/// When the round loop stops:
///
/// | spec | stops after the step at which |
/// |---|---|
/// | steps:N | N steps have run (N >= 0) |
/// | eps:X | ||w - w_bar|| / ||w0 - w_bar|| <= X (0 < X < 1; Euclidean norms, Cyb89 Sec. 2) |
/// | balanced:TOL | max_i w_i - min_i w_i <= TOL (TOL >= 0) |
///
/// The engine also stops at its step limit (RoundLoopOptions::max_steps) and reports whether the
/// rule was met. A rule already met by w0 stops after 0 steps.
///
/// ```
/// dlbkit::StopRule r = dlbkit::StopRule::parse("eps:1e-6");
/// ```

#include <cstdint>
#include <string>

namespace dlbkit {

struct StopRule {
  enum class Kind { steps, eps, balanced };
  Kind kind = Kind::steps;
  std::uint64_t steps = 0;  ///< for steps:N
  double threshold = 0;     ///< X for eps, TOL for balanced

  /// Throws InputError naming the spec and the accepted forms.
  static StopRule parse(const std::string& spec);
  std::string to_string() const;
};

}  // namespace dlbkit
