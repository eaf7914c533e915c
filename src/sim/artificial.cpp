#include <dlbkit/sim/artificial.hpp>

#include <dlbkit/error.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

class Artificial final : public Workload {
public:
  bool closed() const override { return true; }
  explicit Artificial(const Parameters& p)
      : g_(p.integer("granularity")),
        h_(p.real("block")),
        omega_per_g_(p.real("omega_per_g")),
        total_auto_(p.is_auto("total_load")),
        total_(p.real("total_load")) {}

  void initial_tasks(const Topology& topology, const CostModel& cost, Rng& rng, TaskSink& sink) override {
    const auto N = static_cast<double>(topology.size());
    const double L = total_auto_ ? 2.5e7 * N : total_;   // loops (Sec. V-B)
    const double g = static_cast<double>(g_);
    const double omega = omega_per_g_ * g;                // task weight
    const double psi = h_ / omega;                        // loop size, h = omega psi
    const double loop = static_cast<double>(cost.loop_time);
    if (g * N > 1e9)
      throw InputError(fmt::format("artificial: granularity {} on {} nodes makes {:.0f} tasks; accepted: at most 1e9",
                                   g_, topology.size(), g * N));
    // The largest task takes psi * 2 omega l_max / g = 4 L / (N g) loops.
    if (4.0 * L / (N * g) * loop > 1e6 * static_cast<double>(kSecond))
      throw InputError(fmt::format("artificial: total_load={:g} loops makes tasks of up to {:.3g} s at loop_time={}; "
                                   "accepted: tasks of at most 1e6 s",
                                   L, 4.0 * L / (N * g) * loop / 1e9, format_duration(cost.loop_time)));
    for (NodeId i = 0; i < topology.size(); ++i) {
      const double l_i = rng.uniform(0.0, 2.0 * L / (h_ * N));   // eq. (33)
      for (long long j = 0; j < g_; ++j) {
        const double tau = rng.uniform(0.0, 2.0 * omega * l_i / g);  // eq. (34)-(35)
        const double loops = std::max(1.0, std::round(psi * tau));
        sink.add(i, static_cast<SimTime>(std::llround(loops * loop)));
      }
    }
  }

private:
  long long g_;
  double h_;
  double omega_per_g_;
  bool total_auto_;
  double total_;
};

}  // namespace

WorkloadInfo artificial_workload_info() {
  return WorkloadInfo{
      .name = "artificial",
      .description = "WLR93's random busy-loop tasks: g tasks per node, node loads uniform around L/N",
      .source = "WLR93 Sec. V-A, Table III",
      .params =
          {
              {.name = "granularity", .type = ParamType::integer, .default_value = "100",
               .description = "g: tasks per node (Table III: 10 to 1000)", .min = 1, .max = 1e7},
              {.name = "block", .type = ParamType::real, .default_value = "1e6",
               .description = "h = omega psi: block size in loops", .min = 1},
              {.name = "omega_per_g", .type = ParamType::real, .default_value = "5",
               .description = "omega/g, fixing the range of task sizes", .min = 1e-6},
              {.name = "total_load", .type = ParamType::real, .default_value = "auto",
               .description = "L: total loops; auto = 2.5e7 N (8e8 at N = 32)", .min = 1, .allow_auto = true},
          },
      .create = [](const Parameters& p) { return std::make_unique<Artificial>(p); },
  };
}

}  // namespace dlbkit
