#pragma once
/// \file
/// Ahmad & Ghafoor 1991 (AG91) reproductions: ahmad-table2 (the semi-distributed structure
/// of nine networks), ahmad-table3 (spheres sharing a node of Q8), ahmad-fig1 (the order-8
/// Hadamard matrix), ahmad-fig2 (one sphere of Q8), ahmad-table4 (response-time improvement over no balancing),
/// ahmad-fig5 (response time vs load), ahmad-fig8 (utilisation spread vs load),
/// ahmad-fig9 (improvement vs task transfer rate) and ahmad-fig12-17 (messages per task).

#include "reproduce/reproduction.hpp"
#include <dlbkit/sim/statistics.hpp>

#include <map>
#include <string>
#include <vector>

namespace dlbkit {

std::vector<ReproductionInfo> ahmad_reproductions();

/// One open-system run setting of AG91 Sec. 6.
struct QueueingSetup {
  std::string topology;
  std::string strategy;  ///< none, semi_distributed, fully_distributed
  std::map<std::string, std::string> params;
  double load = 0.8;
  double transfer_rate = 20;  ///< tasks per time unit; the ahmad91 cost model's per_task = 1 s / rate
  long long tasks = 20000;
};

/// Replications of one setting (seeds 1..replications, the first tenth of the tasks a
/// warm-up): each figure's 95% confidence interval.
struct QueueingEstimate {
  Estimate response;        ///< mean response time, time units
  Estimate mean_in_system;  ///< time-average tasks in the system
  Estimate little;          ///< arrival rate x mean response (Little's law: = mean_in_system)
  Estimate utilisation_sd;
  Estimate control_messages;      ///< per task, every kind but task_transfer
  Estimate information_messages;  ///< the same without semi_distributed's routing requests (AG91 Sec. 6.5)
  std::vector<double> responses;  ///< per replication
};

/// Runs every setting `replications` times, `jobs` simulations at once.
std::vector<QueueingEstimate> run_queueing(const std::vector<QueueingSetup>& setups, int replications, unsigned jobs);

}  // namespace dlbkit
