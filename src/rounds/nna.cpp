// Synchronous NNA on a ring with the asymmetric rounding of Henrich Sec. 5 (see nna.hpp).

#include <dlbkit/error.hpp>
#include <dlbkit/rounds/nna.hpp>

#include <fmt/format.h>

#include <algorithm>

namespace dlbkit {

NnaTime parse_nna_time(const std::string& text) {
  if (text == "sequential") return NnaTime::sequential;
  if (text == "simultaneous") return NnaTime::simultaneous;
  throw InputError(fmt::format("NNA time rule '{}' is not accepted; accepted: sequential (right shifts, then left "
                               "shifts) or simultaneous (both directions at once)",
                               text));
}

std::string to_string(NnaTime t) { return t == NnaTime::sequential ? "sequential" : "simultaneous"; }

NnaKernel::NnaKernel(const Topology& topology, NnaTransfer transfer, NnaTime time)
    : size_(topology.size()), transfer_(transfer), time_(time) {
  check_nna_topology(topology);
}

void NnaKernel::update(std::uint64_t, std::span<const double> w, std::span<double> next, NodeId begin,
                       NodeId end) const {
  const std::size_t n = size_;
  for (std::size_t i = begin; i < end; ++i)
    next[i] = (w[(i + n - 1) % n] + w[i] + w[(i + 1) % n]) / static_cast<double>(kNnaPortions);  // eq. (3)
}

void NnaKernel::update(std::uint64_t, std::span<const std::int64_t> w, std::span<std::int64_t> next, NodeId begin,
                       NodeId end) const {
  const std::size_t n = size_;
  for (std::size_t i = begin; i < end; ++i) {
    const std::int64_t pred = w[(i + n - 1) % n], self = w[i], succ = w[(i + 1) % n];
    if (transfer_ == NnaTransfer::net) {
      next[i] = self - nna_net_flow(self, succ) + nna_net_flow(pred, self);
    } else {  // eq. (5): ceil(L/3) to the right, floor(L/3) to the left
      next[i] = self - nna_right(self) - nna_left(self) + nna_right(pred) + nna_left(succ);
    }
  }
}

std::uint64_t NnaKernel::shifts(std::span<const std::int64_t> w) const {
  const std::size_t n = size_;
  std::int64_t right = 0, left = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (transfer_ == NnaTransfer::net) {
      const std::int64_t f = nna_net_flow(w[i], w[(i + 1) % n]);
      right = std::max(right, f);
      left = std::max(left, -f);
    } else {
      right = std::max(right, nna_right(w[i]));
      left = std::max(left, nna_left(w[i]));
    }
  }
  return static_cast<std::uint64_t>(time_ == NnaTime::sequential ? right + left : std::max(right, left));
}

}  // namespace dlbkit
