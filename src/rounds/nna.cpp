// Synchronous NNA on a ring with the asymmetric rounding of Henrich Sec. 5 (see nna.hpp).

#include <dlbkit/error.hpp>
#include <dlbkit/rounds/nna.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace dlbkit {

namespace {

// |Delta(i)| + 1 on a ring: eq. (3), (5).
constexpr std::int64_t kPortions = 3;

std::int64_t ceil_third(std::int64_t x) { return (x + kPortions - 1) / kPortions; }  // x >= 0

// Net flow over the link (i, i+1), positive to the right: (L_i - L_{i+1})/3, a transfer to
// the right rounded up, one to the left rounded down (Sec. 5).
std::int64_t net_flow(std::int64_t left, std::int64_t right) {
  const std::int64_t d = left - right;
  return d > 0 ? ceil_third(d) : -((-d) / kPortions);
}

}  // namespace

NnaTransfer parse_nna_transfer(const std::string& text) {
  if (text == "net") return NnaTransfer::net;
  if (text == "gross") return NnaTransfer::gross;
  throw InputError(fmt::format("NNA transfer '{}' is not accepted; accepted: net (the difference of the opposed "
                               "transfers, Henrich fn. 3) or gross (eq. 5 as written)",
                               text));
}

NnaTime parse_nna_time(const std::string& text) {
  if (text == "sequential") return NnaTime::sequential;
  if (text == "simultaneous") return NnaTime::simultaneous;
  throw InputError(fmt::format("NNA time rule '{}' is not accepted; accepted: sequential (right shifts, then left "
                               "shifts) or simultaneous (both directions at once)",
                               text));
}

std::string to_string(NnaTransfer t) { return t == NnaTransfer::net ? "net" : "gross"; }
std::string to_string(NnaTime t) { return t == NnaTime::sequential ? "sequential" : "simultaneous"; }

NnaKernel::NnaKernel(const Topology& topology, NnaTransfer transfer, NnaTime time)
    : size_(topology.size()), transfer_(transfer), time_(time) {
  const bool ring = topology.kind() == TopologyKind::ring ||
                    (topology.kind() == TopologyKind::torus && topology.extents().size() == 1 && size_ >= 3);
  if (!ring)
    throw InputError(fmt::format("nna runs on a ring (the asymmetric rounding of Henrich Sec. 5 is defined for left "
                                 "and right neighbours), not on {}; accepted: ring:N (N >= 3) or torus:N",
                                 topology.spec()));
}

void NnaKernel::update(std::uint64_t, std::span<const double> w, std::span<double> next, NodeId begin,
                       NodeId end) const {
  const std::size_t n = size_;
  for (std::size_t i = begin; i < end; ++i)
    next[i] = (w[(i + n - 1) % n] + w[i] + w[(i + 1) % n]) / static_cast<double>(kPortions);  // eq. (3)
}

void NnaKernel::update(std::uint64_t, std::span<const std::int64_t> w, std::span<std::int64_t> next, NodeId begin,
                       NodeId end) const {
  const std::size_t n = size_;
  for (std::size_t i = begin; i < end; ++i) {
    const std::int64_t pred = w[(i + n - 1) % n], self = w[i], succ = w[(i + 1) % n];
    if (transfer_ == NnaTransfer::net) {
      next[i] = self - net_flow(self, succ) + net_flow(pred, self);
    } else {  // eq. (5): ceil(L/3) to the right, floor(L/3) to the left
      next[i] = self - ceil_third(self) - self / kPortions + ceil_third(pred) + succ / kPortions;
    }
  }
}

std::uint64_t NnaKernel::shifts(std::span<const std::int64_t> w) const {
  const std::size_t n = size_;
  std::int64_t right = 0, left = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (transfer_ == NnaTransfer::net) {
      const std::int64_t f = net_flow(w[i], w[(i + 1) % n]);
      right = std::max(right, f);
      left = std::max(left, -f);
    } else {
      right = std::max(right, ceil_third(w[i]));
      left = std::max(left, w[i] / kPortions);
    }
  }
  return static_cast<std::uint64_t>(time_ == NnaTime::sequential ? right + left : std::max(right, left));
}

}  // namespace dlbkit
