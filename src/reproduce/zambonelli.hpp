#pragma once
/// \file
/// Zambonelli's direct-neighbour experiments: Figs 7-12 (imbalance, migrations per
/// delta-sigma and NRT against the load's dynamicity, low and high dispersion), the same
/// sigma and NRT beyond their dynamicities (shorter processes, slower load messages) and the
/// Fig. 2 case (a global imbalance no node sees locally). docs/reproductions/zambonelli.md.

#include "reproduce/reproduction.hpp"

#include <vector>

namespace dlbkit {

std::vector<ReproductionInfo> zambonelli_reproductions();

}  // namespace dlbkit
