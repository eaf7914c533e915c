#include <dlbkit/workloads/queueing_metrics.hpp>

#include <cassert>
#include <cmath>

namespace dlbkit {

void QueueingObserver::advance(SimTime t) {
  if (window_start_ >= 0 && t > last_) area_ += static_cast<double>(in_system_) * static_cast<double>(t - last_);
  last_ = std::max(last_, t);
}

void QueueingObserver::on_task_created(NodeId, const Task& task, SimTime t) {
  // Arrivals close the window: it ends at the last one.
  if (window_start_ < 0 && task.id >= warmup_) {
    window_start_ = t;
    last_ = t;
  }
  advance(t);
  if (window_start_ >= 0) {  // the window ends at the latest arrival: keep the area up to it
    window_end_ = t;
    window_area_ = area_;
    ++window_arrivals_;
  }
  if (created_.size() <= task.id) created_.resize(task.id + 1, -1);
  created_[task.id] = t;
  ++in_system_;
}

void QueueingObserver::on_task_completed(NodeId node, const Task& task, SimTime t) {
  advance(t);
  --in_system_;
  if (busy_.size() <= node) busy_.resize(node + 1, 0);
  busy_[node] += task.work;
  assert(task.id < created_.size() && created_[task.id] >= 0);
  if (task.id >= warmup_) {
    response_sum_ += static_cast<double>(t - created_[task.id]);
    ++measured_;
  }
}

QueueingMetrics QueueingObserver::metrics(const SimulationResult& result) const {
  QueueingMetrics m;
  m.measured_tasks = measured_;
  if (measured_ > 0) m.mean_response = response_sum_ / static_cast<double>(measured_) / 1e9;
  const double window = static_cast<double>(window_end_ - window_start_);
  if (window > 0) {
    m.mean_in_system = window_area_ / window;
    m.arrival_rate = static_cast<double>(window_arrivals_ - 1) / (window / 1e9);
  }
  const std::size_t n = result.nodes.size();
  const double span = static_cast<double>(result.makespan);
  if (n > 0 && span > 0) {
    double sum = 0, sum_sq = 0;
    for (std::size_t v = 0; v < n; ++v) {
      const double u = v < busy_.size() ? static_cast<double>(busy_[v]) / span : 0.0;
      sum += u;
      sum_sq += u * u;
    }
    m.utilisation_mean = sum / static_cast<double>(n);
    m.utilisation_sd = std::sqrt(std::max(0.0, sum_sq / static_cast<double>(n) - m.utilisation_mean * m.utilisation_mean));
  }
  m.message_kinds = result.message_kinds;
  m.messages_per_task.assign(m.message_kinds.size(), 0.0);
  const double tasks = static_cast<double>(std::max<std::uint64_t>(1, result.tasks_completed));
  for (std::size_t k = 0; k < m.message_kinds.size(); ++k) {
    const auto count = static_cast<double>(result.messages_by_kind[k]);
    m.messages_per_task[k] = count / tasks;
    if (k + 1 < m.message_kinds.size()) m.control_messages_per_task += count / tasks;
  }
  return m;
}

}  // namespace dlbkit
