#include <dlbkit/apps/busy_draw.hpp>
#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/pending_nodes.hpp>
#include <dlbkit/sim/workload.hpp>

#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

/// The runtime's applications (apps/builtin_apps.hpp) as simulator workloads, so that the
/// simulator runs the very tasks `dlbkit run` runs, with a duration per task from a rate
/// (docs/apps/workloads.md):
/// - `uts`: the same UTS tree, node by node: the root starts on node 0 and a node's children
///   appear on the node that executed it when it completes, generated then (memory follows
///   the pending tasks, not the tree). Every node takes `node_time`.
/// - `busy`: the busy app's draw of tasks (the same parameters, the same seed), each task
///   taking its loops times `loop_time`.
/// `bnb` is workloads/bnb_workload.hpp. The rates' defaults were measured on one machine;
/// `dlbkit calibrate` measures them on yours.
///
/// ```
/// auto uts = dlbkit::builtin_workloads().configure("uts", {{"tree", "T1"}, {"node_time", "100ns"}}).create();
/// ```
class UtsWorkload final : public Workload {
public:
  static constexpr const char* name = "uts";
  static constexpr const char* description =
      "the uts app's tree node by node: children appear when their parent completes, each node node_time";
  static constexpr const char* source = "Olivier et al., UTS: An Unbalanced Tree Search Benchmark, LCPC 2006";
  static constexpr DurationParam kNodeTime{.name = "node_time", .default_value = "100ns",
      .description = "processor time of one tree node (a SHA-1 per child and the count); the default: CPU time per "
                     "node of dlbkit run --app uts --app-param tree=T1 --workers 1 on one machine; a fraction of a "
                     "ns is kept (74.3ns: 30% of the nodes take 75 ns)",
      .min = 1, .max = 1e15, .fractional = true};
  static std::vector<ParamSpec> params() {
    // The app's tree, not its `tasks`: the workload is the one-task-per-node tree.
    std::vector<ParamSpec> params;
    for (const ParamSpec& spec : uts_app_info().params)
      if (spec.name == "tree") params.push_back(spec);
    params.push_back(kNodeTime);
    return params;
  }

  explicit UtsWorkload(const Parameters& p)
      : UtsWorkload(tree_of(p.text("tree")), p.fractional_duration(kNodeTime.name)) {}

  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    const uts::Node root = uts::root(tree_);
    sink.add(0, work(root), pending_.put(0, root));  // as the app's roots(): worker 0
  }
  void on_completed(const Task& done, NodeId node, Rng&, TaskSink& sink) override {
    const uts::Node n = pending_.take(node, done.tag);
    for (int i = 0, c = uts::child_count(tree_, n); i < c; ++i) {
      const uts::Node child = uts::child(tree_, n, i);
      sink.add(node, work(child), pending_.put(node, child));
    }
  }
  bool tasks_poll() const override { return false; }  // the app's node tasks never poll
  // A node's children are made from it alone (SHA-1): partitions run apart, each with the
  // tree nodes of its tasks.
  bool runs_apart() const override { return true; }
  std::size_t task_state_bytes() const override { return sizeof(uts::Node); }
  void split(std::span<const NodeId> bounds) override { pending_.split(bounds); }
  void export_state(const Task& task, unsigned part, std::span<std::byte> out) override {
    pending_.export_node(part, task.tag, out);
  }
  std::uint32_t import_state(unsigned part, std::span<const std::byte> state) override {
    return pending_.import_node(part, state);
  }

private:
  UtsWorkload(uts::TreeParams tree, double node_time)
      : tree_(tree), whole_(static_cast<SimTime>(std::floor(node_time))), fraction_(node_time - std::floor(node_time)) {
    uts::check_size(tree_);
  }

  static uts::TreeParams tree_of(const std::string& spec) {
    try {
      return uts::parse_tree(spec);
    } catch (const InputError& e) {
      throw InputError(fmt::format("workload uts: parameter tree={}: {}", spec, e.what()));
    }
  }

  // node_time in whole ns, one more for a share `fraction_` of the nodes: those whose state
  // (a SHA-1 digest, uniform) reads below it. The tree's total is then its nodes x node_time
  // within a few ns per million nodes, and a node's work does not depend on when it is made.
  SimTime work(const uts::Node& n) const {
    if (fraction_ == 0) return whole_;
    const std::uint32_t r = static_cast<std::uint32_t>(n.state[0]) << 24 | static_cast<std::uint32_t>(n.state[1]) << 16 |
                            static_cast<std::uint32_t>(n.state[2]) << 8 | n.state[3];
    return whole_ + (static_cast<double>(r) < fraction_ * 4294967296.0 ? 1 : 0);
  }

  uts::TreeParams tree_;
  SimTime whole_;
  double fraction_;
  PendingNodes<uts::Node> pending_;
};

class BusyWorkload final : public Workload {
public:
  static constexpr const char* name = "busy";
  static constexpr const char* description =
      "the busy app's tasks (the same draw and seed), each its loops x loop_time";
  static constexpr const char* source = "WLR93 Sec. V-A, eq. (33)-(35), Table III";
  static constexpr DurationParam kLoopTime{.name = "loop_time", .default_value = "1us",
      .description = "processor time of one busy loop (busy_loop: 1000 xorshift steps, about 1 us on a quiet core); "
                     "a fraction of a ns is kept, each task's work is its loops x loop_time rounded to whole ns",
      .min = 1, .max = 1e12, .fractional = true};
  static std::vector<ParamSpec> params() {
    std::vector<ParamSpec> params = busy_app_info().params;
    params.push_back(kLoopTime);
    return params;
  }

  explicit BusyWorkload(const Parameters& p)
      : draw_(busy_draw(p)), loop_time_(p.fractional_duration(kLoopTime.name)), loop_text_(p.text(kLoopTime.name)) {}

  void initial_tasks(const Topology& topology, const CostModel&, Rng&, TaskSink& sink) override {
    std::uint32_t index = 0;
    draw_busy_tasks(draw_, topology.size(), [&](NodeId node, std::uint64_t loops) {
      const std::optional<SimTime> work = units_work(loops, loop_time_);
      if (!work)
        throw InputError(fmt::format("workload busy: a task of {} loops at loop_time={} overflows; accepted: a smaller "
                                     "total_load or loop_time",
                                     loops, loop_text_));
      sink.add(node, *work, index++);
    });
  }
  bool runs_apart() const override { return true; }  // every task at the start

private:
  BusyDraw draw_;
  double loop_time_;  // ns, a fraction allowed
  std::string loop_text_;
};

}  // namespace

WorkloadInfo uts_workload_info() { return workload_info<UtsWorkload>(); }
WorkloadInfo busy_workload_info() { return workload_info<BusyWorkload>(); }

}  // namespace dlbkit
