#pragma once
/// \file
/// An undirected, connected interconnection network in compressed adjacency form.
///
/// ```
/// dlbkit::Topology cube = dlbkit::parse_topology("hypercube:5");
/// for (dlbkit::NodeId v : cube.neighbors(0)) { ... }   // 1, 2, 4, 8, 16: bit order
/// int hops = cube.distance(0, 31);                      // 5
/// ```
/// A Topology is immutable after construction; every member is safe to call from several
/// threads at once (the lazily computed values are guarded).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <typeindex>
#include <vector>

namespace dlbkit {

using NodeId = std::uint32_t;

/// Largest network a Topology materialises (torus:4096x4096).
inline constexpr std::size_t kMaxTopologyNodes = std::size_t{1} << 24;

enum class TopologyKind { hypercube, torus, mesh, ring, tree, complete, bisectional, odd, file };

/// The dimension an edge lies in, where the network has dimensions:
/// hypercube: axis = the bit in which the end points differ, direction = 0;
/// torus, ring and mesh: the axis and the direction (+1 or -1) of the step.
struct EdgeDimension {
  int axis = 0;
  int direction = 0;
  friend bool operator==(const EdgeDimension&, const EdgeDimension&) = default;
};

class Topology {
public:
  /// Builds a graph from adjacency lists (kind `file`): neighbour lists are kept in the order
  /// given. Throws InputError for a self-loop, a duplicate or one-sided edge, an out-of-range
  /// id, a disconnected graph or more than kMaxTopologyNodes nodes. `spec` names it in output.
  static Topology from_adjacency(std::string spec, const std::vector<std::vector<NodeId>>& adjacency);

  /// The canonical spec, e.g. "hypercube:5", "torus:4x4", "file:net.txt".
  const std::string& spec() const;
  TopologyKind kind() const;

  std::size_t size() const;         ///< number of nodes N
  std::size_t edge_count() const;   ///< undirected edges
  std::size_t degree(NodeId v) const;
  std::size_t min_degree() const;
  std::size_t max_degree() const;

  /// Neighbours of v in a stable order fixed by the generator (see generators.hpp).
  std::span<const NodeId> neighbors(NodeId v) const;
  /// Position of u in neighbors(v), or -1 when u is not a neighbour of v (a hypercube
  /// answers from the ids, without reading the list).
  int neighbor_index(NodeId v, NodeId u) const;
  /// Where each node's neighbours start in all the lists one after another, node by node:
  /// N + 1 entries, node v's at [offsets[v], offsets[v + 1]). An engine keeping one value
  /// per (node, neighbour) in one array indexes it with these.
  std::span<const std::uint32_t> neighbor_offsets() const;

  /// Hop distance; closed form where the family has one, breadth-first search otherwise.
  int distance(NodeId u, NodeId v) const;
  /// Distances from `source` to every node, by breadth-first search.
  std::vector<int> bfs_distances(NodeId source) const;
  int diameter() const;
  bool bipartite() const;

  /// Per-axis extents for hypercube (d twos), torus, ring and mesh; empty otherwise.
  std::span<const int> extents() const;
  /// The dimension of the edge from v to its i-th neighbour, where the network has one.
  std::optional<EdgeDimension> edge_dimension(NodeId v, std::size_t neighbor_index) const;

  /// Structure every node derives alike from the graph (an edge colouring, a scheduler set):
  /// `make(*this)` runs on first use and its result is shared by all copies of this topology
  /// and all threads until the last copy goes. One value per (T, key). Thread-safe.
  /// ```
  /// const auto& colouring = t.shared<EdgeColoring>("edge_coloring", edge_coloring);
  /// ```
  template <class T, class Make>
  const T& shared(const std::string& key, Make&& make) const {
    const auto value = shared_value(typeid(T), key, [&]() -> std::shared_ptr<const void> {
      return std::make_shared<const T>(make(*this));
    });
    return *static_cast<const T*>(value);
  }

  Topology(const Topology&) = default;
  Topology(Topology&&) noexcept = default;
  Topology& operator=(const Topology&) = default;
  Topology& operator=(Topology&&) noexcept = default;
  ~Topology();

private:
  const void* shared_value(std::type_index type, const std::string& key,
                           const std::function<std::shared_ptr<const void>()>& make) const;
  struct Data;
  explicit Topology(std::shared_ptr<const Data> data);
  std::shared_ptr<const Data> data_;
  friend struct TopologyBuilder;
};

/// Parses a spec: hypercube:d, torus:AxBx..., mesh:AxB..., ring:N, tree:binary:LEVELS,
/// complete:N, bisectional:n, odd:n, file:PATH. Throws InputError naming the bad part.
Topology parse_topology(const std::string& spec);

/// One line per accepted spec form with its limits, for help texts and error messages.
const std::vector<std::string>& topology_spec_forms();

}  // namespace dlbkit
