#include <dlbkit/analysis/diffusion_matrix.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/line_reader.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <sstream>

namespace dlbkit {

namespace {

// Diagonal entries this close to zero are rounding noise of sum alpha = 1 (header).
constexpr double kZeroDiagonal = 1e-12;

std::size_t slot_of(const Topology& t, NodeId v, NodeId u) {
  const auto nb = t.neighbors(v);
  return static_cast<std::size_t>(std::find(nb.begin(), nb.end(), u) - nb.begin());
}

}  // namespace

DiffusionMatrix::DiffusionMatrix(Topology topology, std::string description)
    : topology_(std::move(topology)), description_(std::move(description)) {}

void DiffusionMatrix::finish_diagonal(const std::string& where) {
  const std::size_t n = topology_.size();
  diagonal_.resize(n);
  min_diagonal_ = std::numeric_limits<double>::infinity();
  for (NodeId v = 0; v < n; ++v) {
    double sum = 0;
    for (std::size_t i = 0; i < topology_.degree(v); ++i) sum += alpha(v, i);
    double m = 1.0 - sum;
    if (std::abs(m) <= kZeroDiagonal) m = 0.0;
    if (m < 0)
      throw InputError(fmt::format(
          "{}: the alphas of node {} sum to {:.17g}, leaving the diagonal 1 - sum = {:.3g} negative; accepted: "
          "sum over the neighbours of a node <= 1 (Cybenko constraint (b))",
          where, v, sum, m));
    diagonal_[v] = m;
    min_diagonal_ = std::min(min_diagonal_, m);
  }
}

DiffusionMatrix DiffusionMatrix::uniform(Topology topology, double alpha) {
  if (!(alpha > 0) || !std::isfinite(alpha))
    throw InputError(fmt::format("alpha {} is not accepted: it must be > 0 and at most 1/max degree = 1/{}", alpha,
                                 topology.max_degree()));
  DiffusionMatrix m(std::move(topology), fmt::format("alpha={}", alpha));
  m.uniform_alpha_ = alpha;
  const double worst = 1.0 - alpha * static_cast<double>(m.topology_.max_degree());
  if (worst < -kZeroDiagonal)
    throw InputError(fmt::format(
        "alpha {} makes the diagonal 1 - alpha * {} = {:.3g} negative on {}; accepted: 0 < alpha <= 1/{} = {:.6g}",
        alpha, m.topology_.max_degree(), worst, m.topology_.spec(), m.topology_.max_degree(),
        1.0 / static_cast<double>(m.topology_.max_degree())));
  m.finish_diagonal(fmt::format("alpha {}", alpha));
  return m;
}

DiffusionMatrix DiffusionMatrix::from_edge_alphas(Topology topology, std::vector<double> alphas) {
  DiffusionMatrix m(std::move(topology), "per-edge");
  const Topology& t = m.topology_;
  const auto offsets = t.neighbor_offsets();
  m.offsets_.assign(offsets.begin(), offsets.end());
  if (alphas.size() != m.offsets_.back())
    throw InputError(fmt::format("per-edge alphas: {} values given for the {} adjacency slots of {}", alphas.size(),
                                 m.offsets_.back(), t.spec()));
  for (NodeId v = 0; v < t.size(); ++v) {
    const auto nb = t.neighbors(v);
    for (std::size_t i = 0; i < nb.size(); ++i) {
      const double a = alphas[m.offsets_[v] + i];
      if (!(a >= 0) || !std::isfinite(a))
        throw InputError(fmt::format("per-edge alphas: alpha {} on edge {}-{} is not accepted; accepted: finite, >= 0",
                                     a, v, nb[i]));
      const double back = alphas[m.offsets_[nb[i]] + slot_of(t, nb[i], v)];
      if (back != a)
        throw InputError(fmt::format("per-edge alphas: edge {}-{} has alpha {} one way and {} the other; accepted: "
                                     "alpha_ij = alpha_ji (M is symmetric)",
                                     v, nb[i], a, back));
    }
  }
  m.alphas_ = std::move(alphas);
  m.finish_diagonal("per-edge alphas");
  return m;
}

DiffusionMatrix DiffusionMatrix::degree_weights(Topology topology) {
  std::vector<double> alphas;
  for (NodeId v = 0; v < topology.size(); ++v)
    for (const NodeId u : topology.neighbors(v))
      alphas.push_back(degree_weight(topology.degree(v), topology.degree(u)));
  DiffusionMatrix m = from_edge_alphas(std::move(topology), std::move(alphas));
  m.description_ = "degree";
  return m;
}

DiffusionMatrix DiffusionMatrix::from_edge_file(Topology topology, const std::string& path) {
  std::ifstream in = open_input_file(path, fmt::format("alpha file {}", path), LineReader::kMaxBytes,
                                     "a text file of 'u v alpha' lines");
  const Topology& t = topology;
  const auto topology_offsets = t.neighbor_offsets();
  std::vector<std::size_t> offsets(topology_offsets.begin(), topology_offsets.end());
  std::vector<double> alphas(offsets.back(), 0.0);
  std::vector<bool> given(offsets.back(), false);
  std::string line;
  LineReader lines(in, path);
  for (int number = 1; lines.next(line); ++number) {
    const std::string body = line.substr(0, line.find('#'));
    std::istringstream fields(body);
    long long u = 0, v = 0;
    double a = 0;
    std::string extra;
    if (!(fields >> u)) {
      if (body.find_first_not_of(" \t\r") == std::string::npos) continue;
    }
    const auto where = [&] { return fmt::format("alpha file {} line {}", path, number); };
    if (fields.fail() || !(fields >> v >> a) || (fields >> extra))
      throw InputError(fmt::format("{}: '{}' is not accepted; accepted: 'u v alpha' (two node ids and a number)",
                                   where(), line));
    const auto n = static_cast<long long>(t.size());
    if (u < 0 || u >= n || v < 0 || v >= n)
      throw InputError(fmt::format("{}: node id out of range in '{}'; accepted: 0..{}", where(), line, n - 1));
    const std::size_t i = slot_of(t, static_cast<NodeId>(u), static_cast<NodeId>(v));
    if (i == t.degree(static_cast<NodeId>(u)))
      throw InputError(fmt::format("{}: {}-{} is not an edge of {}", where(), u, v, t.spec()));
    const std::size_t j = slot_of(t, static_cast<NodeId>(v), static_cast<NodeId>(u));
    if (given[offsets[u] + i]) throw InputError(fmt::format("{}: edge {}-{} is given twice", where(), u, v));
    if (!(a >= 0) || !std::isfinite(a))
      throw InputError(fmt::format("{}: alpha {} is not accepted; accepted: finite, >= 0", where(), a));
    given[offsets[u] + i] = given[offsets[v] + j] = true;
    alphas[offsets[u] + i] = alphas[offsets[v] + j] = a;
  }
  // An empty file (or one of zeros) would leave every alpha 0: M = I, no load ever moves.
  if (std::none_of(alphas.begin(), alphas.end(), [](double a) { return a > 0; }))
    throw InputError(fmt::format("alpha file {}: no edge has an alpha > 0, so no load would move; accepted: "
                                 "'u v alpha' lines, at least one with alpha > 0 (unlisted edges are 0)",
                                 path));
  DiffusionMatrix m(std::move(topology), "file:" + path);
  m.offsets_ = std::move(offsets);
  m.alphas_ = std::move(alphas);
  m.finish_diagonal(fmt::format("alpha file {}", path));
  return m;
}

}  // namespace dlbkit
