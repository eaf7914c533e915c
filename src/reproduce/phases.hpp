#pragma once
/// \file
/// The phase strategies side by side (docs/reproductions/phases.md):
///   phases        every phase strategy on every synthetic iterative workload at 64 and 1024
///                 nodes: imbalance after, migrations, crossing communication, simulated and
///                 wall time, over several phases balanced after each;
///   phases-large  the same at 64, 1024 and 65 536 nodes (100 objects each: 6.5 M objects),
///                 over two phases.
/// No paper publishes these figures: they are our own comparison.

#include "reproduce/reproduction.hpp"

#include <vector>

namespace dlbkit {

std::vector<ReproductionInfo> phases_reproductions();

}  // namespace dlbkit
