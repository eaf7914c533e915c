#pragma once
/// \file
/// Zambonelli's load indicators (Sec. 4.1) and an observer that measures them during a run:
/// the imbalance sigma(t), the dispersion delta(t), the dynamicity of the generated load
/// (delta-sigma and delta-delta per second), migrations and process response times.
///
/// ```
/// dlbkit::LoadMetrics metrics(topology, {.delta_t = 10 * dlbkit::kMillisecond, .from = 2 * dlbkit::kSecond,
///                                        .until = 20 * dlbkit::kSecond});
/// config.observers = {&metrics};
/// dlbkit::simulate(config);
/// dlbkit::LoadMetricsSummary s = metrics.summary();   // s.sigma_mean, s.dsigma_per_second, ...
/// ```

#include <dlbkit/sim/observer.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace dlbkit {

/// sigma = (1/mu) sqrt(sum_i (L_i - mu)^2 / N): the load's standard deviation normalised to
/// its mean mu (Sec. 4.1). 0 when the mean is 0.
double load_imbalance(std::span<const double> loads);

/// delta = (1/mu) sqrt(sum_i (mu_i - mu)^2 / N), mu_i the mean load of node i's domain D_i
/// (i and its direct neighbours), mu the global mean (Sec. 4.1). 0 when the mean is 0.
double load_dispersion(const Topology& topology, std::span<const double> loads);

/// The change indicators of one interval Delta t (Sec. 4.1): partial-sigma =
/// (1/mu) sqrt(sum_i dL_i^2 / N), and partial-delta, the same with each dL_i replaced by the
/// mean change over D_i. `mu` is the mean load at the interval's start.
struct LoadChange {
  double dsigma = 0;
  double ddelta = 0;
};
LoadChange load_change(const Topology& topology, std::span<const double> changes, double mu);

struct LoadMetricsOptions {
  std::int64_t delta_t = 10'000'000;  ///< the interval Delta t of Sec. 4.1 (ns); also the sampling period
  std::int64_t from = 0;              ///< measure from this time on (a warm-up before it)
  std::int64_t until = std::numeric_limits<std::int64_t>::max();  ///< and up to this time
  bool trace = false;                 ///< keep sigma(t) and delta(t) at every sample
};

struct LoadMetricsSummary {
  double seconds = 0;             ///< the measured window
  double sigma_mean = 0;          ///< time average of sigma(t) (sampled every delta_t)
  double delta_mean = 0;          ///< time average of delta(t)
  double mean_load = 0;           ///< time average of mu(t): processes per node
  double dsigma_per_second = 0;   ///< generated load: sum of partial-sigma over the window / seconds
  double ddelta_per_second = 0;   ///< generated load: the same for partial-delta
  std::uint64_t migrations = 0;   ///< processes migrated in the window (a process moved twice counts twice)
  double migrations_per_dsigma = 0;  ///< migrations / (dsigma_per_second * seconds)
  std::uint64_t completed = 0;    ///< processes completed in the window
  double in_system = 0;           ///< time average of the processes created and not completed
  /// Mean process response time (s) by Little's law: in_system / (completed / seconds). (The
  /// mean over the processes that complete in a finite window favours the short ones.)
  double response_time = 0;
};

struct LoadSample {
  double time, sigma, delta;
};

/// Follows every node's load through the observer events. The load of a node is the number of
/// tasks admitted to it (Observer::on_task_started) and not yet migrated away or completed:
/// with processor-sharing execution, the processes it holds. The generated load is what the
/// workload did: +1 where a task is created, -1 where one completes; migrations move load but
/// generate none.
class LoadMetrics final : public Observer {
public:
  LoadMetrics(const Topology& topology, LoadMetricsOptions options);

  void on_task_created(NodeId node, const Task&, SimTime) override;
  void on_task_started(NodeId node, const Task&, SimTime) override;
  void on_task_completed(NodeId node, const Task&, SimTime) override;
  void on_task_migrated(NodeId from, NodeId to, const Task&, SimTime) override;

  /// The figures of the window (samples up to the last event seen, at most `until`).
  LoadMetricsSummary summary() const;
  /// sigma(t) and delta(t) at every sample of the window, when options.trace.
  const std::vector<LoadSample>& trace() const { return trace_; }

private:
  void advance(SimTime t);  // take the samples due before t
  void sample(SimTime boundary);

  const Topology& topology_;
  LoadMetricsOptions options_;
  std::vector<double> load_;
  std::vector<double> change_;  // per node: the generated load since the last sample (+1 created, -1 completed)
  double in_system_ = 0;
  SimTime next_sample_ = 0;
  std::uint64_t samples_ = 0, migrations_ = 0, completed_ = 0;
  double sigma_sum_ = 0, delta_sum_ = 0, load_sum_ = 0, dsigma_sum_ = 0, ddelta_sum_ = 0, in_system_sum_ = 0;
  std::vector<LoadSample> trace_;
};

}  // namespace dlbkit
