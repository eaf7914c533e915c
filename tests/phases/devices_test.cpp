// The devices model (phases/devices.hpp): a node's time as the best split of its objects'
// work between its processor and its device, and a strategy judged under the model.
#include "../support/error_of.hpp"
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/devices.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

using dlbkit::test::error_of;

// The devices model on two nodes, node 0 with a device 3x its processor: host-only work H and
// offloadable work D there take max(H, (H + D) / 4).
TEST(Devices, ANodesTimeIsTheBestSplitBetweenItsProcessorAndDevice) {
  Phase phase{.nodes = 2,
              .objects = {{.id = 0, .load = 8}, {.id = 1, .load = 2}, {.id = 2, .load = 4}},
              .node_of = {0, 0, 1}};
  const DeviceModel model{.speedup = {3, 0}, .offload = {1, 0, 1}};
  EXPECT_EQ(node_times(phase, phase.node_of, model), (std::vector<double>{2.5, 4}));  // max(2, 10 / 4); 4
  EXPECT_EQ(node_times(phase, {0, 1, 0}, model), (std::vector<double>{3, 2}));        // 12 / 4; host-only 2
  // Fluid: host-only 2 over 2 processors, 14 over speeds 4 + 1: 2.8.
  EXPECT_DOUBLE_EQ(device_bound(phase, model), 2.8);
  // The mix is 12 / 14 offloadable: node 0 runs it at min(14 / 2, 4) = 4x.
  EXPECT_EQ(effective_alphas(phase, model), (std::vector<double>{0.25, 1}));
  EXPECT_EQ(error_of([&] { node_times(phase, phase.node_of, {.speedup = {3, -1}, .offload = {1, 0, 1}}); }),
            "the device model: node 1's device speedup is -1; accepted: a number >= 0 (0: no device)");
  EXPECT_EQ(error_of([&] { node_times(phase, phase.node_of, {.speedup = {3, 0}, .offload = {1, 0, 2}}); }),
            "the device model: object 2's offloadable share is 2; accepted: a number in [0, 1]");
}

// --devices' text: one speedup per node, S*N for N nodes alike.
TEST(Devices, SpeedupsAreReadOnePerNodeOrNNodesAlike) {
  EXPECT_EQ(parse_device_speedups("8*2,0*3,2.5", "--devices"), (std::vector<double>{8, 8, 0, 0, 0, 2.5}));
  EXPECT_EQ(error_of([] { parse_device_speedups("8,-1", "--devices"); }),
            "--devices '8,-1': '-1' is not accepted; accepted: one speedup per node, each a number >= 0 "
            "(0: no device), comma-separated, S*N for N nodes alike, e.g. 8,0,0,0 or 8*2,0*6");
  EXPECT_EQ(error_of([] { parse_device_speedups("1,0*10000000", "--devices"); }),
            "--devices '1,0*10000000': more than 10000000 speedups; accepted: one per node, a number >= 0 "
            "(0: no device)");
  EXPECT_EQ(error_of([] { check_device_speedups({8, 0, 0}, 4, "--devices"); }),
            "--devices: 3 device speedups for 4 nodes; accepted: one per node, a number >= 0 (0: no device)");
}

// A strategy judged under the model: greedy on 8 nodes, one with a device 8x its processor,
// objects 90% offloadable. Blind to the device it loads every node alike, and the device node
// waits on the others; told the effective speeds it comes near the fluid bound.
TEST(Devices, GreedyJudgedUnderTheModel) {
  Phase phase{.nodes = 8};
  Rng rng(7, 0);
  for (std::size_t i = 0; i < 400; ++i) {
    phase.objects.push_back({.id = i, .load = 0.5 + rng.uniform()});
    phase.node_of.push_back(0);
  }
  DeviceModel model{.speedup = std::vector<double>(8, 0), .offload = std::vector<double>(400, 0.9)};
  model.speedup[0] = 8;
  const Topology topology = parse_topology("complete:8");
  const auto greedy = builtin_phase_strategies().configure("greedy", {});
  const auto busiest = [&](const std::vector<NodeId>& mapping) {
    const std::vector<double> t = node_times(phase, mapping, model);
    return *std::max_element(t.begin(), t.end());
  };
  const double bound = device_bound(phase, model);
  const double blind = busiest(rebalance(greedy, phase, topology, {}).mapping);
  Phase told = phase;
  told.node_alpha = effective_alphas(phase, model);
  const double aware = busiest(rebalance(greedy, told, topology, {}).mapping);
  EXPECT_GT(blind, 1.2 * bound);
  EXPECT_LE(aware, 1.1 * bound);
}

}  // namespace
}  // namespace dlbkit
