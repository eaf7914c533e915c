// What crossing messages add to a phase's time (phases/communication_cost.hpp): a node's
// overheads and its larger direction of bytes, the slowest node's, plus one latency; and
// where measured, the slowest packing and the slowest unpacking.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/communication_cost.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

namespace dlbkit {
namespace {

// Objects 0 and 1 on nodes 0 and 1, object 2 beside object 0; 0 -> 1 three messages of 1000
// bytes in all, 1 -> 0 one of 500, 0 -> 2 (same node) ten of 1e6.
Phase two_nodes() {
  Phase phase{.nodes = 2};
  phase.objects = {{.id = 0, .load = 1}, {.id = 1, .load = 1}, {.id = 2, .load = 1}};
  phase.node_of = {0, 1, 0};
  phase.communications = {{.from = 0, .to = 1, .messages = 3, .bytes = 1000},
                          {.from = 1, .to = 0, .messages = 1, .bytes = 500},
                          {.from = 0, .to = 2, .messages = 10, .bytes = 1e6}};
  return phase;
}

CostModel priced() {
  CostModel c;
  c.send_overhead = 10;
  c.handle_cost = 20;
  c.latency = 100;
  c.per_byte = 0.5;
  return c;
}

TEST(CommunicationCost, TheSlowestNodesOverheadsAndBytesPlusOneLatency) {
  // node 0: 3 x 10 sent + 1 x 20 received + max(1000, 500) x 0.5 = 550 ns
  // node 1: 1 x 10 sent + 3 x 20 received + max(500, 1000) x 0.5 = 570 ns, + 100 latency
  const Phase phase = two_nodes();
  EXPECT_NEAR(communication_seconds(phase, phase.node_of, priced()), 670e-9, 1e-18);
}

TEST(CommunicationCost, PackingAndUnpackingAreStepsOfTheirOwnWhereMeasured) {
  // + the slowest packing: node 0's 1000 bytes x 2 ns = 2000 ns (node 1's 500 x 2 = 1000);
  // + the slowest unpacking: node 1's 1000 bytes x 3 ns = 3000 ns (node 0's 500 x 3 = 1500).
  Phase phase = two_nodes();
  phase.message_serialize_seconds_per_byte = 2e-9;
  phase.message_deserialize_seconds_per_byte = 3e-9;
  EXPECT_NEAR(communication_seconds(phase, phase.node_of, priced()), 670e-9 + 2000e-9 + 3000e-9, 1e-17);
  // Measured or not, nothing crosses under one node.
  EXPECT_EQ(communication_seconds(phase, {0, 0, 0}, priced()), 0.0);
}

TEST(CommunicationCost, APhaseWithANegativeOrNonFiniteCostPerByteIsRefused) {
  for (double bad : {-1e-9, std::nan(""), std::numeric_limits<double>::infinity()}) {
    Phase phase = two_nodes();
    phase.message_deserialize_seconds_per_byte = bad;
    try {
      check_phase(phase, "p");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("p: message_deserialize_seconds_per_byte is "), std::string::npos)
          << e.what();
    }
  }
  Phase phase = two_nodes();
  phase.message_serialize_seconds_per_byte = 1e-10;
  phase.message_deserialize_seconds_per_byte = 0;
  EXPECT_NO_THROW(check_phase(phase, "p"));
}

TEST(CommunicationCost, NothingWithoutCrossingMessagesOrCosts) {
  const Phase phase = two_nodes();
  EXPECT_EQ(communication_seconds(phase, {0, 0, 0}, priced()), 0.0);
  EXPECT_EQ(communication_seconds(phase, phase.node_of, CostModel{}), 0.0);
  Phase silent = phase;
  silent.communications.clear();
  EXPECT_EQ(communication_seconds(silent, silent.node_of, priced()), 0.0);
}

}  // namespace
}  // namespace dlbkit
