#pragma once
/// \file
/// The simulator's side of the timeline (sim/timeline.hpp): an observer that turns a run's
/// activity, load and migration events into timeline events, as the runtime engines do.
///
/// ```
/// dlbkit::Timeline timeline("sim.json", "gm on hypercube:3", dlbkit::timeline_nodes("", 8));
/// dlbkit::TimelineObserver observer(timeline);
/// config.observers = {&observer};
/// const auto result = dlbkit::simulate(config);
/// observer.finish(result.makespan);   // the idle spans up to the end, then the buffer
/// timeline.commit();
/// ```

#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/sim/observer.hpp>

#include <map>
#include <utility>
#include <vector>

namespace dlbkit {

/// Spans of the simulated nodes (idle wherever the engine reports no activity), their load
/// and one arrow per migrated task, for the nodes the timeline records.
class TimelineObserver final : public Observer {
public:
  explicit TimelineObserver(Timeline& timeline) : timeline_(timeline), mark_(timeline.nodes(), 0) {}

  void on_task_migrated(NodeId from, NodeId to, const Task& task, SimTime t) override;
  void on_task_arrived(NodeId to, NodeId from, const Task& task, SimTime t) override;
  void on_activity(NodeId node, Activity activity, SimTime begin, SimTime end) override;
  void on_load(NodeId node, std::int64_t load, SimTime t) override;

  /// The run ended at `end`: each node's idle span up to it; writes what is buffered.
  void finish(SimTime end);

private:
  void add(const TimelineEvent& e);

  Timeline& timeline_;
  std::vector<TimelineEvent> buffer_;
  std::vector<SimTime> mark_;  // per node: the end of its last span
  std::map<std::pair<std::uint64_t, std::uint32_t>, std::uint64_t> in_flight_;  // (task, hops) -> arrow
  std::uint64_t arrows_ = 0;
};

}  // namespace dlbkit
