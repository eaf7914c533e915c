// dlbkit::strategies alone (with the layers it links): a topology and the strategies that accept it.

#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/generators.hpp>

#include <cstdio>

int main() {
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:5");
  int accepted = 0;
  for (const dlbkit::StrategyInfo& s : dlbkit::builtin_strategies().all()) {
    try {
      if (s.check_topology) s.check_topology(cube);
      ++accepted;
    } catch (const dlbkit::InputError&) {
    }
  }
  std::printf("hypercube:5: %zu nodes, diameter %d, %d strategies accept it\n", cube.size(), cube.diameter(), accepted);
  return cube.size() == 32 && cube.diameter() == 5 && accepted > 0 ? 0 : 1;
}
