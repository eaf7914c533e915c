#pragma once
/// \file
/// The measures of an open system (AG91 Sec. 6), computed by an observer: mean response
/// time after a warm-up, the time-average number of tasks in the system (for Little's law),
/// the spread of node utilisations, and control messages per task by kind. Confidence
/// intervals come from independent replications (sim/statistics.hpp).
///
/// ```
/// dlbkit::QueueingObserver metrics(/*warmup_tasks=*/2000);
/// config.observers = {&metrics};
/// auto result = dlbkit::simulate(config);
/// dlbkit::QueueingMetrics m = metrics.metrics(result);   // m.mean_response in seconds
/// ```
/// Not thread-safe: one observer per simulation.

#include <dlbkit/sim/observer.hpp>
#include <dlbkit/sim/simulator.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

struct QueueingMetrics {
  std::uint64_t measured_tasks = 0;  ///< tasks after the warm-up
  double mean_response = 0;          ///< seconds from arrival to completion, measured tasks
  /// Little's law, over the window from the arrival of the first measured task to the last
  /// arrival: time-average number of tasks in the system, and arrivals per second.
  double mean_in_system = 0;
  double arrival_rate = 0;
  double utilisation_mean = 0;  ///< per node: busy time / the run's makespan
  double utilisation_sd = 0;    ///< population standard deviation over the nodes (AG91 Fig. 8)
  std::vector<std::string> message_kinds;    ///< the strategy's kinds, then task_transfer
  std::vector<double> messages_per_task;     ///< messages of each kind / tasks completed
  double control_messages_per_task = 0;      ///< every kind but task_transfer
};

class QueueingObserver final : public Observer {
public:
  /// The first `warmup_tasks` tasks to arrive are not measured.
  explicit QueueingObserver(std::uint64_t warmup_tasks) : warmup_(warmup_tasks) {}

  void on_task_created(NodeId node, const Task& task, SimTime t) override;
  void on_task_completed(NodeId node, const Task& task, SimTime t) override;

  /// The measures of the finished run `result` (which gives node count, makespan, messages by kind).
  QueueingMetrics metrics(const SimulationResult& result) const;

private:
  void advance(SimTime t);

  std::uint64_t warmup_;
  std::vector<SimTime> created_;  // by task id
  std::vector<SimTime> busy_;     // by node
  std::int64_t in_system_ = 0;
  SimTime last_ = 0;
  SimTime window_start_ = -1, window_end_ = 0;
  double area_ = 0;         // integral of the number in system since window_start_, in ns
  double window_area_ = 0;  // area_ at the latest arrival
  std::uint64_t window_arrivals_ = 0;
  double response_sum_ = 0;
  std::uint64_t measured_ = 0;
};

}  // namespace dlbkit
