#pragma once
/// \file
/// The open queueing workload of AG91 Sec. 6: tasks arrive at every node in a Poisson
/// process of rate lambda, each needing an exponential service time of mean 1/mu (1 s by
/// default, the time unit); the system load is lambda/mu. N independent Poisson processes
/// of rate lambda are one of rate N lambda whose arrivals pick a node uniformly at random.
/// The run ends when `tasks` tasks have arrived and completed.
///
/// ```
/// auto w = dlbkit::builtin_workloads().configure("poisson", {{"load", "0.8"}, {"tasks", "20000"}}).create();
/// ```

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

WorkloadInfo poisson_workload_info();

}  // namespace dlbkit
