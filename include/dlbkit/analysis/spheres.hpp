#pragma once
/// \file
/// Schedulers and their spheres on the distance-transitive networks Q_n, B_n and O_n
/// (AG91 Sec. 4.3): the scheduler set C is a Hadamard code, and every property the paper
/// tabulates is measured on the graph, never assumed.
///
/// ```
/// auto q8 = dlbkit::parse_topology("hypercube:8");
/// dlbkit::SchedulerSet c = dlbkit::scheduler_set(q8);        // 16 schedulers, M and M^C
/// dlbkit::SphereStructure s = dlbkit::analyze_spheres(q8, c);
/// // s.covering_radius == 2 (BFS), s.valencies == {1, 8, 28}, s.sphere_size == 37
/// auto table3 = dlbkit::sharing_distribution(q8, c, 2);       // AG91 Table III, f = 2
/// ```
/// Thread-safe: no shared state.

#include <dlbkit/topology/topology.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlbkit {

struct SchedulerSet {
  std::string family;        ///< "Q_8", "B_9", "O_6"
  int n = 0;                 ///< the degree of the network
  std::string rule;          ///< which construction of AG91 Sec. 4.3 was applied
  int hadamard_order = 0;
  std::string hadamard_construction;
  int word_length = 0;
  std::vector<std::uint64_t> codewords;  ///< the Hadamard code, bit j = position j
  std::vector<NodeId> schedulers;        ///< the node of each codeword, same order
};

/// The scheduler set C of AG91 Sec. 4.3 for hypercube:n (n = 0 mod 4 and Cases a, b, c),
/// bisectional:n (M only) and odd:n (Lemma 1, n even). Throws InputError for any other
/// topology or size, naming the sizes that are available.
SchedulerSet scheduler_set(const Topology& topology);

/// One line per family with the sizes scheduler_set() accepts.
std::string scheduler_set_sizes();

struct SphereStructure {
  std::size_t nodes = 0;                  ///< N
  int degree = 0;                         ///< n
  int min_distance = 0;                   ///< delta: least distance between two schedulers
  std::map<int, std::size_t> pair_distances;  ///< distance -> unordered scheduler pairs at it
  int covering_radius = 0;                ///< r = max over nodes of the distance to C (BFS)
  std::vector<std::size_t> valencies;     ///< v_0 .. v_r around a scheduler, checked equal for all
  std::size_t sphere_size = 0;            ///< |S_r(x)| = v_0 + ... + v_r
};

/// Measures the structure: pairwise distances, covering radius by multi-source BFS,
/// valencies by BFS from every scheduler (a logic_error if two spheres differ).
SphereStructure analyze_spheres(const Topology& topology, const SchedulerSet& set);

/// AG91 Table III: for the nodes at each distance d from C (0 .. r), how many lie in
/// exactly k spheres of radius `range` (k -> number of nodes). A node's own sphere counts.
struct SharingRow {
  int distance = 0;
  std::size_t nodes = 0;
  std::map<std::size_t, std::size_t> spheres;
};
std::vector<SharingRow> sharing_distribution(const Topology& topology, const SchedulerSet& set, int range);

/// For each node, the indexes (into set.schedulers) of the schedulers within `range`.
std::vector<std::vector<std::uint32_t>> sphere_membership(const Topology& topology, const std::vector<NodeId>& schedulers,
                                                          int range);

}  // namespace dlbkit
