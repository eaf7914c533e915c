// hbm: the Hierarchical Balancing Method (WLR93 Sec. III-D) on the nodes' loads, realised by
// moving objects. The 2^d nodes of a hypercube form a binary hierarchy of balancing domains
// (Fig. 4): the level-i domain of p is the subcube of the 2^i nodes that agree with p above
// bit i - 1, and its controller is the lowest id in it. The controller compares the loads of
// its two halves; when |L_L - L_R| > L_threshold(i) (eq. 22) every node of the heavier half
// sends delta_i = Delta_i / 2^i (eq. 23) to its partner q = p XOR 2^(i-1) (eq. 24). Balancing
// ascends the tree, level 1 to d. The balancing inside a domain leaves its total alone, so
// every controller decides from the loads at the start.
//
// The paper's HBM is asynchronous, driven by load updates (Sec. III-F); between two phases it
// runs once, in synchronous rounds: d rounds up (in round i the controller of each right half
// sends its domain's load to the level-i controller, n - 1 messages in all), then the orders
// down, every domain at once: a controller whose heavier half is the right one sends it to that
// half's controller, and each heavier half passes it on along a binomial tree (i - 1 rounds,
// one message a node); then the realisation's announcements.
//
// On loads as reals with threshold_base 0 the loads end at the mean after level d, and the flow
// is dimension exchange's with lambda = 1/2 over dimensions 0, 1, ..., d - 1: by induction the
// nodes of each half hold equal loads, so delta_i is every pair's half difference (a test
// checks it). HBM differs by its protocol (no message per pair and round) and its thresholds,
// which leave a domain whose halves are within L_threshold(i) alone.
//
// The objects are chosen as for `diffusion` (phases/flows.hpp, realise), and the flow error
// measured the same way.

#include "rank_protocols.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/flows.hpp>

#include <cmath>

namespace dlbkit {

namespace {

class Hbm final : public PhaseStrategy {
public:
  static constexpr const char* name = "hbm";
  static constexpr const char* description =
      "Hierarchical Balancing Method on the loads (controllers of nested subcubes balance their two halves), "
      "then each node ships objects matching the flow on each edge";
  static constexpr const char* source = "WLR93 Sec. III-D, eq. 22-24";
  // No search for advise: in the data's load unit, no fixed values suit every data.
  static constexpr RealParam kThresholdBase{.name = "threshold_base", .default_value = "0",
      .description = "L_threshold(i) = threshold_base x 2^i, in the objects' load unit (eq. 22; Table II gives "
                     "1000 x 2^i in unstated units); 0: every level balances",
      .min = 0};
  static std::vector<ParamSpec> params() { return with_realisation_params({kThresholdBase}); }
  static void check_topology(const Topology& topology) {
    if (topology.kind() != TopologyKind::hypercube)
      throw InputError("topology " + topology.spec() +
                       ": phase strategy hbm balances along hypercube edges (eq. 24); accepted: hypercube:d");
  }

  explicit Hbm(const Parameters& p) : p_(p), threshold_base_(p[kThresholdBase]) {}

  /// Its rank protocol (flow_protocol.cpp): the same decisions with real messages.
  static std::unique_ptr<RankProtocol> rank_protocol(const Parameters& p, const RankSetup& setup) {
    if (setup.topology.size() > 1) check_topology(setup.topology);
    return detail::flow_rank_protocol(
        p, setup, {.form = detail::FlowScheme::Form::hierarchy, .threshold_base = p[kThresholdBase]});
  }

  void rebalance(PhaseContext& ctx) override {
    const Topology& t = ctx.topology();
    const auto offsets = t.neighbor_offsets();
    const int d = static_cast<int>(t.extents().size());
    IdealFlow flow{.edge = std::vector<double>(offsets.back(), 0.0), .loads = ctx.loads()};
    std::vector<Order> orders;
    std::vector<double> domains = ctx.loads();  // the level-(i - 1) domains' loads, by index
    for (int i = 1; i <= d; ++i) {
      const NodeId half = NodeId{1} << (i - 1);
      std::vector<double> up(domains.size() / 2);
      for (std::size_t j = 0; j < up.size(); ++j) {
        const NodeId left = static_cast<NodeId>(2 * j) * half, right = left + half;
        ctx.protocol().send(right, left);
        up[j] = domains[2 * j] + domains[2 * j + 1];
        const double imbalance = domains[2 * j] - domains[2 * j + 1];                       // L_L - L_R
        if (!(std::abs(imbalance) > threshold_base_ * std::ldexp(1.0, i))) continue;        // eq. (22)
        const NodeId heavier = imbalance > 0 ? left : right;
        orders.push_back({i, heavier});
        const double delta = std::abs(imbalance) / std::ldexp(1.0, i);                       // eq. (23)
        for (NodeId p = heavier; p < heavier + half; ++p) {
          const NodeId q = p ^ half;                                                         // eq. (24)
          flow.edge[offsets[p] + static_cast<std::size_t>(t.neighbor_index(p, q))] += delta;
          flow.edge[offsets[q] + static_cast<std::size_t>(t.neighbor_index(q, p))] -= delta;
          flow.loads[p] -= delta;
          flow.loads[q] += delta;
        }
      }
      ctx.protocol().end_round();
      domains.swap(up);
    }
    send_orders(ctx, orders, d);
    flow.rounds = static_cast<std::uint64_t>(d);
    realise(ctx, flow, p_);
  }

private:
  struct Order {
    int level;
    NodeId heavier;  // the heavier half's lowest id
  };

  static void send_orders(PhaseContext& ctx, const std::vector<Order>& orders, int d) {
    for (const Order& o : orders) {
      const NodeId half = NodeId{1} << (o.level - 1);
      if (o.heavier & half) ctx.protocol().send(o.heavier ^ half, o.heavier);  // the right half: from the controller
    }
    ctx.protocol().end_round();
    for (int r = 0; r + 1 < d; ++r) {  // the binomial tree of each half: offsets below 2^r reach offset + 2^r
      const NodeId step = NodeId{1} << r;
      for (const Order& o : orders)
        if (r < o.level - 1)
          for (NodeId k = 0; k < step; ++k) ctx.protocol().send(o.heavier + k, o.heavier + k + step);
      ctx.protocol().end_round();
    }
  }

  Parameters p_;
  double threshold_base_;
};

}  // namespace

PhaseStrategyInfo hbm_phase_strategy_info() { return phase_strategy_info<Hbm>(); }

}  // namespace dlbkit
