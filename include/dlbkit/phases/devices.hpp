#pragma once
/// \file
/// Placement-dependent costs, the `devices` model: an object's time depends on where it runs.
/// Node v may hold an accelerator (a GPU) that runs the offloadable share of an object's load
/// `speedup[v]` times faster than the node's own processor runs it (0: no device). The
/// processor and the device work at once: the processor runs what cannot be offloaded, and the
/// offloadable work is split between the two as best it can be. With H the node's load that
/// only its processor can run and D the offloadable load (each x the node's alpha), its time is
///
///     time(v) = max(H, (H + D) / (1 + speedup[v]))
///
/// (D alone on the device, with the processor idle, would take D / speedup). Contention: the
/// device is one resource that every object on its node shares, so a node's time grows with each
/// offloadable object placed on it; and offloadable work gains nothing on a node without a device,
/// nor host-only work on one with. A strategy is judged under the model by node_times() of its
/// mapping against the best time device_bound() proves; the strategies themselves see at most
/// one number per node (node_alpha), which effective_alphas() derives from the model.
///
/// ```
/// dlbkit::DeviceModel gpu{.speedup = {8, 0, 0, 0}, .offload = std::vector<double>(phase.objects.size(), 0.9)};
/// std::vector<double> times = dlbkit::node_times(phase, r.mapping, gpu);
/// ```

#include <dlbkit/phases/phase.hpp>

#include <string>
#include <vector>

namespace dlbkit {

struct DeviceModel {
  std::vector<double> speedup;  ///< per node: its device's speed over its processor's; 0: none
  std::vector<double> offload;  ///< per object: the share of its load a device can run, in [0, 1]
};

/// "S0,S1,...", each a number >= 0, and "S*N" for N nodes alike: "8*2,0*6" is 8,8,0,0,0,0,0,0.
/// InputError naming `what`, the value and what is accepted otherwise (nan, a negative number,
/// a count of 0, an empty item, more than 10^7 nodes).
std::vector<double> parse_device_speedups(const std::string& text, const std::string& what);

/// InputError naming `what` unless there is one speedup per node, each finite and >= 0.
void check_device_speedups(const std::vector<double>& speedups, std::size_t nodes, const std::string& what);

/// InputError naming `what` unless there is one speedup per node (finite, >= 0) and one
/// offloadable share per object (in [0, 1]).
void check_device_model(const Phase& phase, const DeviceModel& model, const std::string& what);

/// Each node's time under `mapping` (one node per object) in the model.
std::vector<double> node_times(const Phase& phase, const std::vector<NodeId>& mapping, const DeviceModel& model);

/// A time no mapping beats: the fluid optimum, every object's load split freely between all
/// processors and devices, its host-only share on processors only:
/// max(H / sum_v speed_v, (H + D) / sum_v (1 + speedup_v) speed_v).
double device_bound(const Phase& phase, const DeviceModel& model);

/// node_alpha for a strategy that sees one speed per node: a node runs the phase's mix of work
/// (its mean offloadable share f) at min(1 / (1 - f), 1 + speedup) times its processor's speed,
/// so its alpha is max(1 - f, 1 / (1 + speedup)) x the phase's.
std::vector<double> effective_alphas(const Phase& phase, const DeviceModel& model);

}  // namespace dlbkit
