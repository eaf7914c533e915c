#include <dlbkit/apps/bnb_search.hpp>
#include <dlbkit/error.hpp>

#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

std::vector<ParamSpec> bnb_instance_params(const std::string& seed_default) {
  return {
      {.name = "n", .type = ParamType::integer, .default_value = "11",
       .description = "jobs in the generated instance (Table V: 11)", .min = 1, .max = kMaxTardinessJobs},
      {.name = "instance_seed", .type = ParamType::integer, .default_value = seed_default,
       .description = "the instance is generate_tardiness_instance(n, Rng(instance_seed)); auto = drawn from the "
                      "run's workload stream",
       .min = 0, .max = 9e15, .allow_auto = seed_default == "auto"},
      {.name = "tardiness_factor", .type = ParamType::real, .default_value = "0.6",
       .description = "generator's TF: due dates earlier as it grows", .min = 0, .max = 1},
      {.name = "due_date_range", .type = ParamType::real, .default_value = "0.6",
       .description = "generator's RDD: spread of the due dates", .min = 0, .max = 1},
  };
}

std::vector<ParamSpec> bnb_threshold_params() {
  return {
      {.name = "threshold", .type = ParamType::integer, .default_value = "auto",
       .description = "fixed tardiness threshold: schedules with total tardiness <= it are all found; "
                      "auto = floor(optimum (1 + slack))",
       .min = 0, .max = 1e15, .allow_inf = true, .allow_auto = true},
      {.name = "slack", .type = ParamType::real, .default_value = "0.1",
       .description = "with threshold=auto: the threshold's margin over the optimum", .min = 0, .max = 1e6},
  };
}

TardinessInstance bnb_instance(const Parameters& p, Rng* stream) {
  const int n = static_cast<int>(p.integer("n"));
  const TardinessGeneratorParams generator{.tardiness_factor = p.real("tardiness_factor"),
                                           .due_date_range = p.real("due_date_range")};
  if (p.is_auto("instance_seed")) return generate_tardiness_instance(n, *stream, generator);
  Rng own(static_cast<std::uint64_t>(p.integer("instance_seed")));
  return generate_tardiness_instance(n, own, generator);
}

std::int64_t bnb_threshold(const Parameters& p, const TardinessInstance& instance) {
  if (p.is_auto("threshold"))
    return static_cast<std::int64_t>(
        std::floor(static_cast<double>(solve_tardiness(instance).tardiness) * (1 + p.real("slack"))));
  const double t = p.real("threshold");
  return std::isinf(t) ? kNoTardinessThreshold : static_cast<std::int64_t>(t);
}

BnbTaskTree::BnbTaskTree(const TardinessInstance& instance, int m)
    : m_(m), n_(instance.jobs()), edd_(edd_order(instance)) {
  if (m < 0 || m > n_) throw InputError(fmt::format("bnb: m={} with {} jobs; accepted: 0 to {}", m, n_, n_));
  for (int k = 0; k < n_; ++k) {
    e_[static_cast<std::size_t>(k)] = instance.processing[static_cast<std::size_t>(edd_[static_cast<std::size_t>(k)])];
    d_[static_cast<std::size_t>(k)] = instance.due[static_cast<std::size_t>(edd_[static_cast<std::size_t>(k)])];
  }
  edd_tardiness_ = instance.tardiness(edd_);
}

}  // namespace dlbkit
