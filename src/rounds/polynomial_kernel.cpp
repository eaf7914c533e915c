#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dlbkit {

namespace {

std::uint64_t mix(std::uint64_t x) {  // splitmix64's finaliser
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// A uniform number in [0, 1) for the edge {u, v} in the step whose key is
// step_key = mix(mix(seed) ^ step): the same from both ends, one finaliser per edge.
double edge_coin(std::uint64_t step_key, NodeId u, NodeId v) {
  const std::uint64_t lo = std::min(u, v), hi = std::max(u, v);
  return static_cast<double>(mix(step_key ^ (lo << 32 | hi)) >> 11) * 0x1.0p-53;
}

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
  // M w into mw_, then w(t+1) = beta (w + s (M w - w)) + (1 - beta) w(t-1), w(t-1) in `next`.
  fos_.update(step, w, mw_, begin, end);
  const double b = beta(step), s = scale(step);
  if (b == 1.0 && s == 1.0) {
    std::copy(mw_.begin() + begin, mw_.begin() + end, next.begin() + begin);
  } else if (b == 1.0) {
    for (NodeId v = begin; v < end; ++v) next[v] = w[v] + s * (mw_[v] - w[v]);
  } else if (s == 1.0) {
#pragma omp simd
    for (NodeId v = begin; v < end; ++v) next[v] = b * mw_[v] + (1.0 - b) * next[v];
  } else {
    for (NodeId v = begin; v < end; ++v) next[v] = b * (w[v] + s * (mw_[v] - w[v])) + (1.0 - b) * next[v];
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
          if (o_.rounding == Rounding::deterministic) {
            out += static_cast<std::int64_t>(y);
          } else {
            // Up with probability frac(|y|); a flow and its reverse share the coin. (Drawn for
            // whole flows too: a branch around it would be mispredicted half the time.)
            const double a = std::abs(y), whole = std::floor(a);
            const auto r = static_cast<std::int64_t>(whole) + (edge_coin(step_key, v, nb[i]) < a - whole);
            out += y < 0 ? -r : r;
          }
        }
        if (second_order_) z_[p][v] = zv;
        next[v] = w[v] - out;
      }
    };
    if (const auto a = m_.uniform_alpha(); a && !second_order_)
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
