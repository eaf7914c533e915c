#pragma once
/// \file
/// Semi-distributed load balancing (AG91 Sec. 5): the network is covered by spheres of
/// radius f (the covering radius r by default) around schedulers chosen from a Hadamard
/// code (analysis/spheres.hpp). A task arriving at a node is routed to the scheduler of
/// its sphere (a random one when the node lies in several); the scheduler runs Steps 1-7:
///
/// 1-2. look at the least-loaded node of its sorted node-load list; if its load is at most
///      threshold1, 3-5. send the task there, update the list and the sphere's load;
/// 6-7. otherwise ask every other scheduler for its sphere's load and send the task to a
///      random scheduler whose sphere is lighter by at least threshold2, which places it in
///      its own sphere (Step 3) without migrating it again; if none is, go to Step 3.
///
/// A scheduler that places a task on a node shared with other spheres tells their
/// schedulers (`assign_update`); a node tells all its schedulers when its load changes
/// other than by an assignment, i.e. when it finishes a task (`load_change`). Task moves
/// are the engine's `task_transfer`s. Runs on hypercube:n, bisectional:n and odd:n where
/// a scheduler set exists; the sphere structure is computed once per topology and range.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo semi_distributed_strategy_info();

}  // namespace dlbkit
