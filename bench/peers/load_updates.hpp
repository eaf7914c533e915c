#pragma once
// The scenario both simulators run (scripts/bench-simgrid.sh): a hypercube of 2^d nodes,
// each with its own `tasks_per_node` tasks of known work and no balancing. A node executes
// its tasks one after the other; after each it reports its load (the tasks it has left) to
// every neighbour, each message costing it send_overhead of processor time and arriving
// `latency` later. Receiving a report costs nothing. The run ends when the last task
// completes: its time, the tasks and the messages sent must be the same in both.

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace peers {

constexpr std::int64_t kTasksPerNode = 10;
constexpr std::int64_t kLatencyNs = 50'000;       // 50 us to a neighbour
constexpr std::int64_t kSendOverheadNs = 5'000;   // 5 us of the sender's processor per message

// Task j of node v: 1 ms to 2 ms, spread by a multiplicative hash.
inline std::int64_t work_ns(std::uint64_t v, std::uint64_t j) {
  const std::uint64_t h = (v * 0x9E3779B97F4A7C15ULL) ^ (j * 0xC2B2AE3D27D4EB4FULL);
  return 1'000'000 + static_cast<std::int64_t>((h >> 33) % 1'000'000);
}

// The dimension from the command line: one argument, 1 to 20.
inline int dimension(int argc, char** argv) {
  const int d = argc > 1 ? std::atoi(argv[1]) : 0;
  if (d < 1 || d > 20) {
    std::fprintf(stderr, "usage: %s DIMENSION (1 to 20: a hypercube of 2^DIMENSION nodes)\n", argv[0]);
    std::exit(2);
  }
  return d;
}

}  // namespace peers
