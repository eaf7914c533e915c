// refine: the central baseline that moves least (Charm++'s RefineLB): only nodes above
// (1 + tolerance) x the mean load give objects away, heaviest node first, each time its
// heaviest object that the least loaded node can take without rising above that threshold
// itself (and with room under the memory bound), until the donor is under the threshold or
// nothing it holds fits. Where nodes differ in speed (the phase's node_alpha), on times
// (alpha x load) against (1 + tolerance) x total load / total speed. With subphases=true, on a
// phase with subphases, the nodes above the threshold in a subphase give or swap objects while
// that lowers the phase's time over its subphases (subphase_criterion.hpp).

#include "central.hpp"
#include "subphase_criterion.hpp"

#include <algorithm>
#include <numeric>
#include <queue>

namespace dlbkit {

namespace {

using detail::gather_to_root;
using detail::scatter_from_root;


class Refine : public PhaseStrategy {
public:
  static constexpr const char* name = "refine";
  static constexpr const char* description =
      "central: only overloaded nodes give objects, to the least loaded, fewest migrations";
  static constexpr const char* source = "Charm++ RefineLB (Kale's measurement-based balancing)";
  static constexpr bool weighs_speeds = true;
  static constexpr RealParam kTolerance{
      .name = "tolerance", .default_value = "0.05",
      .description = "a node is overloaded above (1 + tolerance) x the mean load", .min = 0, .max = 1e6,
      .search = {"0.02", "0.2"}};
  static constexpr BooleanParam kSubphases{
      .name = "subphases", .default_value = "false", .description = detail::kSubphasesText};
  static std::vector<ParamSpec> params() { return {kTolerance, kSubphases}; }

  explicit Refine(const Parameters& p) : tolerance_(p[kTolerance]), subphases_(p[kSubphases]) {}

  void rebalance(PhaseContext& ctx) override {
    gather_to_root(ctx);
    if (subphases_ && ctx.phase().subphases > 0) {
      detail::refine_by_subphases(ctx, tolerance_);
      scatter_from_root(ctx);
      return;
    }
    const Phase& phase = ctx.phase();
    // On times, alpha x load; with every alpha 1, the loads against (1 + tolerance) x their mean.
    const double balanced = std::accumulate(ctx.loads().begin(), ctx.loads().end(), 0.0) / total_speed(phase);
    const double threshold = (1 + tolerance_) * balanced;
    const auto time = [&](NodeId v, double added = 0) { return (ctx.load(v) + added) * alpha_of(phase, v); };
    auto on = ctx.objects_by_node();

    using Entry = std::pair<double, NodeId>;
    std::priority_queue<Entry> heaviest;                                          // donors
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> lightest;      // receivers
    for (NodeId v = 0; v < ctx.nodes(); ++v) {
      if (time(v) > threshold) heaviest.emplace(time(v), v);
      else lightest.emplace(time(v), v);
    }
    while (!heaviest.empty() && !lightest.empty()) {
      const NodeId donor = heaviest.top().second;
      heaviest.pop();
      auto& objects = on[donor];
      std::stable_sort(objects.begin(), objects.end(),
                       [&](ObjectIndex a, ObjectIndex b) { return phase.objects[a].load > phase.objects[b].load; });
      for (ObjectIndex object : objects) {
        if (time(donor) <= threshold) break;
        const NodeId receiver = lightest.top().second;
        if (time(receiver, phase.objects[object].load) > threshold) continue;  // too heavy for the least busy
        if (!ctx.move(object, receiver)) {
          ctx.could_not_place(object);
          continue;
        }
        lightest.pop();
        lightest.emplace(time(receiver), receiver);
      }
    }
    scatter_from_root(ctx);
  }

private:
  double tolerance_;
  bool subphases_;
};

}  // namespace

PhaseStrategyInfo refine_phase_strategy_info() { return phase_strategy_info<Refine>(); }

}  // namespace dlbkit
