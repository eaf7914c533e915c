#pragma once
/// \file
/// The runtime's applications (apps/runtime_apps.hpp) as simulator workloads, so that the
/// simulator runs the very tasks `dlbkit run` runs, with a duration per task from a rate
/// (docs/apps/workloads.md):
/// - `uts`: the same UTS tree, node by node: the root starts on node 0 and a node's children
///   appear on the node that executed it when it completes, generated then (memory follows
///   the pending tasks, not the tree). Every node takes `node_time`.
/// - `busy`: the busy app's draw of tasks (the same parameters, the same seed), each task
///   taking its loops times `loop_time`.
/// `bnb` is workloads/bnb_workload.hpp. The rates' defaults were measured on one machine;
/// `dlbkit calibrate` measures them on yours.
///
/// ```
/// auto uts = dlbkit::builtin_workloads().configure("uts", {{"tree", "T1"}, {"node_time", "100ns"}}).create();
/// ```

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

WorkloadInfo uts_workload_info();
WorkloadInfo busy_workload_info();

}  // namespace dlbkit
