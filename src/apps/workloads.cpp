#include <dlbkit/apps/app_workloads.hpp>
#include <dlbkit/apps/bnb_workload.hpp>
#include <dlbkit/apps/workloads.hpp>
#include <dlbkit/sim/artificial.hpp>
#include <dlbkit/sim/dynamic_load.hpp>
#include <dlbkit/sim/poisson.hpp>
#include <dlbkit/sim/trace_workload.hpp>

namespace dlbkit {

const WorkloadRegistry& builtin_workloads() {
  static const WorkloadRegistry registry = [] {
    WorkloadRegistry r;
    r.add(artificial_workload_info());
    r.add(bnb_workload_info());
    r.add(busy_workload_info());
    r.add(dynamic_load_workload_info());
    r.add(poisson_workload_info());
    r.add(trace_workload_info());
    r.add(uts_workload_info());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
