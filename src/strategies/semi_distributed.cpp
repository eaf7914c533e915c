#include <dlbkit/analysis/spheres.hpp>
#include <dlbkit/core/registry.hpp>
#include <dlbkit/error.hpp>

#include <cassert>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace dlbkit {

namespace {

struct NodeDelta {  // assign_update and load_change: node's load changed by delta
  NodeId node;
  std::int32_t delta;
};
struct SphereLoadRequest {
  std::uint32_t probe;
};
struct NodeRef {  // place_at: the target; remote_place: the node holding the task
  NodeId node;
};
struct SphereLoadReply {
  std::uint32_t probe;
  std::uint32_t pad = 0;
  std::int64_t load;
};

// The spheres, common knowledge computed from the topology (AG91 Sec. 4.3).
struct Layout {
  std::vector<NodeId> schedulers;
  std::vector<std::int32_t> scheduler_index;  // per node: its index in schedulers, or -1
  // per node: (scheduler index, position of the node in that sphere's member list)
  std::vector<std::vector<std::pair<std::uint32_t, std::uint32_t>>> member_of;
  std::vector<std::vector<NodeId>> members;  // per scheduler
};

// Checks the range and builds the layout.
Layout build_layout(const Topology& topology, const SchedulerSet& set, long long range_param, bool range_auto) {
  const SphereStructure s = analyze_spheres(topology, set);
  const int range = range_auto ? s.covering_radius : static_cast<int>(range_param);
  if (range < s.covering_radius || (set.schedulers.size() > 1 && range >= s.min_distance))
    throw InputError(fmt::format("strategy semi_distributed: range={} on {}: accepted: from the covering radius {} "
                                 "(every node in a sphere) to {} (below the scheduler distance {}, so that a "
                                 "scheduler lies in its own sphere only), or auto",
                                 range, topology.spec(), s.covering_radius, s.min_distance - 1, s.min_distance));
  Layout layout;
  layout.schedulers = set.schedulers;
  layout.scheduler_index.assign(topology.size(), -1);
  for (std::size_t k = 0; k < set.schedulers.size(); ++k)
    layout.scheduler_index[set.schedulers[k]] = static_cast<std::int32_t>(k);
  const auto membership = sphere_membership(topology, set.schedulers, range);
  layout.members.resize(set.schedulers.size());
  layout.member_of.resize(topology.size());
  for (NodeId v = 0; v < topology.size(); ++v)
    for (std::uint32_t k : membership[v]) {
      layout.member_of[v].emplace_back(k, static_cast<std::uint32_t>(layout.members[k].size()));
      layout.members[k].push_back(v);
    }
  return layout;
}

// The scheduler set (Hadamard code) of a topology, computed once per network.
const SchedulerSet& shared_scheduler_set(const Topology& topology) {
  return topology.shared<SchedulerSet>("scheduler_set", scheduler_set);
}

/// Semi-distributed load balancing (AG91 Sec. 5): the network is covered by spheres of
/// radius f (the covering radius r by default) around schedulers chosen from a Hadamard
/// code (analysis/spheres.hpp). A task arriving at a node is routed to the scheduler of
/// its sphere (a random one when the node lies in several); the scheduler runs Steps 1-7:
///
/// 1-2. look at the least-loaded node of its sorted node-load list; if its load is at most
///      threshold1, 3-5. send the task there, update the list and the sphere's load;
/// 6-7. otherwise ask every other scheduler for its sphere's load and send the task to a
///      random scheduler whose sphere is lighter by at least threshold2, which places it in
///      its own sphere (Step 3) without migrating it again; if none is, go to Step 3.
///
/// A scheduler that places a task on a node shared with other spheres tells their
/// schedulers (`assign_update`); a node tells all its schedulers when its load changes
/// other than by an assignment, i.e. when it finishes a task (`load_change`). Task moves
/// are the engine's `task_transfer`s. Runs on hypercube:n, bisectional:n and odd:n where
/// a scheduler set exists; the sphere structure is computed once per topology and range.
class SemiDistributed final : public Strategy {
public:
  static constexpr const char* name = "semi_distributed";
  static constexpr const char* description =
      "schedulers from a Hadamard code balance within their spheres and between spheres (two thresholds)";
  static constexpr const char* source = "AG91 Sec. 4.3, 5.2, 5.3 (Steps 1-7)";
  static constexpr IntegerParam kThreshold1{.name = "threshold1", .default_value = "1",
      .description = "Step 2: place the task in the sphere when its least-loaded node holds at most this "
                     "many tasks (AG91: 1 or 2)",
      .min = 0, .max = 1e9};
  static constexpr IntegerParam kThreshold2{.name = "threshold2", .default_value = "3",
      .description = "Step 7: migrate to a remote sphere whose load is lower by at least this much "
                     "(AG91: 1 to 6)",
      .min = 1, .max = 1e9, .search = {"1", "6"}};
  static constexpr IntegerParam kRange{.name = "range", .default_value = "auto",
      .description = "f: radius of the spheres; auto = the covering radius r", .min = 0, .max = 64,
      .allow_auto = true};
  static constexpr ChoiceParam kRouting{.name = "routing", .default_value = "task",
      .description = "how an arrival reaches its scheduler: task = the task travels there (one more "
                     "transfer); request = a message asks where to send it, and the task travels once, "
                     "as if it had arrived at the scheduler (AG91 Sec. 5.1)",
      .choices = {"task", "request"}};
  static std::vector<ParamSpec> params() { return {kThreshold1, kThreshold2, kRange, kRouting}; }
  static void check_topology(const Topology& t) { (void)shared_scheduler_set(t); }
  enum Kind : std::uint16_t {
    kAssignUpdate,
    kLoadChange,
    kSphereLoadRequest,
    kSphereLoadReply,
    kPlaceRequest,  // routing=request: a node asks a scheduler where its new task goes
    kPlaceAt,       // the scheduler's answer: the node to send it to
    kRemotePlace,   // Step 7 for a task still at its node: the remote scheduler answers the node
    kKinds
  };
  static constexpr std::array<const char*, kKinds> message_kinds{
      "assign_update", "load_change", "sphere_load_request", "sphere_load_reply", "place_request", "place_at",
      "remote_place"};

  explicit SemiDistributed(const Parameters& p)
      : threshold1_(p[kThreshold1]),
        threshold2_(p[kThreshold2]),
        range_(p.is_auto(kRange) ? 0 : p[kRange]),
        range_auto_(p.is_auto(kRange)),
        by_request_(p[kRouting] == kRouting.choice("request")) {}

  void on_start(NodeContext& ctx) override {
    // One layout per (network, range), shared by every node of every run on it.
    // (The set is fetched first: shared<Layout> holds the topology's lock while it builds.)
    const Topology& t = ctx.topology();
    const SchedulerSet& set = shared_scheduler_set(t);
    const std::string key = fmt::format("semi_distributed:range={}", range_auto_ ? "auto" : std::to_string(range_));
    layout_ = &t.shared<Layout>(
        key, [&](const Topology& topology) { return build_layout(topology, set, range_, range_auto_); });
    me_ = layout_->scheduler_index[ctx.self()];
    if (me_ >= 0) {
      const auto& members = layout_->members[static_cast<std::size_t>(me_)];
      view_.assign(members.size(), Entry{});
      for (std::uint32_t i = 0; i < members.size(); ++i) {
        view_[i].stamp = stamp_++;
        list_.insert({0, view_[i].stamp, i});
      }
    }
    // Tasks present at the start are not the schedulers': report them like any change.
    report_change(ctx);
  }

  // A task from outside: schedulers schedule it, other nodes route it to a scheduler of
  // their sphere, chosen at random when the node is shared (AG91 Sec. 5.1): the task
  // itself, or (routing=request) a request, the task waiting for the answer.
  void on_task_submitted(NodeContext& ctx) override {
    ++known_load_;
    if (me_ >= 0) {
      schedule(ctx, Job{ctx.self(), false}, false);
      return;
    }
    const auto& mine = layout_->member_of[ctx.self()];
    const NodeId scheduler = layout_->schedulers[mine[mine.size() == 1 ? 0 : ctx.rng().below(mine.size())].first];
    if (by_request_) ctx.send(scheduler, Message::make(kPlaceRequest, NodeRef{ctx.self()}));
    else known_load_ -= ctx.migrate(scheduler, 1);
  }

  void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t count) override {
    known_load_ += count;
    if (me_ < 0) return;  // a task a scheduler placed here: it stays
    // At a scheduler: a routed arrival runs Steps 1-7; a task from another scheduler was
    // migrated between spheres and is placed here without moving on (Step 7). With
    // routing=request, tasks only come from their nodes when this scheduler placed them here.
    const bool from_scheduler = layout_->scheduler_index[from] >= 0;
    if (by_request_ && !from_scheduler) return;
    for (std::int64_t i = 0; i < count; ++i) schedule(ctx, Job{ctx.self(), false}, from_scheduler);
  }

  void on_load_change(NodeContext& ctx) override { report_change(ctx); }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    switch (m.kind) {
      case kAssignUpdate:
      case kLoadChange: {
        const auto d = m.as<NodeDelta>();
        adjust(position_of(d.node), d.delta);
        break;
      }
      case kSphereLoadRequest:
        ctx.send(from, Message::make(kSphereLoadReply, SphereLoadReply{m.as<SphereLoadRequest>().probe, 0, sphere_load_}));
        break;
      case kSphereLoadReply: {
        const auto reply = m.as<SphereLoadReply>();
        auto it = probes_.find(reply.probe);
        assert(it != probes_.end());
        it->second.loads.emplace_back(from, reply.load);
        if (--it->second.remaining == 0) {
          const Probe probe = std::move(it->second);
          probes_.erase(it);
          step7(ctx, probe.job, probe.loads);
        }
        break;
      }
      case kPlaceRequest: schedule(ctx, Job{from, true}, false); break;
      case kRemotePlace: step3(ctx, Job{m.as<NodeRef>().node, true}); break;
      case kPlaceAt: {
        const NodeId target = m.as<NodeRef>().node;
        if (target == ctx.self()) break;  // counted here by the scheduler already
        const std::int64_t moved = ctx.migrate(target, 1);
        known_load_ -= moved;
        if (moved == 0) {  // the task started here meanwhile: move the count back
          tell_schedulers(ctx, kLoadChange, target, -1);
          tell_schedulers(ctx, kLoadChange, ctx.self(), +1);
        }
        break;
      }
      default: assert(false && "unknown semi_distributed message kind");
    }
  }

private:
  struct Entry {
    std::int64_t load = 0;
    std::uint64_t stamp = 0;
  };
  // A task to place: held here, or (remote) still at node `at`, waiting for place_at.
  struct Job {
    NodeId at;
    bool remote;
  };
  struct Probe {
    Job job{};
    std::size_t remaining = 0;
    std::vector<std::pair<NodeId, std::int64_t>> loads;
  };
  // The sorted node list of AG91 Sec. 5.2: by load, and among equal loads the node whose
  // load changed longest ago first (a changed node goes to the end of its load group).
  using ListKey = std::tuple<std::int64_t, std::uint64_t, std::uint32_t>;

  // A node's load changed other than by an assignment (it finished tasks, or a workload
  // added some): tell every scheduler of its sphere(s), itself directly.
  void report_change(NodeContext& ctx) {
    const std::int64_t delta = ctx.load() - known_load_;
    known_load_ = ctx.load();
    if (delta == 0) return;
    tell_schedulers(ctx, kLoadChange, ctx.self(), delta);
  }

  // Every scheduler of `node`'s sphere(s) learns that its load changed by delta: this one
  // directly (Steps 4-5), the others by a `kind` message.
  void tell_schedulers(NodeContext& ctx, Kind kind, NodeId node, std::int64_t delta) {
    for (auto [k, pos] : layout_->member_of[node]) {
      if (static_cast<std::int32_t>(k) == me_) adjust(pos, delta);
      else ctx.send(layout_->schedulers[k], Message::make(kind, NodeDelta{node, static_cast<std::int32_t>(delta)}));
    }
  }

  std::uint32_t position_of(NodeId node) const {
    const auto pos = find_position(node);
    assert(pos && "update for a node outside the sphere");
    return pos.value_or(0);
  }

  // Steps 4-5: the node's place in the sorted list and the sphere's accumulated load.
  void adjust(std::uint32_t pos, std::int64_t delta) {
    Entry& e = view_[pos];
    list_.erase({e.load, e.stamp, pos});
    e.load += delta;
    e.stamp = stamp_++;
    list_.insert({e.load, e.stamp, pos});
    sphere_load_ += delta;
  }

  // Steps 1-2 (and 6): the task is placed in the sphere or looked after elsewhere.
  void schedule(NodeContext& ctx, Job job, bool migrated_in) {
    const std::int64_t lightest = std::get<0>(*list_.begin());
    if (migrated_in || lightest <= threshold1_ || layout_->schedulers.size() == 1) {
      step3(ctx, job);
      return;
    }
    // Step 6: the accumulated loads of the other spheres.
    const std::uint32_t id = next_probe_++;
    Probe& probe = probes_[id];
    probe.job = job;
    probe.remaining = layout_->schedulers.size() - 1;
    for (NodeId s : layout_->schedulers)
      if (s != ctx.self()) ctx.send(s, Message::make(kSphereLoadRequest, SphereLoadRequest{id}));
  }

  // Step 3: the task goes to the least-loaded node of the sphere (possibly where it is).
  void step3(NodeContext& ctx, Job job) {
    const std::uint32_t pos = std::get<2>(*list_.begin());
    NodeId target = layout_->members[static_cast<std::size_t>(me_)][pos];
    if (job.remote) {
      // Among the least-loaded nodes, the one holding the task saves its transfer.
      if (const auto where = find_position(job.at); where && view_[*where].load == view_[pos].load) target = job.at;
      ctx.send(job.at, Message::make(kPlaceAt, NodeRef{target}));
    } else if (target != ctx.self()) {
      const std::int64_t moved = ctx.migrate(target, 1);
      known_load_ -= moved;
      if (moved == 0) target = ctx.self();  // the held task is already executing here
    }
    tell_schedulers(ctx, kAssignUpdate, target, +1);
  }

  std::optional<std::uint32_t> find_position(NodeId node) const {
    for (auto [k, pos] : layout_->member_of[node])
      if (static_cast<std::int32_t>(k) == me_) return pos;
    return std::nullopt;
  }

  // Step 7: a random remote sphere lighter than this one by threshold2 or more gets the
  // task; with none, Step 3.
  void step7(NodeContext& ctx, Job job, const std::vector<std::pair<NodeId, std::int64_t>>& loads) {
    candidates_.clear();
    for (auto [s, load] : loads)
      if (sphere_load_ - load >= threshold2_) candidates_.push_back(s);
    if (!candidates_.empty()) {
      const NodeId to = candidates_[ctx.rng().below(candidates_.size())];
      if (job.remote) {
        ctx.send(to, Message::make(kRemotePlace, NodeRef{job.at}));
        return;
      }
      const std::int64_t moved = ctx.migrate(to, 1);
      known_load_ -= moved;
      if (moved == 1) return;
    }
    step3(ctx, job);
  }

  std::int64_t threshold1_;
  std::int64_t threshold2_;
  long long range_;
  bool range_auto_;
  bool by_request_;
  const Layout* layout_ = nullptr;
  std::int32_t me_ = -1;           // scheduler index, or -1
  std::int64_t known_load_ = 0;    // own load as last reported or accounted for
  // Scheduler state.
  std::vector<Entry> view_;        // per member of the sphere
  std::set<ListKey> list_;
  std::uint64_t stamp_ = 0;
  std::int64_t sphere_load_ = 0;
  std::map<std::uint32_t, Probe> probes_;
  std::uint32_t next_probe_ = 0;
  std::vector<NodeId> candidates_;
};

}  // namespace

StrategyInfo semi_distributed_strategy_info() { return strategy_info<SemiDistributed>(); }

}  // namespace dlbkit
