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

namespace {

// The new load of a processor from its predecessor's, its own and its successor's.
inline std::int64_t nna_step(NnaTransfer transfer, std::int64_t pred, std::int64_t self, std::int64_t succ) {
  if (transfer == NnaTransfer::net) return self - nna_net_flow(self, succ) + nna_net_flow(pred, self);
  return self - nna_right(self) - nna_left(self) + nna_right(pred) + nna_left(succ);  // eq. (5)
}

}  // namespace

void NnaKernel::update(std::uint64_t, std::span<const std::int64_t> w, std::span<std::int64_t> next, NodeId begin,
                       NodeId end) const {
  const std::size_t n = size_;
  const auto at = [&](std::size_t i) {
    return nna_step(transfer_, w[(i + n - 1) % n], w[i], w[(i + 1) % n]);
  };
  std::size_t i = begin;
  if (i == 0 && i < end) {
    next[0] = at(0);
    i = 1;
  }
  const std::size_t interior_end = std::min<std::size_t>(end, n - 1);  // neighbours i - 1, i + 1
  if (transfer_ == NnaTransfer::net) {
    for (; i < interior_end; ++i) next[i] = nna_step(NnaTransfer::net, w[i - 1], w[i], w[i + 1]);
  } else {
    for (; i < interior_end; ++i) next[i] = nna_step(NnaTransfer::gross, w[i - 1], w[i], w[i + 1]);
  }
  for (; i < end; ++i) next[i] = at(i);
}

std::uint64_t NnaKernel::shifts(std::span<const std::int64_t> w) const {
  const std::size_t n = size_;
  std::int64_t right = 0, left = 0;
  if (transfer_ == NnaTransfer::net) {
    for (std::size_t i = 0; i < n; ++i) {
      const std::int64_t f = nna_net_flow(w[i], w[i + 1 == n ? 0 : i + 1]);
      right = std::max(right, f);
      left = std::max(left, -f);
    }
  } else {
    for (const std::int64_t x : w) {
      right = std::max(right, nna_right(x));
      left = std::max(left, nna_left(x));
    }
  }
  return static_cast<std::uint64_t>(time_ == NnaTime::sequential ? right + left : std::max(right, left));
}

}  // namespace dlbkit
