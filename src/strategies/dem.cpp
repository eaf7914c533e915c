#include <dlbkit/core/registry.hpp>
#include <dlbkit/topology/edge_coloring.hpp>

#include <bit>
#include <cassert>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace dlbkit {

namespace {

struct Request {
  std::uint32_t id;
  NodeId origin;
};
struct Load {
  std::int64_t load;
  std::uint32_t sweep;
  std::int32_t dimension;
};
struct DemTransfer {
  std::int64_t moved;
  std::uint32_t sweep;
  std::int32_t dimension;
};

/// The Dimension Exchange Method (WLR93 Sec. III-E and V, parameters from Table II).
///
/// A node whose load drops below L_LOW (eq. 30) broadcasts a balancing request carrying a
/// request ID. Every node then runs one synchronized sweep over the dimensions 0..d-1: in
/// dimension k it exchanges loads with its partner across that dimension, the heavier of the
/// two sends floor((L_a - L_b) / 2) tasks (when at least delta_MIN) and announces how many,
/// and the node goes on to dimension k + 1 only when that exchange is complete. A request
/// whose ID is not above the last one a node knows is obsolete and ignored (Sec. V).
/// On a hypercube the request travels down a spanning tree by dimensions; on any other
/// network it is flooded, and the colour classes of a proper edge colouring
/// (topology/edge_coloring.hpp) play the role of the dimensions.
class Dem final : public Strategy {
public:
  static constexpr const char* name = "dem";
  static constexpr const char* description =
      "Dimension Exchange Method: on a request, all nodes balance pairwise, one dimension at a time";
  static constexpr const char* source = "WLR93 Sec. III-E, V, Table II";
  static constexpr RealParam kLLow{.name = "l_low", .default_value = "1",
      .description = "L_LOW (L_threshold of eq. 30): a node whose load drops below it requests a sweep",
      .min = 0, .search = {"2", "4"}};
  static constexpr IntegerParam kDeltaMin{.name = "delta_min", .default_value = "1",
      .description = "delta_MIN: smallest transfer between two partners", .min = 1};
  static std::vector<ParamSpec> params() { return {kLLow, kDeltaMin}; }
  enum Kind : std::uint16_t { kRequest, kLoad, kTransfer, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"request", "load", "transfer"};

  explicit Dem(const Parameters& p) : l_low_(p[kLLow]), delta_min_(p[kDeltaMin]) {}

  void on_start(NodeContext& ctx) override {
    const Topology& t = ctx.topology();
    hypercube_ = t.kind() == TopologyKind::hypercube;
    if (hypercube_) {
      for (std::size_t k = 0; k < t.degree(ctx.self()); ++k) partner_.push_back(ctx.self() ^ (NodeId{1} << k));
    } else {
      // One colouring per network, not per node (it costs O(N E) to compute).
      const auto& coloring = t.shared<EdgeColoring>("edge_coloring", edge_coloring);
      for (std::uint32_t c = 0; c < coloring.colors(); ++c) partner_.push_back(coloring.partner(t, ctx.self(), c));
    }
    below_ = static_cast<double>(ctx.load()) < l_low_;
    wants_ = below_;
    run(ctx);
  }

  void on_load_change(NodeContext& ctx) override {
    const bool below = static_cast<double>(ctx.load()) < l_low_;
    if (below && !below_) wants_ = true;  // eq. (30): the load has just dropped below L_LOW
    below_ = below;
    run(ctx);
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kRequest: {
        const auto r = m.as<Request>();
        broadcast(ctx, r, from);
        if (r.id > target_) target_ = r.id;  // an ID not above the last known is obsolete
        break;
      }
      case kLoad: {
        const auto l = m.as<Load>();
        if (l.sweep > target_) target_ = l.sweep;  // the partner heard of a request first
        if (exchanging() && l.sweep == sweep_ && l.dimension == dimension_) partner_load_ = l.load;
        else early_loads_[{l.sweep, l.dimension}] = l.load;
        break;
      }
      case kTransfer: {
        const auto tr = m.as<DemTransfer>();
        assert(exchanging() && tr.sweep == sweep_ && tr.dimension == dimension_ && from == *partner_[dim()]);
        announced_ = tr.moved;
        break;
      }
      default:
        assert(false && "unknown DEM message kind");
    }
    run(ctx);
  }

  void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t count) override {
    if (exchanging() && from == *partner_[dim()]) arrived_ += count;
    run(ctx);
  }

private:
  bool exchanging() const { return in_sweep_ && entered_; }
  std::size_t dim() const { return static_cast<std::size_t>(dimension_); }

  // The hypercube's spanning tree by dimensions: the origin sends across every dimension, a
  // node whose address differs from the origin's lowest in bit b across the dimensions below
  // b. Elsewhere a flood: each node passes a request on the first time it sees its ID.
  void broadcast(NodeContext& ctx, const Request& r, NodeId from) {
    const auto nb = ctx.neighbors();
    const Message m = Message::make(kRequest, r);
    if (hypercube_) {
      const NodeId relative = ctx.self() ^ r.origin;
      const int below = relative == 0 ? static_cast<int>(nb.size()) : std::countr_zero(relative);
      for (int k = 0; k < below; ++k) ctx.send(ctx.self() ^ (NodeId{1} << k), m);
      return;
    }
    if (r.id <= flooded_) return;
    flooded_ = r.id;
    for (NodeId n : nb)
      if (n != from || from == ctx.self()) ctx.send(n, m);
  }

  // Advances this node through the sweeps as far as the messages received allow.
  void run(NodeContext& ctx) {
    for (;;) {
      if (!in_sweep_) {
        if (done_ == target_) {
          if (!wants_) return;
          target_ = done_ + 1;  // a new request, IDs one above the last sweep
          broadcast(ctx, Request{target_, ctx.self()}, ctx.self());
        }
        in_sweep_ = true;
        sweep_ = done_ + 1;
        dimension_ = 0;
        wants_ = false;  // this sweep serves a node that was waiting for one
      }
      if (dim() == partner_.size()) {
        in_sweep_ = false;
        done_ = sweep_;
        continue;
      }
      if (!entered_) {
        if (!partner_[dim()]) {  // no edge of this colour at this node
          ++dimension_;
          continue;
        }
        own_load_ = ctx.load();
        ctx.send(*partner_[dim()], Message::make(kLoad, Load{own_load_, sweep_, dimension_}));
        entered_ = true;
        if (auto it = early_loads_.find({sweep_, dimension_}); it != early_loads_.end()) {
          partner_load_ = it->second;
          early_loads_.erase(it);
        }
      }
      if (!partner_load_) return;
      const std::int64_t difference = own_load_ - *partner_load_;
      const std::int64_t amount = (difference < 0 ? -difference : difference) / 2;
      if (amount >= delta_min_ && difference > 0) {
        // The heavier sends and announces how many tasks left (some may have completed since).
        const std::int64_t moved = ctx.migrate(*partner_[dim()], amount);
        ctx.send(*partner_[dim()], Message::make(kTransfer, DemTransfer{moved, sweep_, dimension_}));
      }
      // The lighter waits for the announcement and the tasks it announces.
      if (amount >= delta_min_ && difference < 0 && (announced_ < 0 || arrived_ < announced_)) return;
      entered_ = false;
      partner_load_.reset();
      announced_ = -1;
      arrived_ = 0;
      ++dimension_;
    }
  }

  double l_low_;
  std::int64_t delta_min_;
  bool hypercube_ = false;
  std::vector<std::optional<NodeId>> partner_;  // partner_[k]: across dimension (colour) k
  bool below_ = false;
  bool wants_ = false;         // dropped below L_LOW since the last sweep began
  std::uint32_t target_ = 0;   // highest request ID known: sweeps up to it are due
  std::uint32_t done_ = 0;     // last sweep completed
  std::uint32_t flooded_ = 0;  // highest request ID passed on (flooding)
  bool in_sweep_ = false;
  std::uint32_t sweep_ = 0;
  std::int32_t dimension_ = 0;
  bool entered_ = false;  // own load sent to the partner of dimension_
  std::int64_t own_load_ = 0;
  std::optional<std::int64_t> partner_load_;
  std::int64_t announced_ = -1;  // tasks the heavier partner said it sent, -1 until it says
  std::int64_t arrived_ = 0;     // tasks from the partner during this exchange
  std::map<std::pair<std::uint32_t, std::int32_t>, std::int64_t> early_loads_;  // partner ahead of us
};

}  // namespace

StrategyInfo dem_strategy_info() { return strategy_info<Dem>(); }

}  // namespace dlbkit
