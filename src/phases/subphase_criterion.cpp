#include "subphase_criterion.hpp"

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>

namespace dlbkit::detail {

namespace {

/// Each node's time in each subphase under the context's plan: alpha x its load there, so
/// that a slower node (a larger alpha) takes longer for the same objects (phase.hpp, alpha_of).
class NodeParts {
public:
  NodeParts(const Phase& phase, std::vector<double> loads) : phase_(&phase), times_(std::move(loads)) {
    for (NodeId v = 0; v < phase.nodes; ++v)
      for (std::size_t s = 0; s < parts(); ++s) times_[v * parts() + s] *= alpha_of(phase, v);
  }

  std::size_t parts() const { return phase_->subphases; }
  double of(NodeId v, std::size_t s) const { return times_[v * parts() + s]; }
  double object(ObjectIndex i, std::size_t s) const { return phase_->subphase_loads[i * parts() + s]; }
  double alpha(NodeId v) const { return alpha_of(*phase_, v); }
  /// Object i's time in subphase s on node v.
  double object_on(ObjectIndex i, NodeId v, std::size_t s) const { return alpha(v) * object(i, s); }
  void add(ObjectIndex i, NodeId v, double sign) {
    for (std::size_t s = 0; s < parts(); ++s) times_[v * parts() + s] += sign * object_on(i, v, s);
  }
  double total(NodeId v) const {
    double sum = 0;
    for (std::size_t s = 0; s < parts(); ++s) sum += of(v, s);
    return sum;
  }

private:
  const Phase* phase_;
  std::vector<double> times_;
};

constexpr NodeId kNoNode = std::numeric_limits<NodeId>::max();

}  // namespace

void place_by_subphases(PhaseContext& ctx) {
  const Phase& phase = ctx.phase();
  NodeParts plan(phase, std::vector<double>(ctx.nodes() * phase.subphases, 0.0));
  std::vector<ObjectIndex> order;
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i) {
    if (phase.objects[i].migratable) order.push_back(i);
    else plan.add(i, ctx.node_of(i), 1);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](ObjectIndex a, ObjectIndex b) { return phase.objects[a].load > phase.objects[b].load; });
  std::vector<double> slowest(plan.parts(), 0.0);  // each subphase's most loaded node's load so far
  for (NodeId v = 0; v < ctx.nodes(); ++v)
    for (std::size_t s = 0; s < plan.parts(); ++s) slowest[s] = std::max(slowest[s], plan.of(v, s));

  std::vector<std::tuple<double, double, NodeId>> choices(ctx.nodes());  // (time's rise, dot product, node)
  for (ObjectIndex object : order) {
    for (NodeId v = 0; v < ctx.nodes(); ++v) {
      double rise = 0, dot = 0;
      for (std::size_t s = 0; s < plan.parts(); ++s) {
        rise += std::max(0.0, plan.of(v, s) + plan.object_on(object, v, s) - slowest[s]);
        dot += plan.of(v, s) * plan.object(object, s);
      }
      choices[v] = {rise, dot, v};
    }
    std::sort(choices.begin(), choices.end());
    // ctx.move() checks the memory bound with the objects not yet placed still at home, where
    // an object always fits: the loop ends there at the latest.
    std::size_t k = 0;
    while (!ctx.move(object, std::get<NodeId>(choices[k]))) ++k;
    if (k > 0) ctx.could_not_place(object);  // not on the best node: no room there
    const NodeId chosen = std::get<NodeId>(choices[k]);
    plan.add(object, chosen, 1);
    for (std::size_t s = 0; s < plan.parts(); ++s) slowest[s] = std::max(slowest[s], plan.of(chosen, s));
  }
}

void refine_by_subphases(PhaseContext& ctx, double tolerance) {
  const Phase& phase = ctx.phase();
  const std::size_t nodes = ctx.nodes();
  NodeParts plan(phase, node_subphase_loads(phase, ctx.mapping()));
  const std::size_t parts = plan.parts();
  // (1 + tolerance) x each subphase's balanced time, its total load / total speed.
  std::vector<double> threshold(parts, 0.0);
  for (NodeId v = 0; v < nodes; ++v)
    for (std::size_t s = 0; s < parts; ++s) threshold[s] += plan.of(v, s) / plan.alpha(v);
  for (double& t : threshold) t *= (1 + tolerance) / total_speed(phase);
  // Each node's migratable objects, lightest first by the sum of their subphase loads.
  std::vector<double> total(phase.objects.size(), 0.0);
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
    for (std::size_t s = 0; s < parts; ++s) total[i] += plan.object(i, s);
  const auto lighter = [&](ObjectIndex a, ObjectIndex b) { return total[a] < total[b]; };
  std::vector<std::vector<ObjectIndex>> on(nodes);
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
    if (phase.objects[i].migratable) on[ctx.node_of(i)].push_back(i);
  for (auto& list : on) std::stable_sort(list.begin(), list.end(), lighter);

  constexpr int kSteps = 100000;
  constexpr std::ptrdiff_t kWindow = 8;  // swap partners tried on each side of the ideal one
  constexpr std::size_t kReceivers = 8;  // the least loaded nodes of each subphase, the only receivers
  std::vector<NodeId> by_load(nodes), receivers;
  double last_time = std::numeric_limits<double>::infinity();
  std::size_t stalled = 0;  // steps since the time last fell
  std::vector<std::array<NodeId, 3>> top(parts);  // each subphase's three most loaded nodes
  std::vector<bool> refused(phase.objects.size(), false);  // a change of the object broke the memory bound
  std::vector<double> d(parts);
  for (int step = 0; step < kSteps; ++step) {
    std::vector<NodeId> donors;
    double time = 0, squares = 0;
    for (std::size_t s = 0; s < parts; ++s) {
      top[s].fill(kNoNode);
      for (NodeId v = 0; v < nodes; ++v) {
        squares += plan.of(v, s) * plan.of(v, s);
        for (std::size_t k = 0; k < 3; ++k)
          if (top[s][k] == kNoNode || plan.of(v, s) > plan.of(top[s][k], s)) {
            std::copy_backward(top[s].begin() + static_cast<std::ptrdiff_t>(k), top[s].end() - 1, top[s].end());
            top[s][k] = v;
            break;
          }
      }
      time += plan.of(top[s][0], s);
      if (plan.of(top[s][0], s) > threshold[s] && std::find(donors.begin(), donors.end(), top[s][0]) == donors.end())
        donors.push_back(top[s][0]);
    }
    if (donors.empty()) return;
    // Leaving a plateau takes about a step per node on it; after as many steps without a lower
    // time, the time is taken as the lowest the changes reach.
    stalled = time < last_time * (1 - 1e-12) ? 0 : stalled + 1;
    last_time = std::min(last_time, time);
    if (stalled > nodes) return;
    // The receivers: the least loaded nodes of each subphase, where a change that lowers the
    // time most likely sends load, so that a step costs no more on many nodes.
    receivers.clear();
    for (std::size_t s = 0; s < parts; ++s) {
      std::iota(by_load.begin(), by_load.end(), NodeId{0});
      const std::size_t k = std::min(kReceivers, nodes);
      std::nth_element(by_load.begin(), by_load.begin() + static_cast<std::ptrdiff_t>(k - 1), by_load.end(),
                       [&](NodeId v, NodeId w) { return plan.of(v, s) < plan.of(w, s); });
      receivers.insert(receivers.end(), by_load.begin(), by_load.begin() + static_cast<std::ptrdiff_t>(k));
    }
    std::sort(receivers.begin(), receivers.end());
    receivers.erase(std::unique(receivers.begin(), receivers.end()), receivers.end());

    // A change is taken when it lowers the time, or keeps it (to rounding) and lowers the squares.
    const double slack = 1e-12 * time;
    double best_rise = 0, best_squares = -1e-12 * squares;
    NodeId best_to = kNoNode;
    ObjectIndex best_given = 0;
    std::optional<ObjectIndex> best_taken;
    const auto consider = [&](NodeId a, NodeId b, ObjectIndex given, std::optional<ObjectIndex> taken) {
      double rise = 0, change = 0;
      for (std::size_t s = 0; s < parts; ++s) {
        double rest = 0;  // the most loaded other node's
        for (NodeId v : top[s])
          if (v != a && v != b && v != kNoNode) {
            rest = plan.of(v, s);
            break;
          }
        const double la = plan.of(a, s) - plan.alpha(a) * d[s], lb = plan.of(b, s) + plan.alpha(b) * d[s];
        rise += std::max({rest, la, lb}) - plan.of(top[s][0], s);
        change += la * la + lb * lb - plan.of(a, s) * plan.of(a, s) - plan.of(b, s) * plan.of(b, s);
      }
      if (rise < best_rise - slack || (rise <= best_rise + slack && change < best_squares)) {
        best_rise = rise;
        best_squares = change;
        best_to = b;
        best_given = given;
        best_taken = taken;
      }
    };
    for (NodeId a : donors)
      for (ObjectIndex o : on[a]) {
        if (refused[o]) continue;
        for (NodeId b : receivers) {
          if (b == a) continue;
          for (std::size_t s = 0; s < parts; ++s) d[s] = plan.object(o, s);
          consider(a, b, o, std::nullopt);
          // The partner that would even the two nodes' total times, and its neighbours by total.
          const double wanted = total[o] - (plan.total(a) - plan.total(b)) / (plan.alpha(a) + plan.alpha(b));
          const auto it = std::lower_bound(on[b].begin(), on[b].end(), wanted,
                                           [&](ObjectIndex p, double x) { return total[p] < x; });
          const auto from = it - std::min(kWindow, it - on[b].begin());
          const auto to = it + std::min(kWindow, on[b].end() - it);
          for (auto p = from; p != to; ++p) {
            if (refused[*p]) continue;
            for (std::size_t s = 0; s < parts; ++s) d[s] = plan.object(o, s) - plan.object(*p, s);
            consider(a, b, o, *p);
          }
        }
      }
    if (best_to == kNoNode) return;

    const NodeId from = ctx.node_of(best_given);
    std::vector<std::pair<ObjectIndex, NodeId>> moves{{best_given, best_to}};
    if (best_taken) moves.emplace_back(*best_taken, from);
    if (!ctx.move_together(moves)) {  // over the memory bound: the object stays, and is not tried again
      refused[best_given] = true;
      ctx.could_not_place(best_given);
      continue;
    }
    for (const auto& [object, node] : moves) {
      const NodeId old = node == best_to ? from : best_to;
      plan.add(object, old, -1);
      plan.add(object, node, 1);
      on[old].erase(std::find(on[old].begin(), on[old].end(), object));
      on[node].insert(std::upper_bound(on[node].begin(), on[node].end(), object, lighter), object);
    }
  }
}

}  // namespace dlbkit::detail
