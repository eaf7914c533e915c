// greedy: the central baseline of measurement-based balancers (Charm++'s GreedyLB): every
// migratable object, heaviest first, to the node that is least loaded so far, among those
// with room for it under the memory bound.

#include "central.hpp"

#include <algorithm>
#include <queue>

namespace dlbkit {

namespace {

using detail::gather_to_root;
using detail::scatter_from_root;


class Greedy : public PhaseStrategy {
public:
  static constexpr const char* name = "greedy";
  static constexpr const char* description =
      "central: every object, heaviest first, to the least loaded node with room for it";
  static constexpr const char* source = "Charm++ GreedyLB (Kale's measurement-based balancing)";

  explicit Greedy(const Parameters&) {}

  void rebalance(PhaseContext& ctx) override {
    gather_to_root(ctx);
    const Phase& phase = ctx.phase();
    // The plan's loads start from the objects that cannot move; the others are placed one by
    // one. ctx.move() checks the memory bound with the objects not yet placed still counted
    // at home, so that a node that gains an object never ends above the bound.
    std::vector<double> load(ctx.nodes(), 0.0);
    std::vector<ObjectIndex> order;
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i) {
      if (phase.objects[i].migratable) order.push_back(i);
      else load[ctx.node_of(i)] += phase.objects[i].load;
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](ObjectIndex a, ObjectIndex b) { return phase.objects[a].load > phase.objects[b].load; });

    using Entry = std::pair<double, NodeId>;  // (load, node), least loaded on top
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> lightest;
    for (NodeId v = 0; v < ctx.nodes(); ++v) lightest.emplace(load[v], v);
    std::vector<Entry> full;  // nodes without room for the current object
    for (ObjectIndex object : order) {
      // Every node is in the heap, the object's own among them, where it always fits.
      while (!ctx.move(object, lightest.top().second)) {
        full.push_back(lightest.top());
        lightest.pop();
      }
      const NodeId chosen = lightest.top().second;
      lightest.pop();
      if (!full.empty()) ctx.could_not_place(object);  // not on the least loaded node: no room there
      for (const Entry& e : full) lightest.push(e);
      full.clear();
      load[chosen] += phase.objects[object].load;
      lightest.emplace(load[chosen], chosen);
    }
    scatter_from_root(ctx);
  }
};

}  // namespace

PhaseStrategyInfo greedy_phase_strategy_info() { return phase_strategy_info<Greedy>(); }

}  // namespace dlbkit
