#pragma once
// Test support: small phases the phase strategies' tests share.

#include <dlbkit/phases/phase.hpp>

#include <cstddef>

namespace dlbkit::test {

/// n objects of loads 1..n, all on node 0 of `nodes`.
inline Phase piled_up(std::size_t nodes, std::size_t n) {
  Phase phase{.nodes = nodes};
  for (std::size_t i = 0; i < n; ++i) phase.objects.push_back({.id = i, .load = static_cast<double>(i + 1)});
  phase.node_of.assign(n, 0);
  return phase;
}

}  // namespace dlbkit::test
