#include <dlbkit/strategies/builtin_strategies.hpp>

#include <fmt/format.h>

namespace dlbkit {

// Every strategy's entry, strategy_info<S>() of its class, is defined beside the class in its
// source, where the class stays private.
StrategyInfo none_strategy_info();
StrategyInfo rid_strategy_info();
StrategyInfo sid_strategy_info();
StrategyInfo gm_strategy_info();
StrategyInfo hbm_strategy_info();
StrategyInfo dem_strategy_info();
StrategyInfo liquid_strategy_info();
StrategyInfo nna_strategy_info();
StrategyInfo diffusion_strategy_info();
StrategyInfo dimension_exchange_strategy_info();
StrategyInfo sos_strategy_info();
StrategyInfo chebyshev_strategy_info();
StrategyInfo direct_neighbor_strategy_info();
StrategyInfo semi_distributed_strategy_info();
StrategyInfo fully_distributed_strategy_info();
StrategyInfo work_stealing_strategy_info();
StrategyInfo lifeline_strategy_info();

const StrategyRegistry& builtin_strategies() {
  static const StrategyRegistry registry = [] {
    StrategyRegistry r;
    r.add(none_strategy_info());
    r.add(rid_strategy_info());
    r.add(sid_strategy_info());
    r.add(gm_strategy_info());
    r.add(hbm_strategy_info());
    r.add(dem_strategy_info());
    r.add(liquid_strategy_info());
    r.add(nna_strategy_info());
    r.add(diffusion_strategy_info());
    r.add(dimension_exchange_strategy_info());
    r.add(sos_strategy_info());
    r.add(chebyshev_strategy_info());
    r.add(direct_neighbor_strategy_info());
    r.add(semi_distributed_strategy_info());
    r.add(fully_distributed_strategy_info());
    r.add(work_stealing_strategy_info());
    r.add(lifeline_strategy_info());
    return r;
  }();
  return registry;
}

Topology auto_topology(const StrategyInfo& strategy, std::size_t nodes) {
  if (nodes == 0) throw InputError("--topology auto for 0 nodes; accepted: at least 1 node");
  // The hypercube first (WLR93's network, the one hbm, dem and liquid are written for),
  // then the complete graph (every other worker a neighbour).
  std::vector<std::string> specs;
  if (nodes >= 2 && (nodes & (nodes - 1)) == 0) {  // hypercube:0 is no network: 1 node is complete:1
    int d = 0;
    while ((std::size_t{1} << d) < nodes) ++d;
    specs.push_back(fmt::format("hypercube:{}", d));
  }
  specs.push_back(fmt::format("complete:{}", nodes));
  if (nodes >= 4 && (nodes & (nodes - 1)) == 0) {
    int m = 1;
    while ((std::size_t{1} << (m - 1)) < nodes) ++m;
    if (m % 2 == 1) specs.push_back(fmt::format("bisectional:{}", m));
  }
  if (nodes >= 3) specs.push_back(fmt::format("ring:{}", nodes));
  std::string tried;
  for (const std::string& spec : specs) {
    Topology t = parse_topology(spec);
    if (!strategy.check_topology) return t;
    try {
      strategy.check_topology(t);
      return t;
    } catch (const InputError&) {
      tried += (tried.empty() ? "" : ", ") + spec;
    }
  }
  throw InputError(fmt::format("--topology auto: strategy {} accepts none of {} for {} nodes; accepted: another node "
                               "count, or a topology given with --topology",
                               strategy.name, tried, nodes));
}

}  // namespace dlbkit
