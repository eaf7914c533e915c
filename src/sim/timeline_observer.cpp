#include <dlbkit/sim/timeline_observer.hpp>

#include <algorithm>

namespace dlbkit {

namespace {
constexpr std::size_t kBuffer = 4096;  // events written at once
}  // namespace

void TimelineObserver::add(const TimelineEvent& e) {
  buffer_.push_back(e);
  if (buffer_.size() >= kBuffer) {
    timeline_.write(buffer_);
    buffer_.clear();
  }
}

void TimelineObserver::on_task_migrated(NodeId from, NodeId to, const Task& task, SimTime t) {
  if (!timeline_.records(from) || !timeline_.records(to)) return;  // an arrow needs both ends
  const std::uint64_t id = ++arrows_;
  in_flight_[{task.id, task.hops}] = id;
  add({.type = TimelineEvent::send, .node = from, .time = t, .value = 1, .id = id});
}

void TimelineObserver::on_task_arrived(NodeId to, NodeId, const Task& task, SimTime t) {
  const auto it = in_flight_.find({task.id, task.hops});
  if (it == in_flight_.end()) return;
  add({.type = TimelineEvent::receive, .node = to, .time = t, .value = 1, .id = it->second});
  in_flight_.erase(it);
}

void TimelineObserver::on_activity(NodeId node, Activity activity, SimTime begin, SimTime end) {
  if (!timeline_.records(node)) return;
  SimTime& last = mark_[node];
  if (begin > last) add({.type = TimelineEvent::idle, .node = node, .time = last, .end = begin});
  add({.type = activity == Activity::busy ? TimelineEvent::busy : TimelineEvent::overhead, .node = node,
       .time = begin, .end = end});
  last = std::max(last, end);
}

void TimelineObserver::on_load(NodeId node, std::int64_t load, SimTime t) {
  if (timeline_.records(node)) add({.type = TimelineEvent::load, .node = node, .time = t, .value = load});
}

void TimelineObserver::finish(SimTime end) {
  for (NodeId v = 0; v < mark_.size(); ++v)
    if (timeline_.records(v) && mark_[v] < end)
      add({.type = TimelineEvent::idle, .node = v, .time = mark_[v], .end = end});
  timeline_.write(buffer_);
  buffer_.clear();
}

}  // namespace dlbkit
