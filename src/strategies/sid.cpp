#include <dlbkit/core/registry.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <cassert>
#include <cmath>
#include <vector>

namespace dlbkit {

namespace {

/// Sender Initiated Diffusion (WLR93 Sec. III-B, parameters from Table II).
///
/// When a neighbour's load update arrives reporting l_k < L_LOW, a node computes the domain
/// average Lbar (eq. 8) over itself and its neighbours' last reported loads; if its own load
/// exceeds it by more than L_threshold (eq. 9) it apportions the excess l_p - Lbar to the
/// neighbours below the average in proportion to their deficiency h_k / H_p (eq. 10-12) and
/// sends each floor(delta_k) tasks when that is at least delta_MIN. Loads travel by the load
/// update policy (Sec. III-F, u = 9/10).
class Sid final : public Strategy {
public:
  static constexpr const char* name = "sid";
  static constexpr const char* description =
      "Sender Initiated Diffusion: overloaded nodes apportion their excess to below-average neighbours";
  static constexpr const char* source = "WLR93 Sec. III-B, III-F, Table II";
  static constexpr RealParam kLLow{.name = "l_low", .default_value = "inf",
      .description = "L_LOW: balance when a neighbour reports a load below it (Table II: inf, i.e. on "
                     "every update); auto = 1 + L_LIMIT/10 with L_LIMIT the node's initial load, as in rid",
      .min = 0, .allow_inf = true, .allow_auto = true};
  static constexpr RealParam kLThreshold{.name = "l_threshold", .default_value = "1",
      .description = "L_threshold of eq. (9): minimum excess over the domain average", .min = 0};
  static constexpr IntegerParam kDeltaMin{.name = "delta_min", .default_value = "1",
      .description = "delta_MIN: smallest amount sent to one neighbour", .min = 1};
  static constexpr ChoiceParam kAverage{.name = "average", .default_value = "real",
      .description = "Lbar of eq. (8): real, or integer (rounded down; loads are task counts)",
      .choices = {"real", "integer"}};
  static constexpr ChoiceParam kAverageOver{.name = "average_over", .default_value = "domain",
      .description = "whose loads Lbar averages: domain: the node and its K neighbours, eq. (8); "
                     "neighbours: the K neighbours only, as Fig. 2's caption implies (Lbar = 10, S = 21, H = 20)",
      .choices = {"domain", "neighbours"}};
  static std::vector<ParamSpec> params() {
    return {kLLow, kLThreshold, kDeltaMin, kLoadUpdateFactor.searching({"0.5", "0.7"}), kAverage, kAverageOver};
  }
  enum Kind : std::uint16_t { kLoadUpdate, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"load_update"};

  explicit Sid(const Parameters& p)
      : l_low_(p.is_auto(kLLow) ? 0 : p[kLLow]),
        l_limit_auto_(p.is_auto(kLLow)),
        l_threshold_(p[kLThreshold]),
        delta_min_(p[kDeltaMin]),
        update_(p[kLoadUpdateFactor]),
        integer_average_(p[kAverage] == kAverage.choice("integer")),
        over_domain_(p[kAverageOver] == kAverageOver.choice("domain")) {}

  void on_start(NodeContext& ctx) override {
    // Table IV's second SID column: L_LOW = 1 + L_LIMIT/10, L_LIMIT the initial load (as RID).
    if (l_limit_auto_) l_low_ = 1.0 + static_cast<double>(ctx.load()) / 10.0;
    neighbor_load_.reset(ctx.neighbor_slots());
    update_.update_neighbors(ctx, kLoadUpdate);
  }

  void on_load_change(NodeContext& ctx) override { update_.update_neighbors(ctx, kLoadUpdate); }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    assert(m.kind == kLoadUpdate);
    const int k = neighbor_index(ctx, from);
    assert(k >= 0);
    std::int64_t l_k = m.as<LoadUpdate>().load;
    const bool now_complete = neighbor_load_.set(static_cast<std::size_t>(k), l_k);
    // III-B, IV-A 1: SID balances when a neighbour reports a load below L_LOW, once every
    // neighbour has reported (III-B: all processors inform their neighbours first); the
    // last first report stands for the earlier ones.
    if (now_complete) l_k = neighbor_load_.lowest();
    if (static_cast<double>(l_k) < l_low_ && neighbor_load_.complete()) balance(ctx);
  }

private:
  void balance(NodeContext& ctx) {
    const auto l_p = static_cast<double>(ctx.load());
    const std::size_t K = neighbor_load_.size();
    double sum = over_domain_ ? l_p : 0.0;
    for (std::int64_t l : neighbor_load_.loads()) sum += static_cast<double>(l);
    double average = sum / static_cast<double>(over_domain_ ? K + 1 : K);  // eq. (8); Fig. 2: over the K
    if (integer_average_) average = std::floor(average);
    const double excess = l_p - average;
    if (excess <= l_threshold_) return;  // eq. (9)
    double deficiency = 0;               // H_p, eq. (10-11)
    for (std::int64_t l : neighbor_load_.loads())
      if (static_cast<double>(l) < average) deficiency += average - static_cast<double>(l);
    if (deficiency <= 0) return;
    const auto nb = ctx.neighbors();
    for (std::size_t k = 0; k < K; ++k) {
      const auto l_k = static_cast<double>(neighbor_load_[k]);
      if (l_k >= average) continue;
      const double delta = excess * (average - l_k) / deficiency;  // eq. (12)
      const auto amount = static_cast<std::int64_t>(std::floor(delta));
      if (amount < delta_min_) continue;
      // What the node sent is known here before the neighbour's next update says so.
      neighbor_load_[k] += ctx.migrate(nb[k], amount);
    }
  }

  double l_low_;
  bool l_limit_auto_;
  double l_threshold_;
  std::int64_t delta_min_;
  LoadUpdatePolicy update_;
  NeighborLoads neighbor_load_;
  bool integer_average_;
  bool over_domain_;
};

}  // namespace

StrategyInfo sid_strategy_info() { return strategy_info<Sid>(); }

}  // namespace dlbkit
