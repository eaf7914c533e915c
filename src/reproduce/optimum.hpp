#pragma once
/// \file
/// phases-optimum (docs/reproductions/phases.md): every phase strategy beside the exact
/// reference (phases/milp.hpp) and the lower bound (phases/lower_bound.hpp), on the first phase
/// of each synthetic iterative workload at a size the MILP solves: how far each strategy's max
/// load is from the best possible. No paper publishes these figures: they are our own.

#include "reproduce/reproduction.hpp"

namespace dlbkit {

ReproductionInfo phases_optimum_reproduction();

}  // namespace dlbkit
