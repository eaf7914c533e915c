// none: no balancing, the baseline every figure is compared with (as NOBAL is for tasks).

#include <dlbkit/phases/phase_strategy.hpp>

namespace dlbkit {

namespace {

class NoBalancing : public PhaseStrategy {
public:
  static constexpr const char* name = "none";
  static constexpr const char* description = "no balancing: every object stays where it is";
  static constexpr const char* source = "baseline";

  explicit NoBalancing(const Parameters&) {}
  void rebalance(PhaseContext&) override {}
};

}  // namespace

PhaseStrategyInfo none_phase_strategy_info() { return phase_strategy_info<NoBalancing>(); }

}  // namespace dlbkit
