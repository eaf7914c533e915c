#include <dlbkit/error.hpp>
#include <dlbkit/strategies/local_rules.hpp>

#include <fmt/format.h>

namespace dlbkit {

ShiftCondition parse_shift_condition(const std::string& text) {
  if (text.size() == 2 && (text[0] == 'c' || text[0] == 'C') && text[1] >= '0' && text[1] <= '5')
    return static_cast<ShiftCondition>(text[1] - '0');
  throw InputError(fmt::format("shift condition '{}' is not accepted; accepted: c0, c1, c2, c3, c4, c5 "
                               "(Henrich Table 1)",
                               text));
}

std::string to_string(ShiftCondition c) { return fmt::format("c{}", static_cast<int>(c)); }

NnaTransfer parse_nna_transfer(const std::string& text) {
  if (text == "net") return NnaTransfer::net;
  if (text == "gross") return NnaTransfer::gross;
  throw InputError(fmt::format("NNA transfer '{}' is not accepted; accepted: net (the difference of the opposed "
                               "transfers, Henrich fn. 3) or gross (eq. 5 as written)",
                               text));
}

std::string to_string(NnaTransfer t) { return t == NnaTransfer::net ? "net" : "gross"; }

void check_liquid_topology(const Topology& topology) {
  const TopologyKind k = topology.kind();
  if (k != TopologyKind::torus && k != TopologyKind::ring && k != TopologyKind::hypercube)
    throw InputError(fmt::format("the Liquid model runs on a D-dimensional torus, not on {}; accepted: torus:AxBx..., "
                                 "ring:N or hypercube:d (the torus 2x2x...x2)",
                                 topology.spec()));
}

void check_nna_topology(const Topology& topology) {
  const bool ring = topology.kind() == TopologyKind::ring ||
                    (topology.kind() == TopologyKind::torus && topology.extents().size() == 1 && topology.size() >= 3);
  if (!ring)
    throw InputError(fmt::format("nna runs on a ring (the asymmetric rounding of Henrich Sec. 5 is defined for left "
                                 "and right neighbours), not on {}; accepted: ring:N (N >= 3) or torus:N",
                                 topology.spec()));
}

}  // namespace dlbkit
