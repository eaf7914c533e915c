#include <dlbkit/workloads/artificial.hpp>

#include <dlbkit/apps/artificial_tasks.hpp>

namespace dlbkit {

namespace {

class Artificial final : public Workload {
public:
  bool closed() const override { return true; }
  explicit Artificial(const Parameters& p) : tasks_(p) {}

  void initial_tasks(const Topology& topology, const CostModel& cost, Rng& rng, TaskSink& sink) override {
    tasks_.draw(topology.size(), cost.loop_time, rng, [&](NodeId node, SimTime work) { sink.add(node, work); });
  }

private:
  ArtificialTasks tasks_;
};

}  // namespace

WorkloadInfo artificial_workload_info() {
  return WorkloadInfo{
      .name = "artificial",
      .description = "WLR93's random busy-loop tasks: g tasks per node, node loads uniform around L/N",
      .source = "WLR93 Sec. V-A, Table III",
      .params = artificial_task_params(),
      .create = [](const Parameters& p) { return std::make_unique<Artificial>(p); },
  };
}

}  // namespace dlbkit
