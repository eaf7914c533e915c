#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <memory>

namespace dlbkit {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// An x86-64 variant of the randomized stencil loops for processors with AVX-512DQ, which has
// the 64-bit multiplies and conversions of the coin and the rounding, lane by lane (the same
// bits as the scalar loop); unless the build asks for the baseline only.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(DLBKIT_NO_MULTIVERSION)
#define DLBKIT_COIN_AVX512 1
#else
#define DLBKIT_COIN_AVX512 0
#endif

// A uniform number in [0, 1) for the edge {u, v} in the step whose key is
// step_key = mix(mix(seed) ^ step): a counter-based draw, the same from both ends and in any
// order of the nodes, one finaliser per edge.
[[gnu::always_inline]] inline double edge_coin(std::uint64_t step_key, std::uint64_t u, std::uint64_t v) {
  const std::uint64_t lo = std::min(u, v), hi = std::max(u, v);
  return static_cast<double>(mix(step_key ^ (lo << 32 | hi)) >> 11) * 0x1.0p-53;
}

// The tasks that leave v over the edge {v, u} in a step of randomized rounding: the flow
// y = sa (z_v - z_u) rounded up with probability its fractional part |y| - floor |y|, by the
// edge's coin (a flow and its reverse share it, so the two ends agree and the total is kept).
// The coin is drawn for whole flows too: a branch around it would be mispredicted half the time.
[[gnu::always_inline]] inline std::int64_t randomized_flow(std::uint64_t step_key, double sa, double zv, double zu,
                                                          std::uint64_t v, std::uint64_t u) {
  const double y = sa * (zv - zu);
  // floor(|y|) by truncation, the same for |y| >= 0, and it vectorises (std::floor does not
  // without -fno-trapping-math).
  const double a = std::abs(y);
  const auto whole = static_cast<std::int64_t>(a);
  const auto r = whole + (edge_coin(step_key, v, u) < a - static_cast<double>(whole));
  return y < 0 ? -r : r;
}

// First-order randomized rounding on hypercube:d over [first, first + count) (count <= the
// size of `out`): out_v = sum over bits, in bit order, of the tasks leaving v towards v ^ 2^bit.
// Dimension by dimension, so that the partners of a run of nodes are contiguous and the
// loop vectorises; integer sums do not depend on the order.
[[gnu::always_inline]] inline void hypercube_randomized(const std::int64_t* w, std::int64_t* out, NodeId first,
                                                       NodeId count, unsigned d, double a, std::uint64_t step_key) {
  std::fill(out, out + count, std::int64_t{0});
  for (unsigned bit = 0; bit < d; ++bit) {
    const NodeId mask = NodeId{1} << bit;
    for (NodeId i = 0; i < count;) {
      const NodeId v = first + i, p = v ^ mask;
      const NodeId run = std::min(count - i, mask - (v & (mask - 1)));
      // Offsets from pointers with a 64-bit counter: contiguous vector loads, no gathers.
      const std::int64_t *own = w + v, *partner = w + p;
      std::int64_t* sum = out + i;
#pragma omp simd
      for (std::size_t j = 0; j < run; ++j)
        sum[j] += randomized_flow(step_key, a, static_cast<double>(own[j]), static_cast<double>(partner[j]), v + j,
                                  p + j);
      i += run;
    }
  }
}

// The same on the interior [from, to) of a row of a 2-D torus whose rows above and below
// start at `up` and `down` (node ids): neighbours x+1, x-1, up, down, the generator's order.
[[gnu::always_inline]] inline void torus_row_randomized(const std::int64_t* w, std::int64_t* next, NodeId row,
                                                       NodeId up, NodeId down, NodeId from, NodeId to, double a,
                                                       std::uint64_t step_key) {
  const std::int64_t *here = w + row, *above = w + up, *below = w + down;
  std::int64_t* result = next + row;
#pragma omp simd
  for (std::size_t x = from; x < to; ++x) {
    const std::uint64_t v = row + x;
    const double zv = static_cast<double>(here[x]);
    std::int64_t out = 0;
    out += randomized_flow(step_key, a, zv, static_cast<double>(here[x + 1]), v, v + 1);
    out += randomized_flow(step_key, a, zv, static_cast<double>(here[x - 1]), v, v - 1);
    out += randomized_flow(step_key, a, zv, static_cast<double>(above[x]), v, up + x);
    out += randomized_flow(step_key, a, zv, static_cast<double>(below[x]), v, down + x);
    result[x] = here[x] - out;
  }
}

// The two loops compiled for the baseline and for AVX-512DQ, chosen by the processor.
void hypercube_randomized_baseline(const std::int64_t* w, std::int64_t* out, NodeId first, NodeId count, unsigned d,
                                   double a, std::uint64_t step_key) {
  hypercube_randomized(w, out, first, count, d, a, step_key);
}
void torus_row_randomized_baseline(const std::int64_t* w, std::int64_t* next, NodeId row, NodeId up, NodeId down,
                                   NodeId from, NodeId to, double a, std::uint64_t step_key) {
  torus_row_randomized(w, next, row, up, down, from, to, a, step_key);
}
#if DLBKIT_COIN_AVX512
#if defined(__clang__)
#define DLBKIT_AVX512DQ [[gnu::target("avx512f,avx512dq,avx512vl")]]
#else
#define DLBKIT_AVX512DQ [[gnu::target("avx512f,avx512dq,avx512vl,prefer-vector-width=512")]]
#endif
DLBKIT_AVX512DQ void hypercube_randomized_avx512(const std::int64_t* w, std::int64_t* out, NodeId first, NodeId count,
                                                 unsigned d, double a, std::uint64_t step_key) {
  hypercube_randomized(w, out, first, count, d, a, step_key);
}
DLBKIT_AVX512DQ void torus_row_randomized_avx512(const std::int64_t* w, std::int64_t* next, NodeId row, NodeId up,
                                                 NodeId down, NodeId from, NodeId to, double a,
                                                 std::uint64_t step_key) {
  torus_row_randomized(w, next, row, up, down, from, to, a, step_key);
}
bool has_avx512dq() {
  static const bool has = __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl");
  return has;
}
#endif

void check_gamma(double gamma, const char* scheme) {
  if (!(gamma >= 0 && gamma < 1))
    throw InputError(fmt::format("{} needs gamma(M) in [0, 1), not {}: the diffusion does not converge (Theorem 1)",
                                 scheme, gamma));
}

}  // namespace

Rounding parse_rounding(const std::string& text) {
  if (text == "deterministic") return Rounding::deterministic;
  if (text == "randomized") return Rounding::randomized;
  if (text == "flow-imitation") return Rounding::flow_imitation;
  throw InputError(
      fmt::format("rounding '{}' is not accepted; accepted: deterministic, randomized, flow-imitation", text));
}

std::string to_string(Rounding r) {
  switch (r) {
    case Rounding::deterministic: return "deterministic";
    case Rounding::randomized: return "randomized";
    case Rounding::flow_imitation: return "flow-imitation";
  }
  return "";
}

PolynomialKernel::PolynomialKernel(std::string name, DiffusionMatrix m, std::vector<double> beta,
                                   std::vector<double> scale, Options o)
    : name_(std::move(name)), m_(m), fos_(std::move(m), false), beta_(std::move(beta)), scale_(std::move(scale)),
      o_(o) {
  second_order_ = std::any_of(beta_.begin(), beta_.end(), [](double b) { return b != 1.0; });
  const std::size_t n = m_.size();
  mw_.resize(n);
  for (int p = 0; p < 2; ++p) {
    if (second_order_) z_[p].resize(n);
    if (o_.rounding == Rounding::flow_imitation) {
      x_[p].resize(n);
      sum_[p].resize(n);
      if (second_order_) xz_[p].resize(n);
    }
  }
}

PolynomialKernel PolynomialKernel::fos(DiffusionMatrix m, Options o) {
  return PolynomialKernel("diffusion", std::move(m), {1.0}, {1.0}, o);
}

// GMS96: w(1) = M w(0), then w(t+1) = beta M w(t) + (1 - beta) w(t-1), beta = 2/(1 + sqrt(1 - gamma^2)).
PolynomialKernel PolynomialKernel::sos(DiffusionMatrix m, double gamma, Options o) {
  check_gamma(gamma, "sos");
  return PolynomialKernel("sos", std::move(m), {1.0, sos_beta(gamma)}, {1.0}, o);
}

// DFM99: beta_t by the Chebyshev recurrence, kept until it reaches its limit (the SOS beta).
PolynomialKernel PolynomialKernel::chebyshev(DiffusionMatrix m, double gamma, Options o) {
  check_gamma(gamma, "chebyshev");
  return PolynomialKernel("chebyshev", std::move(m), chebyshev_beta_schedule(gamma), {1.0}, o);
}

// DFM99 (OPS): w(k) = (I - L/mu_k) w(k-1) over the non-zero distinct eigenvalues mu_k of L.
PolynomialKernel PolynomialKernel::ops(DiffusionMatrix m, std::vector<double> laplacian_eigenvalues, Options o) {
  std::vector<double> mu;
  const double largest = laplacian_eigenvalues.empty()
                             ? 0.0
                             : *std::max_element(laplacian_eigenvalues.begin(), laplacian_eigenvalues.end());
  for (double x : laplacian_eigenvalues)
    if (x > 1e-12 * largest) mu.push_back(x);
  if (mu.empty())
    throw InputError(fmt::format("ops needs at least one non-zero Laplacian eigenvalue on {}", m.topology().spec()));
  std::vector<double> scale;
  for (double x : leja_order(std::move(mu))) scale.push_back(1.0 / x);
  return PolynomialKernel("ops", std::move(m), {1.0}, std::move(scale), o);
}

std::string PolynomialKernel::description() const {
  std::string s = m_.description();
  if (name_ == "sos") s += fmt::format(", beta={:.12g}", beta_.back());
  if (name_ == "chebyshev") s += fmt::format(", beta_t -> {:.12g} (constant after {} steps)", beta_.back(), beta_.size());
  if (name_ == "ops") s += fmt::format(", {} steps per cycle (Leja order)", scale_.size());
  return s;
}

void PolynomialKernel::update(std::uint64_t step, std::span<const double> w, std::span<double> next, NodeId begin,
                              NodeId end) const {
  // w(t+1) = beta (w + s (M w - w)) + (1 - beta) w(t-1), w(t-1) in `next`: in one pass when
  // s = 1 (FOS, SOS, Chebyshev), else through M w in mw_ (OPS).
  const double b = beta(step), s = scale(step);
  if (s == 1.0) {
    fos_.update_second_order(b, w, next, begin, end);
    return;
  }
  fos_.update(step, w, mw_, begin, end);
  if (b == 1.0) {
    for (NodeId v = begin; v < end; ++v) next[v] = w[v] + s * (mw_[v] - w[v]);
  } else {
    for (NodeId v = begin; v < end; ++v) next[v] = b * (w[v] + s * (mw_[v] - w[v])) + (1.0 - b) * next[v];
  }
}

// First-order randomized rounding with a uniform alpha on a hypercube or a 2-D torus: the
// neighbours' ids computed instead of read, the same flows and coins as the general sweep, so
// the same loads.
void PolynomialKernel::randomized_stencil(std::uint64_t step_key, double a, std::span<const std::int64_t> w,
                                          std::span<std::int64_t> next, NodeId begin, NodeId end) const {
  const Topology& t = m_.topology();
  const auto flow_over_neighbours = [&](NodeId v) {
    const auto nb = t.neighbors(v);
    std::int64_t out = 0;
    for (const NodeId u : nb) out += randomized_flow(step_key, a, static_cast<double>(w[v]), static_cast<double>(w[u]), v, u);
    next[v] = w[v] - out;
  };
  if (fos_.stencil() == DiffusionKernel::Stencil::hypercube) {
    // Chunks whose sums (128 KiB) stay in the L2 cache with their loads.
    constexpr NodeId kChunk = 16384;
    const auto d = static_cast<unsigned>(t.extents().size());
    const auto sums = std::make_unique_for_overwrite<std::int64_t[]>(std::min(kChunk, end - begin));
    for (NodeId first = begin; first < end; first += kChunk) {
      const NodeId count = std::min(kChunk, end - first);
#if DLBKIT_COIN_AVX512
      if (has_avx512dq()) {
        hypercube_randomized_avx512(w.data(), sums.get(), first, count, d, a, step_key);
      } else
#endif
        hypercube_randomized_baseline(w.data(), sums.get(), first, count, d, a, step_key);
      for (NodeId i = 0; i < count; ++i) next[first + i] = w[first + i] - sums[i];
    }
    return;
  }
  // Torus rows: the interior through the stencil loop, the two wrap-around columns through the
  // neighbour lists.
  const auto nx = static_cast<NodeId>(t.extents()[0]);
  const auto ny = static_cast<NodeId>(t.extents()[1]);
  for (NodeId v = begin; v < end;) {
    const NodeId y = v / nx, row = y * nx, stop = std::min(end, row + nx);
    if (v == row) flow_over_neighbours(v++);
    const NodeId interior_end = std::min(stop, row + nx - 1);
    if (v < interior_end) {
      const NodeId up = y + 1 == ny ? 0 : row + nx, down = y == 0 ? (ny - 1) * nx : row - nx;
#if DLBKIT_COIN_AVX512
      if (has_avx512dq()) {
        torus_row_randomized_avx512(w.data(), next.data(), row, up, down, v - row, interior_end - row, a, step_key);
      } else
#endif
        torus_row_randomized_baseline(w.data(), next.data(), row, up, down, v - row, interior_end - row, a, step_key);
      v = interior_end;
    }
    if (v < stop) flow_over_neighbours(v++);
  }
}

void PolynomialKernel::update(std::uint64_t step, std::span<const std::int64_t> w, std::span<std::int64_t> next,
                              NodeId begin, NodeId end) const {
  const Topology& t = m_.topology();
  const double b = beta(step), s = scale(step);
  const int p = static_cast<int>(step & 1), q = 1 - p;  // this step's buffers, the last step's
  const bool first = step == 0;
  // z(t) of any node, from z(t-1) and w(t): the same bits wherever it is computed.
  const auto z = [&](NodeId u) {
    const double wu = static_cast<double>(w[u]);
    return !second_order_ || first ? wu : (b - 1.0) * z_[q][u] + b * wu;
  };
  if (o_.rounding != Rounding::flow_imitation) {
    const std::uint64_t step_key = mix(mix(o_.seed) ^ step);
    // One sweep for any z and alpha; instantiated once more for first order with a uniform
    // alpha (z = w), where the lookups would cost as much as the rounding. Same bits.
    const auto sweep = [&](auto zf, auto alpha) {
      for (NodeId v = begin; v < end; ++v) {
        const auto nb = t.neighbors(v);
        const double zv = zf(v);
        std::int64_t out = 0;
        for (std::size_t i = 0; i < nb.size(); ++i) {
          const double y = s * alpha(v, i) * (zv - zf(nb[i]));
          out += o_.rounding == Rounding::deterministic
                     ? static_cast<std::int64_t>(y)
                     : randomized_flow(step_key, s * alpha(v, i), zv, zf(nb[i]), v, nb[i]);
        }
        if (second_order_) z_[p][v] = zv;
        next[v] = w[v] - out;
      }
    };
    const auto a = m_.uniform_alpha();
    if (a && !second_order_ && s == 1.0 && o_.rounding == Rounding::randomized &&
        fos_.stencil() != DiffusionKernel::Stencil::general) {
      randomized_stencil(step_key, *a, w, next, begin, end);
      return;
    }
    if (a && !second_order_)
      sweep([&](NodeId u) { return static_cast<double>(w[u]); }, [a = *a](NodeId, std::size_t) { return a; });
    else
      sweep(z, [&](NodeId v, std::size_t i) { return m_.alpha(v, i); });
    return;
  }
  // Flow imitation: x is the continuous scheme (x(0) = w(0)), S(t) = S(t-1) + s_t z_x(t) its
  // flows' memory, F_ij(t) = alpha_ij (S_i(t) - S_j(t)) the total continuous flow over ij
  // after step t; the tasks moved over ij in step t are trunc(F_ij(t)) - trunc(F_ij(t-1)).
  const auto x = [&](NodeId u) { return first ? static_cast<double>(w[u]) : x_[p][u]; };
  const auto xz = [&](NodeId u) { return !second_order_ || first ? x(u) : (b - 1.0) * xz_[q][u] + b * x(u); };
  const auto old_sum = [&](NodeId u) { return first ? 0.0 : sum_[q][u]; };
  for (NodeId v = begin; v < end; ++v) {
    const auto nb = t.neighbors(v);
    const double xzv = xz(v), sv = old_sum(v), sv_new = sv + s * xzv;
    double flow = 0;
    std::int64_t out = 0;
    for (std::size_t i = 0; i < nb.size(); ++i) {
      const NodeId j = nb[i];
      const double a = m_.alpha(v, i), xzj = xz(j), sj = old_sum(j);
      flow += s * a * (xzv - xzj);
      out += static_cast<std::int64_t>(a * (sv_new - (sj + s * xzj))) - static_cast<std::int64_t>(a * (sv - sj));
    }
    x_[q][v] = x(v) - flow;
    if (second_order_) xz_[p][v] = xzv;
    sum_[p][v] = sv_new;
    next[v] = w[v] - out;
  }
}

}  // namespace dlbkit
