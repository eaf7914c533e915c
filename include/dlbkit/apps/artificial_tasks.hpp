#pragma once
/// \file
/// WLR93's artificial tasks (Sec. V-A, Table III), drawn the same way for the simulator's
/// `artificial` workload (src/workloads/artificial.cpp) and the runtime's `busy` app.
///
/// Node i receives load h l_i loops with l_i uniform in (0, 2L/(hN)) (eq. 33), split into g
/// tasks of tau_j psi loops with tau_j uniform in (0, 2 omega l_i / g) (eq. 34-35), where
/// h = omega psi is the block size and omega = 5 g (the paper's omega/g = 5), so the range of
/// task sizes does not depend on the granularity g. L = 2.5e7 N loops by default, which is
/// the paper's 8e8 at N = 32 and its size sweep of Fig. 6.
///
/// ```
/// dlbkit::Rng rng(1, 0);
/// dlbkit::ArtificialTasks draw(dlbkit::Parameters::parse(dlbkit::artificial_task_params(), {}, "example"));
/// draw.draw(32, 1300, rng, [](dlbkit::NodeId node, dlbkit::SimTime work) { /* a task of work ns */ });
/// ```

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace dlbkit {

/// granularity, block, omega_per_g and total_load, with Table III's defaults.
std::vector<ParamSpec> artificial_task_params();

class ArtificialTasks {
public:
  /// From values of artificial_task_params().
  explicit ArtificialTasks(const Parameters& p);

  /// g, the tasks of a node.
  long long granularity() const { return g_; }

  /// The draws of a machine: a node draws its load, then its g tasks, from the stream.
  class Draws {
  public:
    /// Draws a node's load l_i (eq. 33); returns its tasks' bound on tau, 2 omega l_i / g.
    double node(Rng& rng) const { return 2.0 * omega_ * rng.uniform(0.0, node_max_) / g_; }
    /// A task's work (eq. 34-35) at a node of that bound.
    SimTime task(Rng& rng, double bound) const {
      const double tau = rng.uniform(0.0, bound);
      const double loops = std::max(1.0, std::round(psi_ * tau));
      return static_cast<SimTime>(std::llround(loops * loop_));
    }
    /// Passes over `tasks` tasks' draws: a task is one number of the stream.
    static void skip(Rng& rng, std::uint64_t tasks) {
      for (; tasks > 0; --tasks) rng.next();
    }

  private:
    friend class ArtificialTasks;
    double node_max_, omega_, g_, psi_, loop_;
  };

  /// The draws of `nodes` nodes whose loop takes `loop_time`. Throws InputError for more
  /// than 1e9 tasks or a task over 1e6 s.
  Draws draws(std::size_t nodes, SimTime loop_time) const;

  /// Every task of `nodes` nodes, in the order drawn, as add(node, work) with work its loops
  /// times `loop_time`. Throws as draws().
  template <class Add>
  void draw(std::size_t nodes, SimTime loop_time, Rng& rng, Add&& add) const {
    const Draws d = draws(nodes, loop_time);
    for (NodeId i = 0; i < nodes; ++i) {
      const double bound = d.node(rng);
      for (long long j = 0; j < g_; ++j) add(i, d.task(rng, bound));
    }
  }

private:
  long long g_;
  double h_;
  double omega_per_g_;
  bool total_auto_;
  double total_;
};

}  // namespace dlbkit
