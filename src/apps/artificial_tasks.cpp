#include <dlbkit/apps/artificial_tasks.hpp>

#include <dlbkit/error.hpp>

#include <fmt/format.h>

namespace dlbkit {

std::vector<ParamSpec> artificial_task_params() {
  return {
      {.name = "granularity", .type = ParamType::integer, .default_value = "100",
       .description = "g: tasks per node (Table III: 10 to 1000)", .min = 1, .max = 1e7},
      {.name = "block", .type = ParamType::real, .default_value = "1e6",
       .description = "h = omega psi: block size in loops", .min = 1},
      {.name = "omega_per_g", .type = ParamType::real, .default_value = "5",
       .description = "omega/g, fixing the range of task sizes", .min = 1e-6},
      {.name = "total_load", .type = ParamType::real, .default_value = "auto",
       .description = "L: total loops; auto = 2.5e7 N (8e8 at N = 32)", .min = 1, .allow_auto = true},
  };
}

ArtificialTasks::ArtificialTasks(const Parameters& p)
    : g_(p.integer("granularity")),
      h_(p.real("block")),
      omega_per_g_(p.real("omega_per_g")),
      total_auto_(p.is_auto("total_load")),
      total_(p.real("total_load")) {}

ArtificialTasks::Draws ArtificialTasks::draws(std::size_t nodes, SimTime loop_time) const {
  const auto N = static_cast<double>(nodes);
  const double L = total_auto_ ? 2.5e7 * N : total_;  // loops (Sec. V-B)
  const double g = static_cast<double>(g_);
  const double omega = omega_per_g_ * g;  // task weight
  const double loop = static_cast<double>(loop_time);
  if (g * N > 1e9)
    throw InputError(fmt::format("artificial: granularity {} on {} nodes makes {:.0f} tasks; accepted: at most 1e9",
                                 g_, nodes, g * N));
  // The largest task takes psi * 2 omega l_max / g = 4 L / (N g) loops.
  if (4.0 * L / (N * g) * loop > 1e6 * static_cast<double>(kSecond))
    throw InputError(fmt::format("artificial: total_load={:g} loops makes tasks of up to {:.3g} s at loop_time={}; "
                                 "accepted: tasks of at most 1e6 s",
                                 L, 4.0 * L / (N * g) * loop / 1e9, format_duration(loop_time)));
  Draws d;
  d.node_max_ = 2.0 * L / (h_ * N);
  d.omega_ = omega;
  d.g_ = g;
  d.psi_ = h_ / omega;  // loop size, h = omega psi
  d.loop_ = loop;
  return d;
}

}  // namespace dlbkit
