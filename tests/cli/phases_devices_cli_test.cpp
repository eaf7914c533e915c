// dlbkit phases --devices: each mapping judged in the devices model (a node's time the best
// split of its objects' work between its processor and its device), beside the bound no mapping
// beats; the strategies told the nodes' effective speeds unless --device-blind; bad input as one
// line with status 2.

#include "../support/cli_json.hpp"
#include "../support/usage_error.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;
using dlbkit::test::run_cli;
using dlbkit::test::with;

// 8 nodes, node 0 with a device 8x its processor, 90% of every object offloadable.
const std::vector<std::string> kGreedy{"phases", "-s",        "greedy",   "-w",        "hotspot", "-t",
                                       "complete:8", "--devices", "8,0*7", "--offload", "0.9"};

TEST(CliPhasesDevices, EachPhaseIsJudgedInTheModel) {
  const auto j = cli_json(with(kGreedy, {"--json"}));
  EXPECT_EQ(j["inputs"]["devices"], nlohmann::json::array({8.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}));
  EXPECT_EQ(j["inputs"]["offload"], 0.9);
  EXPECT_EQ(j["inputs"]["device_blind"], false);
  const auto& p = j["phases"][0];
  ASSERT_TRUE(p.contains("device_time_after"));
  // One phase: the run's figures are its own.
  EXPECT_EQ(j["device_time_before"], p["device_time"]);
  EXPECT_EQ(j["device_time_after"], p["device_time_after"]);
  EXPECT_EQ(j["device_bound"], p["device_bound"]);
  EXPECT_EQ(j["device_seconds"], p["device_time"]);
  EXPECT_LE(p["device_bound"].get<double>(), p["device_time_after"].get<double>());
  EXPECT_LT(p["device_time_after"].get<double>(), p["device_time"].get<double>());

  // Several phases, objects created and destroyed: a time for each phase, the run's sum.
  const auto amr = cli_json({"phases", "-s", "refine", "-w", "amr", "-t", "complete:4", "--phases", "6",
                             "--workload-param", "rate=1", "--devices", "4,0,4,0", "--json"});
  double sum = 0;
  for (const auto& phase : amr["phases"]) sum += phase.at("device_time").get<double>();
  EXPECT_EQ(amr["phases"].size(), 6u);
  EXPECT_DOUBLE_EQ(amr["device_seconds"].get<double>(), sum);
  EXPECT_EQ(amr["inputs"]["offload"], 1.0);

  const auto text = run_cli(kGreedy);
  EXPECT_NE(text.out.find("devices: time"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("under the devices"), std::string::npos) << text.out;

  const auto plain = cli_json({"phases", "-s", "greedy", "-w", "hotspot", "-t", "complete:8", "--json"});
  EXPECT_FALSE(plain.contains("device_time_after"));
  EXPECT_FALSE(plain["inputs"].contains("devices"));
  EXPECT_FALSE(plain["phases"][0].contains("device_time"));
}

// Told the nodes' effective speeds, greedy gives the device node its share and comes near the
// bound; blind to the device, it deals every node an eighth and the other nodes wait at about 2x.
TEST(CliPhasesDevices, ADeviceAwarePlacementBeatsABlindOne) {
  const auto aware = cli_json(with(kGreedy, {"--json"}));
  const auto blind = cli_json(with(kGreedy, {"--device-blind", "--json"}));
  EXPECT_EQ(blind["inputs"]["device_blind"], true);
  const double bound = aware["device_bound"].get<double>();
  EXPECT_EQ(blind["device_bound"].get<double>(), bound);
  EXPECT_LE(aware["device_time_after"].get<double>(), 1.1 * bound);
  EXPECT_GT(blind["device_time_after"].get<double>(), 1.5 * bound);
}

TEST(CliPhasesDevices, BadInputIsOneLine) {
  const std::vector<std::string> base{"phases", "-s", "greedy", "-w", "hotspot", "-t", "complete:4"};
  for (const char* devices : {"8,-1,0,0", "8,nan,0,0", "8,0,0,", "8*0,0*4", "8*x", "inf,0,0,0"})
    expect_usage_error(with(base, {"--devices", devices}),
                       {"--devices", "is not accepted; accepted: one speedup per node, each a number >= 0"});
  expect_usage_error(with(base, {"--devices", "8,0*4"}), {"--devices: 5 device speedups for 4 nodes"});
  for (const char* share : {"1.5", "-0.1", "nan", "half"})
    expect_usage_error(with(base, {"--devices", "8,0,0,0", "--offload", share}),
                       {"--offload: '" + std::string(share) + "' is not accepted; accepted: a number in [0, 1]"});
  expect_usage_error(with(base, {"--offload", "0.5"}), {"--offload is given without --devices"});
  expect_usage_error(with(base, {"--device-blind"}), {"--device-blind is given without --devices"});
}

}  // namespace
