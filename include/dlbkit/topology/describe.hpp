#pragma once
/// \file
/// A summary of a Topology for the CLI and for run records.
///
/// ```
/// nlohmann::json j = dlbkit::describe(dlbkit::parse_topology("torus:4x4"));
/// // {"bipartite":true,"degree":{"max":4,"min":4},"diameter":4,"edges":32,
/// //  "extents":[4,4],"kind":"torus","nodes":16,"spec":"torus:4x4"}
/// ```
/// Both functions compute the diameter, which for a large file graph means a breadth-first
/// search from every node.

#include <dlbkit/topology/topology.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace dlbkit {

/// The family name as used in specs: "hypercube", "torus", ..., "file".
std::string_view to_string(TopologyKind kind);

/// {spec, kind, nodes, edges, degree: {min, max}, diameter, bipartite, extents (when any)}.
nlohmann::json describe(const Topology& topology);

/// The same facts as a short two-column table, one per line, ending in a newline.
std::string describe_text(const Topology& topology);

}  // namespace dlbkit
