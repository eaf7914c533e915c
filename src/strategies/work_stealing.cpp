#include <dlbkit/strategies/work_stealing.hpp>

#include <cassert>

namespace dlbkit {

namespace {

enum Kind : std::uint16_t { kStealRequest, kStealRefused };

struct Empty {};

class WorkStealing final : public Strategy {
public:
  explicit WorkStealing(const Parameters& p)
      : neighbors_only_(p.boolean("neighbors")), retry_delay_(p.duration("retry_delay")) {}

  void on_start(NodeContext& ctx) override {
    victims_ = neighbors_only_ ? ctx.neighbors().size() : ctx.topology().size() - 1;
    if (ctx.load() == 0) steal(ctx);
  }

  void on_idle(NodeContext& ctx) override { steal(ctx); }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kStealRequest: {
        // Steal half: the victim gives half of its queued tasks, rounded up.
        const std::int64_t queued = ctx.migratable();
        const std::int64_t moved = queued > 0 ? ctx.migrate(from, (queued + 1) / 2) : 0;
        if (moved == 0) ctx.send(from, Message::make(kStealRefused, Empty{}));
        break;
      }
      case kStealRefused:
        outstanding_ = false;
        if (ctx.load() > 0) break;
        if (++refusals_ % victims_ != 0) steal(ctx);
        else ctx.set_timer(retry_delay_, 0);  // every victim said no: wait before the next round
        break;
      default:
        assert(false && "unknown work_stealing message kind");
    }
  }

  void on_tasks_arrived(NodeContext&, NodeId, std::int64_t) override {
    outstanding_ = false;
    refusals_ = 0;
  }

  void on_timer(NodeContext& ctx, std::uint64_t) override {
    if (ctx.load() == 0) steal(ctx);
  }

private:
  void steal(NodeContext& ctx) {
    if (outstanding_ || victims_ == 0) return;
    NodeId victim;
    if (neighbors_only_) {
      const auto nb = ctx.neighbors();
      victim = nb[ctx.rng().below(nb.size())];
    } else {
      // Uniform among the other nodes.
      victim = static_cast<NodeId>(ctx.rng().below(victims_));
      if (victim >= ctx.self()) ++victim;
    }
    outstanding_ = true;
    ctx.send(victim, Message::make(kStealRequest, Empty{}));
  }

  bool neighbors_only_;
  SimTime retry_delay_;
  std::size_t victims_ = 0;
  bool outstanding_ = false;
  std::uint64_t refusals_ = 0;
};

}  // namespace

StrategyInfo work_stealing_strategy_info() {
  return StrategyInfo{
      .name = "work_stealing",
      .description = "randomized work stealing: an idle node takes half of a random victim's queued tasks",
      .source = "Blumofe and Leiserson 1999 (randomized stealing); UTS (Olivier et al. 2006) MPI work stealing",
      .params =
          {
              {.name = "neighbors", .type = ParamType::boolean, .default_value = "false",
               .description = "choose victims among the topology neighbours only (default: any other node)"},
              {.name = "retry_delay", .type = ParamType::duration, .default_value = "20us",
               .description = "wait after as many refusals in a row as there are victims", .min = 0},
          },
      .message_kinds = {"steal_request", "steal_refused"},
      .create = [](const Parameters& p) { return std::make_unique<WorkStealing>(p); },
  };
}

}  // namespace dlbkit
