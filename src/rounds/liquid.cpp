// The Liquid model, Henrich Sec. 3.2, Table 1 and Definition 1 (see liquid.hpp).

#include <dlbkit/rounds/liquid.hpp>


#include <algorithm>

namespace dlbkit {

namespace {

// Definition 1 for `count` processors at w[0..count) whose predecessor's predecessor,
// predecessor and successor lie at the fixed offsets pp, p and s.
template <ShiftCondition C, class Load>
void run(const Load* __restrict w, Load* __restrict next, std::size_t count, std::ptrdiff_t pp, std::ptrdiff_t p,
         std::ptrdiff_t s) {
#pragma omp simd
  for (std::ptrdiff_t j = 0; j < static_cast<std::ptrdiff_t>(count); ++j) {
    const Load self = w[j], pred = w[j + p];
    next[j] = self + shifts<C>(w[j + pp], pred, self) - shifts<C>(pred, self, w[j + s]);
  }
}

// The offset from coordinate c to coordinate (c + delta) mod k, in units of the stride.
inline std::ptrdiff_t wrap(std::ptrdiff_t c, std::ptrdiff_t delta, std::ptrdiff_t k) {
  return ((c + delta) % k + k) % k - c;
}

template <ShiftCondition C, class Load>
void fast(const Load* w, Load* next, std::size_t begin, std::size_t end, std::size_t stride, int extent) {
  const auto k = static_cast<std::ptrdiff_t>(extent);
  const auto st = static_cast<std::ptrdiff_t>(stride);
  for (std::size_t v = begin; v < end;) {
    const std::size_t row = v / stride;
    const auto c = static_cast<std::ptrdiff_t>(row % static_cast<std::size_t>(extent));
    std::size_t count = 1;
    if (stride > 1)
      count = std::min(end, (row + 1) * stride) - v;  // the whole run shares coordinate c
    else if (c >= 2 && c + 1 < k)
      count = std::min(end - v, static_cast<std::size_t>(k - 1 - c));  // interior: offsets -2, -1, +1
    run<C>(w + v, next + v, count, wrap(c, -2, k) * st, wrap(c, -1, k) * st, wrap(c, 1, k) * st);
    v += count;
  }
}

template <ShiftCondition C, class Load>
void reference(const Load* w, Load* next, std::size_t begin, std::size_t end, std::size_t stride, int extent) {
  for (std::size_t v = begin; v < end; ++v) {
    const std::size_t c = (v / stride) % static_cast<std::size_t>(extent);
    const std::size_t base = v - c * stride;
    const auto at = [&](std::size_t coordinate) { return w[base + coordinate % static_cast<std::size_t>(extent) * stride]; };
    const std::size_t k = static_cast<std::size_t>(extent);
    const Load self = w[v], pred = at(c + k - 1), pred2 = at(c + 2 * k - 2), succ = at(c + 1);
    next[v] = self + shifts<C>(pred2, pred, self) - shifts<C>(pred, self, succ);
  }
}

}  // namespace

LiquidKernel::LiquidKernel(const Topology& topology, ShiftCondition condition, LiquidPath path)
    : condition_(condition), path_(path) {
  check_liquid_topology(topology);
  const auto e = topology.extents();
  extents_.assign(e.begin(), e.end());
  std::size_t stride = 1;
  for (const int k : extents_) {
    strides_.push_back(stride);
    stride *= static_cast<std::size_t>(k);
  }
  size_ = stride;
}

template <class Load>
void LiquidKernel::apply(std::uint64_t step, const Load* w, Load* next, std::size_t begin, std::size_t end) const {
  const std::size_t d = static_cast<std::size_t>(step % extents_.size());
  const std::size_t stride = strides_[d];
  const int extent = extents_[d];
  const auto go = [&]<ShiftCondition C>() {
    if (path_ == LiquidPath::reference) reference<C>(w, next, begin, end, stride, extent);
    else fast<C>(w, next, begin, end, stride, extent);
  };
  switch (condition_) {
    case ShiftCondition::c0: go.template operator()<ShiftCondition::c0>(); break;
    case ShiftCondition::c1: go.template operator()<ShiftCondition::c1>(); break;
    case ShiftCondition::c2: go.template operator()<ShiftCondition::c2>(); break;
    case ShiftCondition::c3: go.template operator()<ShiftCondition::c3>(); break;
    case ShiftCondition::c4: go.template operator()<ShiftCondition::c4>(); break;
    case ShiftCondition::c5: go.template operator()<ShiftCondition::c5>(); break;
  }
}

void LiquidKernel::update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
                          NodeId end) const {
  apply(step, current.data(), next.data(), begin, end);
}

void LiquidKernel::update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next,
                          NodeId begin, NodeId end) const {
  apply(step, current.data(), next.data(), begin, end);
}

}  // namespace dlbkit
