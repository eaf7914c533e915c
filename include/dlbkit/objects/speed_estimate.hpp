#pragma once
/// \file
/// dlbkit::SpeedEstimate: each worker's speed estimated from the program's own timings, for
/// ObjectRuntime's `--speeds measured` (docs/objects.md, "Workers that differ in speed").
///
/// An object of work w takes w / s seconds on a worker of speed s: when it runs on worker a in
/// two phases and on worker b in the next, its time scales by s_a / s_b, and the log of the
/// ratio of its times on a in the first and on b measures log s_b - log s_a (not its time in
/// the second, by which a strategy chose to move it: a time stretched by a pause is likelier
/// among the objects moved). For every pair of workers that objects moved between, the median
/// of those objects' log ratios over the last phases, each weighted less in each phase after,
/// once there are 3 (a few objects whose work changed or whose time a pause stretched do not
/// move it); then the log speeds fitted to the pairs by weighted least
/// squares, from the current estimate: a worker linked to no other by a move keeps its estimate
/// (1 at first), and each group of linked workers keeps its geometric mean (1 at first), so
/// equal workers stay at 1 but for noise, without drift. The same observations give the same
/// bits.
///
/// ```
/// dlbkit::SpeedEstimate e(2);
/// e.observe(std::vector<dlbkit::NodeId>{0, 1}, std::vector<double>{2.0, 1.0});
/// e.observe(std::vector<dlbkit::NodeId>{0, 1}, std::vector<double>{2.0, 1.0});
/// e.observe(std::vector<dlbkit::NodeId>{1, 0}, std::vector<double>{1.0, 2.0});  // both moved
/// // e.speeds(): {0.707..., 1.414...}, worker 1 twice as fast
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstddef>
#include <limits>
#include <map>
#include <span>
#include <utility>
#include <vector>

namespace dlbkit {

class SpeedEstimate {
public:
  /// In renumber(): an object new since the last phase.
  static constexpr ObjectIndex none = std::numeric_limits<ObjectIndex>::max();

  /// `workers` workers, each at speed 1.
  explicit SpeedEstimate(std::size_t workers);

  /// One phase: each object's worker and its time in seconds, by index (the indices of the
  /// last phases observed, or of renumber()). A time of 0 (or below) tells nothing.
  void observe(std::span<const NodeId> workers, std::span<const double> times);
  /// The objects changed since the last phase observed: the object of index k was old_of[k]
  /// then, or is new (`none`; it has no past times to compare).
  void renumber(std::span<const ObjectIndex> old_of);

  /// Each worker's speed.
  const std::vector<double>& speeds() const { return speeds_; }

private:
  /// A moved object's log s_b - log s_a, its weight, and the phases since.
  struct Sample {
    double log_ratio, weight;
    int age;
  };
  /// The log ratio at half the samples' weight.
  static double median(std::vector<Sample> samples);
  /// Fits the log speeds to the pairs' differences.
  void fit();

  struct Link {
    std::vector<Sample> samples;  // of the last phases
    double difference = 0;        // log s_b - log s_a: the samples' weighted median
    double weight = 0;            // the samples' weights summed; 0 below kSamples of them
  };
  std::map<std::pair<NodeId, NodeId>, Link> links_;  // (a, b), a < b
  struct Past {
    std::vector<NodeId> workers;  // by index
    std::vector<double> times;
  };
  Past last_, earlier_;  // the last phase observed, and the one before
  std::vector<double> speeds_;
};

}  // namespace dlbkit
