#pragma once
/// \file
/// The diffusion matrix M of Cybenko's scheme (Cyb89 eq. 1-4): node i sends alpha_ij of the
/// load difference to each neighbour j, so m_ij = alpha_ij for i != j and
/// m_ii = 1 - sum_k alpha_ik. M is symmetric and doubly stochastic (eq. 5).
///
/// ```
/// auto cube = dlbkit::parse_topology("hypercube:4");
/// auto m = dlbkit::DiffusionMatrix::uniform(cube, 0.2);   // alpha = 1/(d+1), Sec. 3
/// double a = m.alpha(0, 1);                                // 0.2 towards node 2
/// double d = m.diagonal(0);                                // 1 - 4 * 0.2
/// ```
/// A diagonal entry within 1e-12 of zero is stored as exactly zero, so alpha = 1/degree is
/// accepted and counts as a zero diagonal in Theorem 1 whatever the rounding of the sum.
/// Immutable after construction; safe to read from several threads.

#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace dlbkit {

class DiffusionMatrix {
public:
  /// alpha_ij = alpha on every edge. Throws InputError unless alpha > 0 and every diagonal
  /// entry 1 - alpha * degree is >= 0 (constraint (b) of Sec. 2), i.e. alpha <= 1/max degree.
  static DiffusionMatrix uniform(Topology topology, double alpha);

  /// Per-edge alphas from a text file, one undirected edge per line:
  ///   # comment (also after the values)
  ///   u v alpha       node ids of an edge of the topology, alpha >= 0
  /// An edge that is not listed gets alpha = 0: no exchange on it (the induced network of
  /// Theorem 1 drops it). Throws InputError naming the file and line for a malformed line, a
  /// pair that is not an edge, an edge given twice, a negative alpha, or a node whose
  /// diagonal 1 - sum alpha would be negative.
  static DiffusionMatrix from_edge_file(Topology topology, const std::string& path);

  /// Per-edge alphas in adjacency order: alphas[k] belongs to the k-th (node, neighbour slot)
  /// pair, nodes in increasing order. The same checks as from_edge_file, plus symmetry.
  static DiffusionMatrix from_edge_alphas(Topology topology, std::vector<double> alphas);

  /// alpha_ij = 1 / (max(d_i, d_j) + 1) on every edge: a per-edge alpha (Cyb89 eq. 1-5 allow
  /// alpha_ij to differ by edge) from the two ends' degrees alone, so every diagonal entry is
  /// positive on any graph; on a regular graph it is the uniform 1/(d + 1). Description "degree".
  static DiffusionMatrix degree_weights(Topology topology);
  /// The alpha_ij of degree_weights() for an edge whose ends have degrees d_i and d_j.
  static double degree_weight(std::size_t d_i, std::size_t d_j) {
    return 1.0 / static_cast<double>(std::max(d_i, d_j) + 1);
  }

  const Topology& topology() const { return topology_; }
  std::size_t size() const { return topology_.size(); }

  /// The common alpha when every edge has the same one (built by uniform()).
  std::optional<double> uniform_alpha() const { return uniform_alpha_; }

  /// alpha between v and its i-th neighbour (neighbour order of the topology).
  double alpha(NodeId v, std::size_t i) const {
    return uniform_alpha_ ? *uniform_alpha_ : alphas_[offsets_[v] + i];
  }
  /// m_vv = 1 - sum_k alpha_vk (eq. 4).
  double diagonal(NodeId v) const { return diagonal_[v]; }
  double min_diagonal() const { return min_diagonal_; }

  /// "alpha=0.2" or "file:PATH" (or "per-edge" for from_edge_alphas), for reports.
  const std::string& description() const { return description_; }

private:
  DiffusionMatrix(Topology topology, std::string description);
  void finish_diagonal(const std::string& where);

  Topology topology_;
  std::string description_;
  std::optional<double> uniform_alpha_;
  std::vector<std::size_t> offsets_;  // per-edge storage only
  std::vector<double> alphas_;
  std::vector<double> diagonal_;
  double min_diagonal_ = 0;
};

}  // namespace dlbkit
