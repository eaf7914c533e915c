// The registry of every workload dlbkit ships. It lives in the apps layer because it
// knows the applications' workloads as well as the simulator's own.

#include <dlbkit/apps/bnb_workload.hpp>
#include <dlbkit/sim/artificial.hpp>
#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

const WorkloadRegistry& builtin_workloads() {
  static const WorkloadRegistry registry = [] {
    WorkloadRegistry r;
    r.add(artificial_workload_info());
    r.add(bnb_workload_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
