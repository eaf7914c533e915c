#include <dlbkit/topology/describe.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <vector>

namespace dlbkit {

std::string_view to_string(TopologyKind kind) {
  switch (kind) {
    case TopologyKind::hypercube: return "hypercube";
    case TopologyKind::torus: return "torus";
    case TopologyKind::mesh: return "mesh";
    case TopologyKind::ring: return "ring";
    case TopologyKind::tree: return "tree";
    case TopologyKind::complete: return "complete";
    case TopologyKind::bisectional: return "bisectional";
    case TopologyKind::odd: return "odd";
    case TopologyKind::file: return "file";
  }
  return "unknown";
}

nlohmann::json describe(const Topology& topology) {
  nlohmann::json j;
  j["spec"] = topology.spec();
  j["kind"] = to_string(topology.kind());
  j["nodes"] = topology.size();
  j["edges"] = topology.edge_count();
  j["degree"] = {{"min", topology.min_degree()}, {"max", topology.max_degree()}};
  j["diameter"] = topology.diameter();
  j["bipartite"] = topology.bipartite();
  const auto extents = topology.extents();
  if (!extents.empty()) j["extents"] = std::vector<int>(extents.begin(), extents.end());
  return j;
}

std::string describe_text(const Topology& topology) {
  const auto row = [](std::string_view name, const auto& value) { return fmt::format("{:<10} {}\n", name, value); };
  std::string text = row("spec", topology.spec()) + row("kind", to_string(topology.kind())) +
                     row("nodes", topology.size()) + row("edges", topology.edge_count());
  text += topology.min_degree() == topology.max_degree()
              ? row("degree", topology.min_degree())
              : row("degree", fmt::format("{} to {}", topology.min_degree(), topology.max_degree()));
  text += row("diameter", topology.diameter()) + row("bipartite", topology.bipartite() ? "yes" : "no");
  if (!topology.extents().empty()) text += row("extents", fmt::format("{}", fmt::join(topology.extents(), "x")));
  return text;
}

}  // namespace dlbkit
