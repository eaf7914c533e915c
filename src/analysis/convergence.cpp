#include <dlbkit/analysis/convergence.hpp>

#include <fmt/format.h>

#include <vector>

namespace dlbkit {

Theorem1Check check_theorem1(const DiffusionMatrix& m) {
  const Topology& t = m.topology();
  Theorem1Check c;
  for (NodeId v = 0; v < t.size(); ++v)
    if (m.diagonal(v) > 0) {
      c.positive_diagonal_node = v;
      break;
    }
  // Breadth-first 2-colouring of the induced network (edges with alpha > 0), then a check of
  // every kept edge against it. For a disconnected induced network Theorem 1 fails on
  // connectivity first; the bipartite flag then describes the component of node 0.
  std::vector<int> colour(t.size(), -1);
  std::vector<NodeId> queue{0};
  colour[0] = 0;
  for (std::size_t h = 0; h < queue.size(); ++h) {
    const NodeId v = queue[h];
    const auto nb = t.neighbors(v);
    for (std::size_t i = 0; i < nb.size(); ++i)
      if (m.alpha(v, i) > 0 && colour[nb[i]] < 0) {
        colour[nb[i]] = 1 - colour[v];
        queue.push_back(nb[i]);
      }
  }
  c.induced_connected = queue.size() == t.size();
  std::size_t kept_slots = 0;
  c.induced_bipartite = true;
  for (NodeId v = 0; v < t.size(); ++v) {
    const auto nb = t.neighbors(v);
    for (std::size_t i = 0; i < nb.size(); ++i)
      if (m.alpha(v, i) > 0) {
        ++kept_slots;
        if (colour[v] >= 0 && colour[v] == colour[nb[i]]) c.induced_bipartite = false;
      }
  }
  c.dropped_edges = t.edge_count() - kept_slots / 2;
  return c;
}

std::string Theorem1Check::explanation() const {
  if (!induced_connected)
    return fmt::format("does not converge (Theorem 1): the induced network (edges with alpha > 0; {} dropped) is "
                       "not connected",
                       dropped_edges);
  const std::string i =
      positive_diagonal_node
          ? fmt::format("some diagonal entry is positive (m_{0}{0} > 0: (i) holds)", *positive_diagonal_node)
          : std::string("every diagonal entry is 0 ((i) fails)");
  const std::string ii = induced_bipartite ? "the induced network is bipartite ((ii) fails)"
                                           : "the induced network is not bipartite ((ii) holds)";
  return fmt::format("{} (Theorem 1): the induced network is connected, {} and {}",
                     converges() ? "converges" : "does not converge: -1 is an eigenvalue", i, ii);
}

}  // namespace dlbkit
