#pragma once
/// \file
/// Time to load sharing and to load balancing, in shifts (Henrich Sec. 5): runs the Liquid
/// model or NNA on integer loads until the configuration is balanced and shared.
///
/// - balanced (Definition 2): |L_i - L_j| <= D for all i, j, D the torus dimension (1 on a
///   ring); BalanceOptions::tolerance replaces D when set;
/// - shared: every processor holds at least one load element (min L_i >= 1).
///
/// The run stops once both hold (sharing is not required when the total is below the number of
/// processors, where it is impossible), at a fixed point (a whole Definition-1 step or NNA
/// iteration that changes no load: LM-C0..C2 stop so once they have shared the load, as they
/// do not balance), or at the shift limit. The Liquid model is checked
/// after every shift (one dimension's sub-step); NNA after every iteration, whose shifts
/// NnaKernel::shifts() counts.
///
/// ```
/// dlbkit::LiquidKernel lm(dlbkit::parse_topology("ring:8"), dlbkit::ShiftCondition::c5);
/// std::vector<std::int64_t> w{16, 0, 0, 0, 0, 0, 0, 0};
/// dlbkit::BalanceResult r = dlbkit::run_to_balance(lm, w, {});
/// // *r.shifts_to_sharing == 7, *r.shifts_to_balancing == 18 (Table 3)
/// ```

#include <dlbkit/rounds/liquid.hpp>
#include <dlbkit/rounds/nna.hpp>

#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlbkit {

struct BalanceOptions {
  std::optional<std::int64_t> tolerance;  ///< balanced when max - min <= this; default D
  bool stop_when_balanced = true;         ///< false: run to max_shifts
  std::uint64_t max_shifts = 1'000'000'000;
  bool record = false;                    ///< keep the loads after every step
};

/// The loads after a step, at time `shifts`.
struct BalanceSnapshot {
  std::uint64_t shifts = 0;
  std::vector<std::int64_t> loads;
};

struct BalanceResult {
  std::uint64_t shifts = 0;  ///< time at the end, in shifts
  std::uint64_t steps = 0;   ///< LM: shifts (sub-steps); NNA: iterations
  std::optional<std::uint64_t> shifts_to_sharing, shifts_to_balancing;  ///< first time shared / balanced
  std::optional<std::uint64_t> steps_to_sharing, steps_to_balancing;
  bool shared = false, balanced = false;  ///< at the end
  bool fixed_point = false;               ///< stopped because the loads no longer change
  std::int64_t tolerance = 0;             ///< max - min accepted as balanced
  std::int64_t total_initial = 0, total_final = 0;
  std::int64_t max_min_difference = 0;  ///< at the end
  std::vector<BalanceSnapshot> trace;   ///< with record: after steps 0, 1, ...
  double seconds = 0;
};

/// Runs `kernel` on `load` (updated in place). Throws InputError for a load vector of the wrong
/// size or with a negative entry.
BalanceResult run_to_balance(const LiquidKernel& kernel, std::vector<std::int64_t>& load,
                             const BalanceOptions& options);
BalanceResult run_to_balance(const NnaKernel& kernel, std::vector<std::int64_t>& load, const BalanceOptions& options);

/// {shifts, steps, shifts_to_sharing, shifts_to_balancing, steps_to_sharing, steps_to_balancing
///  (null when not reached), shared, balanced, fixed_point, tolerance, total_initial, total_final,
///  max_min_difference, seconds, trace (with record)}.
nlohmann::json to_json(const BalanceResult& r);

}  // namespace dlbkit
