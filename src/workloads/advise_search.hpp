#pragma once
// The search of `dlbkit advise` (workloads/advise_command.hpp): the values tried of each
// strategy's parameters, shared by its two forms (the simulator's strategies and the phase
// strategies, whose registries have the same shape).

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>
#include <dlbkit/workloads/advise_command.hpp>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlbkit::detail {

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

// One strategy with one choice of its searched parameters.
template <class Info>
struct Candidate {
  const Info* info;
  std::map<std::string, std::string> searched;  // only the parameters of the search
};

// Every strategy of `all` that accepts the topology, with every combination of its axes (its
// defaults alone when it has none); the others go to `not_run`.
template <class Info>
std::vector<Candidate<Info>> candidates(const std::vector<Info>& all, const Topology& topology,
                                        std::vector<StrategyNotRun>& not_run) {
  std::vector<Candidate<Info>> out;
  for (const Info& info : all) {
    if (info.check_topology) {
      try {
        info.check_topology(topology);
      } catch (const InputError& e) {
        not_run.push_back({info.name, e.what()});
        continue;
      }
    }
    for (auto& searched : combinations(search_axes(info.params))) out.push_back({&info, std::move(searched)});
  }
  return out;
}

}  // namespace dlbkit::detail
