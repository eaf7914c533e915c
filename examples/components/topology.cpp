// dlbkit::topology alone (with dlbkit::io): a network and its properties, no strategy.

#include <dlbkit/topology/generators.hpp>

#include <cstdio>

int main() {
  const dlbkit::Topology torus = dlbkit::parse_topology("torus:4x4");
  std::printf("%s: %zu nodes, diameter %d\n", torus.spec().c_str(), torus.size(), torus.diameter());
  return torus.size() == 16 && torus.diameter() == 4 ? 0 : 1;
}
