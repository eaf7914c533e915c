#pragma once
/// \file
/// The workload "trace": a recorded run's task tree (core/task_trace.hpp, written by
/// `dlbkit run --record PATH`) replayed on any topology with any strategy. Each root starts
/// on node (its recorded worker mod N); a task's children appear on the node that executed
/// it when it completes; every task takes its recorded duration times `scale`.
///
/// Parameters: file (the trace, required), scale (1). The file is read when the run starts;
/// a defect in it is an InputError naming the file and the byte.
///
/// ```
/// auto replay = dlbkit::builtin_workloads().configure("trace", {{"file", "uts.trace"}}).create();
/// ```

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

WorkloadInfo trace_workload_info();

}  // namespace dlbkit
