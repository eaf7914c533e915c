#include <dlbkit/core/registry.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlbkit {

namespace {

struct RidLoadRequest {
  std::int64_t amount;
};
struct RequestAck {
  std::int64_t granted;
};

/// Receiver Initiated Diffusion (WLR93 Sec. III-C, parameters from Table II).
///
/// A node whose own load drops below L_LOW, and that has no request outstanding, computes
/// the domain average (eq. 8); if it lies below it by more than L_threshold (eq. 16) it asks
/// each neighbour k above the average for delta_k = (Lbar - l_p) h_k / H_p tasks (eq. 17-18),
/// rounded down, when delta_k >= delta_MIN. A neighbour gives at most half of its current
/// load, and acknowledges every request with the number it sends. Neighbour loads come from
/// the load update policy (Sec. III-F, u = 9/10).
class alignas(64) Rid final : public Strategy {  // two cache lines, not three
public:
  static constexpr const char* name = "rid";
  static constexpr const char* description =
      "Receiver Initiated Diffusion: underloaded nodes request tasks from above-average neighbours";
  static constexpr const char* source = "WLR93 Sec. III-C, III-F, Table II";
  static constexpr RealParam kLLow{.name = "l_low", .default_value = "auto",
      .description = "L_LOW: balance when the own load drops below it; auto = 1 + L_LIMIT/10 with "
                     "L_LIMIT the node's initial load",
      .min = 0, .allow_inf = true, .allow_auto = true};
  static constexpr RealParam kLThreshold{.name = "l_threshold", .default_value = "1",
      .description = "L_threshold of eq. (16): minimum deficiency below the domain average", .min = 0};
  static constexpr IntegerParam kDeltaMin{.name = "delta_min", .default_value = "1",
      .description = "delta_MIN: smallest request sent to one neighbour", .min = 1};
  static constexpr BooleanParam kRetryOnUpdate{.name = "retry_on_update", .default_value = "false",
      .description = "also rebalance when a neighbour's update arrives (not in WLR93, which triggers "
                     "on the own load only)",
      .search = {"true"}};
  static std::vector<ParamSpec> params() {
    return {kLLow, kLThreshold, kDeltaMin, kLoadUpdateFactor.searching({"0.5"}), kRetryOnUpdate};
  }
  enum Kind : std::uint16_t { kLoadUpdate, kLoadRequest, kRequestAck, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"load_update", "load_request", "request_ack"};

  // Balancing is triggered by changes of a node's own load: one that starts empty never
  // sees one, so it never asks, unless a neighbour's update may trigger it.
  static std::optional<std::string> start_warning(const Parameters& p, std::span<const std::int64_t> loads) {
    const auto empty = std::ranges::count(loads, 0);
    if (p[kRetryOnUpdate] || empty == 0) return std::nullopt;
    return fmt::format("rid with retry_on_update=false: {} of the {} workers start without tasks and will never ask "
                       "for any (RID acts on changes of a node's own load); -p retry_on_update=true makes them ask",
                       empty, loads.size());
  }

  explicit Rid(const Parameters& p)
      : l_low_(p[kLLow]),
        l_limit_auto_(p.is_auto(kLLow)),
        retry_on_update_(p[kRetryOnUpdate]),
        l_threshold_(p[kLThreshold]),
        delta_min_(p[kDeltaMin]),
        update_(p[kLoadUpdateFactor]) {}

  void on_start(NodeContext& ctx) override {
    // Table II: L_LOW = 1 + L_LIMIT/10. We take L_LIMIT as the node's initial load, which
    // for the artificial workload is the granularity g (every node starts with g tasks).
    if (l_limit_auto_) l_low_ = 1.0 + static_cast<double>(ctx.load()) / 10.0;
    neighbor_load_.reset(ctx.neighbor_slots());
    update_.update_neighbors(ctx, kLoadUpdate);
    last_load_ = ctx.load();
  }

  void on_load_change(NodeContext& ctx) override {
    update_.update_neighbors(ctx, kLoadUpdate);
    // III-C, IV-A 1: balancing is "triggered by changes in the processor's own load (i.e.,
    // when it drops below a preset threshold)": by its own execution, not by the tasks it
    // gave away on a request (a granter that then asked its own neighbours would pass
    // requests on and on).
    const bool own_change = granted_ == 0 || ctx.load() < last_load_ - granted_;
    last_load_ = ctx.load();
    granted_ = 0;
    if (own_change) balance(ctx);
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kLoadUpdate: {
        const int k = neighbor_index(ctx, from);
        assert(k >= 0);
        // The start's balancing waits for every neighbour's first report.
        if (neighbor_load_.set(static_cast<std::size_t>(k), m.as<LoadUpdate>().load) || retry_on_update_)
          balance(ctx);
        break;
      }
      case kLoadRequest: {
        // III-C: fulfil a request only up to half of the current load; only queued
        // (not executing) tasks can move.
        const std::int64_t asked = m.as<RidLoadRequest>().amount;
        const std::int64_t granted = ctx.migrate(from, std::max<std::int64_t>(0, std::min(asked, ctx.load() / 2)));
        granted_ += granted;
        ctx.send(from, Message::make(kRequestAck, RequestAck{granted}));  // what actually left
        break;
      }
      case kRequestAck:
        --pending_acks_;
        expected_tasks_ += m.as<RequestAck>().granted;
        if (!outstanding()) balance(ctx);
        break;
      default:
        assert(false && "unknown RID message kind");
    }
  }

  void on_tasks_arrived(NodeContext&, NodeId, std::int64_t count) override {
    expected_tasks_ -= count;
    last_load_ += count;  // a rise, not the node's own execution
  }
  void on_task_submitted(NodeContext&) override { ++last_load_; }

private:
  // No new requests while earlier ones are unanswered or their tasks are still on the way.
  bool outstanding() const { return pending_acks_ > 0 || expected_tasks_ > 0; }

  void balance(NodeContext& ctx) {
    const auto l_p = static_cast<double>(ctx.load());
    // Not against neighbours that have not reported yet (III-B, III-F).
    if (l_p >= l_low_ || outstanding() || !neighbor_load_.complete()) return;
    const std::size_t K = neighbor_load_.size();
    double sum = l_p;
    for (std::int64_t l : neighbor_load_.loads()) sum += static_cast<double>(l);
    const double average = sum / static_cast<double>(K + 1);  // eq. (8)
    if (average - l_p <= l_threshold_) return;                 // eq. (16)
    double surplus = 0;                                        // H_p, eq. (11) with h_k of (17)
    for (std::int64_t l : neighbor_load_.loads())
      if (static_cast<double>(l) > average) surplus += static_cast<double>(l) - average;
    if (surplus <= 0) return;
    const auto nb = ctx.neighbors();
    for (std::size_t k = 0; k < K; ++k) {
      const auto l_k = static_cast<double>(neighbor_load_[k]);
      if (l_k <= average) continue;
      const double delta = (average - l_p) * (l_k - average) / surplus;  // eq. (18)
      const auto amount = static_cast<std::int64_t>(std::floor(delta));
      if (amount < delta_min_) continue;
      ctx.send(nb[k], Message::make(kLoadRequest, RidLoadRequest{amount}));
      ++pending_acks_;
    }
  }

  // The fields every message reads first, the flags together: a node's agent spans as few
  // cache lines as it can.
  NeighborLoads neighbor_load_;
  double l_low_;
  int pending_acks_ = 0;
  bool l_limit_auto_;
  bool retry_on_update_;
  std::int64_t expected_tasks_ = 0;
  std::int64_t last_load_ = 0;  // at the previous on_load_change, plus tasks arrived since
                                // (children a task creates on completion are not seen here)
  std::int64_t granted_ = 0;    // tasks given away on requests since then
  double l_threshold_;
  std::int64_t delta_min_;
  LoadUpdatePolicy update_;
};
static_assert(sizeof(Rid) == 128);

}  // namespace

StrategyInfo rid_strategy_info() { return strategy_info<Rid>(); }

}  // namespace dlbkit
