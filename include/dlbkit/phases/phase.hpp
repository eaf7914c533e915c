#pragma once
/// \file
/// One phase of an iterative application: persistent objects with a measured load, memory
/// and communication, each mapped to a node. A phase strategy (phase_strategy.hpp) decides a
/// new mapping between two phases; vt's LB data files (vt_data.hpp) and the iterative
/// workloads (workloads/builtin_phase_workloads.hpp) produce phases.
///
/// ```
/// dlbkit::Phase phase{.nodes = 2};
/// phase.objects = {{.id = 0, .load = 3.0}, {.id = 1, .load = 1.0}};
/// phase.node_of = {0, 0};                      // both on node 0: imbalance 1
/// ```

#include <dlbkit/topology/topology.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

/// An object's index in Phase::objects.
using ObjectIndex = std::uint32_t;

/// Memory as vt's LB data describes it in a task's `user_defined` (the reading of LBAF's
/// Rank.get_max_memory_usage): a node holds its own working bytes, each shared block that
/// any of its objects uses (once), every object's footprint, and the largest working bytes
/// of one of its objects (objects run one at a time).
struct ObjectMemory {
  double footprint_bytes = 0;   ///< task_footprint_bytes: resident while the object lives here
  double working_bytes = 0;     ///< task_working_bytes: while it runs
  double serialized_bytes = 0;  ///< task_serialized_bytes: what a migration ships (0: footprint)
  /// task_serialize_seconds: the time to serialize what a migration ships, which ObjectRuntime's
  /// record measures (0: not known); the sender pays it to pack.
  double serialize_seconds = 0;
  /// task_deserialize_seconds: the receiver's time to unpack it (0: not known; then taken as
  /// serialize_seconds, the time to pack).
  double deserialize_seconds = 0;
  std::int32_t block = -1;      ///< index in Phase::block_bytes of its shared block, -1: none

  /// What a migration of the object ships: its serialized bytes, else its footprint.
  double shipped_bytes() const { return serialized_bytes > 0 ? serialized_bytes : footprint_bytes; }
};

struct PhaseObject {
  std::uint64_t id = 0;   ///< the application's id (vt's entity id or seq_id)
  double load = 0;        ///< measured time of the phase, seconds (>= 0)
  bool migratable = true;  ///< vt's `migratable`; false: the object stays where it is
  ObjectMemory memory;
};

/// Messages from one object to another in the phase (vt's communications between objects).
struct ObjectCommunication {
  ObjectIndex from = 0;
  ObjectIndex to = 0;
  double messages = 0;
  double bytes = 0;
};

struct Phase {
  std::size_t nodes = 0;                ///< ranks
  std::vector<PhaseObject> objects;
  std::vector<NodeId> node_of;          ///< the mapping: objects[i] lives on node_of[i]
  std::vector<ObjectCommunication> communications;
  /// Memory, where the data has it (has_memory): each node's own working bytes
  /// (rank_working_bytes), and each shared block's bytes with its application id.
  bool has_memory = false;
  std::vector<double> node_working_bytes;
  std::vector<double> block_bytes;
  std::vector<std::int64_t> block_ids;  ///< vt's shared_id of each block
  /// Each node's work per unit of load (vt's rank_alpha, LBAF's alpha; work_model.hpp), where
  /// the data has it; empty: 1 on every node.
  std::vector<double> node_alpha;
  /// The loads in parts (vt's `subphases`): the phase's work between the program's own
  /// synchronisations, so that its time is the sum over subphases of the slowest node's
  /// (figures.hpp). Object i's load in subphase s is subphase_loads[i * subphases + s]; 0 and
  /// empty (the default, and no cost to a phase without them): the phase is one part.
  std::size_t subphases = 0;
  std::vector<double> subphase_loads;
  /// Seconds per byte to pack a message that goes to another process, and to unpack it, as
  /// ObjectRuntime's record under MPI measures them (vt's phase user_defined
  /// message_serialize_seconds_per_byte and message_deserialize_seconds_per_byte;
  /// communication_cost.hpp prices them); 0: not known, not priced.
  double message_serialize_seconds_per_byte = 0;
  double message_deserialize_seconds_per_byte = 0;
};

/// Throws InputError naming `what` when the phase is not well formed: no node, a mapping of
/// another length or to a node >= nodes, a negative or non-finite load or byte count, a
/// communication or block index out of range, memory vectors of the wrong length, subphase
/// loads that are not `subphases` per object or not finite and >= 0.
void check_phase(const Phase& phase, const std::string& what);

/// The nodes' loads under `mapping` (one entry per object).
std::vector<double> node_loads(const Phase& phase, const std::vector<NodeId>& mapping);

/// The nodes' loads in each subphase under `mapping`: node v's in subphase s at
/// [v * phase.subphases + s] (empty for a phase without subphases).
std::vector<double> node_subphase_loads(const Phase& phase, const std::vector<NodeId>& mapping);

/// Node `node`'s work per unit of load: its node_alpha, 1 where the phase has none. A node's
/// time is alpha x load, that is load / speed.
inline double alpha_of(const Phase& phase, NodeId node) {
  return phase.node_alpha.empty() ? 1.0 : phase.node_alpha[node];
}

/// The nodes' speeds summed (1 / alpha each; the node count where the phase has no alphas):
/// total load / total speed is the time of a perfect balance.
double total_speed(const Phase& phase);

}  // namespace dlbkit
