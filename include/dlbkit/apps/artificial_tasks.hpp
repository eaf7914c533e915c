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
#include <vector>

namespace dlbkit {

/// granularity, block, omega_per_g and total_load, with Table III's defaults.
std::vector<ParamSpec> artificial_task_params();

class ArtificialTasks {
public:
  /// From values of artificial_task_params().
  explicit ArtificialTasks(const Parameters& p);

  /// Every task of `nodes` nodes, in the order drawn, as add(node, work) with work its loops
  /// times `loop_time`. Throws InputError for more than 1e9 tasks or a task over 1e6 s.
  template <class Add>
  void draw(std::size_t nodes, SimTime loop_time, Rng& rng, Add&& add) const {
    const auto N = static_cast<double>(nodes);
    const double L = total_auto_ ? 2.5e7 * N : total_;   // loops (Sec. V-B)
    const double g = static_cast<double>(g_);
    const double omega = omega_per_g_ * g;                // task weight
    const double psi = h_ / omega;                        // loop size, h = omega psi
    check(nodes, L, static_cast<double>(loop_time));
    const double loop = static_cast<double>(loop_time);
    for (NodeId i = 0; i < nodes; ++i) {
      const double l_i = rng.uniform(0.0, 2.0 * L / (h_ * N));   // eq. (33)
      for (long long j = 0; j < g_; ++j) {
        const double tau = rng.uniform(0.0, 2.0 * omega * l_i / g);  // eq. (34)-(35)
        const double loops = std::max(1.0, std::round(psi * tau));
        add(i, static_cast<SimTime>(std::llround(loops * loop)));
      }
    }
  }

private:
  void check(std::size_t nodes, double L, double loop) const;

  long long g_;
  double h_;
  double omega_per_g_;
  bool total_auto_;
  double total_;
};

}  // namespace dlbkit
