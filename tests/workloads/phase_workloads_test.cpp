// The synthetic iterative workloads: the mesh cut into one block per node, reproducible from
// the seed, and each one's loads drifting as its description says.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/figures.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

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

/// An amr object's square in a 4 x 4 mesh of cells, in quarters of a cell (levels up to 2):
/// its id is q x 16 + the cell, q numbering the cell's quadtree by levels (children 4q + 1 + c,
/// c = 2 dy + dx).
struct Square {
  int x0, y0, side, level;
};
Square square_of(std::uint64_t id) {
  const std::uint64_t cell = id % 16;
  std::uint64_t q = id / 16;
  std::vector<std::uint64_t> path;
  for (; q > 0; q = (q - 1) / 4) path.push_back((q - 1) % 4);
  Square s{static_cast<int>(cell % 4) * 4, static_cast<int>(cell / 4) * 4, 4, static_cast<int>(path.size())};
  for (auto c = path.rbegin(); c != path.rend(); ++c) {
    s.side /= 2;
    s.x0 += static_cast<int>(*c & 1) * s.side;
    s.y0 += static_cast<int>(*c >> 1) * s.side;
  }
  return s;
}

/// Two squares share an edge of some length.
bool share_an_edge(const Square& a, const Square& b) {
  const auto overlap = [](int a0, int a1, int b0, int b1) { return std::min(a1, b1) > std::max(a0, b0); };
  return ((a.x0 + a.side == b.x0 || b.x0 + b.side == a.x0) && overlap(a.y0, a.y0 + a.side, b.y0, b.y0 + b.side)) ||
         ((a.y0 + a.side == b.y0 || b.y0 + b.side == a.y0) && overlap(a.x0, a.x0 + a.side, b.x0, b.x0 + b.side));
}

// A 4 x 4 mesh refined up to 2 levels and back: each phase's objects tile the mesh, each
// cell's objects are its 4^L children of level L, carrying factor / 4 of their parent's load
// each; a new object comes from its parent (refined) or its first child (coarsened), which
// the phase before had and this one has not; the halo links exactly the objects that share
// an edge.
TEST(PhaseWorkloads, AmrRefinesCellsIntoFourChildrenAndCoarsensThemBack) {
  for (const double factor : {1.0, 4.0, 10.0}) {
    SCOPED_TRACE(factor);
    auto workload = make("amr", {{"objects_per_node", "4"}, {"rate", "1"}, {"lifetime", "3"}, {"max_level", "2"},
                                 {"radius", "0.3"}, {"factor", std::to_string(factor)}});
    Phase phase = workload->first_phase(4, 3);  // nodes 2 x 2, blocks 2 x 2: a 4 x 4 mesh
    std::size_t refined = 0, coarsened = 0;
    for (int k = 0; k < 20; ++k) {
      SCOPED_TRACE(k);
      const Phase before = phase;
      const std::vector<ObjectOrigin> origins = k == 0 ? std::vector<ObjectOrigin>{} : workload->next_phase(phase);
      check_phase(phase, "amr");
      std::map<std::uint64_t, Square> now, then;
      int area = 0;
      for (const PhaseObject& o : phase.objects) {
        const Square s = square_of(o.id);
        EXPECT_TRUE(now.emplace(o.id, s).second) << o.id;
        area += s.side * s.side;
        EXPECT_DOUBLE_EQ(o.load, 1e-3 * std::pow(factor / 4, s.level)) << o.id;
      }
      EXPECT_EQ(area, 16 * 16);  // the objects tile the mesh (no square counted twice: ids distinct)
      for (const PhaseObject& o : before.objects) then.emplace(o.id, square_of(o.id));
      std::size_t created = 0;
      for (const auto& [id, s] : now) created += !then.contains(id);
      EXPECT_EQ(origins.size(), created);
      for (const ObjectOrigin& o : origins) {
        ASSERT_TRUE(now.contains(o.id) && !then.contains(o.id)) << o.id;
        ASSERT_TRUE(then.contains(o.from) && !now.contains(o.from)) << o.from;
        const Square child = now.at(o.id), from = then.at(o.from);
        if (from.level < child.level) {  // refined: the parent covers the child
          ++refined;
          EXPECT_TRUE(child.x0 >= from.x0 && child.x0 < from.x0 + from.side && child.y0 >= from.y0 &&
                      child.y0 < from.y0 + from.side);
        } else {  // coarsened: from the first child, at the parent's corner
          ++coarsened;
          EXPECT_GT(from.level, child.level);
          EXPECT_EQ(std::pair(from.x0, from.y0), std::pair(child.x0, child.y0));
        }
      }
      std::set<std::pair<std::uint64_t, std::uint64_t>> links, neighbours;
      for (const ObjectCommunication& c : phase.communications) {
        EXPECT_TRUE(links.emplace(std::minmax(phase.objects[c.from].id, phase.objects[c.to].id)).second);
        EXPECT_EQ(c.bytes, 2 * 8192.0);
      }
      for (const auto& [a, sa] : now)
        for (const auto& [b, sb] : now)
          if (a < b && share_an_edge(sa, sb)) neighbours.emplace(a, b);
      EXPECT_EQ(links, neighbours);
    }
    EXPECT_GT(refined, 0u);
    EXPECT_GT(coarsened, 0u);
  }
}

// Unrefined (no burst), amr's phase is the mesh every synthetic workload starts from.
TEST(PhaseWorkloads, AmrWithoutBurstsIsTheMesh) {
  const Phase amr = make("amr", {{"rate", "0"}})->first_phase(6, 1);
  const Phase mesh = make("random_walk", {{"sigma", "0"}})->first_phase(6, 1);
  ASSERT_EQ(amr.objects.size(), mesh.objects.size());
  for (std::size_t i = 0; i < amr.objects.size(); ++i) EXPECT_EQ(amr.objects[i].id, mesh.objects[i].id);
  EXPECT_EQ(amr.node_of, mesh.node_of);
  ASSERT_EQ(amr.communications.size(), mesh.communications.size());
  for (std::size_t i = 0; i < amr.communications.size(); ++i) {
    EXPECT_EQ(amr.communications[i].from, mesh.communications[i].from);
    EXPECT_EQ(amr.communications[i].to, mesh.communications[i].to);
  }
}

// Refined beyond 10^8 objects in all (3 x 10^7 cells, each split in 4 by a burst that covers the
// mesh), amr stops with the parameters to lower, before it makes the objects.
TEST(PhaseWorkloads, AmrRefinedBeyondItsObjectLimitIsRefused) {
  auto workload = make("amr", {{"objects_per_node", "1000000"}, {"rate", "1"}, {"radius", "10"}});
  try {
    workload->first_phase(30, 1);
    ADD_FAILURE() << "refined without a limit";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("phase 0 is refined to 120000000 objects"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("max_level"), std::string::npos) << e.what();
  }
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
