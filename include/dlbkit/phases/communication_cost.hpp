#pragma once
/// \file
/// What the messages between objects on different nodes add to a phase's time under a
/// mapping. A phase is priced as a bulk-synchronous superstep (Valiant's BSP, w + h g + l):
/// the objects' work, then one exchange in which each node sends and receives its crossing
/// messages at once, and the next phase starts when the last has arrived:
///
///     phase time         = max over nodes (load) + communication time
///     communication time = max over nodes (sent x send_overhead + received x handle_cost
///                                          + max(bytes sent, bytes received) x per_byte)
///                        + latency                        (0 when no message crosses)
///
/// The overheads are each node's processor time, one message after another; its bytes flow
/// both ways at once (a full-duplex link: the larger direction counts); the messages travel
/// together, so the latency is paid once. Messages between objects of one node cost nothing.
///
/// Where the phase has the costs of packing and unpacking a message's bytes (as ObjectRuntime's
/// record measures them: Phase::message_serialize_seconds_per_byte), two steps more, each as
/// long as its slowest node, as ObjectRuntime delivers (every node packs what leaves it, the
/// exchange, every node unpacks what arrived, a collective after each):
///
///     + max over nodes (bytes sent x serialize per byte)
///     + max over nodes (bytes received x deserialize per byte)
///
/// ```
/// const double comm = dlbkit::communication_seconds(phase, phase.node_of, dlbkit::make_cost_model("file:mpi.json"));
/// ```

#include <dlbkit/phases/phase.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <vector>

namespace dlbkit {

/// Seconds; 0 for a phase without crossing messages or under a cost model without costs.
double communication_seconds(const Phase& phase, const std::vector<NodeId>& mapping, const CostModel& cost);

}  // namespace dlbkit
