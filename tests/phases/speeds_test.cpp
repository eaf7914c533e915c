// Nodes that differ in speed (phases/speeds.hpp): the speeds as the user gives them, and the
// strategies that weigh them balancing times, alpha x load, within 10% of total load / total
// speed.
#include "../support/error_of.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <numeric>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

using dlbkit::test::error_of;

TEST(Speeds, ParsesNumbersAboveZeroAndRefusesTheRestNamingThem) {
  EXPECT_EQ(parse_speeds("1,2", "--speeds"), (std::vector<double>{1, 2}));
  EXPECT_EQ(parse_speeds("0.5", "--speeds"), (std::vector<double>{0.5}));
  for (const auto& bad : std::vector<std::pair<std::string, std::string>>{
           {"0", "0"}, {"1,nan", "nan"}, {"-1", "-1"}, {"inf", "inf"}, {"1,", ""}, {"", ""}, {"1;2", "1;2"}})
    EXPECT_EQ(error_of([&] { parse_speeds(bad.first, "--speeds"); }),
              fmt::format("--speeds '{}': the speed '{}' is not accepted; accepted: one speed per node, each a number "
                          "> 0, comma-separated, e.g. 1,2",
                          bad.first, bad.second));
  Phase phase{.nodes = 3};
  EXPECT_EQ(error_of([&] { set_speeds(phase, {1, 2}, "--speeds"); }),
            "--speeds: 2 speeds for 3 nodes; accepted: one speed per node, each a number > 0, comma-separated, "
            "e.g. 1,2");
  EXPECT_EQ(error_of([&] { set_speeds(phase, {1, std::nan(""), 2}, "--speeds"); }),
            "--speeds: node 1's speed is nan; accepted: one speed per node, each a number > 0, comma-separated, "
            "e.g. 1,2");
  set_speeds(phase, {1, 2, 4}, "--speeds");
  EXPECT_EQ(phase.node_alpha, (std::vector<double>{1, 0.5, 0.25}));
  EXPECT_EQ(total_speed(phase), 7);
}

// `objects` objects of random loads, all on node 0, on nodes of the speeds given.
Phase on_node_zero(std::size_t objects, const std::vector<double>& speeds) {
  Phase phase{.nodes = speeds.size()};
  Rng rng(7, 0);
  for (std::size_t i = 0; i < objects; ++i) {
    phase.objects.push_back({.id = i, .load = 0.5 + rng.uniform()});
    phase.node_of.push_back(0);
  }
  set_speeds(phase, speeds, "speeds");
  return phase;
}

double balanced_time(const Phase& phase) {
  double total = 0;
  for (const PhaseObject& o : phase.objects) total += o.load;
  return total / total_speed(phase);
}

double balanced_over_ideal(const std::string& name, const std::map<std::string, std::string>& params,
                           const std::vector<double>& speeds) {
  const Phase phase = on_node_zero(300, speeds);
  const Topology topology = parse_topology(fmt::format("complete:{}", speeds.size()));
  const Rebalanced r = rebalance(builtin_phase_strategies().configure(name, params), phase, topology, {});
  EXPECT_TRUE(r.max_work_after);
  return r.max_work_after.value_or(0) / balanced_time(phase);
}

// The target: two nodes at speeds 1 and 2 (and, for the central strategies, a mix of
// four), the busiest node's time within 10% of total load / total speed. Balancing loads
// instead leaves the slow node at 1.5x.
TEST(Speeds, TheStrategiesThatWeighSpeedsBalanceTimes) {
  for (const std::vector<double>& speeds : {std::vector<double>{1, 2}, std::vector<double>{1, 2, 0.5, 4}})
    for (const auto& [name, params] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
             {"greedy", {}}, {"greedy", {{"improve", "true"}}}, {"refine", {}}})
      EXPECT_LE(balanced_over_ideal(name, params, speeds), 1.1) << name << " on " << speeds.size() << " nodes";
  EXPECT_LE(balanced_over_ideal("tempered", {}, {1, 2}), 1.1);
}

// An object as heavy as the rest together goes where it ends first: on the fast node.
TEST(Speeds, GreedyPutsAHeavyObjectWhereItEndsFirst) {
  Phase phase{.nodes = 2, .objects = {{.id = 0, .load = 10}, {.id = 1, .load = 1}}, .node_of = {0, 0}};
  set_speeds(phase, {1, 2}, "speeds");
  const Rebalanced r = rebalance(builtin_phase_strategies().configure("greedy", {}), phase,
                                 parse_topology("complete:2"), {});
  EXPECT_EQ(r.mapping, (std::vector<NodeId>{1, 0}));
  EXPECT_EQ(*r.max_work_after, 5);
}

// The speeds travel in vt data as rank_alpha, written and read back.
TEST(Speeds, VtDataCarriesThemAsRankAlpha) {
  const std::filesystem::path dir = test::temp_dir("speeds_vt");
  std::filesystem::create_directories(dir);
  const std::string stem = (dir / "run").string();
  Phase phase = on_node_zero(4, {1, 2});
  phase.node_of = {0, 1, 0, 1};
  write_vt_phases({phase, phase}, stem);
  const VtDataSet data = read_vt_data(stem);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(data.phases.size(), 2u);
  EXPECT_EQ(data.phases[1].phase.node_alpha, (std::vector<double>{1, 0.5}));
}

}  // namespace
}  // namespace dlbkit
