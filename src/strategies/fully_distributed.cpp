#include <dlbkit/core/registry.hpp>

#include <cassert>
#include <limits>
#include <map>

namespace dlbkit {

namespace {

struct FdLoadRequest {
  std::uint32_t probe;
};
struct LoadReply {
  std::uint32_t probe;
  std::uint32_t pad = 0;
  std::int64_t load;
};

/// The fully distributed baseline of AG91 Sec. 6: when a task arrives at a node, from
/// outside or from a neighbour, the node asks its neighbours for their loads; when every
/// answer is in, the task moves to the least-loaded neighbour if that neighbour's load is
/// lower than the node's own (without the task), and otherwise stays. A task migrates at
/// most `transfer_limit` times (the diameter by default, as in AG91 Table IV).
class FullyDistributed final : public Strategy {
public:
  static constexpr const char* name = "fully_distributed";
  static constexpr const char* description =
      "on each arrival, ask the neighbours' loads and move the task to the least-loaded if lighter";
  static constexpr const char* source = "AG91 Sec. 6 (baseline)";
  static constexpr IntegerParam kTransferLimit{.name = "transfer_limit", .default_value = "auto",
      .description = "most migrations of one task; auto = the network's diameter", .min = 0, .max = 1e6,
      .allow_auto = true};
  static std::vector<ParamSpec> params() { return {kTransferLimit}; }
  enum Kind : std::uint16_t { kLoadRequest, kLoadReply, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"load_request", "load_reply"};

  explicit FullyDistributed(const Parameters& p)
      : limit_auto_(p.is_auto(kTransferLimit)), limit_(limit_auto_ ? 0 : p[kTransferLimit]) {}

  void on_start(NodeContext& ctx) override {
    if (limit_auto_) limit_ = ctx.topology().diameter();  // AG91 Sec. 6.1
  }

  void on_task_submitted(NodeContext& ctx) override { probe(ctx); }

  // A migrated task looks again from here; one that used up its transfer limit cannot
  // leave (migrate() skips it), so it is not looked after.
  void on_tasks_arrived(NodeContext& ctx, NodeId, std::int64_t count) override {
    for (std::int64_t i = 0; i < count; ++i) probe(ctx);
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kLoadRequest:
        ctx.send(from, Message::make(kLoadReply, LoadReply{m.as<FdLoadRequest>().probe, 0, ctx.load()}));
        break;
      case kLoadReply: {
        const auto reply = m.as<LoadReply>();
        auto it = probes_.find(reply.probe);
        assert(it != probes_.end());
        Probe& p = it->second;
        if (reply.load < p.lightest) {
          p.lightest = reply.load;
          p.where = from;
        }
        if (--p.remaining > 0) break;
        const Probe done = p;
        probes_.erase(it);
        // Move when the lightest neighbour holds fewer tasks than this node without the
        // task (AG91 Sec. 6: "otherwise the task is migrated to the neighbor with the
        // lowest load"; ties stay, so that idle neighbours do not trade a task).
        if (done.lightest < ctx.load() - 1) ctx.migrate(done.where, 1, static_cast<std::uint32_t>(limit_));
        break;
      }
      default: assert(false && "unknown fully_distributed message kind");
    }
  }

private:
  struct Probe {
    std::size_t remaining = 0;
    std::int64_t lightest = std::numeric_limits<std::int64_t>::max();
    NodeId where = 0;
  };

  // A task arrived: ask every neighbour for its load.
  void probe(NodeContext& ctx) {
    if (limit_ == 0) return;
    const std::uint32_t id = next_probe_++;
    probes_[id].remaining = ctx.neighbors().size();
    for (NodeId nb : ctx.neighbors()) ctx.send(nb, Message::make(kLoadRequest, FdLoadRequest{id}));
  }

  bool limit_auto_;
  long long limit_;
  std::map<std::uint32_t, Probe> probes_;
  std::uint32_t next_probe_ = 0;
};

}  // namespace

StrategyInfo fully_distributed_strategy_info() { return strategy_info<FullyDistributed>(); }

}  // namespace dlbkit
