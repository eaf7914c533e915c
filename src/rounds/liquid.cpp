// The Liquid model, Henrich Sec. 3.2, Table 1 and Definition 1 (see liquid.hpp).

#include <dlbkit/rounds/liquid.hpp>

#include <algorithm>
#include <cstdint>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <type_traits>
#include <vector>

namespace dlbkit {

namespace {

// Table 1 on integers without comparisons: x86-64's baseline SSE2 has no 64-bit compare, so
// a > b is taken as the sign bit of b - a (exact for |loads| < 2^62). Same values as shifts<C>
// of local_rules.hpp (tested), in a form the compiler vectorises.
inline std::int64_t gt(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(b - a) >> 63);
}

template <ShiftCondition C>
inline std::int64_t shifts_by_sign(std::int64_t pred, std::int64_t self, std::int64_t succ) {
  const std::int64_t c0 = gt(self, 0), c1 = gt(self, 1);
  const std::int64_t c2 = c1 | (c0 & gt(pred, 1));  // L_i = 1 and L_{i-1} > 1, or C1
  const std::int64_t not_less = 1 - gt(succ, self);
  if constexpr (C == ShiftCondition::c0) return c0;
  if constexpr (C == ShiftCondition::c1) return c1;
  if constexpr (C == ShiftCondition::c2) return c2;
  if constexpr (C == ShiftCondition::c3) return c1 & not_less;
  if constexpr (C == ShiftCondition::c4) return c2 & not_less;
  if constexpr (C == ShiftCondition::c5) return c0 & not_less;
  return 0;
}

template <ShiftCondition C, class Load>
inline Load shift_of(Load pred, Load self, Load succ) {
  if constexpr (std::is_integral_v<Load>) return shifts_by_sign<C>(pred, self, succ);
  else return shifts<C>(pred, self, succ);
}

// Load vectors of at least this many processors (32 MiB of loads) are written with streaming
// stores: larger than the last-level caches of the machines we measure on.
constexpr std::size_t kStreamNodes = std::size_t{1} << 22;

// next[k] = x[k] + pred[k] - own[k] for k < n. With `stream` (load vectors far larger than
// the caches) the results go out with SSE2 streaming stores, which skip reading next's cache
// lines before overwriting them; apply() fences them.
inline void combine(const std::int64_t* x, const std::int64_t* pred, const std::int64_t* own, std::int64_t* next,
                    std::ptrdiff_t n, bool stream) {
  std::ptrdiff_t k = 0;
#if defined(__SSE2__)
  if (stream) {
    for (; k < n && (reinterpret_cast<std::uintptr_t>(next + k) & 15U) != 0; ++k) next[k] = x[k] + pred[k] - own[k];
    for (; k + 2 <= n; k += 2) {
      const auto at = [k](const std::int64_t* a) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(a + k)); };
      _mm_stream_si128(reinterpret_cast<__m128i*>(next + k), _mm_sub_epi64(_mm_add_epi64(at(x), at(pred)), at(own)));
    }
  }
#else
  (void)stream;
#endif
#pragma omp simd
  for (std::ptrdiff_t j = k; j < n; ++j) next[j] = x[j] + pred[j] - own[j];
}

// Definition 1 for `count` processors at w[0..count) whose predecessor's predecessor,
// predecessor and successor lie at the fixed offsets pp, p and s.
template <ShiftCondition C, class Load>
void run_kernel(const Load* __restrict w, Load* __restrict next, std::size_t count, std::ptrdiff_t pp, std::ptrdiff_t p,
                std::ptrdiff_t s, bool stream) {
  const auto n = static_cast<std::ptrdiff_t>(count);
  if constexpr (std::is_integral_v<Load>) {
    if (p == -1) {
      // A run along dimension 0: the predecessor is the previous element, so every [C_{i,d}]
      // is computed once per chunk (flag[k + 1] for processor k, flag[0] for the predecessor
      // of the first), then L_i + [C_{i-1,d}] - [C_{i,d}].
      constexpr std::ptrdiff_t kChunk = 512;
      alignas(16) Load flag[kChunk + 1];
      for (std::ptrdiff_t first = 0; first < n; first += kChunk) {
        const std::ptrdiff_t m = std::min(kChunk, n - first);
        const Load* x = w + first;
        flag[0] = shift_of<C>(x[pp], x[p], x[0]);
#pragma omp simd
        for (std::ptrdiff_t k = 0; k < m; ++k) flag[k + 1] = shift_of<C>(x[k + p], x[k], x[k + s]);
        combine(x, flag, flag + 1, next + first, m, stream);
      }
      return;
    }
  }
  (void)stream;
#pragma omp simd
  for (std::ptrdiff_t j = 0; j < n; ++j) {
    const Load self = w[j], pred = w[j + p];
    next[j] = self + shift_of<C>(w[j + pp], pred, self) - shift_of<C>(pred, self, w[j + s]);
  }
}

// The offset from coordinate c to coordinate (c + delta) mod k, in units of the stride.
inline std::ptrdiff_t wrap(std::ptrdiff_t c, std::ptrdiff_t delta, std::ptrdiff_t k) {
  return ((c + delta) % k + k) % k - c;
}

// A whole row across a dimension d > 0 (stride elements with coordinate c): [C_{i,d}] of the
// row is kept in `own`, and the next row, whose predecessor this row is, reads it as its
// [C_{i-1,d}] instead of evaluating the condition again (`carried`).
template <ShiftCondition C>
void run_row(const std::int64_t* __restrict x, std::int64_t* __restrict next, std::ptrdiff_t n, std::ptrdiff_t pp,
             std::ptrdiff_t p, std::ptrdiff_t s, bool carried, std::int64_t* __restrict pred_flags,
             std::int64_t* __restrict own, bool stream) {
  if (!carried) {
#pragma omp simd
    for (std::ptrdiff_t k = 0; k < n; ++k) pred_flags[k] = shift_of<C>(x[k + pp], x[k + p], x[k]);
  }
#pragma omp simd
  for (std::ptrdiff_t k = 0; k < n; ++k) own[k] = shift_of<C>(x[k + p], x[k], x[k + s]);
  combine(x, pred_flags, own, next, n, stream);
}

template <ShiftCondition C, class Load>
void fast(const Load* w, Load* next, std::size_t begin, std::size_t end, std::size_t stride, int extent,
          bool stream) {
  const auto k = static_cast<std::ptrdiff_t>(extent);
  const auto st = static_cast<std::ptrdiff_t>(stride);
  std::vector<Load> flags_a, flags_b;  // rows of [C_{i,d}]: the previous row's and this row's
  bool previous_full_row = false;  // a full row ends where the next row starts: it was row - 1
  for (std::size_t v = begin; v < end;) {
    const std::size_t row = v / stride;
    const auto c = static_cast<std::ptrdiff_t>(row % static_cast<std::size_t>(extent));
    std::size_t count = 1;
    if (stride > 1)
      count = std::min(end, (row + 1) * stride) - v;  // the whole run shares coordinate c
    else if (c >= 2 && c + 1 < k)
      count = std::min(end - v, static_cast<std::size_t>(k - 1 - c));  // interior: offsets -2, -1, +1
    const std::ptrdiff_t pp = wrap(c, -2, k) * st, p = wrap(c, -1, k) * st, s = wrap(c, 1, k) * st;
    bool done = false;
    if constexpr (std::is_integral_v<Load>) {
      if (stride > 1 && count == stride) {
        if (flags_a.empty()) {
          flags_a.resize(stride);
          flags_b.resize(stride);
        }
        const bool carried = previous_full_row && c >= 1;
        run_row<C>(w + v, next + v, st, pp, p, s, carried, flags_a.data(), flags_b.data(), stream);
        flags_a.swap(flags_b);  // this row's flags are the next row's predecessor flags
        done = true;
      }
    }
    if (!done) run_kernel<C>(w + v, next + v, count, pp, p, s, stream);
    previous_full_row = done;
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
    else fast<C>(w, next, begin, end, stride, extent, size_ >= kStreamNodes);
  };
  switch (condition_) {
    case ShiftCondition::c0: go.template operator()<ShiftCondition::c0>(); break;
    case ShiftCondition::c1: go.template operator()<ShiftCondition::c1>(); break;
    case ShiftCondition::c2: go.template operator()<ShiftCondition::c2>(); break;
    case ShiftCondition::c3: go.template operator()<ShiftCondition::c3>(); break;
    case ShiftCondition::c4: go.template operator()<ShiftCondition::c4>(); break;
    case ShiftCondition::c5: go.template operator()<ShiftCondition::c5>(); break;
  }
#if defined(__SSE2__)
  if (size_ >= kStreamNodes) _mm_sfence();  // the streaming stores of combine()
#endif
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
