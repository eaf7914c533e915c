// The synthetic iterative workloads: the mesh cut into one block per node, reproducible from
// the seed, and each one's loads drifting as its description says.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/figures.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace dlbkit {
namespace {

std::unique_ptr<PhaseWorkload> make(const std::string& name, std::map<std::string, std::string> params = {}) {
  return builtin_phase_workloads().configure(name, params).create();
}

double total_load(const Phase& phase) {
  return std::accumulate(phase.objects.begin(), phase.objects.end(), 0.0,
                         [](double sum, const PhaseObject& o) { return sum + o.load; });
}

std::size_t heaviest(const Phase& phase) {
  return static_cast<std::size_t>(std::max_element(phase.objects.begin(), phase.objects.end(),
                                                   [](const auto& a, const auto& b) { return a.load < b.load; }) -
                                  phase.objects.begin());
}

TEST(PhaseWorkloads, EachNodeHoldsOneBlockOfTheMeshWithAHaloBetweenNeighbours) {
  for (const auto& info : builtin_phase_workloads().all()) {
    SCOPED_TRACE(info.name);
    auto workload = make(info.name, {{"objects_per_node", "12"}});
    const Phase phase = workload->first_phase(6, 1);  // nodes 3 x 2, blocks 4 x 3: a 12 x 6 mesh
    check_phase(phase, "the first phase");
    ASSERT_EQ(phase.objects.size(), 72u);
    std::vector<int> per_node(6, 0);
    for (NodeId v : phase.node_of) ++per_node[v];
    EXPECT_EQ(per_node, std::vector<int>(6, 12));
    EXPECT_EQ(phase.communications.size(), 11u * 6 + 12 * 5);  // right and down neighbours
    for (const auto& o : phase.objects) EXPECT_GT(o.load, 0);
  }
}

TEST(PhaseWorkloads, TheSameSeedGivesTheSamePhasesAndAnotherSeedOthers) {
  for (const auto& info : builtin_phase_workloads().all()) {
    SCOPED_TRACE(info.name);
    auto a = make(info.name), b = make(info.name), c = make(info.name);
    Phase pa = a->first_phase(16, 7), pb = b->first_phase(16, 7), pc = c->first_phase(16, 8);
    for (int k = 0; k < 5; ++k) {
      a->next_phase(pa);
      b->next_phase(pb);
      c->next_phase(pc);
    }
    EXPECT_EQ(total_load(pa), total_load(pb));
    EXPECT_NE(total_load(pa), total_load(pc));
  }
}

TEST(PhaseWorkloads, TheHotSpotMovesAtItsSpeed) {
  auto workload = make("hotspot", {{"noise", "0"}, {"speed", "2"}});
  Phase phase = workload->first_phase(64, 3);  // an 80 x 80 mesh
  const std::size_t before = heaviest(phase);
  for (int k = 0; k < 10; ++k) workload->next_phase(phase);
  const std::size_t after = heaviest(phase);
  const auto x = [](std::size_t i) { return static_cast<long>(i % 80); };
  const auto y = [](std::size_t i) { return static_cast<long>(i / 80); };
  // 20 objects along the diagonal: about 14 in x and in y (wrapping around).
  EXPECT_NEAR(static_cast<double>((x(after) - x(before) + 80) % 80), 14.1, 1.5);
  EXPECT_NEAR(static_cast<double>((y(after) - y(before) + 80) % 80), 14.1, 1.5);
}

TEST(PhaseWorkloads, ParticlesAreConservedWhileTheCloudDrifts) {
  auto workload = make("particles", {{"base_load", "1ns"}});
  Phase phase = workload->first_phase(16, 5);
  const double total = total_load(phase);
  const std::size_t start = heaviest(phase);
  for (int k = 0; k < 8; ++k) workload->next_phase(phase);
  EXPECT_NEAR(total_load(phase), total, 1e-9 * total);
  EXPECT_NE(heaviest(phase), start);
}

TEST(PhaseWorkloads, RefinementMultipliesLoadsByWholeLevelsUpToTheMaximum) {
  auto workload = make("amr", {{"rate", "1"}, {"max_level", "2"}, {"factor", "4"}});
  Phase phase = workload->first_phase(16, 2);
  for (int k = 0; k < 6; ++k) workload->next_phase(phase);
  bool refined = false;
  for (const auto& o : phase.objects) {
    const double level = std::log(o.load / 1e-3) / std::log(4.0);
    EXPECT_NEAR(level, std::round(level), 1e-9);
    EXPECT_LE(std::round(level), 2);
    refined = refined || level > 0.5;
  }
  EXPECT_TRUE(refined);
}

TEST(PhaseWorkloads, ARandomWalkStaysWithinItsSpread) {
  auto workload = make("random_walk", {{"sigma", "2"}, {"spread", "10"}});
  Phase phase = workload->first_phase(4, 1);
  for (int k = 0; k < 50; ++k) workload->next_phase(phase);
  for (const auto& o : phase.objects) {
    EXPECT_GE(o.load, 1e-4 * (1 - 1e-12));
    EXPECT_LE(o.load, 1e-2 * (1 + 1e-12));
  }
}

TEST(PhaseWorkloads, BadParametersAreRefused) {
  EXPECT_THROW(make("particles", {{"velocity", "0.8"}, {"diffusion", "0.5"}}), InputError);
  EXPECT_THROW(make("hotspot", {{"objects_per_node", "0"}}), InputError);
  EXPECT_THROW(make("hotspot", {{"objects_per_node", "1000000"}})->first_phase(1000, 1), InputError);
}

}  // namespace
}  // namespace dlbkit
