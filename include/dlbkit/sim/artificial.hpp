#pragma once
/// \file
/// The artificial workload of WLR93 Sec. V-A (Table III).
///
/// Node i receives load h l_i loops with l_i uniform in (0, 2L/(hN)) (eq. 33), split into g
/// tasks of tau_j psi loops with tau_j uniform in (0, 2 omega l_i / g) (eq. 34-35), where
/// h = omega psi is the block size and omega = 5 g (the paper's omega/g = 5), so the range of
/// task sizes does not depend on the granularity g. L = 2.5e7 N loops by default, which is
/// the paper's 8e8 at N = 32 and its size sweep of Fig. 6. A loop costs the cost model's
/// loop_time (1.3 us on the iPSC/2).

#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

WorkloadInfo artificial_workload_info();

}  // namespace dlbkit
