#pragma once
/// \file
/// `work_stealing`: randomized work stealing, the modern baseline (Blumofe and Leiserson's
/// randomized stealing as in Cilk; the UTS benchmark's MPI work stealing). A node that runs
/// out of tasks asks one victim chosen uniformly at random for work; the victim sends half
/// of its spare tasks (rounded up; NodeContext::spare), or a refusal when it has none, and
/// the thief asks another victim. One request is outstanding per thief. After as many
/// refusals in a row as it has victims, the thief waits `retry_delay` before the next
/// request.
/// Parameter `neighbors=true` restricts the victims to the node's topology neighbours.

#include <dlbkit/core/registry.hpp>

namespace dlbkit {

StrategyInfo work_stealing_strategy_info();

}  // namespace dlbkit
