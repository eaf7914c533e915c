#pragma once
/// \file
/// The simulator workload "bnb": WLR93's branch-and-bound job scheduling experiment
/// (Sec. V-C, Table V, Fig. 8) on a real total-tardiness instance.
///
/// The search tree of an n-job instance is cut at depth n - m; the prefixes there that
/// survive the fixed tardiness threshold are the tasks (s = n!/m! with no threshold). A
/// task's work is the search steps its subtree really takes (count_schedules_within, run
/// when the tasks are created) times `step_time` (150 us in the paper). The steps above
/// depth n - m, which find the tasks, are the static partition done before the run and
/// are not simulated. As in the paper ("the search space is divided into N parts and each
/// processor explores its own branch") the tasks, in depth-first order, are dealt to the
/// nodes in contiguous blocks (`placement=blocks`, node i gets tasks [i s/N, (i+1) s/N));
/// `placement=cyclic` deals them round robin instead. Task tag = the task's index in
/// depth-first order. `placement=tree` runs instead the tasks of the runtime's `bnb` app in
/// threshold mode (apps/bnb_search.hpp): the root on node 0, split into children on the
/// node that executed it as it completes, down to prefixes of m free jobs searched whole;
/// a split task's work is its children formed times step_time. The steps above depth n - m
/// are simulated then, and the simulated tasks and steps equal the app's.
///
/// Parameters: n (11), m (8), instance_seed (auto: the instance is drawn from the run's
/// workload stream; an integer S: from Rng(S), the same instance in every run),
/// tardiness_factor and due_date_range (the generator's TF and RDD, 0.6 each), threshold
/// (auto = floor(optimum (1 + slack)), found by solving the instance first; or an integer,
/// or inf), slack (0.1), step_time (150us), placement (blocks; cyclic, tree). A threshold below every
/// schedule's tardiness leaves no task and is an InputError naming the optimum.
///
/// ```
/// auto workload = dlbkit::builtin_workloads().configure("bnb", {{"m", "6"}}).create();
/// ```
/// The workload keeps no state beyond its run: nothing is cached between runs.

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

/// The "bnb" workload with a generated instance.
WorkloadInfo bnb_workload_info();

/// The "bnb" workload on a fixed instance (read from a file, say): the same parameters
/// less n, instance_seed, tardiness_factor and due_date_range, which the instance fixes.
WorkloadInfo bnb_workload_info(TardinessInstance instance);

}  // namespace dlbkit
