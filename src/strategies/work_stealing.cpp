#include <dlbkit/strategies/work_stealing.hpp>

#include <cassert>

namespace dlbkit {

namespace {

enum Kind : std::uint16_t { kStealRequest, kStealRefused };

// A request's number, which its refusal carries back: a thief counts only the refusal of
// its latest request. Tasks carry no number; the first to come from the asked victim
// answer the request, and a later message of an earlier answer (the simulator ships a
// large one in several when tasks_per_message is small) may end the wait early. Each such
// message lets the thief send one request more than it has answers pending; counting any
// refusal as the answer, those extra requests' refusals went on asking for ever, and a
// victim paying more to refuse than a thief to ask never got back to its last task.
struct Request {
  std::uint64_t number;
};

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
        // Steal half: the victim gives half of its spare tasks, rounded up.
        const std::int64_t spare = ctx.spare();
        const std::int64_t moved = spare > 0 ? ctx.migrate(from, (spare + 1) / 2) : 0;
        if (moved == 0) ctx.send(from, Message::make(kStealRefused, m.as<Request>()));
        break;
      }
      case kStealRefused:
        if (!outstanding_ || m.as<Request>().number != requests_) break;  // an earlier request's
        outstanding_ = false;
        if (ctx.load() > 0) break;
        if (++refusals_ % victims_ != 0) steal(ctx);
        else ctx.set_timer(retry_delay_, 0);  // every victim said no: wait before the next round
        break;
      default:
        assert(false && "unknown work_stealing message kind");
    }
  }

  void on_tasks_arrived(NodeContext&, NodeId from, std::int64_t) override {
    if (from == victim_) outstanding_ = false;
    refusals_ = 0;
  }

  void on_timer(NodeContext& ctx, std::uint64_t) override {
    if (ctx.load() == 0) steal(ctx);
  }

private:
  void steal(NodeContext& ctx) {
    if (outstanding_ || victims_ == 0) return;
    if (neighbors_only_) {
      const auto nb = ctx.neighbors();
      victim_ = nb[ctx.rng().below(nb.size())];
    } else {
      // Uniform among the other nodes.
      victim_ = static_cast<NodeId>(ctx.rng().below(victims_));
      if (victim_ >= ctx.self()) ++victim_;
    }
    outstanding_ = true;
    ctx.send(victim_, Message::make(kStealRequest, Request{++requests_}));
  }

  bool neighbors_only_;
  SimTime retry_delay_;
  std::size_t victims_ = 0;
  bool outstanding_ = false;
  NodeId victim_ = 0;            // of the latest request
  std::uint64_t requests_ = 0;   // sent so far: the latest one's number
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
      .in_place = in_place_of<WorkStealing>(),
  };
}

}  // namespace dlbkit
