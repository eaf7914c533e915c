#pragma once
/// \file
/// Theorem 1 of Cyb89: the iteration w <- M w (eq. 3) converges to the uniform distribution
/// for every start if and only if the induced network (the edges with alpha_ij > 0) is
/// connected and (i) some diagonal entry 1 - sum_i alpha_ij is positive, or (ii) the induced
/// network is not bipartite, or both. Otherwise -1 is an eigenvalue (eq. 6-8) and a load
/// that differs between the two colour classes oscillates for ever.
///
/// ```
/// auto m = dlbkit::DiffusionMatrix::uniform(dlbkit::parse_topology("ring:8"), 0.5);
/// dlbkit::Theorem1Check c = dlbkit::check_theorem1(m);
/// // c.converges() == false; c.explanation(): "does not converge: -1 is an eigenvalue
/// // (Theorem 1): the induced network is connected, every diagonal entry is 0 ((i) fails) and
/// // the induced network is bipartite ((ii) fails)"
/// ```
/// Thread-safe: no shared state.

#include <dlbkit/analysis/diffusion_matrix.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace dlbkit {

struct Theorem1Check {
  bool induced_connected = false;
  /// Condition (i): some m_jj > 0; the first such node when there is one.
  std::optional<NodeId> positive_diagonal_node;
  /// The induced network is bipartite: condition (ii) fails.
  bool induced_bipartite = false;
  /// Edges with alpha_ij = 0, dropped from the induced network.
  std::size_t dropped_edges = 0;

  bool converges() const { return induced_connected && (positive_diagonal_node || !induced_bipartite); }
  /// One sentence naming the conditions that hold or fail.
  std::string explanation() const;
};

Theorem1Check check_theorem1(const DiffusionMatrix& m);

}  // namespace dlbkit
