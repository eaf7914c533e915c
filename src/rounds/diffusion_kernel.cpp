#include <dlbkit/rounds/diffusion_kernel.hpp>

#include <algorithm>
#include <cstring>
#include <type_traits>

namespace dlbkit {

namespace {

// The load that crosses one edge towards a node: alpha (w_j - w_i) for reals, rounded toward
// zero for integers (the rule of round_kernel.hpp).
inline double edge_term(double a, double difference) { return a * difference; }
inline std::int64_t edge_term(double a, std::int64_t difference) {
  return static_cast<std::int64_t>(a * static_cast<double>(difference));
}

// Two doubles in one SSE2 register (GCC and Clang vector extension).
using Pair = double __attribute__((vector_size(16)));
inline Pair load_pair(const double* p) {
  Pair v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
inline void store_pair(double* p, Pair v) { std::memcpy(p, &v, sizeof v); }

}  // namespace

DiffusionKernel::DiffusionKernel(DiffusionMatrix m) : m_(std::move(m)) {
  const Topology& t = m_.topology();
  if (!m_.uniform_alpha()) return;
  if (t.kind() == TopologyKind::hypercube) stencil_ = Stencil::hypercube;
  const auto e = t.extents();
  if (t.kind() == TopologyKind::torus && e.size() == 2 && e[0] >= 3 && e[1] >= 3) stencil_ = Stencil::torus2d;
}

template <class Load>
void DiffusionKernel::apply(std::span<const Load> w, std::span<Load> next, NodeId begin, NodeId end) const {
  const Topology& t = m_.topology();
  // Every path computes next_v = w_v + sum_i term(alpha_vi, w_{n_i} - w_v) over the
  // neighbours in the topology's order (eq. 1a), so all give the same bits.
  switch (stencil_) {
    case Stencil::hypercube: {
      // Dimension by dimension over chunks of nodes: each node still adds its terms in bit
      // order, but consecutive nodes no longer wait on one another's additions.
      const double a = *m_.uniform_alpha();
      const auto d = static_cast<unsigned>(t.extents().size());
      constexpr NodeId kChunk = 512;
      Load s[kChunk];
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
            NodeId j = 0;
            if constexpr (std::is_same_v<Load, double>) {
              const Pair alpha = {a, a};
              for (; j + 2 <= run; j += 2)
                store_pair(s + i + j, load_pair(s + i + j) + alpha * (load_pair(partner + j) - load_pair(own + j)));
            }
            for (; j < run; ++j) s[i + j] += edge_term(a, partner[j] - own[j]);
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
          // Two nodes at a time: the same IEEE operations per lane as the scalar loop.
          const Pair alpha = {a, a};
          for (; x + 2 <= interior_end; x += 2) {
            const Pair wv = load_pair(here + x);
            Pair s = {0.0, 0.0};
            s += alpha * (load_pair(here + x + 1) - wv);
            s += alpha * (load_pair(here + x - 1) - wv);
            s += alpha * (load_pair(up + x) - wv);
            s += alpha * (load_pair(down + x) - wv);
            store_pair(out + x, wv + s);
          }
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
