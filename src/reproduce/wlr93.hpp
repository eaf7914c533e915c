#pragma once
/// \file
/// The reproductions of Willebeek-LeMair & Reeves 1993: wlr93-table4, wlr93-fig6,
/// wlr93-fig7.

#include "reproduce/reproduction.hpp"

#include <vector>

namespace dlbkit {

std::vector<ReproductionInfo> wlr93_reproductions();

}  // namespace dlbkit
