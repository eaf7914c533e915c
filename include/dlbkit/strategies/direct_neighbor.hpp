#pragma once
/// \file
/// The direct-neighbour policy of Zambonelli ("How to Improve Local Load Balancing Policies
/// by Distorting Load Information"): triggered by new load information, a node equalises
/// its load with its least loaded neighbour once the two have established a sender-receiver
/// couple (Sec. 2; `protocol=couple`), where what neighbours tell each other
/// may be distorted towards their neighbourhood's load (Sec. 3.1, weight w) and migrating
/// load may be forwarded on to a local minimum (Sec. 3.2, the extended scheme).
///
/// ```
/// auto dn = dlbkit::builtin_strategies().configure("direct_neighbor", {{"w", "0.5"}, {"extended", "true"}});
/// ```

#include <dlbkit/core/registry.hpp>

#include <cstdint>
#include <span>

namespace dlbkit {

/// Sec. 3.1: the distorted load DL_i that node i sends to neighbour j,
///     DL_i = w L_i + (1 - w) / (M - 1) * sum_{k in N, k != j} DL_k,
/// where `others` holds the DL_k that i knows of its M - 1 other neighbours. A node with no
/// other neighbour (M = 1) sends its load L_i.
double distorted_load(double w, double local, std::span<const double> others);

/// Sec. 2 and 3.1: processes to move from a node with load `local` to a neighbour believed to
/// hold `neighbour` so that L(t+1) = (L + DL) / 2 on both sides: floor((local - neighbour) / 2),
/// or 0 when the neighbour is not less loaded (the load is not indefinitely divisible).
std::int64_t equalising_amount(double local, double neighbour);

}  // namespace dlbkit
