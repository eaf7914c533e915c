#include "busy_draw.hpp"

#include <dlbkit/apps/app_workloads.hpp>
#include <dlbkit/apps/runtime_apps.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/pending_nodes.hpp>

#include <fmt/format.h>

namespace dlbkit {

namespace {

class UtsWorkload final : public Workload {
public:
  UtsWorkload(uts::TreeParams tree, SimTime node_time) : tree_(tree), node_time_(node_time) {}

  void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
    sink.add(0, node_time_, pending_.put(uts::root(tree_)));  // as the app's roots(): worker 0
  }
  void on_completed(const Task& done, NodeId node, Rng&, TaskSink& sink) override {
    const uts::Node n = pending_.take(done.tag);
    for (int i = 0, c = uts::child_count(tree_, n); i < c; ++i)
      sink.add(node, node_time_, pending_.put(uts::child(tree_, n, i)));
  }

private:
  uts::TreeParams tree_;
  SimTime node_time_;
  PendingNodes<uts::Node> pending_;
};

class BusyWorkload final : public Workload {
public:
  BusyWorkload(BusyDraw draw, SimTime loop_time) : draw_(std::move(draw)), loop_time_(loop_time) {}

  void initial_tasks(const Topology& topology, const CostModel&, Rng&, TaskSink& sink) override {
    std::uint32_t index = 0;
    draw_busy_tasks(draw_, topology.size(), [&](NodeId node, std::uint64_t loops) {
      SimTime work;
      if (__builtin_mul_overflow(static_cast<SimTime>(loops), loop_time_, &work))
        throw InputError(fmt::format("workload busy: a task of {} loops at loop_time={} overflows; accepted: a smaller "
                                     "total_load or loop_time",
                                     loops, format_duration(loop_time_)));
      sink.add(node, work, index++);
    });
  }

private:
  BusyDraw draw_;
  SimTime loop_time_;
};

}  // namespace

WorkloadInfo uts_workload_info() {
  // The app's tree, not its `tasks`: the workload is the one-task-per-node tree.
  std::vector<ParamSpec> params;
  for (const ParamSpec& spec : uts_app_info().params)
    if (spec.name == "tree") params.push_back(spec);
  params.push_back({.name = "node_time", .type = ParamType::duration, .default_value = "100ns",
                    .description = "processor time of one tree node (a SHA-1 per child and the count); the default: "
                                   "CPU time per node of dlbkit run --app uts --app-param tree=T1 --workers 1 on one "
                                   "machine",
                    .min = 1, .max = 1e15});
  return WorkloadInfo{
      .name = "uts",
      .description = "the uts app's tree node by node: children appear when their parent completes, each node node_time",
      .source = "Olivier et al., UTS: An Unbalanced Tree Search Benchmark, LCPC 2006",
      .params = std::move(params),
      .create =
          [](const Parameters& p) -> std::unique_ptr<Workload> {
        const std::string& spec = p.text("tree");
        try {
          return std::make_unique<UtsWorkload>(uts::parse_tree(spec), p.duration("node_time"));
        } catch (const InputError& e) {
          throw InputError(fmt::format("workload uts: parameter tree={}: {}", spec, e.what()));
        }
      },
  };
}

WorkloadInfo busy_workload_info() {
  std::vector<ParamSpec> params = busy_app_info().params;
  params.push_back({.name = "loop_time", .type = ParamType::duration, .default_value = "1us",
                    .description = "processor time of one busy loop (busy_loop: 1000 xorshift steps, about 1 us on "
                                   "a quiet core)",
                    .min = 1, .max = 1e12});
  return WorkloadInfo{
      .name = "busy",
      .description = "the busy app's tasks (the same draw and seed), each its loops x loop_time",
      .source = "WLR93 Sec. V-A, eq. (33)-(35), Table III",
      .params = std::move(params),
      .create = [](const Parameters& p) -> std::unique_ptr<Workload> {
        return std::make_unique<BusyWorkload>(busy_draw(p), p.duration("loop_time"));
      },
  };
}

}  // namespace dlbkit
