#pragma once
// Private to src/topology: the hand-over from the generators and the file reader to the
// immutable Topology, and the limits and helpers both sides share.

#include <dlbkit/topology/topology.hpp>

#include "neighbor_lists.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlbkit {

inline constexpr int kMaxHypercubeDimension = 24;  // 2^24 = kMaxTopologyNodes
inline constexpr int kMaxAxes = 24;                // a torus of 24 twos is hypercube:24
inline constexpr int kMaxTreeLevels = 24;
// K_N stores N(N-1) neighbour slots: 4096 nodes already take 64 MiB.
inline constexpr int kMaxCompleteNodes = 4096;
inline constexpr int kMinBisectional = 3;
inline constexpr int kMaxBisectional = 25;  // 2^24 nodes
inline constexpr int kMinOdd = 2;
inline constexpr int kMaxOdd = 12;  // C(23, 11) = 1352078 nodes
// Offsets are 32-bit: a file graph may hold at most 2^28 edges (2^29 neighbour slots).
inline constexpr std::uint64_t kMaxFileEdges = std::uint64_t{1} << 28;

/// A graph in CSR form, filled by a generator and moved into a Topology by finish().
struct TopologyBuilder {
  std::string spec;
  TopologyKind kind = TopologyKind::file;
  int order = 0;                       // d, L, N or n; the number of axes for torus and mesh
  std::vector<int> extents;            // hypercube, torus, ring, mesh
  std::vector<std::uint32_t> offsets;  // N + 1 entries into `neighbors`
  std::vector<NodeId> neighbors;
  // A family with a formula leaves `neighbors` empty and gives the writer of a node's list
  // instead, called on first use (neighbor_lists.hpp).
  NeighborLists::Fill fill;

  Topology finish();
};

/// C(2n-1, n-1): the number of nodes of O_n.
std::size_t odd_node_count(int n);

/// The first node (by id) that breadth-first search from node 0 does not reach.
std::optional<NodeId> first_unreachable(const std::vector<std::uint32_t>& offsets,
                                        const std::vector<NodeId>& neighbors);

/// Strict decimal: digits only, no sign, no blanks. Values past 2^64 - 1 saturate, so that
/// every caller's range check rejects them. nullopt when `text` is not a number.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

}  // namespace dlbkit
