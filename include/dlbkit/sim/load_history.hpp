#pragma once
/// \file
/// Every node's load over a whole run in a fixed amount of memory, for a picture of how a
/// strategy spreads work (`dlbkit simulate --plot-load`): the run is cut into equal
/// intervals, and each holds each node's time-averaged load in it. When the run outgrows
/// the intervals, neighbouring ones merge and the interval doubles, so a run of any length
/// ends with between bins/2 and bins intervals.
///
/// ```
/// dlbkit::LoadHistory history(topology.size());
/// config.observers = {&history};
/// const auto result = dlbkit::simulate(config);
/// history.finish(result.makespan);
/// double l = history.load(3, 0);   // node 3's mean load in the first interval
/// ```

#include <dlbkit/sim/observer.hpp>

#include <cstddef>
#include <vector>

namespace dlbkit {

class LoadHistory final : public Observer {
public:
  /// `bins`: the most intervals kept (even, at least 2); 0: 256, fewer for very many nodes
  /// (at most 2^24 numbers in all).
  explicit LoadHistory(std::size_t nodes, std::size_t bins = 0);

  void on_load(NodeId node, std::int64_t load, SimTime t) override;
  /// The run ended at `end`: the loads held since the last change count up to it.
  void finish(SimTime end);

  std::size_t nodes() const { return last_load_.size(); }
  std::size_t intervals() const { return used_; }
  SimTime interval() const { return width_; }
  /// Node `node`'s time-averaged load in interval `i` (after finish(); the last interval
  /// ends with the run).
  double load(NodeId node, std::size_t i) const;

private:
  void add(NodeId node, SimTime until);  // the node's load from its last change to `until`
  void grow(SimTime t);                  // merge intervals until t fits

  std::size_t bins_;
  std::size_t used_ = 0;
  SimTime width_ = 1000;  // 1 us to start with
  std::vector<double> sum_;  // node-major: load x time per interval
  std::vector<std::int64_t> last_load_;
  std::vector<SimTime> last_change_;
  SimTime end_ = 0;
};

}  // namespace dlbkit
