#include <dlbkit/strategies/direct_neighbor.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <cassert>
#include <cmath>
#include <limits>
#include <vector>

namespace dlbkit {

double distorted_load(double w, double local, std::span<const double> others) {
  if (others.empty()) return local;
  double sum = 0;
  for (double dl : others) sum += dl;
  return w * local + (1.0 - w) / static_cast<double>(others.size()) * sum;  // Sec. 3.1, M - 1 = others.size()
}

std::int64_t equalising_amount(double local, double neighbour) {
  if (!(local > neighbour)) return 0;
  return static_cast<std::int64_t>(std::floor((local - neighbour) / 2.0));
}

namespace {

enum Kind : std::uint16_t { kLoadInfo, kLoadRequest, kRequestReply };

struct LoadInfo {
  double load;  // the sender's (possibly distorted) load as meant for the receiver
};
struct LoadRequest {
  std::int64_t amount;
};
struct RequestReply {
  std::int64_t granted;
};

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

class DirectNeighbor final : public Strategy {
public:
  explicit DirectNeighbor(const Parameters& p)
      : w_(p.real("w")),
        threshold_(p.real("threshold")),
        receiver_initiated_(p.text("initiation") == "receiver"),
        extended_(p.boolean("extended")),
        min_change_(p.real("min_change")) {}

  void on_start(NodeContext& ctx) override {
    known_.assign(ctx.neighbors().size(), kUnknown);
    sent_.assign(ctx.neighbors().size(), kUnknown);
    others_.reserve(ctx.neighbors().size());
    inform(ctx);
  }

  // Sec. 2: "the triggering event ... is the asynchronous arrival of updated load
  // information, either from one of the neighbor nodes or caused by a change in the local state".
  void on_load_change(NodeContext& ctx) override {
    inform(ctx);
    balance(ctx);
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kLoadInfo: {
        const int k = neighbor_index(ctx, from);
        assert(k >= 0);
        known_[static_cast<std::size_t>(k)] = m.as<LoadInfo>().load;  // Sec. 3.1: taken as the sender's load
        inform(ctx);  // what we tell the other neighbours depends on it when distorted
        balance(ctx);
        break;
      }
      case kLoadRequest: {
        // Receiver-initiated: the sender still decides the entities, never more than half its load.
        const std::int64_t asked = m.as<LoadRequest>().amount;
        const std::int64_t granted = ctx.migrate(from, std::max<std::int64_t>(0, std::min(asked, ctx.load() / 2)));
        ctx.send(from, Message::make(kRequestReply, RequestReply{granted}));
        break;
      }
      case kRequestReply: {
        request_pending_ = false;
        const int k = neighbor_index(ctx, from);
        assert(k >= 0);
        known_[static_cast<std::size_t>(k)] -= static_cast<double>(m.as<RequestReply>().granted);
        break;
      }
      default:
        assert(false && "unknown direct_neighbor message kind");
    }
  }

  // Sec. 3.2: a node receiving load that knows a less loaded neighbour forwards it on; each
  // node repeats this, so the load stops at a node whose load is minimal in its neighbourhood.
  // No threshold applies here (Sec. 4.3: "with no consideration of the threshold").
  void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t count) override {
    if (!extended_) return;
    const auto before = static_cast<double>(ctx.load() - count);
    const int k = least_loaded(ctx, from);
    if (k < 0 || !(known_[static_cast<std::size_t>(k)] < before)) return;
    const std::int64_t moved = ctx.migrate(ctx.neighbors()[static_cast<std::size_t>(k)], count);
    known_[static_cast<std::size_t>(k)] += static_cast<double>(moved);
  }

private:
  // Sends each neighbour j the load meant for it when it has changed by min_change since the
  // last value j got (w = 1: every change of the load).
  void inform(NodeContext& ctx) {
    const auto nb = ctx.neighbors();
    const auto local = static_cast<double>(ctx.load());
    for (std::size_t j = 0; j < nb.size(); ++j) {
      double dl = local;
      if (w_ != 1.0) {
        others_.clear();
        for (std::size_t k = 0; k < nb.size(); ++k)
          if (k != j) others_.push_back(std::isnan(known_[k]) ? local : known_[k]);  // unknown: as ourselves
        dl = distorted_load(w_, local, others_);
      }
      if (!std::isnan(sent_[j]) && std::abs(dl - sent_[j]) < min_change_) continue;
      ctx.send(nb[j], Message::make(kLoadInfo, LoadInfo{dl}));
      sent_[j] = dl;
    }
  }

  // Sec. 2: if the local load exceeds the least loaded neighbour's by more than the threshold
  // (a percentage), migrate to equalise the pair (Sec. 3.1: against the neighbour's DL).
  void balance(NodeContext& ctx) {
    const auto local = static_cast<double>(ctx.load());
    const auto nb = ctx.neighbors();
    if (receiver_initiated_) {
      if (request_pending_) return;
      const int k = most_loaded(ctx);
      if (k < 0) return;
      const double other = known_[static_cast<std::size_t>(k)];
      if (!(other > (1.0 + threshold_) * local)) return;
      const std::int64_t amount = equalising_amount(other, local);
      if (amount < 1) return;
      ctx.send(nb[static_cast<std::size_t>(k)], Message::make(kLoadRequest, LoadRequest{amount}));
      request_pending_ = true;
      return;
    }
    const int k = least_loaded(ctx, ctx.self());
    if (k < 0) return;
    const double other = known_[static_cast<std::size_t>(k)];
    if (!(local > (1.0 + threshold_) * other)) return;
    const std::int64_t amount = std::min(equalising_amount(local, other), ctx.migratable());
    if (amount < 1) return;
    // Until k reports again, count what we sent as part of its load, so that the next trigger
    // does not send the same deficit twice.
    known_[static_cast<std::size_t>(k)] += static_cast<double>(ctx.migrate(nb[static_cast<std::size_t>(k)], amount));
  }

  // The neighbour with the least known load, `except` excluded; the first one on ties; -1 if none is known.
  int least_loaded(const NodeContext& ctx, NodeId except) const {
    const auto nb = ctx.neighbors();
    int best = -1;
    for (std::size_t k = 0; k < nb.size(); ++k)
      if (nb[k] != except && !std::isnan(known_[k]) && (best < 0 || known_[k] < known_[static_cast<std::size_t>(best)]))
        best = static_cast<int>(k);
    return best;
  }
  int most_loaded(const NodeContext& ctx) const {
    int best = -1;
    for (std::size_t k = 0; k < ctx.neighbors().size(); ++k)
      if (!std::isnan(known_[k]) && (best < 0 || known_[k] > known_[static_cast<std::size_t>(best)]))
        best = static_cast<int>(k);
    return best;
  }

  double w_;
  double threshold_;
  bool receiver_initiated_;
  bool extended_;
  double min_change_;
  std::vector<double> known_;  // DL_k: the last load each neighbour told us (adjusted by what we moved)
  std::vector<double> sent_;   // the last load we told each neighbour
  std::vector<double> others_;  // inform()'s scratch
  bool request_pending_ = false;
};

}  // namespace

StrategyInfo direct_neighbor_strategy_info() {
  return StrategyInfo{
      .name = "direct_neighbor",
      .description = "Direct-neighbour policy: equalise with the least loaded neighbour when new load information "
                     "arrives, optionally with distorted load information and extended distribution",
      .source = "Zambonelli, Sec. 2, 3.1 (distorted load information), 3.2 (extended load distribution)",
      .params =
          {
              {.name = "w", .type = ParamType::real, .default_value = "1",
               .description = "weight of the effective load in the load sent to a neighbour (Sec. 3.1); 1 = "
                              "undistorted, the paper's best 0.5-0.6 for slowly changing load",
               .min = 0, .max = 1},
              {.name = "threshold", .type = ParamType::real, .default_value = "0.2",
               .description = "act when the local load exceeds the least loaded neighbour's by more than this "
                              "fraction (Sec. 4: 20%)",
               .min = 0},
              {.name = "initiation", .type = ParamType::choice, .default_value = "sender",
               .description = "sender: overloaded nodes push (the paper's implementation); receiver: underloaded "
                              "nodes ask their most loaded neighbour",
               .choices = {"sender", "receiver"}},
              {.name = "extended", .type = ParamType::boolean, .default_value = "false",
               .description = "extended load distribution (Sec. 3.2): forward arriving load to a less loaded "
                              "neighbour, down to a local minimum"},
              {.name = "min_change", .type = ParamType::real, .default_value = "0.5",
               .description = "send a neighbour new load information when it differs by at least this many "
                              "processes from what it last got (w = 1: every change)",
               .min = 1e-9},
          },
      .message_kinds = {"load_info", "load_request", "request_reply"},
      .create = [](const Parameters& p) { return std::make_unique<DirectNeighbor>(p); },
  };
}

}  // namespace dlbkit
