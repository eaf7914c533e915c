#include <dlbkit/rounds/diffusion_kernel.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>
#include <type_traits>

// The x86-64 variants of the inner loops (target_clones, streaming stores), unless the build
// asks for the baseline only (DLBKIT_MULTIVERSION=OFF, as under the sanitizers).
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DLBKIT_NO_MULTIVERSION)
#define DLBKIT_X86_VARIANTS 1
#include <immintrin.h>
#else
#define DLBKIT_X86_VARIANTS 0
#endif

namespace dlbkit {

namespace {

// The load that crosses one edge towards a node: alpha (w_j - w_i) for reals, rounded toward
// zero for integers (the rule of round_kernel.hpp).
inline double edge_term(double a, double difference) { return a * difference; }
inline std::int64_t edge_term(double a, std::int64_t difference) {
  return static_cast<std::int64_t>(a * static_cast<double>(difference));
}

// What a node stores: (M w)_v, or in a second-order step beta (M w)_v + (1 - beta) w_v(t-1),
// w(t-1) being the old contents of `next` (polynomial_kernel.hpp). Integer loads have no
// second-order step here.
inline double combine(double beta, double mw, const double& old) { return beta == 1.0 ? mw : beta * mw + (1.0 - beta) * old; }
inline std::int64_t combine(double, std::int64_t mw, const std::int64_t&) { return mw; }

// The inner loops of the stencil paths, for doubles. `omp simd` (compiled with -fopenmp-simd,
// no OpenMP runtime) vectorises them without reordering any lane's operations, so they give
// the same bits as the scalar loops; on x86-64 each is built for AVX-512, AVX2 and the
// baseline, and the loader picks the widest the processor has.
#if DLBKIT_X86_VARIANTS && !defined(__clang__)
#define DLBKIT_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define DLBKIT_SIMD_CLONES
#endif

// next_v = w_v + sum over bits of a (w_{v ^ 2^bit} - w_v), in bit order, for the nodes of
// [first, first + count), both multiples of kHypercubeBlock. A block of 32 nodes is four
// vectors of eight lanes, and its sums stay in registers through all d dimensions: the
// partners of bits 0-2 are lanes of the same vector, of bits 3-4 another vector of the
// block, of the higher bits a vector as far away. Lane-wise operations keep every node's
// order of additions, so the bits are those of the general path. (GCC and Clang vector
// types: each operation is split to the width of the target, 512, 256 or 128 bits.)
using Lanes = double __attribute__((vector_size(64)));
constexpr unsigned kHypercubeLowBits = 5;
constexpr NodeId kHypercubeBlock = NodeId{1} << kHypercubeLowBits;
// f(0) .. f(3), written out so that the four vectors of a block live in registers.
template <class F>
[[gnu::always_inline]] inline void each_vector(F f) {
  f(0), f(1), f(2), f(3);
}
DLBKIT_SIMD_CLONES void hypercube_blocks(const double* w, double* next, NodeId first, NodeId count, unsigned d,
                                         double a, double beta) {
  for (NodeId b = first; b < first + count; b += kHypercubeBlock) {
    Lanes own[4], s[4];
    each_vector([&](int k) {
      std::memcpy(&own[k], w + b + 8 * k, sizeof(Lanes));
      s[k] = Lanes{};
    });
    each_vector([&](int k) { s[k] += a * (__builtin_shufflevector(own[k], own[k], 1, 0, 3, 2, 5, 4, 7, 6) - own[k]); });
    each_vector([&](int k) { s[k] += a * (__builtin_shufflevector(own[k], own[k], 2, 3, 0, 1, 6, 7, 4, 5) - own[k]); });
    each_vector([&](int k) { s[k] += a * (__builtin_shufflevector(own[k], own[k], 4, 5, 6, 7, 0, 1, 2, 3) - own[k]); });
    each_vector([&](int k) { s[k] += a * (own[k ^ 1] - own[k]); });
    each_vector([&](int k) { s[k] += a * (own[k ^ 2] - own[k]); });
    for (unsigned bit = kHypercubeLowBits; bit < d; ++bit) {
      const double* partner = w + (b ^ (NodeId{1} << bit));
      each_vector([&](int k) {
        Lanes p;
        std::memcpy(&p, partner + 8 * k, sizeof p);
        s[k] += a * (p - own[k]);
      });
    }
    each_vector([&](int k) {
      Lanes out = own[k] + s[k];
      if (beta != 1.0) {
        Lanes old;
        std::memcpy(&old, next + b + 8 * k, sizeof old);
        out = beta * out + (1.0 - beta) * old;
      }
      std::memcpy(next + b + 8 * k, &out, sizeof out);
    });
  }
}

// (M w)_x = w_x + s_x in the row interior of a 2-D torus whose neighbours are x+1, x-1 in the
// row and x in the rows above and below (the generator's order).
[[gnu::always_inline]] inline double torus_node(const double* here, const double* up, const double* down, NodeId x,
                                                double a) {
  const double wv = here[x];
  double s = 0;
  s += a * (here[x + 1] - wv);
  s += a * (here[x - 1] - wv);
  s += a * (up[x] - wv);
  s += a * (down[x] - wv);
  return wv + s;
}
// out[x] = combine(beta, (M w)_x, out[x]) for x in [from, to); two loops, so that a first-order
// step does not read `out`.
DLBKIT_SIMD_CLONES void torus_row_interior(const double* here, const double* up, const double* down, double* out,
                                           NodeId from, NodeId to, double a, double beta = 1.0) {
  if (beta == 1.0) {
#pragma omp simd
    for (NodeId x = from; x < to; ++x) out[x] = torus_node(here, up, down, x, a);
  } else {
#pragma omp simd
    for (NodeId x = from; x < to; ++x) out[x] = beta * torus_node(here, up, down, x, a) + (1.0 - beta) * out[x];
  }
}

#if DLBKIT_X86_VARIANTS
// The same with streaming (non-temporal) stores, for vectors far larger than the caches:
// writing `out` then costs no read of its old contents, as in a large memcpy. The head up
// to a 64-byte boundary of `out` and the tail go through the ordinary loop; between them,
// eight nodes at a time, torus_eight computes the sums and the target's streaming store
// writes them.
[[gnu::always_inline]] inline void torus_eight(const double* here, const double* up, const double* down, NodeId x,
                                               double a, Lanes& result) {
  Lanes wv, right, left, above, below;
  std::memcpy(&wv, here + x, sizeof wv);
  std::memcpy(&right, here + x + 1, sizeof right);
  std::memcpy(&left, here + x - 1, sizeof left);
  std::memcpy(&above, up + x, sizeof above);
  std::memcpy(&below, down + x, sizeof below);
  Lanes s{};
  s += a * (right - wv);
  s += a * (left - wv);
  s += a * (above - wv);
  s += a * (below - wv);
  result = wv + s;
}
NodeId first_aligned(const double* out, NodeId from, NodeId to) {
  while (from < to && reinterpret_cast<std::uintptr_t>(out + from) % sizeof(Lanes) != 0) ++from;
  return from;
}
[[gnu::target("avx512f")]] void torus_row_interior_stream_avx512(const double* here, const double* up,
                                                                 const double* down, double* out, NodeId from,
                                                                 NodeId to, double a) {
  NodeId x = first_aligned(out, from, to);
  torus_row_interior(here, up, down, out, from, x, a);
  for (Lanes v; x + 8 <= to; x += 8) {
    torus_eight(here, up, down, x, a, v);
    _mm512_stream_pd(out + x, v);
  }
  torus_row_interior(here, up, down, out, x, to, a);
}
[[gnu::target("avx2")]] void torus_row_interior_stream_avx2(const double* here, const double* up, const double* down,
                                                            double* out, NodeId from, NodeId to, double a) {
  NodeId x = first_aligned(out, from, to);
  torus_row_interior(here, up, down, out, from, x, a);
  for (Lanes v; x + 8 <= to; x += 8) {
    torus_eight(here, up, down, x, a, v);
    _mm256_stream_pd(out + x, __builtin_shufflevector(v, v, 0, 1, 2, 3));
    _mm256_stream_pd(out + x + 4, __builtin_shufflevector(v, v, 4, 5, 6, 7));
  }
  torus_row_interior(here, up, down, out, x, to, a);
}
#endif

}  // namespace

DiffusionKernel::DiffusionKernel(DiffusionMatrix m, [[maybe_unused]] bool streaming_stores) : m_(std::move(m)) {
  const Topology& t = m_.topology();
  if (!m_.uniform_alpha()) return;
  if (t.kind() == TopologyKind::hypercube) stencil_ = Stencil::hypercube;
  const auto e = t.extents();
  if (t.kind() == TopologyKind::torus && e.size() == 2 && e[0] >= 3 && e[1] >= 3) stencil_ = Stencil::torus2d;
#if DLBKIT_X86_VARIANTS
  // Streaming stores pay off once the two vectors (2 x 32 MiB here) outgrow the last-level cache.
  if (streaming_stores && stencil_ == Stencil::torus2d && t.size() >= (std::size_t{1} << 22)) {
    if (__builtin_cpu_supports("avx512f")) stream_ = Streaming::avx512;
    else if (__builtin_cpu_supports("avx2")) stream_ = Streaming::avx2;
  }
#endif
}

template <class Load>
void DiffusionKernel::apply(std::span<const Load> w, std::span<Load> next, NodeId begin, NodeId end,
                            double beta) const {
  const Topology& t = m_.topology();
  // Every path computes next_v = w_v + sum_i term(alpha_vi, w_{n_i} - w_v) over the
  // neighbours in the topology's order (eq. 1a), so all give the same bits.
  switch (stencil_) {
    case Stencil::hypercube: {
      const double a = *m_.uniform_alpha();
      const auto d = static_cast<unsigned>(t.extents().size());
      if constexpr (std::is_same_v<Load, double>) {
        // Whole blocks through the register-blocked path, the ends of the range through the
        // chunks below.
        constexpr NodeId B = kHypercubeBlock;
        const NodeId lo = (begin + B - 1) / B * B, hi = end / B * B;
        if (d >= kHypercubeLowBits && lo < hi) {
          apply(w, next, begin, lo, beta);
          hypercube_blocks(w.data(), next.data(), lo, hi - lo, d, a, beta);
          apply(w, next, hi, end, beta);
          return;
        }
      }
      // Dimension by dimension over chunks of nodes: each node still adds its terms in bit
      // order, but consecutive nodes no longer wait on one another's additions. A chunk
      // (128 KiB of sums) stays in the L2 cache with its loads.
      constexpr NodeId kChunk = 16384;
      const auto sums = std::make_unique_for_overwrite<Load[]>(std::min(kChunk, end - begin));
      Load* s = sums.get();
      for (NodeId first = begin; first < end; first += kChunk) {
        const NodeId count = std::min(kChunk, end - first);
        std::fill(s, s + count, Load{0});
        for (unsigned bit = 0; bit < d; ++bit) {
          // Partners v ^ mask are contiguous over each run of nodes that agree in bits >= bit.
          const NodeId mask = NodeId{1} << bit;
          for (NodeId i = 0; i < count;) {
            const NodeId v = first + i;
            const NodeId run = std::min(count - i, mask - (v & (mask - 1)));
            const Load* partner = w.data() + (v ^ mask);
            const Load* own = w.data() + v;
            for (NodeId j = 0; j < run; ++j) s[i + j] += edge_term(a, partner[j] - own[j]);
            i += run;
          }
        }
        for (NodeId i = 0; i < count; ++i) next[first + i] = combine(beta, w[first + i] + s[i], next[first + i]);
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
          out[x] = combine(beta, wv + s, out[x]);
        };
        NodeId x = v - row;
        if (x == 0) {
          node(0, 1, nx - 1);
          ++x;
        }
        const NodeId interior_end = std::min(stop - row, nx - 1);
        if constexpr (std::is_same_v<Load, double>) {
          if (x < interior_end) {
            // Streaming stores only when `out` is not read (a first-order step).
            switch (beta == 1.0 ? stream_ : Streaming::none) {
              case Streaming::none: torus_row_interior(here, up, down, out, x, interior_end, a, beta); break;
#if DLBKIT_X86_VARIANTS
              case Streaming::avx2: torus_row_interior_stream_avx2(here, up, down, out, x, interior_end, a); break;
              case Streaming::avx512: torus_row_interior_stream_avx512(here, up, down, out, x, interior_end, a); break;
#else
              default: torus_row_interior(here, up, down, out, x, interior_end, a); break;
#endif
            }
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
          out[x] = combine(beta, wv + s, out[x]);
        }
        if (x == nx - 1 && row + x < stop) {
          node(nx - 1, 0, nx - 2);
          ++x;
        }
        v = row + x;
      }
#if DLBKIT_X86_VARIANTS
      if (stream_ != Streaming::none && beta == 1.0) _mm_sfence();  // streaming stores are weakly ordered: publish them before returning
#endif
      return;
    }
    case Stencil::general:
      for (NodeId v = begin; v < end; ++v) {
        const auto nb = t.neighbors(v);
        const Load wv = w[v];
        Load s = 0;
        for (std::size_t i = 0; i < nb.size(); ++i) s += edge_term(m_.alpha(v, i), w[nb[i]] - wv);
        next[v] = combine(beta, wv + s, next[v]);
      }
      return;
  }
}

void DiffusionKernel::update(std::uint64_t, std::span<const double> current, std::span<double> next, NodeId begin,
                             NodeId end) const {
  apply(current, next, begin, end);
}

void DiffusionKernel::update_second_order(double beta, std::span<const double> current, std::span<double> next,
                                          NodeId begin, NodeId end) const {
  apply(current, next, begin, end, beta);
}

void DiffusionKernel::update(std::uint64_t, std::span<const std::int64_t> current, std::span<std::int64_t> next,
                             NodeId begin, NodeId end) const {
  apply(current, next, begin, end);
}

}  // namespace dlbkit
