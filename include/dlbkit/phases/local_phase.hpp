#pragma once
/// \file
/// What one rank holds of a phase: its own objects, their memory and the messages they sent,
/// with ids unique over every rank. This is what a program hands the plan API
/// (objects/balancer.hpp), and all that a rank's part of a distributed strategy's protocol
/// may read; a central strategy gathers every rank's into one Phase (phase.hpp).
///
/// ```
/// dlbkit::LocalPhase mine{.objects = {{.id = 7, .load = 0.004}, {.id = 9, .load = 0.001}}};
/// mine.edges = {{.from = 7, .to = 12, .messages = 1, .bytes = 4096}};  // 12 lives elsewhere
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

/// Messages an object of this rank sent in the phase to the object `to`, on any rank.
struct LocalEdge {
  std::uint64_t from = 0;  ///< the id of one of this rank's objects
  std::uint64_t to = 0;    ///< the id of any rank's object
  double messages = 1;
  double bytes = 0;
};

/// A shared block that this rank's objects use (vt's shared_id, shared_bytes), by id over
/// every rank: ObjectMemory::block indexes LocalPhase::blocks.
struct LocalBlock {
  std::int64_t id = 0;
  double bytes = 0;
};

struct LocalPhase {
  /// The rank's objects; PhaseObject::id is the program's, unique over every rank.
  std::vector<PhaseObject> objects;
  std::vector<LocalEdge> edges;
  std::vector<LocalBlock> blocks;
  /// The rank's own working bytes (vt's rank_working_bytes).
  double working_bytes = 0;
  /// The rank's speed relative to the others: a load of 1 takes 1 / speed here (> 0).
  double speed = 1;
};

/// One object that leaves a rank, or arrives at one.
struct ObjectMove {
  std::uint64_t id = 0;
  NodeId rank = 0;  ///< where it goes (a departure) or where it comes from (an arrival)
};

/// Each node's part of `phase` (node r's at r): its objects under phase.node_of, the messages
/// they sent, the blocks they use, its working bytes, its speed (1 / its alpha).
std::vector<LocalPhase> local_phases(const Phase& phase);

/// Throws InputError naming `what` when the rank's own part is malformed: a load that is
/// negative, NaN or infinite, a byte count likewise, an edge from an object not listed, a
/// block index out of range, a speed that is not positive and finite, an id listed twice.
void check_local_phase(const LocalPhase& mine, const std::string& what);

}  // namespace dlbkit
