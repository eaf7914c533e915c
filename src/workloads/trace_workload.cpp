#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/workloads/trace_workload.hpp>

#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

class Replay final : public Workload {
public:
  Replay(std::string file, double scale) : file_(std::move(file)), scale_(scale) {}

  void initial_tasks(const Topology& topology, const CostModel&, Rng&, TaskSink& sink) override {
    tree_ = load_task_trace(file_);
    for (std::size_t r = 0; r < tree_.roots.size(); ++r)
      sink.add(static_cast<NodeId>(tree_.root_origin[r] % topology.size()), work(tree_.roots[r]), tree_.roots[r]);
  }
  void on_completed(const Task& done, NodeId node, Rng&, TaskSink& sink) override {
    for (std::uint32_t c = tree_.first_child[done.tag]; c < tree_.first_child[done.tag + 1]; ++c)
      sink.add(node, work(tree_.children[c]), tree_.children[c]);
  }

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

WorkloadInfo trace_workload_info() {
  return WorkloadInfo{
      .name = "trace",
      .description = "replay of a run recorded by dlbkit run --record: the same task tree, the recorded durations",
      .source = "dlbkit's task trace format (docs/trace-format.md)",
      .params =
          {
              {.name = "file", .type = ParamType::text, .default_value = "",
               .description = "the trace file (also -w trace:PATH)"},
              {.name = "scale", .type = ParamType::real, .default_value = "1",
               .description = "every recorded duration is multiplied by this", .min = 0, .max = 1e6},
          },
      .create =
          [](const Parameters& p) -> std::unique_ptr<Workload> {
        if (p.text("file").empty())
          throw InputError("workload trace: parameter file is empty; accepted: a file written by dlbkit run --record "
                           "(-w trace:PATH or --workload-param file=PATH)");
        return std::make_unique<Replay>(p.text("file"), p.real("scale"));
      },
  };
}

}  // namespace dlbkit
