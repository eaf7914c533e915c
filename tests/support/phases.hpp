#pragma once
// Test support: small phases the phase strategies' tests share.

#include <dlbkit/core/random.hpp>
#include <dlbkit/phases/phase.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace dlbkit::test {

/// n objects of loads 1..n, all on node 0 of `nodes`.
inline Phase piled_up(std::size_t nodes, std::size_t n) {
  Phase phase{.nodes = nodes};
  for (std::size_t i = 0; i < n; ++i) phase.objects.push_back({.id = i, .load = static_cast<double>(i + 1)});
  phase.node_of.assign(n, 0);
  return phase;
}

/// 16 nodes, every fourth holding two shared blocks (10 bytes each) of 12 objects of random
/// loads in [0, 1).
inline Phase blocks_on_every_fourth() {
  Rng rng(9);
  Phase phase{.nodes = 16, .has_memory = true, .node_working_bytes = std::vector<double>(16, 0.0)};
  for (NodeId v = 0; v < 16; v += 4)
    for (int b = 0; b < 2; ++b) {
      phase.block_bytes.push_back(10);
      phase.block_ids.push_back(static_cast<std::int64_t>(phase.block_ids.size()));
      for (int k = 0; k < 12; ++k) {
        phase.objects.push_back({.id = phase.objects.size(), .load = rng.uniform(0, 1),
                                 .memory = {.block = static_cast<std::int32_t>(phase.block_ids.size() - 1)}});
        phase.node_of.push_back(v);
      }
    }
  return phase;
}

}  // namespace dlbkit::test
