#pragma once
/// \file
/// The one description of WLR93's branch and bound (Sec. V-C, eq. 37) that the runtime's
/// `bnb` app and the simulator's `bnb` workload share: the instance and the threshold from
/// the same parameters, and the tree of tasks both walk (docs/apps/tardiness.md).
///
/// The tree of tasks: a task is a schedule prefix. A prefix leaving more than m jobs free
/// is split: each child (one more job, in reverse earliest-due-date order, so that a stack
/// executes the first EDD child first) is formed (one search step) and kept if its partial
/// tardiness is below the bound; a complete schedule is recorded, any other child is a new
/// task. A prefix leaving at most m jobs free is searched whole, depth first, in EDD order
/// (WLR93 Table V's tasks of dimension m). Jobs are relabelled in EDD order inside.
///
/// The bound: in optimise mode (the app's default) the best schedule known, shared and
/// lowered as the search goes; in threshold mode (the workload always, the app with
/// mode=threshold) threshold + 1, fixed, so that the tree is count_schedules_within's and
/// does not depend on timing: the simulated and the real run walk the same tasks and steps.
///
/// ```
/// dlbkit::BnbTaskTree tree(instance, 8);
/// std::uint64_t steps = tree.split(tree.root(), [] { return bound; }, on_schedule, spawn);
/// ```

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/core/parameters.hpp>

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

namespace dlbkit {

/// n, instance_seed (default `seed_default`: "1" in the app, "auto" in the workload, where
/// auto draws the instance from the run's workload stream), tardiness_factor, due_date_range.
std::vector<ParamSpec> bnb_instance_params(const std::string& seed_default);
/// threshold (auto = floor(optimum (1 + slack)), an integer, or inf) and slack.
std::vector<ParamSpec> bnb_threshold_params();
/// The instance the parameters of bnb_instance_params() name; `stream` for instance_seed=auto.
TardinessInstance bnb_instance(const Parameters& p, Rng* stream);
/// The threshold the parameters of bnb_threshold_params() give for `instance`;
/// kNoTardinessThreshold for inf.
std::int64_t bnb_threshold(const Parameters& p, const TardinessInstance& instance);

class BnbTaskTree {
public:
  static constexpr int kMaxJobs = kMaxTardinessJobs;

  /// A task: a prefix of EDD labels. Trivially copyable (the app's task bytes).
  struct Prefix {
    std::array<std::uint8_t, kMaxJobs> jobs;
    std::uint32_t depth;
    std::uint32_t used;       ///< bit j: job j is in the prefix
    std::uint32_t unused;     ///< 0: no padding, so that a prefix's bytes are all defined where it travels
    std::int64_t completion;  ///< of the prefix's last job
    std::int64_t partial;     ///< partial tardiness of the prefix, eq. (37)
  };

  /// Throws InputError unless 0 <= m <= instance.jobs().
  BnbTaskTree(const TardinessInstance& instance, int m);

  int jobs() const { return n_; }
  int task_dimension() const { return m_; }
  /// The original index of EDD label k.
  int job_of(int label) const { return edd_[static_cast<std::size_t>(label)]; }
  std::int64_t edd_tardiness() const { return edd_tardiness_; }
  Prefix root() const { return Prefix{{}, 0, 0, 0, 0, 0}; }
  /// True when the task is searched whole rather than split.
  bool searched_whole(const Prefix& p) const { return n_ - static_cast<int>(p.depth) <= m_; }

  /// Splits `p`: forms each child, prunes it if its partial tardiness is >= bound(),
  /// calls complete(child) for a full schedule and spawn(child) otherwise. Returns the steps.
  template <class Bound, class Complete, class Spawn>
  std::uint64_t split(const Prefix& p, Bound&& bound, Complete&& complete, Spawn&& spawn) const {
    std::uint64_t steps = 0;
    for (int j = n_ - 1; j >= 0; --j) {
      if (p.used & (1u << j)) continue;
      ++steps;
      const Prefix c = child(p, j);
      if (c.partial >= bound()) continue;
      if (static_cast<int>(c.depth) == n_) complete(c);
      else spawn(c);
    }
    return steps;
  }

  /// Depth first below `p` (changed in place and restored), EDD order, pruning at bound();
  /// complete(prefix) for each full schedule kept, poll() every 4096 steps; adds to `steps`.
  template <class Bound, class Complete, class Poll>
  void search(Prefix& p, Bound&& bound, Complete&& complete, Poll&& poll, std::uint64_t& steps) const {
    const Prefix saved = p;
    for (int j = 0; j < n_; ++j) {
      if (p.used & (1u << j)) continue;
      if ((++steps & 4095) == 0) poll();
      const std::int64_t completion = saved.completion + e_[static_cast<std::size_t>(j)];
      const std::int64_t partial =
          saved.partial + std::max<std::int64_t>(0, completion - d_[static_cast<std::size_t>(j)]);  // eq. (37)
      if (partial >= bound()) continue;
      p.jobs[saved.depth] = static_cast<std::uint8_t>(j);
      p.depth = saved.depth + 1;
      p.used = saved.used | (1u << j);
      p.completion = completion;
      p.partial = partial;
      if (static_cast<int>(p.depth) == n_) complete(p);
      else search(p, bound, complete, poll, steps);
    }
    p = saved;
  }

  Prefix child(const Prefix& p, int j) const {
    Prefix c = p;
    c.jobs[p.depth] = static_cast<std::uint8_t>(j);
    ++c.depth;
    c.used |= 1u << j;
    c.completion += e_[static_cast<std::size_t>(j)];
    c.partial += std::max<std::int64_t>(0, c.completion - d_[static_cast<std::size_t>(j)]);  // eq. (37)
    return c;
  }

private:
  int m_, n_;
  std::vector<int> edd_;
  std::array<std::int64_t, kMaxJobs> e_{}, d_{};
  std::int64_t edd_tardiness_ = 0;
};

/// The bound of threshold mode: a prefix is pruned when its partial tardiness is >= this.
inline std::int64_t threshold_bound(std::int64_t threshold) {
  return threshold == kNoTardinessThreshold ? threshold : threshold + 1;
}

}  // namespace dlbkit
