#pragma once
// dlbkit advise's two halves share the search: tasks (-w, --trace: the simulator's strategies,
// cli/advise.cpp) and objects (--data: the phase strategies on vt's LB data,
// cli/advise_data.cpp).

#include "simulation_inputs.hpp"

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace dlbkit::cli {

// The values tried of one parameter; a strategy's axes give every combination of them.
struct SearchAxis {
  std::string param;
  std::vector<std::string> values;
};
using SearchTable = std::map<std::string, std::vector<SearchAxis>>;

// Every combination of the axes, the first axis varying slowest, the defaults (each axis's
// first value) first.
std::vector<std::map<std::string, std::string>> combinations(const std::vector<SearchAxis>& axes);

// The search as JSON: {strategy: {param: [values]}}.
nlohmann::json search_json(const SearchTable& table);

// advise --data's own options, as given.
struct DataAdvice {
  std::string stem;
  std::optional<std::int64_t> phase;
  long long every = 1;
  std::string threshold = "inf", memory_bound = "inf", migration_cost, migration_byte_cost = "0ns";
  std::vector<std::string> replay_options;  // --every, --threshold when given: for a replay only
};

// Ranks every phase strategy that accepts the topology, with a few values of its main
// parameters, by the phase time predicted on the data (docs/cli.md), and prints the table or
// the JSON. Returns the exit status.
int advise_on_data(const DataAdvice& data, const SimulationInputs& in, unsigned jobs, bool json);

}  // namespace dlbkit::cli
