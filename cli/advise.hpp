#pragma once
// dlbkit advise's two halves share the search: tasks (-w, --trace: the simulator's strategies,
// cli/advise.cpp) and objects (--data: the phase strategies on vt's LB data,
// cli/advise_data.cpp).

#include "simulation_inputs.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dlbkit::cli {

// The values tried of one parameter: its default, then its declared search
// (ParamSpec::search). A strategy's axes give every combination of them; its other
// parameters keep their defaults, and so do the ones whose default is derived from the
// topology, since a fixed value would be wrong on most networks.
struct SearchAxis {
  std::string param;
  std::vector<std::string> values;
};

// The axes of the parameters that declare a search, in declaration order.
std::vector<SearchAxis> search_axes(const std::vector<ParamSpec>& params);

// Every combination of the axes, the first axis varying slowest, the defaults (each axis's
// first value) first.
std::vector<std::map<std::string, std::string>> combinations(const std::vector<SearchAxis>& axes);

// The search of every component of `all` that searches something, as JSON:
// {name: {param: [values]}}.
template <class Info>
nlohmann::json search_json(const std::vector<Info>& all) {
  nlohmann::json j = nlohmann::json::object();
  for (const Info& info : all)
    for (const SearchAxis& axis : search_axes(info.params)) j[info.name][axis.param] = axis.values;
  return j;
}

// The strategies that do not accept the topology: name, and why.
using NotRun = std::vector<std::pair<std::string, std::string>>;

// One strategy with one choice of its searched parameters.
template <class Info>
struct Candidate {
  const Info* info;
  std::map<std::string, std::string> searched;  // only the parameters of the search
};

// Every strategy of `all` that accepts the topology, with every combination of its axes (its
// defaults alone when it has none); the others go to `not_run`.
template <class Info>
std::vector<Candidate<Info>> candidates(const std::vector<Info>& all, const Topology& topology, NotRun& not_run) {
  std::vector<Candidate<Info>> out;
  for (const Info& info : all) {
    if (info.check_topology) {
      try {
        info.check_topology(topology);
      } catch (const InputError& e) {
        not_run.emplace_back(info.name, e.what());
        continue;
      }
    }
    for (auto& searched : combinations(search_axes(info.params))) out.push_back({&info, std::move(searched)});
  }
  return out;
}

// The searched parameters as "name=value ...", or "(defaults)".
std::string searched_text(const std::map<std::string, std::string>& searched);

// not_run as JSON ([{strategy, reason}]) and as the table's last lines.
nlohmann::json not_run_json(const NotRun& not_run);
void print_not_run(const std::string& topology, const NotRun& not_run);

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
