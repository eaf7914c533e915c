#include <dlbkit/workloads/app_workloads.hpp>
#include <dlbkit/workloads/bnb_workload.hpp>
#include <dlbkit/workloads/builtin.hpp>
#include <dlbkit/workloads/artificial.hpp>
#include <dlbkit/workloads/dynamic_load.hpp>
#include <dlbkit/workloads/poisson.hpp>
#include <dlbkit/workloads/trace_workload.hpp>

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
