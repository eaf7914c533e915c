#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/workload.hpp>

#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

/// The workload "trace": a recorded run's task tree (core/task_trace.hpp, written by
/// `dlbkit run --record PATH`) replayed on any topology with any strategy. Each root starts
/// on node (its recorded worker mod N); a task's children appear on the node that executed
/// it when it completes; every task takes its recorded duration times `scale`. The tasks
/// poll (Workload::tasks_poll) if the recorded ones made a poll() call.
///
/// Parameters: file (the trace, required), scale (1). The file is read when the run starts;
/// a defect in it is an InputError naming the file and the byte.
///
/// ```
/// auto replay = dlbkit::builtin_workloads().configure("trace", {{"file", "uts.trace"}}).create();
/// ```
class Replay final : public Workload {
public:
  static constexpr const char* name = "trace";
  static constexpr const char* description =
      "replay of a run recorded by dlbkit run --record: the same task tree, the recorded durations";
  static constexpr const char* source = "dlbkit's task trace format (docs/trace-format.md)";
  static constexpr TextParam kFile{.name = "file", .default_value = "",
      .description = "the trace file (also -w trace:PATH)"};
  static constexpr RealParam kScale{.name = "scale", .default_value = "1",
      .description = "every recorded duration is multiplied by this", .min = 0, .max = 1e6};
  static std::vector<ParamSpec> params() { return {kFile, kScale}; }

  explicit Replay(const Parameters& p) : file_(p[kFile]), scale_(p[kScale]) {
    if (file_.empty())
      throw InputError("workload trace: parameter file is empty; accepted: a file written by dlbkit run --record "
                       "(-w trace:PATH or --workload-param file=PATH)");
  }

  void initial_tasks(const Topology& topology, const CostModel&, Rng&, TaskSink& sink) override {
    tree_ = load_task_trace(file_);
    for (std::size_t r = 0; r < tree_.roots.size(); ++r)
      sink.add(static_cast<NodeId>(tree_.root_origin[r] % topology.size()), work(tree_.roots[r]), tree_.roots[r]);
  }
  void on_completed(const Task& done, NodeId node, Rng&, TaskSink& sink) override {
    for (std::uint32_t c = tree_.first_child[done.tag]; c < tree_.first_child[done.tag + 1]; ++c)
      sink.add(node, work(tree_.children[c]), tree_.children[c]);
  }
  bool runs_apart() const override { return true; }  // children at the completing node, from the trace
  // A version 1 trace does not say: its tasks are taken to poll, as before version 2.
  bool tasks_poll() const override { return !tree_.poll_calls || *tree_.poll_calls > 0; }

private:
  SimTime work(std::uint32_t task) const {
    const SimTime d = tree_.duration[task];
    return scale_ == 1 ? d : static_cast<SimTime>(std::llround(static_cast<double>(d) * scale_));
  }

  std::string file_;
  double scale_;
  TaskTree tree_;
};

}  // namespace

WorkloadInfo trace_workload_info() { return workload_info<Replay>(); }

}  // namespace dlbkit
