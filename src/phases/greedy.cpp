// greedy: the central baseline of measurement-based balancers (Charm++'s GreedyLB): every
// migratable object, heaviest first, to the node that is least loaded so far, among those
// with room for it under the memory bound. Where nodes differ in speed (the phase's
// node_alpha), to the node where it would end first: least (load + its load) x alpha. With
// improve=true (ours, not GreedyLB's) a local search then lowers the busiest node (the largest
// alpha x load) by moves and swaps of one or two objects. With subphases=true, on a phase with
// subphases, both weigh the phase's time over its subphases instead (subphase_criterion.hpp).

#include "central.hpp"
#include "subphase_criterion.hpp"

#include <algorithm>
#include <initializer_list>
#include <optional>
#include <queue>
#include <span>

namespace dlbkit {

namespace {

using detail::gather_to_root;
using detail::scatter_from_root;


class Greedy : public PhaseStrategy {
public:
  static constexpr const char* name = "greedy";
  static constexpr const char* description =
      "central: every object, heaviest first, to the least loaded node with room for it; re-deals nearly "
      "every object each step (about (P-1)/P of them move)";
  static constexpr const char* source = "Charm++ GreedyLB (Kale's measurement-based balancing)";
  static constexpr bool weighs_speeds = true;

  static constexpr BooleanParam kImprove{
      .name = "improve", .default_value = "false",
      .description = "then move or swap one or two objects off the most loaded node while that lowers it (not "
                     "GreedyLB's)"};
  static constexpr BooleanParam kSubphases{
      .name = "subphases", .default_value = "false", .description = detail::kSubphasesText};
  static std::vector<ParamSpec> params() { return {kImprove, kSubphases}; }

  explicit Greedy(const Parameters& p) : improve_(p[kImprove]), subphases_(p[kSubphases]) {}

  void rebalance(PhaseContext& ctx) override {
    gather_to_root(ctx);
    if (subphases_ && ctx.phase().subphases > 0) {
      detail::place_by_subphases(ctx);
      if (improve_) detail::refine_by_subphases(ctx, 0);
      scatter_from_root(ctx);
      return;
    }
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

    // Nodes of one speed form a class, its least loaded node on top; the object goes to the
    // node where it would end first, (load + its load) x alpha, among the classes' tops.
    using Entry = std::pair<double, NodeId>;  // (load, node), least loaded on top
    using Heap = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>;
    std::vector<std::pair<double, Heap>> classes;  // (alpha, its nodes)
    for (NodeId v = 0; v < ctx.nodes(); ++v) {
      const double alpha = alpha_of(phase, v);
      auto c = std::find_if(classes.begin(), classes.end(), [&](const auto& k) { return k.first == alpha; });
      if (c == classes.end()) c = classes.insert(c, {alpha, Heap()});
      c->second.emplace(load[v], v);
    }
    std::vector<std::pair<std::size_t, Entry>> full;  // (class, node) without room for the current object
    for (ObjectIndex object : order) {
      const double w = phase.objects[object].load;
      const auto first_end = [&] {  // the class whose top ends the object first
        std::size_t best = classes.size();
        for (std::size_t c = 0; c < classes.size(); ++c)
          if (!classes[c].second.empty() &&
              (best == classes.size() || (classes[c].second.top().first + w) * classes[c].first <
                                             (classes[best].second.top().first + w) * classes[best].first))
            best = c;
        return best;
      };
      // Every node is in a heap, the object's own among them, where it always fits.
      std::size_t c = first_end();
      while (!ctx.move(object, classes[c].second.top().second)) {
        full.emplace_back(c, classes[c].second.top());
        classes[c].second.pop();
        c = first_end();
      }
      const NodeId chosen = classes[c].second.top().second;
      classes[c].second.pop();
      if (!full.empty()) ctx.could_not_place(object);  // not where it ends first: no room there
      for (const auto& [k, e] : full) classes[k].second.push(e);
      full.clear();
      load[chosen] += w;
      classes[c].second.emplace(load[chosen], chosen);
    }
    if (improve_) improve(ctx, load);
    scatter_from_root(ctx);
  }

private:
  /// Local search on the plan: the busiest node M (the largest time, alpha x load) gives one
  /// object to a node v, or swaps one with v's, where that lowers the larger of the two times
  /// most; failing that, two of M's objects for one of v's or none. Until M cannot be lowered
  /// so. Each step lowers the pair's larger time, and it is bounded, at kSteps steps (a change
  /// the memory bound refuses is a step too, which tries the others without that node). v's
  /// partner is found by bisection in its objects sorted by load: the swap that lowers the
  /// pair most sends d = (time M - time v) / (alpha M + alpha v) across, which evens them.
  static void improve(PhaseContext& ctx, std::vector<double>& load) {
    const Phase& phase = ctx.phase();
    const auto weight = [&](ObjectIndex i) { return phase.objects[i].load; };
    const auto lighter = [&](ObjectIndex a, ObjectIndex b) { return weight(a) < weight(b); };
    const auto alpha = [&](NodeId v) { return alpha_of(phase, v); };
    const auto time = [&](NodeId v) { return load[v] * alpha(v); };
    std::vector<std::vector<ObjectIndex>> on(ctx.nodes());  // migratable objects, lightest first
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
      if (phase.objects[i].migratable) on[ctx.node_of(i)].push_back(i);
    for (auto& list : on) std::stable_sort(list.begin(), list.end(), lighter);
    constexpr int kSteps = 100000;
    std::vector<bool> closed(ctx.nodes(), false);  // this step: a change with v broke the memory bound
    for (int step = 0; step < kSteps; ++step) {
      NodeId m = 0;
      for (NodeId v = 1; v < ctx.nodes(); ++v)
        if (time(v) > time(m)) m = v;
      double best = time(m);  // the pair's larger time after the best change found
      std::vector<std::pair<ObjectIndex, NodeId>> moves;
      // `give` (of load `given`) from M to each v, for none of v's objects or the best one.
      const auto consider = [&](std::initializer_list<ObjectIndex> give, double given) {
        for (NodeId v = 0; v < ctx.nodes(); ++v) {
          if (v == m || closed[v]) continue;
          const auto record = [&](double d, std::optional<ObjectIndex> take) {
            const double after = std::max((load[m] - d) * alpha(m), (load[v] + d) * alpha(v));
            if (d <= 0 || after >= best) return;
            best = after;
            moves.clear();
            for (ObjectIndex a : give) moves.emplace_back(a, v);
            if (take) moves.emplace_back(*take, m);
          };
          if (ctx.fits(std::span(give.begin(), give.size()), v))
            record(given, std::nullopt);
          const double wanted = given - (time(m) - time(v)) / (alpha(m) + alpha(v));  // the partner's ideal load
          const auto it = std::lower_bound(on[v].begin(), on[v].end(), wanted,
                                           [&](ObjectIndex b, double x) { return weight(b) < x; });
          if (it != on[v].end()) record(given - weight(*it), *it);
          if (it != on[v].begin()) record(given - weight(*std::prev(it)), *std::prev(it));
        }
      };
      for (ObjectIndex a : on[m]) consider({a}, weight(a));
      for (std::size_t i = 0; moves.empty() && i < on[m].size(); ++i)
        for (std::size_t j = i + 1; j < on[m].size(); ++j) consider({on[m][i], on[m][j]}, weight(on[m][i]) + weight(on[m][j]));
      if (moves.empty()) return;
      const NodeId to = moves.front().second;
      if (!ctx.move_together(moves)) {  // over the memory bound: the step again without v
        closed[to] = true;
        continue;
      }
      closed.assign(ctx.nodes(), false);
      for (const auto& [object, node] : moves) {
        const double d = node == to ? weight(object) : -weight(object);
        load[m] -= d;
        load[to] += d;
        auto& from = on[node == to ? m : to];
        from.erase(std::find(from.begin(), from.end(), object));
        on[node].insert(std::upper_bound(on[node].begin(), on[node].end(), object, lighter), object);
      }
    }
  }

  bool improve_, subphases_;
};

}  // namespace

PhaseStrategyInfo greedy_phase_strategy_info() { return phase_strategy_info<Greedy>(); }

}  // namespace dlbkit
