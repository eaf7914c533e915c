#include <dlbkit/core/number.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace dlbkit {

RebalanceOptions rebalance_options(const RebalanceInputs& in, std::uint64_t seed) {
  RebalanceOptions ro;
  ro.cost = make_cost_model(in.cost, in.cost_params);
  ro.migration.per_object =
      in.migration_cost.empty() ? ro.cost.per_task : parse_duration(in.migration_cost, "--migration-cost");
  ro.migration.per_byte = in.migration_byte_cost.empty()
                              ? ro.cost.per_byte
                              : parse_fractional_duration(in.migration_byte_cost, "--migration-byte-cost");
  ro.memory_bound = non_negative_or_inf(in.memory_bound.value_or("inf"), "--memory-bound");
  if (in.memory_group && *in.memory_group < 1)
    throw InputError(
        fmt::format("--memory-group '{}' is not accepted; accepted: an integer >= 1 (nodes)", *in.memory_group));
  ro.memory_group = static_cast<std::size_t>(in.memory_group.value_or(1));
  ro.work_model = parse_work_model(in.work_model.value_or("load"), "--work-model");
  ro.seed = seed;
  return ro;
}

double non_negative_or_inf(const std::string& text, const std::string& what) {
  double x = 0;
  if (text == "inf") return std::numeric_limits<double>::infinity();
  if (!parse_number(text, x) || !std::isfinite(x) || x < 0)
    throw InputError(fmt::format("{} '{}' is not accepted; accepted: a number >= 0, or inf", what, excerpt(text)));
  return x;
}

}  // namespace dlbkit
