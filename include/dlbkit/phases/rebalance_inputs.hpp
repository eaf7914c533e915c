#pragma once
/// \file
/// What prices a rebalancing step, from its inputs as a user writes them (`dlbkit phases`,
/// `dlbkit advise --data`, `dlbkit.phases` in Python): the cost model of the protocol's
/// messages, the time to migrate an object and a byte, and the memory bound.
///
/// ```
/// dlbkit::RebalanceOptions o = dlbkit::rebalance_options({.cost = "ideal", .memory_bound = "1e9"}, /*seed=*/1);
/// ```

#include <dlbkit/phases/rebalance.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace dlbkit {

/// Texts as the CLI's options hold them; errors name those options.
struct RebalanceInputs {
  std::string cost = "ipsc2";                        ///< a cost model preset, or file:PATH (-c/--cost)
  std::map<std::string, std::string> cost_params;    ///< field -> value overrides (--cost-param)
  std::string migration_cost;                        ///< per object, e.g. 50us; empty: the model's per_task
  std::string migration_byte_cost;                   ///< per byte, e.g. 0.1ns; empty: the model's per_byte
  std::optional<std::string> memory_bound;           ///< bytes a node may hold, or inf; not given: inf
  /// Consecutive nodes that share the bound (--memory-group, RebalanceOptions); not given: 1.
  std::optional<long long> memory_group;
  std::optional<std::string> work_model;             ///< work_model.hpp's parse_work_model; not given: load
};

/// Throws InputError naming the first value refused, in the order of the fields.
RebalanceOptions rebalance_options(const RebalanceInputs& in, std::uint64_t seed);

/// `text` as a number >= 0, or inf (a byte count, an imbalance); InputError naming `what` otherwise.
double non_negative_or_inf(const std::string& text, const std::string& what);

}  // namespace dlbkit
