#pragma once
/// \file
/// The artificial workload of WLR93 Sec. V-A (Table III).
///
/// Its tasks are apps/artificial_tasks.hpp's draw (eq. 33-35), the same as the runtime's `busy`
/// app; a loop costs the cost model's loop_time (1.3 us on the iPSC/2).

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

WorkloadInfo artificial_workload_info();

}  // namespace dlbkit
