// hierarchical: two levels, as Charm++'s TreeLB and HybridLB arrange their balancers, with a
// real assignment at each level. The nodes form groups of `group` consecutive ids (default
// ceil(sqrt P), as gather_tree.hpp's); each group's first node is its leader.
//
// 1. Between groups, distributed among the leaders: each leader gathers its group's loads and
//    the leaders exchange their groups' totals (each sends its total to every other leader).
//    Every leader then computes the same transport plan from the totals: the groups above
//    (1 + tolerance) x their share give their excess to the groups below it, in group order
//    (the north-west corner rule of a transportation problem). A group's share is the total
//    load in proportion to its speed, its nodes' summed (on equal nodes, the mean group total). A giving leader
//    picks the objects, from its most loaded node first, each its heaviest object not above
//    the flow still owed (then its lightest, where that lands nearer the flow), and sends
//    their loads to the receiving leader, which places each on the node of its group with
//    room for it where it ends first (the least loaded on equal nodes; TreeLB's per-level
//    assignment, which TreeLB itself leaves to the lower level's token passing); what finds
//    no room goes back.
// 2. Inside each group, centrally at its leader: `inner` (refine: the overloaded nodes give
//    their heaviest objects to the least loaded, Charm++'s RefineLB; greedy: every object of
//    the group dealt again, heaviest first, Charm++'s GreedyLB). On nodes of unequal speed
//    every step weighs times, load / speed, as the phase strategies refine and greedy do.
// Then each leader tells each rank concerned its decisions. No node ever holds more than its
// group's objects and the group totals. The steps are hierarchical_groups.hpp's, which the rank
// protocol (hierarchical_protocol.cpp) runs at each leader with real messages: the same plan.

#include "hierarchical_groups.hpp"
#include "rank_protocols.hpp"

#include <dlbkit/phases/gather_tree.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/phases/speeds.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

namespace dlbkit {

namespace {

class Hierarchical : public PhaseStrategy {
public:
  static constexpr const char* name = "hierarchical";
  static constexpr const char* description =
      "two levels: groups' totals balanced among their leaders, then refine or greedy inside each group";
  static constexpr const char* source = "Charm++ TreeLB / HybridLB (hierarchical balancers)";
  static constexpr bool weighs_speeds = true;
  static constexpr bool plans_node_memory = true;  // its leaders place by each rank's memory
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
    const Phase& phase = ctx.phase();
    const std::vector<double> speeds = node_speeds(phase);
    const detail::Groups groups{
        .nodes = n, .size = group_ != 0 ? std::min(group_, n) : GatherTree(n, 0).group, .speeds = speeds};
    const double bound = phase.has_memory ? ctx.memory_bound() : std::numeric_limits<double>::infinity();

    // The group's objects to its leader; the totals between leaders.
    std::vector<std::vector<detail::GroupMember>> members(groups.count());
    const auto objects = ctx.objects_by_node();
    for (NodeId v = 0; v < n; ++v) {
      if (v != groups.leader(groups.of(v))) ctx.protocol().send(v, groups.leader(groups.of(v)));
      members[groups.of(v)].push_back(member(phase, v, objects[v], std::isfinite(bound)));
      members[groups.of(v)].back().speed = groups.speed(v);
    }
    ctx.protocol().end_round();
    std::vector<double> totals(groups.count(), 0.0);
    for (std::size_t g = 0; g < groups.count(); ++g) {
      for (const detail::GroupMember& m : members[g]) totals[g] += m.load;
      for (std::size_t h = 0; h < groups.count(); ++h)
        if (g != h) ctx.protocol().send(groups.leader(g), groups.leader(h));
    }
    ctx.protocol().end_round();

    // Between groups: every giving leader takes its flows' objects, then every receiving
    // leader places what it was sent, giver by giver; what finds no room goes back.
    const auto flows = detail::group_transport(groups, totals, tolerance_);
    std::vector<std::vector<detail::ObjectRecord>> sent;  // by flow; a giver's flows are consecutive
    for (std::size_t f = 0, e = 0; f < flows.size(); f = e) {
      std::vector<double> amounts;
      while (e < flows.size() && flows[e].from == flows[f].from) amounts.push_back(flows[e++].amount);
      auto taken = detail::take_for_flows(members[flows[f].from], amounts);
      for (std::size_t k = 0; k < taken.size(); ++k) {
        if (!taken[k].empty()) ctx.protocol().send(groups.leader(flows[f].from), groups.leader(flows[f + k].to));
        sent.push_back(std::move(taken[k]));
      }
    }
    ctx.protocol().end_round();
    std::vector<std::size_t> by_receiver(flows.size());
    std::iota(by_receiver.begin(), by_receiver.end(), 0);
    std::stable_sort(by_receiver.begin(), by_receiver.end(),
                     [&](std::size_t a, std::size_t b) { return flows[a].to < flows[b].to; });
    for (const std::size_t f : by_receiver) {
      const auto where = detail::place(members[flows[f].to], sent[f], bound);
      bool refused = false;
      for (std::size_t k = 0; k < where.size(); ++k)
        if (where[k] < 0) {
          const detail::ObjectRecord& o = sent[f][k];
          members[flows[f].from][o.origin - groups.leader(flows[f].from)].add(o);
          ctx.could_not_place(static_cast<ObjectIndex>(o.id));
          refused = true;
        }
      if (refused) ctx.protocol().send(groups.leader(flows[f].to), groups.leader(flows[f].from));
    }
    ctx.protocol().end_round();

    // Inside each group; then each leader tells every rank concerned (an object's first rank
    // and its last), and the objects move.
    std::vector<NodeId> mapping(ctx.mapping());
    for (std::size_t g = 0; g < groups.count(); ++g) {
      for (const detail::ObjectRecord& o : detail::balance_inside(members[g], greedy_inside_, tolerance_, bound))
        ctx.could_not_place(static_cast<ObjectIndex>(o.id));
      std::vector<NodeId> told;
      for (const detail::GroupMember& m : members[g])
        for (const detail::ObjectRecord& o : m.objects)
          if (o.origin != m.rank) {
            mapping[o.id] = m.rank;
            told.push_back(o.origin);
            told.push_back(m.rank);
          }
      std::sort(told.begin(), told.end());
      told.erase(std::unique(told.begin(), told.end()), told.end());
      for (const NodeId v : told)
        if (v != groups.leader(g)) ctx.protocol().send(groups.leader(g), v);
    }
    ctx.protocol().end_round();
    ctx.remap(mapping);
  }

  /// The rank agent: each group's steps at its leader (hierarchical_protocol.cpp).
  static std::unique_ptr<RankProtocol> rank_protocol(const Parameters& p, const RankSetup& setup) {
    return detail::hierarchical_rank_protocol(
        {.group = p.is_auto(kGroup.name) ? 0 : static_cast<std::size_t>(p[kGroup]),
         .greedy_inside = p[kInner] == kInner.choice("greedy"),
         .tolerance = p[kTolerance]},
        setup);
  }

private:
  /// Node v as its leader holds it: its objects (ids: their indices), load and memory.
  static detail::GroupMember member(const Phase& phase, NodeId v, const std::vector<ObjectIndex>& objects,
                                    bool bounded) {
    detail::GroupMember m{.rank = v,
                          .bounded = bounded,
                          .memory = detail::RankMemory(phase.has_memory ? phase.node_working_bytes[v] : 0)};
    for (const ObjectIndex i : objects) {
      const PhaseObject& o = phase.objects[i];
      const std::int32_t b = o.memory.block;
      m.add({.id = i,
             .load = o.load,
             .footprint = o.memory.footprint_bytes,
             .working = o.memory.working_bytes,
             .block = b,
             .block_bytes = b >= 0 ? phase.block_bytes[static_cast<std::size_t>(b)] : 0.0,
             .origin = v,
             .migratable = o.migratable ? 1u : 0u});
    }
    return m;
  }

  std::size_t group_;  // 0: ceil(sqrt(nodes))
  bool greedy_inside_;
  double tolerance_;
};

}  // namespace

PhaseStrategyInfo hierarchical_phase_strategy_info() { return phase_strategy_info<Hierarchical>(); }

}  // namespace dlbkit
