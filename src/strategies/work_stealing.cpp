#include <dlbkit/core/registry.hpp>

#include <cassert>

namespace dlbkit {

namespace {

// A request's number, which its refusal carries back: a thief counts only the refusal of
// its latest request. Tasks carry no number; the first to come from the asked victim
// answer the request, and a later message of an earlier answer (the simulator ships a
// large one in several when tasks_per_message is small) may end the wait early. Each such
// message lets the thief send one request more than it has answers pending; counting any
// refusal as the answer, those extra requests' refusals went on asking for ever, and a
// victim paying more to refuse than a thief to ask never got back to its last task.
struct StealRequest {
  std::uint64_t number;
};

/// `work_stealing`: randomized work stealing, the modern baseline (Blumofe and Leiserson's
/// randomized stealing as in Cilk; the UTS benchmark's MPI work stealing). A node that runs
/// out of tasks asks one victim chosen uniformly at random for work; the victim sends half
/// of its spare tasks (rounded up; NodeContext::spare), or a refusal when it has none, and
/// the thief asks another victim. One request is outstanding per thief. After as many
/// refusals in a row as it has victims, the thief waits `retry_delay` before the next
/// request.
/// Parameter `neighbors=true` restricts the victims to the node's topology neighbours.
class WorkStealing final : public Strategy {
public:
  static constexpr const char* name = "work_stealing";
  static constexpr const char* description =
      "randomized work stealing: an idle node takes half of a random victim's queued tasks";
  static constexpr const char* source =
      "Blumofe and Leiserson 1999 (randomized stealing); UTS (Olivier et al. 2006) MPI work stealing";
  static constexpr BooleanParam kNeighbors{.name = "neighbors", .default_value = "false",
      .description = "choose victims among the topology neighbours only (default: any other node)"};
  static constexpr DurationParam kRetryDelay{.name = "retry_delay", .default_value = "20us",
      .description = "wait after as many refusals in a row as there are victims", .min = 0,
      .search = {"5us", "100us"}};
  static std::vector<ParamSpec> params() { return {kNeighbors, kRetryDelay}; }
  enum Kind : std::uint16_t { kStealRequest, kStealRefused, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"steal_request", "steal_refused"};

  explicit WorkStealing(const Parameters& p)
      : neighbors_only_(p[kNeighbors]), retry_delay_(p[kRetryDelay]) {}

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
        if (moved == 0) ctx.send(from, Message::make(kStealRefused, m.as<StealRequest>()));
        break;
      }
      case kStealRefused:
        if (!outstanding_ || m.as<StealRequest>().number != requests_) break;  // an earlier request's
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
    ctx.send(victim_, Message::make(kStealRequest, StealRequest{++requests_}));
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

StrategyInfo work_stealing_strategy_info() { return strategy_info<WorkStealing>(); }

}  // namespace dlbkit
