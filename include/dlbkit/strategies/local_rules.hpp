#pragma once
/// \file
/// The local rules of the Liquid model and of synchronous NNA on a ring (Henrich), shared by
/// the message-driven agents (src/strategies/liquid.cpp, nna.cpp) and the round kernels
/// (rounds/liquid.hpp, rounds/nna.hpp), so both move exactly the same load.
///
/// Shift conditions of Table 1: C_{i,d} from the loads of the predecessor L_{i-1}, the
/// processor L_i and its successor L_{i+1} in dimension d; where it holds, P_i shifts one load
/// element to P_{i+1}.
///
/// | condition | shifts when |
/// |---|---|
/// | c0 | L_i > 0 |
/// | c1 | L_i > 1 |
/// | c2 | c1 or (L_i = 1 and L_{i-1} > 1) |
/// | c3 | c1 and L_i >= L_{i+1} |
/// | c4 | c2 and L_i >= L_{i+1} |
/// | c5 | c0 and L_i >= L_{i+1} |
///
/// NNA's transfers on a ring with the asymmetric rounding of Sec. 5 (eq. 5 divides a load into
/// |Delta(i)| + 1 = 3 portions): see rounds/nna.hpp for the two readings.
///
/// ```
/// bool shift = dlbkit::shifts(dlbkit::ShiftCondition::c5, pred, self, succ) != 0;
/// std::int64_t right = dlbkit::nna_net_flow(self, succ);   // > 0: to succ, < 0: from succ
/// ```

#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <string>

namespace dlbkit {

enum class ShiftCondition { c0, c1, c2, c3, c4, c5 };

/// "c0".."c5" (or "C0".."C5"); throws InputError naming the text and the accepted names.
ShiftCondition parse_shift_condition(const std::string& text);
std::string to_string(ShiftCondition c);

/// [C_{i,d}] as 0 or 1, without branches (the round kernel vectorises it).
template <ShiftCondition C, class Load>
inline Load shifts(Load pred, Load self, Load succ) {
  const bool c0 = self > 0;
  const bool c1 = self > 1;
  const bool c2 = c1 | ((self == 1) & (pred > 1));
  const bool not_less = self >= succ;
  bool c = false;
  if constexpr (C == ShiftCondition::c0) c = c0;
  if constexpr (C == ShiftCondition::c1) c = c1;
  if constexpr (C == ShiftCondition::c2) c = c2;
  if constexpr (C == ShiftCondition::c3) c = c1 & not_less;
  if constexpr (C == ShiftCondition::c4) c = c2 & not_less;
  if constexpr (C == ShiftCondition::c5) c = c0 & not_less;
  return static_cast<Load>(c);
}

template <class Load>
inline Load shifts(ShiftCondition c, Load pred, Load self, Load succ) {
  switch (c) {
    case ShiftCondition::c0: return shifts<ShiftCondition::c0>(pred, self, succ);
    case ShiftCondition::c1: return shifts<ShiftCondition::c1>(pred, self, succ);
    case ShiftCondition::c2: return shifts<ShiftCondition::c2>(pred, self, succ);
    case ShiftCondition::c3: return shifts<ShiftCondition::c3>(pred, self, succ);
    case ShiftCondition::c4: return shifts<ShiftCondition::c4>(pred, self, succ);
    case ShiftCondition::c5: return shifts<ShiftCondition::c5>(pred, self, succ);
  }
  return 0;
}

enum class NnaTransfer { net, gross };

/// "net" or "gross"; InputError naming the text otherwise.
NnaTransfer parse_nna_transfer(const std::string& text);
std::string to_string(NnaTransfer t);

/// |Delta(i)| + 1 on a ring (eq. 3, 5).
inline constexpr std::int64_t kNnaPortions = 3;

/// ceil(x / 3) for x >= 0: a transfer to the right is rounded up (Sec. 5).
inline std::int64_t nna_right(std::int64_t x) { return (x + kNnaPortions - 1) / kNnaPortions; }
/// floor(x / 3) for x >= 0: a transfer to the left is rounded down.
inline std::int64_t nna_left(std::int64_t x) { return x / kNnaPortions; }

/// Net elements over the link from `left` (L_i) to its right neighbour `right` (L_{i+1}),
/// positive to the right: the difference of the two opposed transfers of eq. (5), fn. 3,
/// (L_i - L_{i+1})/3 rounded up to the right or down to the left.
inline std::int64_t nna_net_flow(std::int64_t left, std::int64_t right) {
  const std::int64_t d = left - right;
  return d > 0 ? nna_right(d) : -nna_left(-d);
}

/// The Liquid model runs on a D-dimensional torus: torus, ring or hypercube (2x2x...x2);
/// throws InputError naming the topology and what is accepted otherwise.
void check_liquid_topology(const Topology& topology);
/// NNA with the asymmetric rounding runs on a ring: ring:N or a torus with one extent >= 3;
/// throws InputError naming the topology and what is accepted otherwise.
void check_nna_topology(const Topology& topology);

}  // namespace dlbkit
