// Every phase strategy over amr runs whose objects are created and destroyed phase after phase,
// at the ends of amr's parameter ranges: each phase's objects, ids distinct, each mapped once to
// a node of the topology, none left unplaced, the load conserved by each balancing step.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/topology/generators.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

namespace dlbkit {
namespace {

/// amr, keeping each phase as the run hands it on: with the mapping its balancing step gave.
class Recorded : public PhaseWorkload {
public:
  explicit Recorded(const std::map<std::string, std::string>& params)
      : amr_(builtin_phase_workloads().configure("amr", params).create()) {}
  Phase first_phase(std::size_t nodes, std::uint64_t seed) override { return amr_->first_phase(nodes, seed); }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    handed.push_back(phase);
    return amr_->next_phase(phase);
  }
  std::vector<Phase> handed;

private:
  std::unique_ptr<PhaseWorkload> amr_;
};

Topology topology_for(const PhaseStrategyInfo& s) {
  Topology complete = parse_topology("complete:4");
  if (!s.check_topology) return complete;
  try {
    s.check_topology(complete);
    return complete;
  } catch (const InputError&) {
    return parse_topology("hypercube:2");
  }
}

TEST(AmrLiveness, EveryStrategyMapsEachObjectOfEachPhaseOnceAtTheEndsOfAmrsRanges) {
  // 16 cells on 4 nodes; 12 phases, balanced after each.
  const std::vector<std::map<std::string, std::string>> ends = {
      // a burst of one phase: cells refined and coarsened every phase
      {{"rate", "1"}, {"lifetime", "1"}, {"radius", "0.5"}, {"max_level", "20"}, {"factor", "1"}},
      {{"rate", "1"}, {"lifetime", "2"}, {"radius", "0.3"}, {"max_level", "2"}, {"factor", "1000"}},
      {{"rate", "1"}, {"lifetime", "1000000000"}, {"radius", "10"}, {"max_level", "3"}},  // everything, to the top
      {{"rate", "1"}, {"radius", "0.000001"}, {"max_level", "20"}},  // a burst covers no cell's centre
      {{"rate", "0"}},
  };
  for (const auto& s : builtin_phase_strategies().all())
    for (const bool as_protocol : {false, true}) {
      if (as_protocol && !s.rank_protocol) continue;
      for (std::size_t e = 0; e < ends.size(); ++e) {
        SCOPED_TRACE(s.name + (as_protocol ? " as protocol" : "") + ", ends " + std::to_string(e));
        std::map<std::string, std::string> params = ends[e];
        params["objects_per_node"] = "4";
        Recorded workload(params);
        const Topology topology = topology_for(s);
        const PhaseRunResult r = run_phases(builtin_phase_strategies().configure(s.name, {}), workload, topology,
                                            {.phases = 12, .rebalance = {.seed = 5, .as_protocol = as_protocol}});
        std::vector<Phase> phases = std::move(workload.handed);
        phases.push_back(r.last);
        ASSERT_EQ(phases.size(), 12u);
        std::size_t created = 0, destroyed = 0;
        for (std::size_t k = 0; k < phases.size(); ++k) {
          SCOPED_TRACE(k);
          const Phase& phase = phases[k];
          const PhaseStep& step = r.steps[k];
          ASSERT_TRUE(step.rebalanced.has_value());
          EXPECT_EQ(step.objects, phase.objects.size());
          EXPECT_EQ(phase.node_of, step.rebalanced->mapping);
          ASSERT_EQ(step.rebalanced->mapping.size(), phase.objects.size());
          for (const NodeId v : step.rebalanced->mapping) EXPECT_LT(v, topology.size());
          std::set<std::uint64_t> ids;
          for (const PhaseObject& o : phase.objects) EXPECT_TRUE(ids.insert(o.id).second) << o.id;
          EXPECT_TRUE(step.rebalanced->unplaced.empty());
          EXPECT_NEAR(step.rebalanced->after.mean_load, step.figures.mean_load, 1e-12 * step.figures.mean_load);
          if (k > 0) {
            EXPECT_EQ(step.objects, r.steps[k - 1].objects + step.objects_created - step.objects_destroyed);
          }
          if (params.contains("factor") && params.at("factor") == "1") {  // a child: a quarter of its parent
            EXPECT_NEAR(step.figures.mean_load * 4, 16e-3, 1e-15);
          }
          created += step.objects_created;
          destroyed += step.objects_destroyed;
        }
        EXPECT_EQ(r.objects_created, created);
        EXPECT_EQ(r.objects_destroyed, destroyed);
        if (e <= 2) {  // objects came and went
          EXPECT_GT(created, 0u);
          EXPECT_GT(destroyed, 0u);
        } else {
          EXPECT_EQ(created + destroyed, 0u);
        }
      }
    }
}

}  // namespace
}  // namespace dlbkit
