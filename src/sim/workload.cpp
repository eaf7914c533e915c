#include <dlbkit/sim/artificial.hpp>
#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

const WorkloadRegistry& builtin_workloads() {
  static const WorkloadRegistry registry = [] {
    WorkloadRegistry r;
    r.add(artificial_workload_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
