#pragma once
// Test support: which networks a strategy of the registry accepts. Most run on any network;
// some refuse some families (nna runs on rings only, HBM on powers of two).

#include <dlbkit/error.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <initializer_list>
#include <optional>
#include <string>

namespace dlbkit::test {

inline bool accepts(const std::string& strategy, const Topology& t) {
  const auto& info = builtin_strategies().find(strategy);
  if (!info.check_topology) return true;
  try {
    info.check_topology(t);
    return true;
  } catch (const InputError&) {
    return false;
  }
}

/// The first of `specs` that `strategy` accepts, if any.
inline std::optional<std::string> network_for(const std::string& strategy, std::initializer_list<const char*> specs) {
  for (const char* spec : specs)
    if (accepts(strategy, parse_topology(spec))) return spec;
  return std::nullopt;
}

}  // namespace dlbkit::test
