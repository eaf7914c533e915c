// tempered: the fully distributed balancer of DARMA vt's TemperedLB and of LBAF's
// InformAndTransfer (LBAF: src/lbaf/Execution/lbsInformAndTransferAlgorithm.py), n_iterations
// of two stages:
//
// - inform (vt temperedlb.cc, informSync / propagateRound): the underloaded nodes (load below
//   the mean) gossip their loads for n_rounds; in round 0 each underloaded node sends its own
//   load to `fanout` random nodes it does not know yet, in every later round each node that
//   received something in the round before sends all it knows the same way;
// - transfer (LBAF lbsRecursiveTransferStrategy.py / lbsClusteringTransferStrategy.py): the
//   overloaded nodes, in a random order, offer objects to the nodes they know, chosen by the
//   tempered criterion (lbsTemperedCriterion.py: the pair's larger load before minus after)
//   through LBAF's cumulative mass function (lbsTransferStrategyBase._randomly_select_target),
//   among the nodes with room for them (LBAF's work model makes a rank's work infinite above
//   max_memory_usage: such a target has the criterion -inf).
//
// Where this reading differs from LBAF's sequential simulation, for a protocol that runs:
// - LBAF gossips the set of all ranks and reads every target's true load; here the loads are
//   the gossiped ones (as vt), kept up to date by the node's own transfers and by the replies;
// - a transfer is a proposal to the target and its reply: the target accepts when the tempered
//   criterion holds on its current load and the objects fit its memory. LBAF's work model
//   (lbsAffineCombinationWorkModel.py) makes a rank's work infinite above max_memory_usage,
//   which rejects the transfer by its criterion; here the source
//   chooses among the targets with room (vt gossips each rank's memory with its load), and
//   ctx.move refuses what no longer fits when the proposal arrives, as the target would.
// - LBAF informs and transfers from every rank, vt informs from the underloaded ones and
//   transfers from the overloaded ones: here vt's, LBAF's with peers=LBAF (the gossip is vt's
//   either way: round 0 from the informing nodes, then from those that learnt something).
// - with a work model that weighs messages or homing, or the nodes' alphas (work_model.hpp),
//   the criterion weighs both nodes' true works, as LBAF's does; the rest stays on loads, as
//   in LBAF (the mean, who informs and transfers, the order, a subcluster's reach).
// Every node offers at most one transfer per handshake (proposals_per_round, ours: more, each
// weighed as if those before it were taken): proposals and replies alternate in rounds, as
// many as the busiest node needs.
//
// The default transfer_strategy is Recursive, not the Clustering of LBAF's shipped
// configurations: Clustering moves only objects of shared blocks, and phases without blocks
// would not move. In Recursive LBAF's max_objects_per_transfer bounds only the recursive
// extension of a rejected transfer, which is not here (see transfer()).
//
// Its rank protocol (tempered_protocol.cpp) runs both transfer strategies on loads with real messages.

#include "central.hpp"
#include "rank_protocols.hpp"
#include "tempered_subclusters.hpp"

#include <dlbkit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <span>

namespace dlbkit {

namespace {

struct Known {
  NodeId node;
  double load;
};

class Tempered : public PhaseStrategy {
public:
  static constexpr const char* name = "tempered";
  static constexpr const char* description =
      "distributed: gossip of underloaded nodes' loads, transfers under the tempered criterion";
  static constexpr const char* source =
      "DARMA vt TemperedLB; LBAF InformAndTransfer (lbsInformAndTransferAlgorithm.py)";
  // Defaults: LBAF's config/challenging-toy-hundreds-tasks.yaml.
  static constexpr IntegerParam kIterations{
      .name = "n_iterations", .default_value = "4", .description = "inform and transfer stages", .min = 1, .max = 1000,
      .search = {"8"}};
  static constexpr IntegerParam kRounds{
      .name = "n_rounds", .default_value = "3", .description = "gossip rounds of the inform stage", .min = 1, .max = 64};
  static constexpr IntegerParam kFanout{
      .name = "fanout", .default_value = "4",
      .description = "nodes each informing node sends to per round (at most nodes - 1)", .min = 1, .max = 1e9};
  static constexpr ChoiceParam kTransfer{
      .name = "transfer_strategy", .default_value = "Recursive",
      .description = "Recursive: object by object; Clustering: swaps of shared blocks, then subsets of a block",
      .choices = {"Recursive", "Clustering"}, .search = {"Clustering"}};
  static constexpr ChoiceParam kOrder{
      .name = "order_strategy", .default_value = "arbitrary",
      .description = "the order a node offers its objects in (LBAF's, taken from the list's end)",
      .choices = {"arbitrary", "element_id", "decreasing_loads", "increasing_loads", "fewest_migrations",
                  "small_objects"}};
  static constexpr BooleanParam kDeterministic{
      .name = "deterministic_transfer", .default_value = "false",
      .description = "true: nodes in order and the best target; false: random order and LBAF's CMF"};
  static constexpr ChoiceParam kPeers{
      .name = "peers", .default_value = "vt",
      .description = "vt: underloaded nodes inform, overloaded ones transfer; LBAF: every node does both",
      .choices = {"vt", "LBAF"}};
  static constexpr RealParam kSwapRtol{
      .name = "cluster_swap_rtol", .default_value = "0.05",
      .description = "Clustering: a swap must gain more than this fraction of the block's load", .min = 0, .max = 1e6};
  // Clustering's subclusters: LBAF's parameters with its defaults (lbsClusteringTransferStrategy
  // and lbsTransferStrategyBase, __init__), and a bound of our own on its enumeration.
  static constexpr IntegerParam kMaxSubclusters{
      .name = "max_subclusters", .default_value = "inf",
      .description = "Clustering: 0: no subclusters; random transfers draw this many per block at most", .min = 0,
      .allow_inf = true};
  static constexpr IntegerParam kMaxObjects{
      .name = "max_objects_per_transfer", .default_value = "inf",
      .description = "Clustering: the most objects of a subcluster", .min = 1, .allow_inf = true};
  static constexpr RealParam kSubThreshold{
      .name = "subclustering_threshold", .default_value = "0",
      .description = "deterministic subclusters only from a node with at least this fraction of the maximum load",
      .min = 0, .max = 1e6};
  static constexpr RealParam kSubImprovement{
      .name = "subclustering_minimum_improvement", .default_value = "0",
      .description = "deterministic subclusters: the criterion must exceed this fraction of the source's load",
      .min = 0, .max = 1e6};
  static constexpr BooleanParam kSeparate{
      .name = "separate_subclustering", .default_value = "false",
      .description = "true: subclusters once every node swapped; false: each node's after its own swaps"};
  static constexpr IntegerParam kEnumerated{
      .name = "max_enumerated_subclusters", .default_value = "65536",
      .description = "deterministic subclusters: the most subsets of one block tried, smallest first (LBAF: all)",
      .min = 1, .max = 1e9};
  // Ours, after vt's originalTransfer (temperedlb.cc), which decides all of an overloaded rank's
  // transfers in one pass, its own load and the chosen targets' known loads updated as it goes.
  static constexpr IntegerParam kProposals{
      .name = "proposals_per_round", .default_value = "1",
      .description = "Recursive, on loads: the most objects a node proposes in one handshake, each weighed on its "
                     "load less what it proposed and its targets' known loads plus it (inf: all in one pass, as "
                     "vt's originalTransfer); 1: one at a time, as LBAF",
      .min = 1, .max = 1e9, .allow_inf = true};
  // vt's TemperedLB (temperedlb.cc, doLBStages): `trials` runs of n_iterations, each from the
  // phase's mapping, and `rollback` to the best iteration. LBAF has neither: one run, its last
  // iteration.
  static constexpr IntegerParam kTrials{
      .name = "trials", .default_value = "1",
      .description = "runs of n_iterations, each from the phase's mapping; the least max load is kept (vt's)",
      .min = 1, .max = 1000};
  static constexpr BooleanParam kRollback{
      .name = "rollback", .default_value = "false",
      .description = "true: the iteration of least max load of any trial (vt's default); false: the best trial's "
                     "last (trials=1: the last whatever it is, as LBAF). With trials or rollback, none above the "
                     "phase's own: its mapping stays"};
  static std::vector<ParamSpec> params() {
    return {kIterations, kRounds,       kFanout,         kTransfer, kOrder,      kDeterministic, kPeers,    kSwapRtol,
            kMaxSubclusters, kMaxObjects, kSubThreshold, kSubImprovement, kSeparate, kEnumerated, kProposals,
            kTrials,     kRollback};
  }

  explicit Tempered(const Parameters& p)
      : iterations_(p[kIterations]),
        rounds_(p[kRounds]),
        fanout_(p[kFanout]),
        clustering_(p[kTransfer] == kTransfer.choice("Clustering")),
        order_(p[kOrder]),
        deterministic_(p[kDeterministic]),
        every_node_(p[kPeers] == kPeers.choice("LBAF")),
        swap_rtol_(p[kSwapRtol]),
        max_subclusters_(p.real(kMaxSubclusters.name)),  // integers, or inf
        max_objects_(p.real(kMaxObjects.name)),
        sub_threshold_(p[kSubThreshold]),
        sub_improvement_(p[kSubImprovement]),
        separate_(p[kSeparate]),
        max_enumerated_(p[kEnumerated]),
        proposals_(p.real(kProposals.name)),
        trials_(p[kTrials]),
        rollback_(p[kRollback]) {}

  /// Clustering without subclusters swaps and transfers whole clusters only, here and in the
  /// rank protocol; objects of no block stay (LBAF's __build_rank_clusters).
  static bool moves_whole_clusters(const Parameters& p) {
    return p[kTransfer] == kTransfer.choice("Clustering") && p.real(kMaxSubclusters.name) == 0;
  }

  /// The protocol of both transfer strategies on loads (tempered_protocol.cpp).
  static std::unique_ptr<RankProtocol> rank_protocol(const Parameters& p, const RankSetup& setup) {
    const bool clustering = p[kTransfer] == kTransfer.choice("Clustering");
    if (clustering && p.real(kProposals.name) > 1)
      throw InputError(fmt::format("phase strategy tempered: proposals_per_round={} has no rank protocol with "
                                   "transfer_strategy=Clustering; accepted: proposals_per_round=1",
                                   p.real(kProposals.name)));
    return detail::tempered_rank_protocol({.iterations = p[kIterations],
                                           .rounds = p[kRounds],
                                           .fanout = p[kFanout],
                                           .order = p[kOrder],
                                           .deterministic = p[kDeterministic],
                                           .every_node = p[kPeers] == kPeers.choice("LBAF"),
                                           .proposals = p.real(kProposals.name),
                                           .clustering = clustering,
                                           .swap_rtol = p[kSwapRtol],
                                           .max_subclusters = p.real(kMaxSubclusters.name),
                                           .max_objects = p.real(kMaxObjects.name),
                                           .sub_threshold = p[kSubThreshold],
                                           .sub_improvement = p[kSubImprovement],
                                           .separate = p[kSeparate],
                                           .max_enumerated = p[kEnumerated],
                                           .trials = p[kTrials],
                                           .rollback = p[kRollback]},
                                          setup);
  }

  void rebalance(PhaseContext& ctx) override {
    if (ctx.nodes() < 2) return;
    loads_only_ = ctx.work_follows_loads();
    if (proposals_ > 1 && (clustering_ || !loads_only_))
      throw InputError(fmt::format("phase strategy tempered: proposals_per_round={} weighs each proposal on the "
                                   "loads the ones before it leave; accepted: with transfer_strategy=Recursive "
                                   "and the work model load, or proposals_per_round=1",
                                   proposals_));
    pledged_.assign(ctx.nodes(), 0.0);
    // vt reduces the loads to their mean (and its target, the mean) before the iterations, in
    // a collective reduction: along a tree, not through one root.
    detail::all_reduce(ctx);
    mean_ = std::accumulate(ctx.loads().begin(), ctx.loads().end(), 0.0) / static_cast<double>(ctx.nodes());
    // With trials or rollback, vt's doLBStages: the mapping of least max load (its imbalance:
    // the mean is fixed) among the iterations it reduces the loads after (each with rollback,
    // else each trial's last), the earliest on ties, and none above the start's: the phase's
    // mapping then stays. Without, LBAF's: the last iteration.
    const bool keeps_best = trials_ > 1 || rollback_;
    std::optional<PhaseContext::State> start, best;
    const double start_max = keeps_best ? max_load(ctx) : 0;
    double best_max = std::numeric_limits<double>::infinity();
    if (keeps_best) start = ctx.state();
    for (long long trial = 0; trial < trials_; ++trial) {
      if (trial > 0) ctx.return_to(*start);
      for (long long i = 0; i < iterations_; ++i) {
        inform(ctx);
        transfer(ctx);
        if (!keeps_best || (!rollback_ && i + 1 < iterations_)) continue;
        detail::all_reduce(ctx);
        const double m = max_load(ctx);
        if (m < best_max && m <= start_max) best = ctx.state(), best_max = m;
      }
    }
    if (keeps_best) ctx.return_to(best ? *best : *start);
  }

private:
  static double max_load(const PhaseContext& ctx) {
    return *std::max_element(ctx.loads().begin(), ctx.loads().end());
  }

  /// Fisher-Yates from the end, with the run's random stream (LBAF's random.sample orders).
  template <class T>
  static void shuffle(std::vector<T>& items, Rng& rng) {
    for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(i)]);
  }

  /// lbsTemperedCriterion.compute: how much the larger of the two loads falls when `amount`
  /// goes from a node of load `from` to one of load `to` (< 0: it rises).
  static double criterion(double from, double to, double amount) {
    return std::max(from, to) - std::max(from - amount, to + amount);
  }

  /// lbsTemperedCriterion.compute on the nodes' works as LBAF reads them, the true ones
  /// (work_model.hpp): how much the larger of the two works falls if `out` goes from `from` to
  /// `to` and `back` the other way.
  static double work_criterion(const PhaseContext& ctx, NodeId from, NodeId to, std::span<const ObjectIndex> out,
                               std::span<const ObjectIndex> back = {}) {
    const auto [f, t] = ctx.work().after(out, from, to, back);
    return std::max(ctx.work().of(from), ctx.work().of(to)) - std::max(f, t);
  }

  /// The criterion of sending `objects` (of load `amount`) from v to its known node k: on v's
  /// load and k's known load where the work is the load (the gamma of a work model cancels),
  /// else on the works.
  double gain(const PhaseContext& ctx, NodeId v, std::size_t k, std::span<const ObjectIndex> objects,
              double amount) const {
    return loads_only_ ? criterion(own_load(ctx, v), known_load_[k], amount)
                       : work_criterion(ctx, v, known_node_[k], objects);
  }

  /// v's load as it sees it while proposing: less what it proposed in this handshake.
  double own_load(const PhaseContext& ctx, NodeId v) const { return ctx.load(v) - pledged_[v]; }

  void inform(PhaseContext& ctx) {
    const std::size_t n = ctx.nodes();
    const std::uint64_t fanout = std::min<std::uint64_t>(static_cast<std::uint64_t>(fanout_), n - 1);
    std::vector<std::vector<Known>> lists(n);  // sorted by node
    std::vector<bool> sends(n, false);
    for (NodeId v = 0; v < n; ++v)
      if (every_node_ || ctx.load(v) < mean_) {
        lists[v].push_back({v, ctx.load(v)});
        sends[v] = true;
      }
    std::vector<std::vector<Known>> incoming(n);
    for (long long round = 0; round < rounds_; ++round) {
      for (NodeId v = 0; v < n; ++v) {
        if (!sends[v]) continue;
        // vt: fanout distinct random nodes, neither itself nor one it knows; none once it knows all.
        std::vector<NodeId> chosen;
        for (std::uint64_t f = 0; f < fanout && lists[v].size() + chosen.size() + 1 < n + is_known(lists[v], v); ++f) {
          NodeId to;
          do to = static_cast<NodeId>(ctx.rng().below(n));
          while (to == v || is_known(lists[v], to) || std::find(chosen.begin(), chosen.end(), to) != chosen.end());
          chosen.push_back(to);
          ctx.protocol().send(v, to);
          incoming[to].insert(incoming[to].end(), lists[v].begin(), lists[v].end());
        }
      }
      ctx.protocol().end_round();
      for (NodeId v = 0; v < n; ++v) {
        sends[v] = !incoming[v].empty();
        if (!sends[v]) continue;
        auto& list = lists[v];
        list.insert(list.end(), incoming[v].begin(), incoming[v].end());
        std::stable_sort(list.begin(), list.end(), [](const Known& a, const Known& b) { return a.node < b.node; });
        list.erase(std::unique(list.begin(), list.end(), [](const Known& a, const Known& b) { return a.node == b.node; }),
                   list.end());
        incoming[v].clear();
      }
    }
    // A node does not transfer to itself (LBAF: known_peers minus the rank).
    known_start_.assign(n + 1, 0);
    known_node_.clear();
    known_load_.clear();
    for (NodeId v = 0; v < n; ++v) {
      for (const Known& k : lists[v])
        if (k.node != v) known_node_.push_back(k.node), known_load_.push_back(k.load);
      known_start_[v + 1] = known_node_.size();
    }
  }

  static bool is_known(const std::vector<Known>& list, NodeId node) {
    const auto it = std::lower_bound(list.begin(), list.end(), node, [](const Known& k, NodeId x) { return k.node < x; });
    return it != list.end() && it->node == node;
  }

  /// LBAF's order strategies (lbsRecursiveTransferStrategy.py); the node offers from the end.
  std::vector<ObjectIndex> ordered(const PhaseContext& ctx, std::vector<ObjectIndex> objects) const {
    const auto& o = ctx.phase().objects;
    auto by_load_up = [&](ObjectIndex a, ObjectIndex b) { return o[a].load < o[b].load; };
    auto by_load_down = [&](ObjectIndex a, ObjectIndex b) { return o[a].load > o[b].load; };
    // What the node holds above the mean: only the last two orders read it.
    double excess = -mean_;
    if (order_ == "fewest_migrations" || order_ == "small_objects")
      for (ObjectIndex i : objects) excess += o[i].load;
    if (order_ == "element_id") {
      std::stable_sort(objects.begin(), objects.end(), [&](ObjectIndex a, ObjectIndex b) { return o[a].id < o[b].id; });
    } else if (order_ == "decreasing_loads") {
      std::stable_sort(objects.begin(), objects.end(), by_load_down);
    } else if (order_ == "increasing_loads") {
      std::stable_sort(objects.begin(), objects.end(), by_load_up);
    } else if (order_ == "fewest_migrations") {
      // Those that fit in the excess heaviest first, then the others lightest first.
      auto middle = std::stable_partition(objects.begin(), objects.end(),
                                          [&](ObjectIndex i) { return o[i].load <= excess; });
      std::stable_sort(objects.begin(), middle, by_load_down);
      std::stable_sort(middle, objects.end(), by_load_up);
    } else if (order_ == "small_objects") {
      // The smallest objects whose sum first passes the excess heaviest first, then the rest
      // lightest first (LBAF: bisect(accumulated, excess) + 1).
      std::stable_sort(objects.begin(), objects.end(), by_load_up);
      std::size_t count = 0;
      for (double sum = 0; count < objects.size() && sum + o[objects[count]].load <= excess; ++count)
        sum += o[objects[count]].load;
      count = std::min(count + 1, objects.size());
      std::stable_sort(objects.begin(), objects.begin() + static_cast<std::ptrdiff_t>(count), by_load_down);
    }
    return objects;
  }

  /// lbsTransferStrategyBase._randomly_select_target (deterministic: the best target): the
  /// known target for `amount`, by the criterion on the known loads, among those that
  /// `fits(k)` (k: the target's index in known_node_); its index among v's. None when the
  /// criterion is negative for every such target: whichever the CMF drew, the node would
  /// reject the transfer itself, so it draws nothing.
  /// (LBAF's CMF with a target of criterion -inf, one without room, is NaN throughout, and its
  /// draw falls on the first target in its set's order; here it is drawn among the others.)
  template <class Fits>
  std::optional<std::size_t> select_target(PhaseContext& ctx, NodeId v, std::span<const ObjectIndex> objects,
                                           double amount, Fits fits, bool negative_too = false) {
    const std::size_t first = known_start_[v];
    if (!loads_only_)
      return select_target(
          ctx, v, [&](std::size_t t) { return gain(ctx, v, first + t, objects, amount); }, fits, negative_too);
    const double* const loads = known_load_.data() + first;
    const double own = own_load(ctx, v);
    // The criterion is >= 0 for a target of load t exactly when amount <= own - t (or amount
    // is 0): with the least known load, no pass over the targets is needed to know it is not.
    if (amount > 0 && amount > own - least_known_[v]) return std::nullopt;
    return select_target(ctx, v, [&](std::size_t t) { return criterion(own, loads[t], amount); }, fits);
  }

  /// select_target's choice among v's known targets, `value(t)` the criterion of the t-th;
  /// with `negative_too` also when every criterion is negative (for extend()).
  template <class Value, class Fits>
  std::optional<std::size_t> select_target(PhaseContext& ctx, NodeId v, Value value, Fits fits,
                                           bool negative_too = false) {
    const std::size_t first = known_start_[v], count = known_start_[v + 1] - first;
    values_.resize(count);
    double* const values = values_.data();
    double low = std::numeric_limits<double>::infinity(), high = kNoRoom, sum = 0;
    std::size_t eligible = 0;
#pragma omp simd reduction(min : low) reduction(max : high) reduction(+ : sum, eligible)
    for (std::size_t t = 0; t < count; ++t) {
      const bool room = fits(first + t);
      const double c = room ? value(t) : kNoRoom;
      values[t] = c;
      sum += room ? c : 0.0;
      eligible += room;
      low = std::min(low, room ? c : low);
      high = std::max(high, c);
    }
    if (high == kNoRoom || (high < 0 && !negative_too)) return std::nullopt;
    if (deterministic_) return std::find(values_.begin(), values_.end(), high) - values_.begin();
    std::size_t last = count;  // the last eligible target
    if (low == high) {
      // Uniformly among the eligible: the k-th of them.
      std::size_t k = ctx.rng().below(eligible);
      for (std::size_t t = 0; t < count; ++t)
        if (values_[t] != kNoRoom && k-- == 0) return t;
    }
    // Weights (c - c_min) / (c_max - c_min), cumulated and normalised; the first target whose
    // cumulated mass is not below u (the common factor 1 / (c_max - c_min) left out).
    const double u = ctx.rng().uniform() * (sum - low * static_cast<double>(eligible));
    double mass = 0;
    for (std::size_t t = 0; t < count; ++t) {
      if (values_[t] == kNoRoom) continue;
      mass += values_[t] - low;
      if (!(mass < u)) return t;
      last = t;
    }
    return last;
  }

  /// select_target asking `fits` only where the phase is memory bound (elsewhere every
  /// target fits, and the loop over them stays vectorised).
  template <class Fits>
  std::optional<std::size_t> select_target(PhaseContext& ctx, NodeId v, std::span<const ObjectIndex> objects,
                                           double amount, bool bounded, Fits fits, bool negative_too = false) {
    if (bounded) return select_target(ctx, v, objects, amount, fits, negative_too);
    return select_target(ctx, v, objects, amount, [](std::size_t) { return true; }, negative_too);
  }

  /// Whether moves can meet the memory bound (the phase has memory and the bound is finite).
  static bool memory_bound(const PhaseContext& ctx) {
    return ctx.phase().has_memory && std::isfinite(ctx.memory_bound());
  }
  static constexpr double kNoRoom = -std::numeric_limits<double>::infinity();  // a target's criterion

  void update_least_known(NodeId v) {
    least_known_[v] = std::numeric_limits<double>::infinity();
    for (std::size_t k = known_start_[v]; k < known_start_[v + 1]; ++k)
      least_known_[v] = std::min(least_known_[v], known_load_[k]);
  }

  /// The target's side of a proposal: the criterion on its current load (work), then the
  /// memory bound. `amount`: the objects' load, where the work is the load.
  void accept(PhaseContext& ctx, NodeId from, NodeId to, std::span<const ObjectIndex> objects, double amount) {
    const double c = loads_only_ ? criterion(ctx.load(from), ctx.load(to), amount)
                                 : work_criterion(ctx, from, to, objects);
    if (c < 0) return;
    if (objects.size() == 1 ? !ctx.move(objects[0], to) : !move_together(ctx, objects, to))
      for (ObjectIndex i : objects) ctx.could_not_place(i);
  }

  /// lbsRecursiveTransferStrategy.__recursive_extended_search: the objects of `list` (v's
  /// still to offer) join `offer` one by one, each drawn at random among the rest, until the
  /// criterion for known node k holds or the offer has max_objects_per_transfer objects.
  /// Whether it holds; then the objects that joined leave `list`. A target without room for
  /// the offer has the criterion -inf (LBAF's infinite work), as the objects keep joining.
  template <class List>
  bool extend(PhaseContext& ctx, NodeId v, std::size_t k, List& list, std::vector<ObjectIndex>& offer) {
    std::vector<std::size_t> rest(list.size());
    std::iota(rest.begin(), rest.end(), 0);
    std::vector<std::size_t> joined;
    while (!rest.empty() && static_cast<double>(offer.size()) < max_objects_) {
      const std::size_t r = ctx.rng().below(rest.size());
      joined.push_back(rest[r]);
      offer.push_back(list[rest[r]].object);
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(r));
      const bool room = !memory_bound(ctx) || ctx.fits(offer, known_node_[k]);
      if (room && gain(ctx, v, k, offer, load_of(ctx, offer)) >= 0) {
        std::sort(joined.begin(), joined.end(), std::greater<>());
        for (std::size_t j : joined) list.erase(list.begin() + static_cast<std::ptrdiff_t>(j));
        return true;
      }
    }
    offer.resize(1);
    return false;
  }

  /// Each node's migratable objects at the start of a transfer stage, in one array.
  struct ObjectsByNode {
    std::vector<std::size_t> start;  // node v's objects: [start[v], start[v + 1])
    std::vector<ObjectIndex> objects;
    std::span<const ObjectIndex> operator[](NodeId v) const {
      return {objects.data() + start[v], objects.data() + start[v + 1]};
    }
  };
  static ObjectsByNode migratable_by_node(const PhaseContext& ctx) {
    const Phase& phase = ctx.phase();
    ObjectsByNode on{.start = std::vector<std::size_t>(ctx.nodes() + 1, 0)};
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
      if (phase.objects[i].migratable) ++on.start[ctx.node_of(i) + 1];
    std::partial_sum(on.start.begin(), on.start.end(), on.start.begin());
    on.objects.resize(on.start.back());
    std::vector<std::size_t> next(on.start.begin(), on.start.end() - 1);
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
      if (phase.objects[i].migratable) on.objects[next[ctx.node_of(i)]++] = i;
    return on;
  }

  void transfer(PhaseContext& ctx) {
    const Phase& phase = ctx.phase();
    const ObjectsByNode on = migratable_by_node(ctx);
    // LBAF _get_ranks_to_traverse: nodes with migratable objects and someone to send to, in a
    // random order unless deterministic; vt: only the overloaded ones.
    std::vector<NodeId> sources;
    for (NodeId v = 0; v < ctx.nodes(); ++v)
      if ((every_node_ || ctx.load(v) > mean_) && !on[v].empty() && known_start_[v + 1] > known_start_[v])
        sources.push_back(v);
    if (!deterministic_)
      shuffle(sources, ctx.rng());
    least_known_.assign(ctx.nodes(), 0.0);
    for (NodeId v : sources) update_least_known(v);

    if (clustering_) {
      cluster_transfers(ctx, sources, on);
      return;
    }
    // Recursive: each object from the end of the ordered list to a target chosen by the CMF.
    // LBAF extends a rejected transfer with more objects (__recursive_extended_search); under
    // the tempered criterion on loads a negative value means the target would end above the
    // pair's maximum, which more objects only raise, so it is a reject there. Where the work
    // weighs messages or homing, more objects can make it acceptable (a partner joins), and
    // the extension is LBAF's (extend()).
    const bool extends = !loads_only_ && max_objects_ > 1;
    struct Offer {
      ObjectIndex object;
      double load;  // beside the object: the lists are read once a round, the objects far apart
    };
    // The sources decide in the order of their ids (which reads the arrays in order; a source
    // decides on its own knowledge alone), the targets handle the proposals in the sources'
    // random order.
    std::vector<std::size_t> rank(ctx.nodes());
    for (std::size_t k = 0; k < sources.size(); ++k) rank[sources[k]] = k;
    std::vector<NodeId> active = sources;
    std::sort(active.begin(), active.end());
    std::vector<std::vector<Offer>> pending(ctx.nodes());
    for (NodeId v : active)
      for (ObjectIndex i : ordered(ctx, {on[v].begin(), on[v].end()})) pending[v].push_back({i, phase.objects[i].load});
    struct Proposal {
      NodeId source;
      std::size_t target;  // its index in known_node_
      ObjectIndex object;  // the first object offered
      double amount;       // its load: the target weighs it without reading the object
    };
    std::vector<Proposal> proposals;
    // With the extension, each source's whole offer (beside the proposal, it is rarely more than
    // one object, and one object needs no look elsewhere).
    std::vector<std::vector<ObjectIndex>> offered(extends ? ctx.nodes() : 0);
    while (!active.empty()) {
      proposals.clear();
      for (NodeId v : active) {
        auto& list = pending[v];
        double made = 0;
        while (!list.empty() && made < proposals_) {
          const double amount = list.back().load;
          const ObjectIndex first = list.back().object;
          const std::span<const ObjectIndex> object(&first, 1);  // offered[v] grows in extend()
          if (extends) offered[v].assign(1, first);
          list.pop_back();
          const auto fits = [&](std::size_t k) { return ctx.fits(object[0], known_node_[k]); };
          const auto t = select_target(ctx, v, object, amount, memory_bound(ctx), fits, extends);
          if (t && (gain(ctx, v, known_start_[v] + *t, object, amount) >= 0 ||
                    (extends && extend(ctx, v, known_start_[v] + *t, list, offered[v])))) {
            proposals.push_back({v, known_start_[v] + *t, first, amount});
            ctx.protocol().send(v, known_node_[known_start_[v] + *t]);
            if (++made < proposals_) {  // the next proposal weighed as if this one were taken
              pledged_[v] += amount;
              known_load_[known_start_[v] + *t] += amount;
              update_least_known(v);
            }
            continue;
          }
          // Rejected on the known loads, no message; for lack of room when a target without it
          // would have taken it (on loads, the least loaded known one would).
          if (memory_bound(ctx) && (loads_only_ ? amount <= own_load(ctx, v) - least_known_[v]
                                                : select_target(ctx, v, object, amount, false, fits).has_value()))
            ctx.could_not_place(object[0]);
        }
      }
      ctx.protocol().end_round();
      std::fill(pledged_.begin(), pledged_.end(), 0.0);
      // A source's proposals stay in the order it made them.
      std::stable_sort(proposals.begin(), proposals.end(),
                       [&](const Proposal& a, const Proposal& b) { return rank[a.source] < rank[b.source]; });
      for (const auto& [v, t, object, amount] : proposals) {
        const NodeId target = known_node_[t];
        accept(ctx, v, target, extends ? std::span<const ObjectIndex>(offered[v]) : std::span(&object, 1), amount);
        ctx.protocol().send(target, v);  // the reply, with the target's load
        known_load_[t] = ctx.load(target);
        update_least_known(v);
      }
      ctx.protocol().end_round();
      std::erase_if(active, [&](NodeId v) { return pending[v].empty(); });
    }
  }

  /// lbsClusteringTransferStrategy.execute: each source swaps clusters (swap_clusters), then
  /// transfers a subcluster (transfer_subcluster) unless it swapped and transfers are random;
  /// with separate_subclustering the subclusters come once every source swapped, and not at
  /// all when random transfers swapped anything. A cluster's objects move together or not at
  /// all: LBAF's work model rejects a move that takes a rank over max_memory_usage as a whole.
  /// Each target a source asks is one handshake, the sources' handshakes side by side.
  void cluster_transfers(PhaseContext& ctx, const std::vector<NodeId>& sources, const ObjectsByNode& on) {
    arrived_.assign(ctx.nodes(), {});
    // LBAF's maximum load is the one its statistics hold, the iteration's first: a reduction.
    double max_of_loads = 0;
    if (deterministic_ && sub_threshold_ > 0) {
      detail::all_reduce(ctx);
      max_of_loads = max_load(ctx);
    }
    const bool subclusters = max_subclusters_ > 0;
    std::vector<std::vector<NodeId>> asked(ctx.nodes());
    std::vector<NodeId> polled;  // the sources that asked every known node its load
    bool any_swapped = false;
    for (NodeId v : sources) {
      const bool swapped = swap_clusters(ctx, v, on, asked[v]);
      any_swapped |= swapped;
      if (subclusters && !separate_ && (deterministic_ || !swapped))
        transfer_subcluster(ctx, v, on, max_of_loads, asked[v], polled);
    }
    if (subclusters && separate_ && (deterministic_ || !any_swapped))
      for (NodeId v : sources) transfer_subcluster(ctx, v, on, max_of_loads, asked[v], polled);
    if (!polled.empty()) {
      for (NodeId v : polled)
        for (std::size_t k = known_start_[v]; k < known_start_[v + 1]; ++k) ctx.protocol().send(v, known_node_[k]);
      ctx.protocol().end_round();
      for (NodeId v : polled)
        for (std::size_t k = known_start_[v]; k < known_start_[v + 1]; ++k) ctx.protocol().send(known_node_[k], v);
      ctx.protocol().end_round();
    }
    for (std::size_t step = 0;; ++step) {
      bool any = false;
      for (NodeId v : sources)
        if (step < asked[v].size()) ctx.protocol().send(v, asked[v][step]), any = true;
      ctx.protocol().end_round();
      for (NodeId v : sources)
        if (step < asked[v].size()) ctx.protocol().send(asked[v][step], v);
      ctx.protocol().end_round();
      if (!any) break;
    }
  }

  /// lbsClusteringTransferStrategy.__build_rank_clusters: v's migratable objects of each
  /// shared block (those it held at the stage's start or received in it), and with `empty`
  /// the empty cluster (objects of no block stay); in a random order unless deterministic.
  std::vector<std::vector<ObjectIndex>> clusters(PhaseContext& ctx, NodeId v, const ObjectsByNode& on, bool empty) {
    const Phase& phase = ctx.phase();
    std::map<std::int32_t, std::vector<ObjectIndex>> by_block;
    if (empty) by_block[-1];
    for (const auto& held : {on[v], std::span<const ObjectIndex>(arrived_[v])})
      for (ObjectIndex i : held)
        if (ctx.node_of(i) == v && phase.objects[i].memory.block >= 0)
          by_block[phase.objects[i].memory.block].push_back(i);
    std::vector<std::vector<ObjectIndex>> list;
    for (auto& [block, objects] : by_block) {
      std::sort(objects.begin(), objects.end());  // once each: an object may have left and come back
      objects.erase(std::unique(objects.begin(), objects.end()), objects.end());
      list.push_back(std::move(objects));
    }
    if (!deterministic_)
      shuffle(list, ctx.rng());
    return list;
  }

  double load_of(const PhaseContext& ctx, std::span<const ObjectIndex> objects) const {
    double sum = 0;
    for (ObjectIndex i : objects) sum += ctx.phase().objects[i].load;
    return sum;
  }

  /// Moves `objects` to `to`, all or none (ctx.move_together).
  bool move_together(PhaseContext& ctx, std::span<const ObjectIndex> objects, NodeId to) {
    moves_.clear();
    for (ObjectIndex i : objects) moves_.emplace_back(i, to);
    return ctx.move_together(moves_);
  }

  /// move_together, and what moved is known to `to` (Clustering's clusters).
  bool move_to(PhaseContext& ctx, std::span<const ObjectIndex> objects, NodeId to) {
    if (!move_together(ctx, objects, to)) return false;
    arrived_[to].insert(arrived_[to].end(), objects.begin(), objects.end());
    return true;
  }

  /// lbsClusteringTransferStrategy.__swap_clusters: for the known targets in a random order
  /// until one that swapped, each of v's clusters is swapped with the first of the target's
  /// clusters for which the criterion gains more than cluster_swap_rtol x the source
  /// cluster's load. The target's clusters and load come with the reply to a request (vt
  /// gossips them with the loads). Whether v swapped.
  bool swap_clusters(PhaseContext& ctx, NodeId v, const ObjectsByNode& on, std::vector<NodeId>& asked) {
    std::vector<std::size_t> order(known_start_[v + 1] - known_start_[v]);
    std::iota(order.begin(), order.end(), known_start_[v]);
    if (!deterministic_)
      shuffle(order, ctx.rng());
    const auto mine = clusters(ctx, v, on, true);
    bool swapped = false;
    for (std::size_t t = 0; t < order.size() && !swapped; ++t) {
      const NodeId to = known_node_[order[t]];
      asked.push_back(to);
      auto theirs = clusters(ctx, to, on, true);
      for (const auto& give : mine) {
        for (auto take = theirs.begin(); take != theirs.end(); ++take) {
          const double out = load_of(ctx, give), in = load_of(ctx, *take);
          const double gain = loads_only_ ? std::max(ctx.load(v), ctx.load(to)) -
                                                std::max(ctx.load(v) - out + in, ctx.load(to) + out - in)
                                          : work_criterion(ctx, v, to, give, *take);
          if (gain > 0 && gain > swap_rtol_ * out) {
            moves_.clear();
            for (ObjectIndex i : give) moves_.emplace_back(i, to);
            for (ObjectIndex i : *take) moves_.emplace_back(i, v);
            if (!ctx.move_together(moves_)) continue;
            arrived_[to].insert(arrived_[to].end(), give.begin(), give.end());
            arrived_[v].insert(arrived_[v].end(), take->begin(), take->end());
            theirs.erase(take);
            swapped = true;
            break;
          }
        }
      }
      known_load_[order[t]] = ctx.load(to);
    }
    update_least_known(v);
    return swapped;
  }

  /// lbsClusteringTransferStrategy.__transfer_subclusters and __build_rank_subclusters: the
  /// subsets of each of v's clusters, up to max_objects_per_transfer objects, that leave v
  /// at or above (1 - cluster_swap_rtol) x the mean, tried from the one that leaves v lowest;
  /// the first for which a known target with room gains by the criterion goes there. Which
  /// subsets: deterministic, all of them by size and then in lexicographic order (LBAF's
  /// itertools.combinations), here at most max_enumerated_subclusters per block (LBAF's are
  /// exponential in the block's size); random, min(size, max_subclusters) random subsets of
  /// a Binomial(size, 1/2) number of objects each. Which target: deterministic, the one whose
  /// load lands closest to the mean among those where the criterion exceeds
  /// subclustering_minimum_improvement x v's load, and none when v's load is below
  /// subclustering_threshold x the maximum load; random, LBAF's CMF (select_target), without
  /// those two filters, as LBAF's code has it. One subcluster per source and stage.
  void transfer_subcluster(PhaseContext& ctx, NodeId v, const ObjectsByNode& on, double max_of_loads,
                           std::vector<NodeId>& asked, std::vector<NodeId>& polled) {
    const double own = ctx.load(v);
    if (deterministic_ && own < sub_threshold_ * max_of_loads) return;
    struct Subcluster {
      double reach;  // v's load without it
      std::size_t begin, size;  // its objects in subcluster_objects_
    };
    std::vector<Subcluster> subclusters;
    subcluster_objects_.clear();
    auto keep = [&](std::span<const ObjectIndex> objects) {
      const double reach = own - load_of(ctx, objects);
      if (reach < (1 - swap_rtol_) * mean_) return;
      subclusters.push_back({reach, subcluster_objects_.size(), objects.size()});
      subcluster_objects_.insert(subcluster_objects_.end(), objects.begin(), objects.end());
    };
    for (std::vector<ObjectIndex>& cluster : clusters(ctx, v, on, false))
      detail::for_each_subcluster(cluster, {deterministic_, max_objects_, max_subclusters_, max_enumerated_},
                                  ctx.rng(), [](ObjectIndex i) { return i; }, keep);
    if (subclusters.empty()) return;
    std::stable_sort(subclusters.begin(), subclusters.end(),
                     [](const Subcluster& a, const Subcluster& b) { return a.reach < b.reach; });
    // LBAF weighs every target by its load as it stands: v asks them all (one exchange, beside
    // the other sources'), as the gossiped loads may have changed since by other transfers.
    polled.push_back(v);
    for (std::size_t k = known_start_[v]; k < known_start_[v + 1]; ++k)
      known_load_[k] = ctx.load(known_node_[k]);
    update_least_known(v);
    for (const Subcluster& sub : subclusters) {
      const std::span<const ObjectIndex> objects(subcluster_objects_.data() + sub.begin, sub.size);
      const double amount = own - sub.reach;
      const auto room = [&](std::size_t k) { return ctx.fits(objects, known_node_[k]); };
      std::optional<std::size_t> t;
      if (deterministic_) {
        double closest = std::numeric_limits<double>::infinity(), best = 0;
        for (std::size_t k = known_start_[v]; k < known_start_[v + 1]; ++k) {
          const double c = gain(ctx, v, k, objects, amount);
          if (c <= sub_improvement_ * own || (memory_bound(ctx) && !room(k))) continue;
          const double distance = std::abs(known_load_[k] + amount - mean_);
          if (distance < closest || (distance == closest && c > best)) closest = distance, best = c, t = k;
        }
      } else if (const auto drawn = select_target(ctx, v, objects, amount, memory_bound(ctx), room)) {
        t = known_start_[v] + *drawn;
      }
      if (!t || gain(ctx, v, *t, objects, amount) <= 0) continue;
      // The proposal: the target takes it when the criterion holds on its load and it has room.
      const NodeId to = known_node_[*t];
      asked.push_back(to);
      const double c = loads_only_ ? criterion(own, ctx.load(to), amount) : work_criterion(ctx, v, to, objects);
      if (c > 0 && !move_to(ctx, objects, to))
        for (ObjectIndex i : objects) ctx.could_not_place(i);
      known_load_[*t] = ctx.load(to);
      update_least_known(v);
      return;
    }
  }

  long long iterations_, rounds_, fanout_;
  bool clustering_;
  std::string order_;
  bool deterministic_;
  bool every_node_;  // peers=LBAF
  double swap_rtol_;
  double max_subclusters_, max_objects_;  // integers, or inf
  double sub_threshold_, sub_improvement_;
  bool separate_;
  long long max_enumerated_;
  double proposals_;  // an integer, or inf
  long long trials_;
  bool rollback_;
  double mean_ = 0;
  bool loads_only_ = true;  // the work is the load (as far as the criterion can tell)
  // What each node knows after the inform stage: node v's known nodes and their loads at
  // [known_start_[v], known_start_[v + 1]) of known_node_ and known_load_, in one array each.
  std::vector<std::size_t> known_start_;
  std::vector<NodeId> known_node_;
  std::vector<double> known_load_;
  std::vector<double> least_known_;        // per node, the least load in known_
  std::vector<double> pledged_;            // per node, the load it proposed in this handshake
  std::vector<double> values_;             // select_target's criterion values
  // Clustering: the objects each node received in the stage, and scratch space.
  std::vector<std::vector<ObjectIndex>> arrived_;
  std::vector<std::pair<ObjectIndex, NodeId>> moves_;
  std::vector<ObjectIndex> subcluster_objects_;
};

}  // namespace

PhaseStrategyInfo tempered_phase_strategy_info() { return phase_strategy_info<Tempered>(); }

}  // namespace dlbkit
