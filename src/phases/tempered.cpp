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
//   through LBAF's cumulative mass function (lbsTransferStrategyBase._randomly_select_target).
//
// Where this reading differs from LBAF's sequential simulation, for a protocol that runs:
// - LBAF gossips the set of all ranks and reads every target's true load; here the loads are
//   the gossiped ones (as vt), kept up to date by the node's own transfers and by the replies;
// - a transfer is a proposal to the target and its reply: the target accepts when the tempered
//   criterion holds on its current load and the objects fit its memory. LBAF's work model
//   (lbsAffineCombinationWorkModel.py, beta = gamma = delta = 0) makes a rank's work infinite
//   above max_memory_usage, which rejects the transfer by its criterion; here ctx.move refuses
//   it, as the target would.
// - LBAF transfers from every rank, vt only from the overloaded ones: here vt's.
// Every node offers at most one transfer per handshake: proposals and replies alternate in
// rounds, as many as the busiest node needs.
//
// The default transfer_strategy is Recursive, not the Clustering of LBAF's shipped
// configuration: with max_subclusters 0 Clustering only swaps objects of shared blocks, and
// phases without blocks would not move. LBAF's max_objects_per_transfer bounds only what is
// not here: the recursive extension of a rejected transfer (see transfer()) and subclusters.

#include "central.hpp"

#include <algorithm>
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
      .description = "Recursive: object by object; Clustering: only swaps of shared blocks' objects (max_subclusters 0)",
      .choices = {"Recursive", "Clustering"}, .search = {"Clustering"}};
  static constexpr ChoiceParam kOrder{
      .name = "order_strategy", .default_value = "arbitrary",
      .description = "the order a node offers its objects in (LBAF's, taken from the list's end)",
      .choices = {"arbitrary", "element_id", "decreasing_loads", "increasing_loads", "fewest_migrations",
                  "small_objects"}};
  static constexpr BooleanParam kDeterministic{
      .name = "deterministic_transfer", .default_value = "false",
      .description = "true: nodes in order and the best target; false: random order and LBAF's CMF"};
  static constexpr RealParam kSwapRtol{
      .name = "cluster_swap_rtol", .default_value = "0.05",
      .description = "Clustering: a swap must gain more than this fraction of the block's load", .min = 0, .max = 1e6};
  static std::vector<ParamSpec> params() {
    return {kIterations, kRounds, kFanout, kTransfer, kOrder, kDeterministic, kSwapRtol};
  }

  explicit Tempered(const Parameters& p)
      : iterations_(p[kIterations]),
        rounds_(p[kRounds]),
        fanout_(p[kFanout]),
        clustering_(p[kTransfer] == kTransfer.choice("Clustering")),
        order_(p[kOrder]),
        deterministic_(p[kDeterministic]),
        swap_rtol_(p[kSwapRtol]) {}

  void rebalance(PhaseContext& ctx) override {
    if (ctx.nodes() < 2) return;
    // vt reduces the loads to their mean (and its target, the mean) before the iterations.
    detail::gather_to_root(ctx);
    detail::scatter_from_root(ctx);
    mean_ = std::accumulate(ctx.loads().begin(), ctx.loads().end(), 0.0) / static_cast<double>(ctx.nodes());
    for (long long i = 0; i < iterations_; ++i) {
      inform(ctx);
      transfer(ctx);
    }
  }

private:
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

  void inform(PhaseContext& ctx) {
    const std::size_t n = ctx.nodes();
    const std::uint64_t fanout = std::min<std::uint64_t>(static_cast<std::uint64_t>(fanout_), n - 1);
    std::vector<std::vector<Known>> lists(n);  // sorted by node
    std::vector<bool> sends(n, false);
    for (NodeId v = 0; v < n; ++v)
      if (ctx.load(v) < mean_) {
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
    double excess = -mean_;
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
  /// known target for `amount`, by the criterion on the known loads; its index among v's.
  /// None when the criterion is negative for every target: whichever the CMF drew, the node
  /// would reject the transfer itself, so it draws nothing.
  std::optional<std::size_t> select_target(PhaseContext& ctx, NodeId v, double amount) {
    const std::size_t first = known_start_[v], count = known_start_[v + 1] - first;
    const double* const loads = known_load_.data() + first;
    const double own = ctx.load(v);
    // The criterion is >= 0 for a target of load t exactly when amount <= own - t (or amount
    // is 0): with the least known load, no pass over the targets is needed to know it is not.
    if (amount > 0 && amount > own - least_known_[v]) return std::nullopt;
    values_.resize(count);
    double* const values = values_.data();
    double low = std::numeric_limits<double>::infinity(), high = -low, sum = 0;
#pragma omp simd reduction(min : low) reduction(max : high) reduction(+ : sum)
    for (std::size_t t = 0; t < count; ++t) {
      const double c = criterion(own, loads[t], amount);
      values[t] = c;
      sum += c;
      low = std::min(low, c);
      high = std::max(high, c);
    }
    if (high < 0) return std::nullopt;
    if (deterministic_) return std::find(values_.begin(), values_.end(), high) - values_.begin();
    if (low == high) return ctx.rng().below(count);
    // Weights (c - c_min) / (c_max - c_min), cumulated and normalised; the first target whose
    // cumulated mass is not below u (the common factor 1 / (c_max - c_min) left out).
    const double u = ctx.rng().uniform() * (sum - low * static_cast<double>(count));
    double mass = 0;
    for (std::size_t t = 0; t < count; ++t) {
      mass += values_[t] - low;
      if (!(mass < u)) return t;
    }
    return count - 1;
  }

  void update_least_known(NodeId v) {
    least_known_[v] = std::numeric_limits<double>::infinity();
    for (std::size_t k = known_start_[v]; k < known_start_[v + 1]; ++k)
      least_known_[v] = std::min(least_known_[v], known_load_[k]);
  }

  /// The target's side of a proposal: the criterion on its current load, then the memory
  /// bound.
  static void accept(PhaseContext& ctx, NodeId from, NodeId to, ObjectIndex object) {
    if (criterion(ctx.load(from), ctx.load(to), ctx.phase().objects[object].load) < 0) return;
    if (!ctx.move(object, to)) ctx.could_not_place(object);
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
      if (ctx.load(v) > mean_ && !on[v].empty() && known_start_[v + 1] > known_start_[v]) sources.push_back(v);
    if (!deterministic_)
      shuffle(sources, ctx.rng());

    if (clustering_) {
      swap_clusters(ctx, sources, on);
      return;
    }
    // Recursive: each object from the end of the ordered list to a target chosen by the CMF.
    // LBAF extends a rejected transfer with more objects (__recursive_extended_search); under
    // the tempered criterion on loads a negative value means the target would end above the
    // pair's maximum, which more objects only raise, so it is a reject here.
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
    least_known_.assign(ctx.nodes(), 0.0);
    for (NodeId v : active) {
      for (ObjectIndex i : ordered(ctx, {on[v].begin(), on[v].end()})) pending[v].push_back({i, phase.objects[i].load});
      update_least_known(v);
    }
    std::vector<std::pair<NodeId, std::size_t>> proposals;  // (source, the target's index in known_node_)
    while (!active.empty()) {
      proposals.clear();
      for (NodeId v : active) {
        auto& list = pending[v];
        while (!list.empty()) {
          const double amount = list.back().load;
          const auto t = select_target(ctx, v, amount);
          if (t && criterion(ctx.load(v), known_load_[known_start_[v] + *t], amount) >= 0) {
            proposals.emplace_back(v, known_start_[v] + *t);
            ctx.protocol().send(v, known_node_[known_start_[v] + *t]);
            break;
          }
          list.pop_back();  // rejected on the known loads: no message
        }
      }
      ctx.protocol().end_round();
      std::sort(proposals.begin(), proposals.end(), [&](const auto& a, const auto& b) { return rank[a.first] < rank[b.first]; });
      for (auto [v, t] : proposals) {
        const ObjectIndex object = pending[v].back().object;
        pending[v].pop_back();
        const NodeId target = known_node_[t];
        accept(ctx, v, target, object);
        ctx.protocol().send(target, v);  // the reply, with the target's load
        known_load_[t] = ctx.load(target);
        update_least_known(v);
      }
      ctx.protocol().end_round();
      std::erase_if(active, [&](NodeId v) { return pending[v].empty(); });
    }
  }

  /// lbsClusteringTransferStrategy.__swap_clusters with max_subclusters 0 (LBAF's shipped
  /// configuration; its subclusters are not implemented): a node's clusters are its
  /// migratable objects of one shared block, plus the empty one (objects of no block stay).
  /// For the known targets in a random order until one that swapped, each source cluster is
  /// swapped with the first target cluster for which the criterion gains more than
  /// cluster_swap_rtol x the source cluster's load. The target's clusters come with the reply
  /// to a request (vt gossips them with the loads): one handshake per target tried, the
  /// sources' handshakes side by side.
  void swap_clusters(PhaseContext& ctx, const std::vector<NodeId>& sources,
                     const ObjectsByNode& on) {
    const Phase& phase = ctx.phase();
    auto clusters = [&](NodeId v) {
      std::map<std::int32_t, std::vector<ObjectIndex>> by_block{{-1, {}}};
      for (ObjectIndex i : on[v])
        if (ctx.node_of(i) == v && phase.objects[i].memory.block >= 0) by_block[phase.objects[i].memory.block].push_back(i);
      std::vector<std::vector<ObjectIndex>> list;
      for (auto& [block, objects] : by_block) list.push_back(std::move(objects));
      if (!deterministic_)
        shuffle(list, ctx.rng());
      return list;
    };
    auto load_of = [&](const std::vector<ObjectIndex>& objects) {
      double sum = 0;
      for (ObjectIndex i : objects) sum += phase.objects[i].load;
      return sum;
    };
    std::vector<std::vector<NodeId>> tried(ctx.nodes());
    for (NodeId v : sources) {
      std::vector<std::size_t> order(known_start_[v + 1] - known_start_[v]);
      std::iota(order.begin(), order.end(), known_start_[v]);
      if (!deterministic_)
        shuffle(order, ctx.rng());
      const auto mine = clusters(v);
      bool swapped = false;
      for (std::size_t t = 0; t < order.size() && !swapped; ++t) {
        const NodeId to = known_node_[order[t]];
        tried[v].push_back(to);
        auto theirs = clusters(to);
        for (const auto& give : mine) {
          for (auto take = theirs.begin(); take != theirs.end(); ++take) {
            const double out = load_of(give), in = load_of(*take);
            const double gain = std::max(ctx.load(v), ctx.load(to)) -
                                std::max(ctx.load(v) - out + in, ctx.load(to) + out - in);
            if (gain > 0 && gain > swap_rtol_ * out) {
              // Both clusters at once, or neither: LBAF's work model rejects a swap that takes
              // a rank over max_memory_usage as a whole.
              std::vector<std::pair<ObjectIndex, NodeId>> moves;
              for (ObjectIndex i : give) moves.emplace_back(i, to);
              for (ObjectIndex i : *take) moves.emplace_back(i, v);
              if (!ctx.move_together(moves)) continue;
              theirs.erase(take);
              swapped = true;
              break;
            }
          }
        }
        known_load_[order[t]] = ctx.load(to);
      }
    }
    for (std::size_t step = 0;; ++step) {
      bool any = false;
      for (NodeId v : sources)
        if (step < tried[v].size()) ctx.protocol().send(v, tried[v][step]), any = true;
      ctx.protocol().end_round();
      for (NodeId v : sources)
        if (step < tried[v].size()) ctx.protocol().send(tried[v][step], v);
      ctx.protocol().end_round();
      if (!any) break;
    }
  }

  long long iterations_, rounds_, fanout_;
  bool clustering_;
  std::string order_;
  bool deterministic_;
  double swap_rtol_;
  double mean_ = 0;
  // What each node knows after the inform stage: node v's known nodes and their loads at
  // [known_start_[v], known_start_[v + 1]) of known_node_ and known_load_, in one array each.
  std::vector<std::size_t> known_start_;
  std::vector<NodeId> known_node_;
  std::vector<double> known_load_;
  std::vector<double> least_known_;        // per node, the least load in known_
  std::vector<double> values_;             // select_target's criterion values
};

}  // namespace

PhaseStrategyInfo tempered_phase_strategy_info() { return phase_strategy_info<Tempered>(); }

}  // namespace dlbkit
