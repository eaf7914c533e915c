#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

namespace dlbkit {

// Every phase strategy's entry, phase_strategy_info<S>() of its class, is defined beside the
// class in its source, where the class stays private.
PhaseStrategyInfo none_phase_strategy_info();
PhaseStrategyInfo greedy_phase_strategy_info();
PhaseStrategyInfo refine_phase_strategy_info();
PhaseStrategyInfo diffusion_phase_strategy_info();
PhaseStrategyInfo dimension_exchange_phase_strategy_info();
PhaseStrategyInfo sos_phase_strategy_info();
PhaseStrategyInfo chebyshev_phase_strategy_info();
PhaseStrategyInfo hbm_phase_strategy_info();
PhaseStrategyInfo tempered_phase_strategy_info();
PhaseStrategyInfo partition_phase_strategy_info();
PhaseStrategyInfo hierarchical_phase_strategy_info();

const PhaseStrategyRegistry& builtin_phase_strategies() {
  static const PhaseStrategyRegistry registry = [] {
    PhaseStrategyRegistry r;
    r.add(none_phase_strategy_info());
    r.add(greedy_phase_strategy_info());
    r.add(refine_phase_strategy_info());
    r.add(diffusion_phase_strategy_info());
    r.add(dimension_exchange_phase_strategy_info());
    r.add(sos_phase_strategy_info());
    r.add(chebyshev_phase_strategy_info());
    r.add(hbm_phase_strategy_info());
    r.add(tempered_phase_strategy_info());
    r.add(partition_phase_strategy_info());
    r.add(hierarchical_phase_strategy_info());
    return r;
  }();
  return registry;
}

std::vector<std::string> strategies_weighing_speeds() {
  std::vector<std::string> names;
  for (const auto& s : builtin_phase_strategies().all())
    if (s.weighs_speeds) names.push_back(s.name);
  return names;
}

}  // namespace dlbkit
