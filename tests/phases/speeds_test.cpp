// Nodes that differ in speed (phases/speeds.hpp): the speeds as the user gives them, and the
// strategies that weigh them balancing times, alpha x load, within 10% of total load / total
// speed.
#include "../support/error_of.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/flows.hpp>
#include <dlbkit/phases/lower_bound.hpp>
#include <dlbkit/phases/milp.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
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

// The flow strategies run the heterogeneous schemes (flows.hpp, FlowCapacities), hierarchical
// shares the load between its groups by their speeds, partition maps onto Scotch's weighted
// complete graph: each within 10% of total load / total speed, where balancing loads leaves
// the slow node at 1.5x (and the mix of four at 2.1x).
TEST(Speeds, TheFlowStrategiesHierarchicalAndPartitionBalanceTimes) {
  for (const std::vector<double>& speeds : {std::vector<double>{1, 2}, std::vector<double>{1, 2, 0.5, 4}})
    for (const auto& [name, params] : std::vector<std::pair<std::string, std::map<std::string, std::string>>>{
             {"diffusion", {}}, {"sos", {}}, {"chebyshev", {}}, {"dimension_exchange", {}},
             {"hierarchical", {}}, {"hierarchical", {{"inner", "greedy"}}}, {"hierarchical", {{"group", "1"}}},
             {"partition", {}}})
      EXPECT_LE(balanced_over_ideal(name, params, speeds), 1.1) << name << " on " << speeds.size() << " nodes";
}

// Every flow strategy's loads tend to c_v sum l / sum c on a ring of nodes at speeds 1, 2, 3,
// 4 (the ideal flow, without objects): the rounds stop within their tolerance of it.
TEST(Speeds, TheHeterogeneousFlowEndsInProportionToTheSpeeds) {
  Phase phase{.nodes = 4, .objects = {{.id = 0, .load = 10}}, .node_of = {0}};
  set_speeds(phase, {1, 2, 3, 4}, "speeds");
  const Topology ring = parse_topology("ring:4");
  const FlowCapacities c = flow_capacities(phase);
  EXPECT_EQ(c.of, (std::vector<double>{1, 2, 3, 4}));
  EXPECT_EQ(c.total, 10);
  for (const auto& betas : {std::vector<double>{1.0}, std::vector<double>{1.0, 1.3}}) {
    PhaseContext ctx(phase, ring, {}, std::numeric_limits<double>::infinity(), 1);
    const IdealFlow flow = polynomial_flow(ctx, 0.3, betas, 10'000, 1e-6, c);
    for (NodeId v = 0; v < 4; ++v) EXPECT_NEAR(flow.loads[v], c.of[v], 1e-4) << v;
  }
  PhaseContext ctx(phase, ring, {}, std::numeric_limits<double>::infinity(), 1);
  const IdealFlow flow = exchange_flow(ctx, edge_coloring(ring), 0.5, 10'000, 1e-6, c);
  for (NodeId v = 0; v < 4; ++v) EXPECT_NEAR(flow.loads[v], c.of[v], 1e-4) << v;
  // Equal speeds: no capacities, the schemes of equal nodes.
  set_speeds(phase, {2, 2, 2, 2}, "speeds");
  EXPECT_TRUE(flow_capacities(phase).empty());
}

// The lower bound and the exact reference weigh times: at speeds 1 and 3 the least makespan of
// loads 4, 2, 2, 1, 1 is 8 / 3 (8 on the fast node, 2 on the slow one), above total / total
// speed, 10 / 4. On loads alone the bound would be 5, above that makespan.
TEST(Speeds, TheLowerBoundAndTheExactReferenceWeighTimes) {
  Phase phase{.nodes = 2};
  for (const double load : {4.0, 2.0, 2.0, 1.0, 1.0}) {
    phase.objects.push_back({.id = phase.objects.size(), .load = load});
    phase.node_of.push_back(0);
  }
  set_speeds(phase, {1, 3}, "speeds");
  EXPECT_EQ(max_load_lower_bound(phase, std::numeric_limits<double>::infinity()), 2.5);
  const MilpResult best = solve_milp(phase, {.time_limit = 30});
  ASSERT_TRUE(best.optimal);
  EXPECT_NEAR(best.max_load, 8.0 / 3, 1e-12);
  const std::vector<double> loads = node_loads(phase, best.mapping);
  EXPECT_EQ(loads[1], 8);
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
