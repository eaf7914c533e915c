// A phase's loads in parts (vt's `subphases`): read and written, the phase's time over them,
// and the subphase-aware criterion of greedy and refine.

#include "../support/vt_refused.hpp"
#include "../support/command.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/phases/vt_workloads.hpp>
#include <dlbkit/topology/generators.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>

namespace dlbkit {
namespace {

using test::expect_refused;

namespace fs = std::filesystem;
using json = nlohmann::json;

// scripts/subphase-data.py's data set: 8 ranks, two anti-correlated subphases (tests/data/vt/README.md).
const std::string kSubphases = std::string(DLBKIT_TEST_DATA) + "/vt/subphases";

json task(std::uint64_t id, int rank, double time, const std::vector<std::pair<int, double>>& parts) {
  json t{{"entity", {{"home", rank}, {"id", id}, {"migratable", true}, {"type", "object"}}},
         {"node", rank},
         {"resource", "cpu"},
         {"time", time}};
  if (!parts.empty()) {
    t["subphases"] = json::array();
    for (const auto& [s, x] : parts) t["subphases"].push_back({{"id", s}, {"time", x}});
  }
  return t;
}

/// Data files of one phase, rank r's tasks `tasks[r]`; returns the stem.
std::string data_files(const std::string& name, const std::vector<json>& tasks) {
  const std::string dir = test::temp_dir("subphase-" + name);
  fs::create_directories(dir);
  for (std::size_t r = 0; r < tasks.size(); ++r)
    std::ofstream(fmt::format("{}/d.{}.json", dir, r))
        << json{{"phases", json::array({{{"id", 0}, {"tasks", tasks[r]}}})}}.dump();
  return dir + "/d";
}

/// Two ranks: rank 0's tasks as given, rank 1 one task of 3 s in two subphases (1 + 2).
std::string with_rank0(const std::string& name, const json& tasks) {
  return data_files(name, {tasks, json::array({task(10, 1, 3.0, {{0, 1.0}, {1, 2.0}})})});
}

TEST(Subphases, ReadAsATableWithZerosForSubphasesATaskDoesNotList) {
  // Task 0 lists subphase 1 only (vt's reader: a missing id is 0); task 1 has none and no time.
  const VtDataSet data =
      read_vt_data(with_rank0("table", json::array({task(0, 0, 4.0, {{1, 4.0}}), task(1, 0, 0.0, {})})));
  const Phase& phase = vt_phase(data, 0).phase;
  EXPECT_EQ(phase.subphases, 2u);
  EXPECT_EQ(phase.subphase_loads, (std::vector<double>{0, 4, 0, 0, 1, 2}));
  EXPECT_TRUE(data.warnings.empty());
  // Rank 0: (0, 4), rank 1: (1, 2): the time is 1 + 4, above the max load 4.
  const PhaseFigures figures = phase_figures(phase, phase.node_of);
  EXPECT_DOUBLE_EQ(figures.max_load, 4.0);
  EXPECT_DOUBLE_EQ(figures.subphase_time, 5.0);
}

TEST(Subphases, APhaseWithoutThemHasItsMaxLoadAsItsTime) {
  const VtDataSet data = read_vt_data(std::string(DLBKIT_TEST_DATA) + "/vt/toy_mem");
  const Phase& phase = vt_phase(data, 0).phase;
  EXPECT_EQ(phase.subphases, 0u);
  EXPECT_TRUE(phase.subphase_loads.empty());
  EXPECT_EQ(phase_figures(phase, phase.node_of).subphase_time, 190.0);
}

TEST(Subphases, WrittenAndReadBackTheSame) {
  const VtDataSet data = read_vt_data(kSubphases);
  const VtPhase& vt = vt_phase(data, 0);
  std::vector<NodeId> mapping = vt.phase.node_of;
  std::swap(mapping.front(), mapping.back());
  // write_vt_data keeps each task as read; write_vt_phases writes the table.
  const std::string dir = test::temp_dir("subphase-written");
  fs::create_directories(dir);
  write_vt_data(data, 0, mapping, dir + "/kept");
  Phase moved = vt.phase;
  moved.node_of = mapping;
  write_vt_phases({moved}, dir + "/table");
  for (const char* stem : {"/kept", "/table"}) {
    const VtDataSet again = read_vt_data(dir + stem);
    const Phase& back = vt_phase(again, 0).phase;
    ASSERT_EQ(back.subphases, 2u) << stem;
    // Objects come back in the order of the files: compare by id.
    for (ObjectIndex i = 0; i < back.objects.size(); ++i) {
      const auto j = static_cast<ObjectIndex>(
          std::find_if(vt.phase.objects.begin(), vt.phase.objects.end(),
                       [&](const PhaseObject& o) { return o.id == back.objects[i].id; }) -
          vt.phase.objects.begin());
      EXPECT_EQ(back.node_of[i], mapping[j]);
      for (std::size_t s = 0; s < 2; ++s)
        EXPECT_EQ(back.subphase_loads[i * 2 + s], vt.phase.subphase_loads[j * 2 + s]) << stem << " object " << i;
    }
  }
}

TEST(Subphases, AReplayTakesEachPhasesSubphases) {
  // One rank, two objects, listed in another order in phase 1, whose subphases differ from phase 0's.
  const std::string dir = test::temp_dir("subphase-replay");
  fs::create_directories(dir);
  const json phase0 = {{"id", 0}, {"tasks", {task(0, 0, 2.0, {{0, 2.0}}), task(1, 0, 1.0, {{0, 1.0}})}}};
  const json phase1 = {{"id", 1}, {"tasks", {task(1, 0, 4.0, {{0, 1.0}, {1, 3.0}}), task(0, 0, 1.0, {{1, 1.0}})}}};
  std::ofstream(dir + "/d.0.json") << json{{"phases", {phase0, phase1}}}.dump();
  const VtDataSet data = read_vt_data(dir + "/d");
  VtReplay replay(data);
  Phase phase = replay.first_phase(1, 1);
  EXPECT_EQ(phase_time(phase, phase.node_of), 3.0);
  replay.next_phase(phase);
  ASSERT_EQ(phase.subphases, 2u);
  // The phase is phase 1 as its file lists it (run_phases matches objects by id): object 1's
  // row, then object 0's.
  ASSERT_EQ(phase.objects[0].id, 1u);
  EXPECT_EQ(phase.subphase_loads, (std::vector<double>{1, 3, 0, 1}));
  EXPECT_EQ(phase_time(phase, phase.node_of), 5.0);
}

TEST(Subphases, SumsWithinRoundingOfTheTimeAreAccepted) {
  // vt adds each timing to the task's time and to its subphase's, in two sums.
  const double time = 0.1 + 0.2 + 0.3;  // 0.6000000000000001
  const VtDataSet data =
      read_vt_data(with_rank0("rounding", json::array({task(0, 0, time, {{0, 0.1}, {1, 0.2 + 0.3}})})));
  EXPECT_NE(0.1 + (0.2 + 0.3), time);
  EXPECT_TRUE(data.warnings.empty());
}

TEST(Subphases, ATimeEqualToOneSubphaseIsVtsFocusedSubphaseAndAWarning) {
  const VtDataSet data = read_vt_data(with_rank0(
      "focused", json::array({task(0, 0, 2.0, {{0, 5.0}, {1, 2.0}}), task(1, 0, 1.0, {{0, 1.0}, {1, 7.0}})})));
  ASSERT_EQ(data.warnings.size(), 1u);
  EXPECT_NE(data.warnings[0].find("2 tasks"), std::string::npos) << data.warnings[0];
  EXPECT_NE(data.warnings[0].find("focused subphase"), std::string::npos) << data.warnings[0];
  EXPECT_NE(data.warnings[0].find("d.0.json /phases/0/tasks/0"), std::string::npos) << data.warnings[0];
  const Phase& phase = vt_phase(data, 0).phase;
  EXPECT_EQ(phase.objects[0].load, 2.0);  // the time as the load, the subphases as read
  EXPECT_EQ(phase.subphase_loads[0], 5.0);
}

TEST(Subphases, BadSubphasesAreRefusedNamingThePlace) {
  expect_refused(with_rank0("sum", json::array({task(0, 0, 3.0, {{0, 1.0}, {1, 1.5}})})),
                 {"d.0.json", "/phases/0/tasks/0/subphases", "sum to 2.5 seconds, not the task's time 3",
                  "accepted: subphase times that sum to the task's time"});
  expect_refused(with_rank0("negative", json::array({task(0, 0, 1.0, {{0, 2.0}, {1, -1.0}})})),
                 {"/phases/0/tasks/0/subphases/1/time is -1.0", "accepted: a number of seconds in [0"});
  expect_refused(with_rank0("twice", json::array({task(0, 0, 2.0, {{0, 1.0}, {0, 1.0}})})),
                 {"/phases/0/tasks/0/subphases/1/id is 0, as an earlier subphase", "each subphase id once"});
  expect_refused(with_rank0("id", json::array({task(0, 0, 1.0, {{-1, 1.0}})})),
                 {"/phases/0/tasks/0/subphases/0/id is -1", "an integer in [0, 65534]"});
  expect_refused(with_rank0("none", json::array({task(0, 0, 1.0, {})})),
                 {"d.0.json: /phases/0/tasks/0 has no subphases but a time of 1 seconds"});
}

TEST(Subphases, CheckPhaseRefusesATableOfAnotherSizeOrANonFiniteLoad) {
  Phase phase{.nodes = 1};
  phase.objects = {{.id = 0, .load = 1}};
  phase.node_of = {0};
  phase.subphases = 2;
  phase.subphase_loads = {1.0};
  EXPECT_THROW(check_phase(phase, "p"), InputError);
  for (double bad : {std::nan(""), -1.0, std::numeric_limits<double>::infinity()}) {
    phase.subphase_loads = {0.5, bad};
    try {
      check_phase(phase, "p");
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("the subphase load of entry 1"), std::string::npos) << e.what();
    }
  }
  phase.subphase_loads = {0.5, 0.5};
  EXPECT_NO_THROW(check_phase(phase, "p"));
}

double balanced_time(const VtDataSet& data, const std::string& strategy,
                     const std::map<std::string, std::string>& params) {
  const Phase& phase = vt_phase(data, 0).phase;
  const Rebalanced r = rebalance(builtin_phase_strategies().configure(strategy, params), phase,
                                 make_complete(static_cast<int>(phase.nodes)), {});
  EXPECT_DOUBLE_EQ(r.after.subphase_time, phase_time(phase, r.mapping));
  return r.after.subphase_time;
}

// The target of the subphase-aware criterion: at most 0.8 x the scalar criterion's phase time
// on data with anti-correlated subphases (docs/phases.md, "Subphases", has the figures).
TEST(Subphases, TheCriterionLowersThePhaseTimeOfAntiCorrelatedSubphases) {
  const VtDataSet data = read_vt_data(kSubphases);
  const double before = phase_figures(vt_phase(data, 0).phase, vt_phase(data, 0).phase.node_of).subphase_time;
  const double refine = balanced_time(data, "refine", {});
  const double refine_aware = balanced_time(data, "refine", {{"subphases", "true"}});
  EXPECT_LE(refine_aware, 0.8 * refine);
  EXPECT_LT(refine_aware, before);
  const double greedy = balanced_time(data, "greedy", {});
  const double greedy_aware = balanced_time(data, "greedy", {{"subphases", "true"}});
  EXPECT_LT(greedy_aware, greedy);
  EXPECT_LE(balanced_time(data, "greedy", {{"subphases", "true"}, {"improve", "true"}}), greedy_aware);
}

TEST(Subphases, WithoutSubphasesTheOptionChangesNothing) {
  const VtDataSet data = read_vt_data(std::string(DLBKIT_TEST_DATA) + "/vt/toy_mem");
  const Phase& phase = vt_phase(data, 0).phase;
  for (const char* strategy : {"greedy", "refine"}) {
    const auto mapping = [&](const char* value) {
      return rebalance(builtin_phase_strategies().configure(strategy, {{"subphases", value}}), phase,
                       make_complete(static_cast<int>(phase.nodes)), {})
          .mapping;
    };
    EXPECT_EQ(mapping("true"), mapping("false")) << strategy;
  }
}

TEST(Subphases, UnmigratableObjectsStay) {
  Phase phase{.nodes = 2};
  phase.objects = {
      {.id = 0, .load = 2, .migratable = false}, {.id = 1, .load = 2}, {.id = 2, .load = 2}, {.id = 3, .load = 2}};
  // Balanced loads, each node heavy in one subphase (time 4 + 4): refine by loads moves nothing.
  phase.node_of = {0, 0, 1, 1};
  phase.subphases = 2;
  phase.subphase_loads = {2, 0, 2, 0, 0, 2, 0, 2};
  for (const char* strategy : {"greedy", "refine"}) {
    const Rebalanced r = rebalance(builtin_phase_strategies().configure(strategy, {{"subphases", "true"}}), phase,
                                   make_complete(2), {});
    EXPECT_EQ(r.mapping[0], 0u) << strategy;
    EXPECT_TRUE(r.unplaced.empty()) << strategy;
    // The best: each node one object heavy in each subphase, time 2 + 2.
    EXPECT_DOUBLE_EQ(r.after.subphase_time, 4.0) << strategy;
  }
}

// A node's time in a subphase is alpha x its load there: on a node twice as fast (alpha 0.5)
// the criterion puts twice the load of each subphase.
TEST(Subphases, TheTimeAndTheCriterionWeighEachNodesAlpha) {
  Phase phase{.nodes = 2};
  phase.subphases = 2;
  for (std::uint64_t id = 0; id < 48; ++id) {  // 24 objects of 1 s in each subphase, all on node 0
    phase.objects.push_back({.id = id, .load = 1});
    phase.subphase_loads.insert(phase.subphase_loads.end(), {id % 2 == 0 ? 1.0 : 0.0, id % 2 == 0 ? 0.0 : 1.0});
  }
  phase.node_of.assign(48, 0);
  phase.node_alpha = {1, 0.5};
  EXPECT_DOUBLE_EQ(phase_time(phase, phase.node_of), 48.0);
  EXPECT_DOUBLE_EQ(phase_time(phase, std::vector<NodeId>(48, 1)), 24.0);
  // Balanced, each subphase takes its 24 s / total speed 3: 8 + 8. Balancing the loads instead
  // (12 on each node) would take 12 + 12.
  for (const char* strategy : {"greedy", "refine"}) {
    const Rebalanced r = rebalance(builtin_phase_strategies().configure(strategy, {{"subphases", "true"}}), phase,
                                   make_complete(2), {});
    EXPECT_LE(r.after.subphase_time, 1.1 * 16) << strategy;
    EXPECT_DOUBLE_EQ(r.after.subphase_time, phase_time(phase, r.mapping)) << strategy;
  }
}

TEST(Subphases, TheCliReportsThePhaseTimeAndWarns) {
  const test::Outcome o =
      test::run_cli({"phases", "--data", kSubphases, "-s", "refine", "-p", "subphases=true", "--json"});
  ASSERT_EQ(o.status, 0) << o.err;
  const json j = json::parse(o.out);
  EXPECT_EQ(j["inputs"]["subphases"], 2);
  EXPECT_LT(j["subphase_time_after"].get<double>(), j["subphase_time_before"].get<double>());
  EXPECT_EQ(j["phases"][0]["subphase_time"], j["subphase_time_before"]);
  EXPECT_TRUE(j["inputs"]["warnings"].empty());

  const std::string focused = with_rank0("cli-focused", json::array({task(0, 0, 2.0, {{0, 5.0}, {1, 2.0}})}));
  const test::Outcome warned = test::run_cli({"phases", "--data", focused, "-s", "none"});
  EXPECT_EQ(warned.status, 0) << warned.err;
  EXPECT_NE(warned.err.find("dlbkit: warning: vt data"), std::string::npos) << warned.err;

  const std::string bad = with_rank0("cli-sum", json::array({task(0, 0, 3.0, {{0, 1.0}, {1, 1.5}})}));
  const test::Outcome refused = test::run_cli({"phases", "--data", bad, "-s", "none"});
  EXPECT_EQ(refused.status, 2);
  EXPECT_NE(refused.err.find("not the task's time 3"), std::string::npos) << refused.err;
}

}  // namespace
}  // namespace dlbkit
