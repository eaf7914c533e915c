#include <dlbkit/workloads/bnb_workload.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>

namespace dlbkit {

// Every workload's entry, workload_info<W>() of its class, is defined beside the class in its
// source, where the class stays private (bnb's is declared in its header, with the variant on
// a fixed instance).
WorkloadInfo artificial_workload_info();
WorkloadInfo busy_workload_info();
WorkloadInfo dynamic_load_workload_info();
WorkloadInfo poisson_workload_info();
WorkloadInfo trace_workload_info();
WorkloadInfo uts_workload_info();

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
