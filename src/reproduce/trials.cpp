#include "reproduce/trials.hpp"

#include <dlbkit/sim/nobal.hpp>

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>

namespace dlbkit {

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& f) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        f(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = count;  // stop handing out work
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

std::vector<std::vector<SimulationResult>> simulate_seeds(const Topology& topology,
                                                          const std::vector<StrategyChoice>& strategies,
                                                          const WorkloadChoice& workload, const CostModel& cost,
                                                          std::size_t runs, unsigned jobs) {
  std::vector<std::vector<SimulationResult>> results(strategies.size(), std::vector<SimulationResult>(runs));
  parallel_for(strategies.size() * runs, jobs, [&](std::size_t i) {
    const std::size_t s = i / runs, r = i % runs;
    SimulationConfig config{.topology = &topology, .strategy = strategies[s], .cost = cost, .seed = r + 1};
    if (is_nobal(strategies[s])) {
      results[s][r] = simulate_nobal(config, workload);  // per node when that is exact
      return;
    }
    auto w = workload.create();
    config.workload = w.get();
    results[s][r] = simulate(config);
  });
  return results;
}

}  // namespace dlbkit
