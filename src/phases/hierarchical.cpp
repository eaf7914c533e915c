// hierarchical: two levels, as Charm++'s TreeLB and HybridLB arrange their balancers, with a
// real assignment at each level. The nodes form groups of `group` consecutive ids (default
// ceil(sqrt P), as gather_tree.hpp's); each group's first node is its leader.
//
// 1. Between groups, distributed among the leaders: each leader gathers its group's loads and
//    the leaders exchange their groups' totals (each sends its total to every other leader).
//    Every leader then computes the same transport plan from the totals: the groups above
//    (1 + tolerance) x the mean group total give their excess to the groups below the mean, in
//    group order (the north-west corner rule of a transportation problem). A giving leader
//    picks the objects, from its most loaded node first, each its heaviest object not above
//    the flow still owed (then its lightest, where that lands nearer the flow), and sends
//    their loads to the receiving leader, which places each on the least loaded node of its
//    group with room for it (TreeLB's per-level assignment, which TreeLB itself leaves to the
//    lower level's token passing).
// 2. Inside each group, centrally at its leader: `inner` (refine: the overloaded nodes give
//    their heaviest objects to the least loaded, Charm++'s RefineLB; greedy: every object of
//    the group dealt again, heaviest first, Charm++'s GreedyLB).
// Then each leader sends each node of its group its decisions. No node ever holds more than its
// group's loads and the group totals.

#include <dlbkit/phases/gather_tree.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <queue>

namespace dlbkit {

namespace {

class Hierarchical : public PhaseStrategy {
public:
  static constexpr const char* name = "hierarchical";
  static constexpr const char* description =
      "two levels: groups' totals balanced among their leaders, then refine or greedy inside each group";
  static constexpr const char* source = "Charm++ TreeLB / HybridLB (hierarchical balancers)";
  static constexpr IntegerParam kGroup{.name = "group",
                                       .default_value = "auto",
                                       .description = "nodes per group; auto: ceil(sqrt(nodes))",
                                       .min = 1,
                                       .max = 1e9,
                                       .allow_auto = true};
  static constexpr ChoiceParam kInner{.name = "inner",
                                      .default_value = "refine",
                                      .description = "the central strategy inside a group",
                                      .choices = {"refine", "greedy"},
                                      .search = {"greedy"}};
  static constexpr RealParam kTolerance{
      .name = "tolerance", .default_value = "0.05",
      .description = "a group or a node gives above (1 + tolerance) x the mean", .min = 0, .max = 1e6,
      .search = {"0.02", "0.2"}};
  static std::vector<ParamSpec> params() { return {kGroup, kInner, kTolerance}; }

  explicit Hierarchical(const Parameters& p)
      : group_(p.is_auto(kGroup.name) ? 0 : static_cast<std::size_t>(p[kGroup])),
        greedy_inside_(p[kInner] == kInner.choice("greedy")),
        tolerance_(p[kTolerance]) {}

  void rebalance(PhaseContext& ctx) override {
    const std::size_t n = ctx.nodes();
    const std::size_t size = group_ != 0 ? std::min(group_, n) : GatherTree(n, 0).group;
    const std::size_t groups = (n + size - 1) / size;
    const auto first = [&](std::size_t g) { return static_cast<NodeId>(g * size); };
    const auto end = [&](std::size_t g) { return static_cast<NodeId>(std::min(n, (g + 1) * size)); };

    // The group's loads to its leader; the totals between leaders.
    for (NodeId v = 0; v < n; ++v)
      if (v % size != 0) ctx.protocol().send(v, first(v / size));
    ctx.protocol().end_round();
    for (std::size_t a = 0; a < groups; ++a)
      for (std::size_t b = 0; b < groups; ++b)
        if (a != b) ctx.protocol().send(first(a), first(b));
    ctx.protocol().end_round();

    auto on = ctx.objects_by_node();  // kept up to date by the moves between groups
    between_groups(ctx, on, groups, first, end);
    for (std::size_t g = 0; g < groups; ++g) inside_group(ctx, on, first(g), end(g));

    for (NodeId v = 0; v < n; ++v)
      if (v % size != 0) ctx.protocol().send(first(v / size), v);
    ctx.protocol().end_round();
  }

private:
  template <class First, class End>
  void between_groups(PhaseContext& ctx, std::vector<std::vector<ObjectIndex>>& on, std::size_t groups, First first,
                      End end) {
    std::vector<double> total(groups, 0.0);
    for (std::size_t g = 0; g < groups; ++g)
      for (NodeId v = first(g); v < end(g); ++v) total[g] += ctx.load(v);
    // A group's share is the mean per node times its nodes (the last group may be smaller).
    const double per_node = std::accumulate(total.begin(), total.end(), 0.0) / static_cast<double>(ctx.nodes());
    std::vector<double> excess(groups), room(groups);
    for (std::size_t g = 0; g < groups; ++g) {
      const double share = per_node * static_cast<double>(end(g) - first(g));
      excess[g] = total[g] > (1 + tolerance_) * share ? total[g] - share : 0;
      room[g] = std::max(0.0, share - total[g]);
    }
    bool sent = false;
    std::size_t to = 0;  // the first group with room left
    const Phase& phase = ctx.phase();
    const auto lighter = [&](ObjectIndex x, ObjectIndex y) { return phase.objects[x].load < phase.objects[y].load; };
    for (std::size_t from = 0; from < groups; ++from) {
      if (excess[from] <= 0) continue;
      // Each giving node's movable objects, lightest first.
      std::vector<std::vector<ObjectIndex>> movable(end(from) - first(from));
      double lightest = std::numeric_limits<double>::infinity();
      for (NodeId v = first(from); v < end(from); ++v) {
        auto& objects = movable[v - first(from)];
        for (ObjectIndex i : on[v])
          if (phase.objects[i].migratable && phase.objects[i].load > 0) objects.push_back(i);
        std::stable_sort(objects.begin(), objects.end(), lighter);
        if (!objects.empty()) lightest = std::min(lightest, phase.objects[objects.front()].load);
      }
      // A receiver that none of the giver's objects fits goes to the next; it keeps its room.
      for (std::size_t g = to; g < groups && excess[from] >= lightest; ++g) {
        if (room[g] < lightest) continue;
        const double moved = give(ctx, on, movable, first(from), first(g), end(g), std::min(excess[from], room[g]));
        if (moved == 0) continue;
        ctx.protocol().send(first(from), first(g));
        sent = true;
        excess[from] -= moved;
        room[g] -= moved;
      }
      while (to < groups && room[to] <= 0) ++to;
    }
    if (sent) ctx.protocol().end_round();
  }

  /// Objects of the giving group, whose nodes' movable objects from `a` on are `movable`
  /// (lightest first), to the least loaded nodes of [b, b_end) with room, the most loaded
  /// giver first, each its heaviest object not above the flow still owed (or nearer it); the
  /// load moved.
  double give(PhaseContext& ctx, std::vector<std::vector<ObjectIndex>>& on,
              std::vector<std::vector<ObjectIndex>>& movable, NodeId a, NodeId b, NodeId b_end, double flow) {
    const Phase& phase = ctx.phase();
    using Entry = std::pair<double, NodeId>;
    std::priority_queue<Entry> givers;  // most loaded on top
    for (std::size_t k = 0; k < movable.size(); ++k)
      if (!movable[k].empty()) givers.emplace(ctx.load(a + static_cast<NodeId>(k)), a + static_cast<NodeId>(k));
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> receivers;  // least loaded on top
    for (NodeId v = b; v < b_end; ++v) receivers.emplace(ctx.load(v), v);
    double moved = 0;
    while (!givers.empty()) {
      const NodeId giver = givers.top().second;
      givers.pop();
      // Its heaviest object within the flow still owed, else its lightest where that lands
      // nearer the flow than the gap (diffusion's selection, docs/phases.md); none: it can give
      // nothing more, as what is owed only falls.
      auto& objects = movable[giver - a];
      const double owed = flow - moved;
      auto pick = std::upper_bound(objects.begin(), objects.end(), owed,
                                   [&](double o, ObjectIndex i) { return o < phase.objects[i].load; });
      if (pick != objects.begin()) --pick;
      else if (objects.empty() || phase.objects[objects.front()].load >= 2 * owed) continue;
      const ObjectIndex object = *pick;
      objects.erase(pick);
      std::vector<Entry> full;  // receivers without room for it
      while (!receivers.empty() && !ctx.fits(object, receivers.top().second)) {
        full.push_back(receivers.top());
        receivers.pop();
      }
      if (receivers.empty() || !ctx.move(object, receivers.top().second)) {
        ctx.could_not_place(object);
      } else {
        const NodeId receiver = receivers.top().second;
        receivers.pop();
        receivers.emplace(ctx.load(receiver), receiver);
        std::erase(on[giver], object);
        on[receiver].push_back(object);
        moved += phase.objects[object].load;
      }
      for (const Entry& e : full) receivers.push(e);
      givers.emplace(ctx.load(giver), giver);
    }
    return moved;
  }

  void inside_group(PhaseContext& ctx, const std::vector<std::vector<ObjectIndex>>& on, NodeId a, NodeId a_end) {
    const Phase& phase = ctx.phase();
    const auto heavier = [&](ObjectIndex x, ObjectIndex y) { return phase.objects[x].load > phase.objects[y].load; };
    using Entry = std::pair<double, NodeId>;
    if (greedy_inside_) {  // GreedyLB inside the group: every object dealt again, heaviest first
      std::vector<double> load(a_end - a, 0.0);
      std::vector<ObjectIndex> movable;
      for (NodeId v = a; v < a_end; ++v)
        for (ObjectIndex i : on[v]) {
          if (phase.objects[i].migratable) movable.push_back(i);
          else load[v - a] += phase.objects[i].load;
        }
      std::stable_sort(movable.begin(), movable.end(), heavier);
      std::priority_queue<Entry, std::vector<Entry>, std::greater<>> lightest;
      for (NodeId v = a; v < a_end; ++v) lightest.emplace(load[v - a], v);
      std::vector<Entry> full;  // nodes without room for the current object
      for (ObjectIndex object : movable) {
        // Its own node is in the heap, where it always fits.
        while (!ctx.move(object, lightest.top().second)) {
          full.push_back(lightest.top());
          lightest.pop();
        }
        const NodeId chosen = lightest.top().second;
        lightest.pop();
        for (const Entry& e : full) lightest.push(e);
        full.clear();
        load[chosen - a] += phase.objects[object].load;
        lightest.emplace(load[chosen - a], chosen);
      }
      return;
    }
    // RefineLB inside the group.
    double sum = 0;
    for (NodeId v = a; v < a_end; ++v) sum += ctx.load(v);
    const double threshold = (1 + tolerance_) * sum / static_cast<double>(a_end - a);
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> lightest;
    std::vector<NodeId> donors;
    for (NodeId v = a; v < a_end; ++v) {
      if (ctx.load(v) > threshold) donors.push_back(v);
      else lightest.emplace(ctx.load(v), v);
    }
    std::stable_sort(donors.begin(), donors.end(), [&](NodeId x, NodeId y) { return ctx.load(x) > ctx.load(y); });
    for (NodeId donor : donors) {
      std::vector<ObjectIndex> given = on[donor];
      std::stable_sort(given.begin(), given.end(), heavier);
      for (ObjectIndex object : given) {
        if (lightest.empty() || ctx.load(donor) <= threshold) break;
        if (!phase.objects[object].migratable) continue;
        const auto [receiver_load, receiver] = lightest.top();
        if (receiver_load + phase.objects[object].load > threshold) continue;
        if (!ctx.move(object, receiver)) {
          ctx.could_not_place(object);
          continue;
        }
        lightest.pop();
        lightest.emplace(ctx.load(receiver), receiver);
      }
    }
  }

  std::size_t group_;  // 0: ceil(sqrt(nodes))
  bool greedy_inside_;
  double tolerance_;
};

}  // namespace

PhaseStrategyInfo hierarchical_phase_strategy_info() { return phase_strategy_info<Hierarchical>(); }

}  // namespace dlbkit
