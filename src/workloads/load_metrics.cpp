#include <dlbkit/workloads/load_metrics.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace dlbkit {

namespace {

double mean(std::span<const double> x) {
  return x.empty() ? 0.0 : std::accumulate(x.begin(), x.end(), 0.0) / static_cast<double>(x.size());
}

// mu_i (Sec. 4.1): the mean of x over i and its direct neighbours.
double domain_mean(const Topology& topology, std::span<const double> x, NodeId i) {
  const auto nb = topology.neighbors(i);
  double sum = x[i];
  for (NodeId h : nb) sum += x[h];
  return sum / static_cast<double>(nb.size() + 1);
}

}  // namespace

double load_imbalance(std::span<const double> loads) {
  const double mu = mean(loads);
  if (mu <= 0) return 0;
  double sum = 0;
  for (double l : loads) sum += (l - mu) * (l - mu);
  return std::sqrt(sum / static_cast<double>(loads.size())) / mu;
}

double load_dispersion(const Topology& topology, std::span<const double> loads) {
  const double mu = mean(loads);
  if (mu <= 0) return 0;
  double sum = 0;
  for (NodeId i = 0; i < loads.size(); ++i) {
    const double d = domain_mean(topology, loads, i) - mu;
    sum += d * d;
  }
  return std::sqrt(sum / static_cast<double>(loads.size())) / mu;
}

LoadChange load_change(const Topology& topology, std::span<const double> changes, double mu) {
  LoadChange c;
  if (mu <= 0 || changes.empty()) return c;
  double s = 0, d = 0;
  for (NodeId i = 0; i < changes.size(); ++i) {
    s += changes[i] * changes[i];
    const double m = domain_mean(topology, changes, i);
    d += m * m;
  }
  const auto n = static_cast<double>(changes.size());
  c.dsigma = std::sqrt(s / n) / mu;
  c.ddelta = std::sqrt(d / n) / mu;
  return c;
}

LoadMetrics::LoadMetrics(const Topology& topology, LoadMetricsOptions options)
    : topology_(topology),
      options_(options),
      load_(topology.size(), 0.0),
      change_(topology.size(), 0.0),
      next_sample_(options.from) {}

void LoadMetrics::on_task_created(NodeId node, const Task&, SimTime time) {
  advance(time);
  change_[node] += 1;
  in_system_ += 1;
}

void LoadMetrics::on_task_started(NodeId node, const Task&, SimTime time) {
  advance(time);
  load_[node] += 1;
}

void LoadMetrics::on_task_completed(NodeId node, const Task&, SimTime time) {
  advance(time);
  load_[node] -= 1;
  change_[node] -= 1;
  in_system_ -= 1;
  if (time >= options_.from && time <= options_.until) ++completed_;
}

void LoadMetrics::on_task_migrated(NodeId from, NodeId, const Task&, SimTime time) {
  advance(time);
  load_[from] -= 1;  // the destination counts it when it is admitted there
  if (time >= options_.from && time <= options_.until) ++migrations_;
}

void LoadMetrics::advance(SimTime t) {
  while (next_sample_ < t && next_sample_ <= options_.until) {
    sample(next_sample_);
    next_sample_ += options_.delta_t;
  }
}

// One sample at a boundary: sigma and delta of the current loads, and the change indicators
// of the generated load since the previous boundary (none at the first).
void LoadMetrics::sample(SimTime boundary) {
  const double mu = mean(load_);
  const double sigma = load_imbalance(load_), delta = load_dispersion(topology_, load_);
  if (samples_ > 0) {
    const LoadChange c = load_change(topology_, change_, mu);
    dsigma_sum_ += c.dsigma;
    ddelta_sum_ += c.ddelta;
    sigma_sum_ += sigma;
    delta_sum_ += delta;
    load_sum_ += mu;
    in_system_sum_ += in_system_;
  }
  std::fill(change_.begin(), change_.end(), 0.0);
  ++samples_;
  if (options_.trace) trace_.push_back({static_cast<double>(boundary) * 1e-9, sigma, delta});
}

LoadMetricsSummary LoadMetrics::summary() const {
  LoadMetricsSummary s;
  if (samples_ < 2) return s;
  const auto intervals = static_cast<double>(samples_ - 1);
  s.seconds = intervals * static_cast<double>(options_.delta_t) * 1e-9;
  s.sigma_mean = sigma_sum_ / intervals;
  s.delta_mean = delta_sum_ / intervals;
  s.mean_load = load_sum_ / intervals;
  s.dsigma_per_second = dsigma_sum_ / s.seconds;
  s.ddelta_per_second = ddelta_sum_ / s.seconds;
  s.migrations = migrations_;
  s.migrations_per_dsigma = dsigma_sum_ > 0 ? static_cast<double>(migrations_) / dsigma_sum_ : 0.0;
  s.completed = completed_;
  s.in_system = in_system_sum_ / intervals;
  // Little's law: mean response time = mean number in the system / completion rate.
  s.response_time = completed_ > 0 ? s.in_system * s.seconds / static_cast<double>(completed_) : 0.0;
  return s;
}

}  // namespace dlbkit
