#include <dlbkit/rounds/diffusion_kernel.hpp>

#include <algorithm>
#include <cstdint>
#include <type_traits>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace dlbkit {

namespace {

// The load that crosses one edge towards a node: alpha (w_j - w_i) for reals, rounded toward
// zero for integers (the rule of round_kernel.hpp).
inline double edge_term(double a, double difference) { return a * difference; }
inline std::int64_t edge_term(double a, std::int64_t difference) {
  return static_cast<std::int64_t>(a * static_cast<double>(difference));
}

// The inner loops of the stencil paths, for doubles. `omp simd` (compiled with -fopenmp-simd,
// no OpenMP runtime) vectorises them without reordering any lane's operations, so they give
// the same bits as the scalar loops; on x86-64 each is built for AVX-512, AVX2 and the
// baseline, and the loader picks the widest the processor has.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define DLBKIT_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DLBKIT_SIMD_CLONES
#endif

// s[j] += a (partner[j] - own[j]) for j < count: one hypercube dimension over a run of nodes.
DLBKIT_SIMD_CLONES void add_edge_terms(double* s, const double* partner, const double* own, NodeId count, double a) {
#pragma omp simd
  for (NodeId j = 0; j < count; ++j) s[j] += a * (partner[j] - own[j]);
}

// The same for the dimensions whose runs are shorter than a vector (mask 1, 2, 4): the
// partner of j is j ^ mask within the chunk, written as pairs of groups so the loop over
// groups vectorises with shuffles.
template <NodeId M>
[[gnu::always_inline]] inline void add_edge_terms_low(double* s, const double* w, NodeId count, double a) {
#pragma omp simd
  for (NodeId i = 0; i < count; i += 2 * M) {
    for (NodeId j = i; j < i + M; ++j) {
      s[j] += a * (w[j + M] - w[j]);
      s[j + M] += a * (w[j] - w[j + M]);
    }
  }
}
DLBKIT_SIMD_CLONES void add_edge_terms_low(double* s, const double* w, NodeId count, NodeId mask, double a) {
  switch (mask) {
    case 1: return add_edge_terms_low<1>(s, w, count, a);
    case 2: return add_edge_terms_low<2>(s, w, count, a);
    default: return add_edge_terms_low<4>(s, w, count, a);
  }
}

// out[x] = w_x + s_x for x in [from, to), the row interior of a 2-D torus whose neighbours
// are x+1, x-1 in the row and x in the rows above and below (the generator's order).
DLBKIT_SIMD_CLONES void torus_row_interior(const double* here, const double* up, const double* down, double* out,
                                           NodeId from, NodeId to, double a) {
#pragma omp simd
  for (NodeId x = from; x < to; ++x) {
    const double wv = here[x];
    double s = 0;
    s += a * (here[x + 1] - wv);
    s += a * (here[x - 1] - wv);
    s += a * (up[x] - wv);
    s += a * (down[x] - wv);
    out[x] = wv + s;
  }
}

#if defined(__x86_64__) && defined(__GNUC__)
// The same with streaming (non-temporal) stores, for vectors far larger than the caches:
// writing `out` then costs no read of its old contents, as in a large memcpy.
[[gnu::target("avx2")]] void torus_row_interior_stream(const double* here, const double* up, const double* down,
                                                       double* out, NodeId from, NodeId to, double a) {
  // The unaligned head and the tail go through the ordinary loop.
  NodeId x = from;
  while (x < to && reinterpret_cast<std::uintptr_t>(out + x) % 32 != 0) ++x;
  torus_row_interior(here, up, down, out, from, x, a);
  const __m256d alpha = _mm256_set1_pd(a);
  for (; x + 4 <= to; x += 4) {
    const __m256d wv = _mm256_loadu_pd(here + x);
    __m256d s = _mm256_setzero_pd();
    s = _mm256_add_pd(s, _mm256_mul_pd(alpha, _mm256_sub_pd(_mm256_loadu_pd(here + x + 1), wv)));
    s = _mm256_add_pd(s, _mm256_mul_pd(alpha, _mm256_sub_pd(_mm256_loadu_pd(here + x - 1), wv)));
    s = _mm256_add_pd(s, _mm256_mul_pd(alpha, _mm256_sub_pd(_mm256_loadu_pd(up + x), wv)));
    s = _mm256_add_pd(s, _mm256_mul_pd(alpha, _mm256_sub_pd(_mm256_loadu_pd(down + x), wv)));
    _mm256_stream_pd(out + x, _mm256_add_pd(wv, s));
  }
  torus_row_interior(here, up, down, out, x, to, a);
}
#endif

}  // namespace

DiffusionKernel::DiffusionKernel(DiffusionMatrix m) : m_(std::move(m)) {
  const Topology& t = m_.topology();
  if (!m_.uniform_alpha()) return;
  if (t.kind() == TopologyKind::hypercube) stencil_ = Stencil::hypercube;
  const auto e = t.extents();
  if (t.kind() == TopologyKind::torus && e.size() == 2 && e[0] >= 3 && e[1] >= 3) stencil_ = Stencil::torus2d;
#if defined(__x86_64__) && defined(__GNUC__)
  // Streaming stores pay off once the two vectors (2 x 32 MiB here) outgrow the last-level cache.
  stream_ = stencil_ == Stencil::torus2d && t.size() >= (std::size_t{1} << 22) && __builtin_cpu_supports("avx2");
#endif
}

template <class Load>
void DiffusionKernel::apply(std::span<const Load> w, std::span<Load> next, NodeId begin, NodeId end) const {
  const Topology& t = m_.topology();
  // Every path computes next_v = w_v + sum_i term(alpha_vi, w_{n_i} - w_v) over the
  // neighbours in the topology's order (eq. 1a), so all give the same bits.
  switch (stencil_) {
    case Stencil::hypercube: {
      // Dimension by dimension over chunks of nodes: each node still adds its terms in bit
      // order, but consecutive nodes no longer wait on one another's additions. A chunk
      // (128 KiB of sums) stays in the L2 cache with its loads, so only the dimensions
      // above the chunk read partners from further away.
      const double a = *m_.uniform_alpha();
      const auto d = static_cast<unsigned>(t.extents().size());
      constexpr NodeId kChunk = 16384;
      std::vector<Load> sums(std::min(kChunk, end - begin));
      Load* s = sums.data();
      for (NodeId first = begin; first < end; first += kChunk) {
        const NodeId count = std::min(kChunk, end - first);
        std::fill(s, s + count, Load{0});
        for (unsigned bit = 0; bit < d; ++bit) {
          // Partners v ^ mask are contiguous over each run of nodes that agree in bits >= bit.
          const NodeId mask = NodeId{1} << bit;
          if constexpr (std::is_same_v<Load, double>) {
            if (mask <= 4 && first % (2 * mask) == 0 && count % (2 * mask) == 0) {
              add_edge_terms_low(s, w.data() + first, count, mask, a);
              continue;
            }
          }
          for (NodeId i = 0; i < count;) {
            const NodeId v = first + i;
            const NodeId run = std::min(count - i, mask - (v & (mask - 1)));
            const Load* partner = w.data() + (v ^ mask);
            const Load* own = w.data() + v;
            if constexpr (std::is_same_v<Load, double>) {
              add_edge_terms(s + i, partner, own, run, a);
            } else {
              for (NodeId j = 0; j < run; ++j) s[i + j] += edge_term(a, partner[j] - own[j]);
            }
            i += run;
          }
        }
        for (NodeId i = 0; i < count; ++i) next[first + i] = w[first + i] + s[i];
      }
      return;
    }
    case Stencil::torus2d: {
      // Row by row; the interior of a row needs no wrap-around tests. Neighbour order of the
      // generator: x+1, x-1, y+1, y-1.
      const double a = *m_.uniform_alpha();
      const auto nx = static_cast<NodeId>(t.extents()[0]);
      const auto ny = static_cast<NodeId>(t.extents()[1]);
      for (NodeId v = begin; v < end;) {
        const NodeId y = v / nx, row = y * nx;
        const NodeId stop = std::min(end, row + nx);
        const Load* here = w.data() + row;
        const Load* up = w.data() + (y + 1 == ny ? 0 : row + nx);
        const Load* down = w.data() + (y == 0 ? (ny - 1) * nx : row - nx);
        Load* out = next.data() + row;
        const auto node = [&](NodeId x, NodeId right, NodeId left) {
          const Load wv = here[x];
          Load s = 0;
          s += edge_term(a, here[right] - wv);
          s += edge_term(a, here[left] - wv);
          s += edge_term(a, up[x] - wv);
          s += edge_term(a, down[x] - wv);
          out[x] = wv + s;
        };
        NodeId x = v - row;
        if (x == 0) {
          node(0, 1, nx - 1);
          ++x;
        }
        const NodeId interior_end = std::min(stop - row, nx - 1);
        if constexpr (std::is_same_v<Load, double>) {
          if (x < interior_end) {
            if (stream_) torus_row_interior_stream(here, up, down, out, x, interior_end, a);
            else torus_row_interior(here, up, down, out, x, interior_end, a);
          }
          x = std::max(x, interior_end);
        }
        for (; x < interior_end; ++x) {
          const Load wv = here[x];
          Load s = 0;
          s += edge_term(a, here[x + 1] - wv);
          s += edge_term(a, here[x - 1] - wv);
          s += edge_term(a, up[x] - wv);
          s += edge_term(a, down[x] - wv);
          out[x] = wv + s;
        }
        if (x == nx - 1 && row + x < stop) {
          node(nx - 1, 0, nx - 2);
          ++x;
        }
        v = row + x;
      }
#if defined(__x86_64__) && defined(__GNUC__)
      if (stream_) _mm_sfence();  // streaming stores are weakly ordered: publish them before returning
#endif
      return;
    }
    case Stencil::general:
      for (NodeId v = begin; v < end; ++v) {
        const auto nb = t.neighbors(v);
        const Load wv = w[v];
        Load s = 0;
        for (std::size_t i = 0; i < nb.size(); ++i) s += edge_term(m_.alpha(v, i), w[nb[i]] - wv);
        next[v] = wv + s;
      }
      return;
  }
}

void DiffusionKernel::update(std::uint64_t, std::span<const double> current, std::span<double> next, NodeId begin,
                             NodeId end) const {
  apply(current, next, begin, end);
}

void DiffusionKernel::update(std::uint64_t, std::span<const std::int64_t> current, std::span<std::int64_t> next,
                             NodeId begin, NodeId end) const {
  apply(current, next, begin, end);
}

}  // namespace dlbkit
