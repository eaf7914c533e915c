// vt's LB data as a run's workload: one phase, or every phase replayed, objects followed by id.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/phases/vt_workloads.hpp>
#include <dlbkit/topology/generators.hpp>

#include <gtest/gtest.h>

namespace dlbkit {
namespace {

VtDataSet two_phases() {
  VtDataSet data{.stem = "lb/run", .ranks = 2};
  for (std::int64_t id : {4, 7}) {
    VtPhase& p = data.phases.emplace_back();
    p.id = id;
    p.phase = {.nodes = 2, .node_of = {0, 1}};
    // Phase 7 lists the objects in the other order: the replay matches them by id.
    p.phase.objects = id == 4 ? std::vector<PhaseObject>{{.id = 1, .load = 1}, {.id = 2, .load = 2}}
                              : std::vector<PhaseObject>{{.id = 2, .load = 5}, {.id = 1, .load = 6}};
  }
  return data;
}

TEST(VtWorkloads, AReplayPlaysEachPhaseAsItsFilesListIt) {
  const VtDataSet data = two_phases();
  VtReplay replay(data);
  Phase phase = replay.first_phase(2, 1);
  EXPECT_EQ(phase.objects[0].load, 1);
  EXPECT_TRUE(replay.next_phase(phase).empty());  // vt's files name no origin
  EXPECT_EQ(phase.objects[0].id, 2u);
  EXPECT_EQ(phase.objects[0].load, 5);
  EXPECT_EQ(phase.objects[1].load, 6);
  VtPhaseWorkload one(vt_phase_or_first(data, 7).phase);
  EXPECT_EQ(one.first_phase(2, 1).objects[0].load, 5);
  EXPECT_EQ(&vt_phase_or_first(data, std::nullopt), &data.phases[0]);
}

// Phase 7 lists object 3 in place of 1 (on rank 1): run_phases keeps 2 where the strategy put
// it, by id, and 3 starts on the rank of its file.
TEST(VtWorkloads, AReplayFollowsATaskSetThatChanges) {
  VtDataSet data = two_phases();
  data.phases[1].phase.objects[1].id = 3;
  VtReplay replay(data);
  const PhaseRunResult r = run_phases(builtin_phase_strategies().configure("greedy", {}), replay,
                                      vt_topology("", data), {.phases = 2, .every = 1});
  const NodeId two = r.steps[0].rebalanced->mapping[1];
  EXPECT_EQ(r.steps[1].objects_created, 1u);
  EXPECT_EQ(r.steps[1].objects_destroyed, 1u);
  // Phase 7 ran with 2 (load 5) on its node after phase 4 and 3 (load 6) on rank 1.
  EXPECT_DOUBLE_EQ(r.steps[1].figures.max_load, two == 1 ? 11.0 : 6.0);
  EXPECT_DOUBLE_EQ(r.steps[1].unbalanced_max_load, 11.0);  // 2 on rank 1 as in phase 4's files
}

TEST(VtWorkloads, RefusesNoPhaseAndAnotherNodeCount) {
  VtDataSet data = two_phases();
  EXPECT_EQ(vt_topology("", data).spec(), "complete:2");
  EXPECT_THROW(vt_topology("ring:3", data), InputError);
  data.phases.clear();
  EXPECT_THROW(VtReplay{data}, InputError);
  EXPECT_THROW(vt_phase_or_first(data, std::nullopt), InputError);
}

}  // namespace
}  // namespace dlbkit
