#include <dlbkit/apps/artificial_tasks.hpp>
#include <dlbkit/sim/workload.hpp>

namespace dlbkit {

namespace {

/// The artificial workload of WLR93 Sec. V-A (Table III).
///
/// Its tasks are apps/artificial_tasks.hpp's draw (eq. 33-35), the same as the runtime's `busy`
/// app; a loop costs the cost model's loop_time (1.3 us on the iPSC/2).
class Artificial final : public Workload {
public:
  static constexpr const char* name = "artificial";
  static constexpr const char* description =
      "WLR93's random busy-loop tasks: g tasks per node, node loads uniform around L/N";
  static constexpr const char* source = "WLR93 Sec. V-A, Table III";
  static std::vector<ParamSpec> params() { return artificial_task_params(); }

  bool closed() const override { return true; }
  explicit Artificial(const Parameters& p) : tasks_(p) {}

  void initial_tasks(const Topology& topology, const CostModel& cost, Rng& rng, TaskSink& sink) override {
    tasks_.draw(topology.size(), cost.loop_time, rng, [&](NodeId node, SimTime work) { sink.add(node, work); });
  }

private:
  ArtificialTasks tasks_;
};

}  // namespace

WorkloadInfo artificial_workload_info() { return workload_info<Artificial>(); }

}  // namespace dlbkit
