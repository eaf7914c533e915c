// vt's LB data as a run's workload: one phase, or every phase replayed by object id.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/vt_workloads.hpp>

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

TEST(VtWorkloads, AReplayPlaysEachPhasesLoadsOnTheFirstPhasesObjects) {
  const VtDataSet data = two_phases();
  VtReplay replay(data);
  Phase phase = replay.first_phase(2, 1);
  EXPECT_EQ(phase.objects[0].load, 1);
  replay.next_phase(phase);
  EXPECT_EQ(phase.objects[0].id, 1u);
  EXPECT_EQ(phase.objects[0].load, 6);
  EXPECT_EQ(phase.objects[1].load, 5);
  VtPhaseWorkload one(vt_phase_or_first(data, 7).phase);
  EXPECT_EQ(one.first_phase(2, 1).objects[0].load, 5);
  EXPECT_EQ(&vt_phase_or_first(data, std::nullopt), &data.phases[0]);
}

TEST(VtWorkloads, RefusesOtherObjectsNoPhaseAndAnotherNodeCount) {
  VtDataSet data = two_phases();
  EXPECT_EQ(vt_topology("", data).spec(), "complete:2");
  EXPECT_THROW(vt_topology("ring:3", data), InputError);
  data.phases[1].phase.objects[0].id = 3;
  EXPECT_THROW(VtReplay{data}, InputError);
  data.phases.clear();
  EXPECT_THROW(VtReplay{data}, InputError);
  EXPECT_THROW(vt_phase_or_first(data, std::nullopt), InputError);
}

}  // namespace
}  // namespace dlbkit
