// The load-update scenario (load_updates.hpp) on dlbkit's simulator: strategy "report every
// change" (WLR93's load update policy at u = 1, no balancing), the ideal cost model with the
// scenario's latency and send overhead (messages handled on arrival, at no cost).
// Prints: nodes, tasks, messages, the simulated time of the last task completion in ns, wall s.

#include "load_updates.hpp"

#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <chrono>
#include <cstdio>
#include <memory>

namespace {

class ReportEveryChange final : public dlbkit::Strategy {
public:
  void on_load_change(dlbkit::NodeContext& ctx) override { policy_.update_neighbors(ctx, 0); }
  void on_message(dlbkit::NodeContext&, dlbkit::NodeId, const dlbkit::Message& m) override {
    sum_ += m.as<dlbkit::LoadUpdate>().load;
  }

private:
  dlbkit::LoadUpdatePolicy policy_{1.0};
  std::int64_t sum_ = 0;
};

class Tasks final : public dlbkit::Workload {
public:
  void initial_tasks(const dlbkit::Topology& t, const dlbkit::CostModel&, dlbkit::Rng&, dlbkit::TaskSink& sink) override {
    for (dlbkit::NodeId v = 0; v < t.size(); ++v)
      for (std::int64_t j = 0; j < peers::kTasksPerNode; ++j) sink.add(v, peers::work_ns(v, static_cast<std::uint64_t>(j)));
  }
};

}  // namespace

int main(int argc, char** argv) {
  const int d = peers::dimension(argc, argv);
  const auto wall = std::chrono::steady_clock::now();
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:" + std::to_string(d));
  dlbkit::StrategyInfo info;
  info.name = "report_every_change";
  info.message_kinds = {"load"};
  info.create = [](const dlbkit::Parameters&) { return std::make_unique<ReportEveryChange>(); };
  Tasks tasks;
  const dlbkit::SimulationResult r = dlbkit::simulate(
      {.topology = &cube, .strategy = {&info, {}}, .workload = &tasks,
       .cost = dlbkit::make_cost_model("ideal", {{"latency", std::to_string(peers::kLatencyNs) + "ns"},
                                                 {"send_overhead", std::to_string(peers::kSendOverheadNs) + "ns"}})});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  std::printf("dlbkit  nodes %zu tasks %llu messages %llu events %llu last_completion_ns %lld wall_s %.3f\n", cube.size(),
              static_cast<unsigned long long>(r.tasks_completed), static_cast<unsigned long long>(r.messages()),
              static_cast<unsigned long long>(r.events), static_cast<long long>(r.makespan), seconds);
  return 0;
}
