// ObjectRuntime with workers of declared speeds (ObjectRuntimeOptions::speeds) or speeds
// measured (measure_speeds): an object's measured time on a worker of speed s is its work / s.
// The test emulates a slower worker: on worker 0 (speed 1) each object's time is twice what it
// is on worker 1 (speed 2), given through set_load so that the figures do not depend on the
// machine.
#include "../support/error_of.hpp"
#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace {

using dlbkit::test::error_of;

using dlbkit::ObjectContext;
using dlbkit::ObjectRuntime;
using dlbkit::ObjectRuntimeOptions;

struct Piece {
  double work = 0;  // seconds on a worker of speed 1
  template <class A>
  void serialize(A& a) {
    a(work);
  }
};

// 60 objects of works 1 to 3, 120 in all, dealt alternately to workers 0 and 1 at the start,
// balanced after each of `phases` phases, on workers of speeds `emulated` (the machine the test
// pretends to be); `change(rt, phase)` after each phase.
using Runtime = ObjectRuntime<Piece, int>;
dlbkit::ObjectRunResult run(ObjectRuntimeOptions o, int phases, const std::vector<double>& emulated = {1, 2},
                            const std::function<void(Runtime&, int)>& change = {}) {
  o.engine = "threads";
  o.workers = 2;
  o.quiet = true;
  Runtime rt(o);
  for (std::uint64_t id = 0; id < 60; ++id)
    rt.add(id, Piece{1 + static_cast<double>(id % 5) / 2}, static_cast<dlbkit::NodeId>(id % 2));
  for (int phase = 0; phase < phases; ++phase) {
    rt.run_phase([&](Piece& p, ObjectContext<int>& ctx) { ctx.set_load(p.work / emulated[ctx.worker()]); });
    if (change) change(rt, phase);
  }
  return rt.finish();
}

// The busiest worker's time in a phase over total work / total speed.
double over_ideal(const dlbkit::ObjectPhaseFigures& phase, double total_speed = 3) {
  return phase.max_load / (120 / total_speed);
}

// The last of 4 phases.
double balanced_over_ideal(const std::string& strategy, const std::vector<double>& speeds) {
  return over_ideal(run({.strategy = strategy, .speeds = speeds}, 4).phases.back());
}

// The target: within 10% of total work / total speed once the speeds are declared.
// Undeclared, the measured times are balanced as loads of equal workers: a slower worker's
// objects look heavier than they are, and greedy, which deals every object again, chases its
// own moves (1.5).
TEST(ObjectRuntimeSpeeds, ADeclaredSlowerWorkerGetsItsShareOfTheWork) {
  for (const char* strategy : {"greedy", "refine", "diffusion", "dimension_exchange", "hierarchical"})
    EXPECT_LE(balanced_over_ideal(strategy, {1, 2}), 1.1) << strategy;
  EXPECT_GT(balanced_over_ideal("greedy", {}), 1.1);
}

// Measured: the first balancing steps take the times for loads of equal workers and move
// objects; their times on the other worker tell the ratio of the speeds, which the next steps
// weigh as declared ones. refine moves too few objects for an estimate (it stays 1), and
// balances as undeclared.
TEST(ObjectRuntimeSpeeds, MeasuredSpeedsReachTheBalanceOfDeclaredOnes) {
  const auto greedy = run({.strategy = "greedy", .measure_speeds = true}, 5);
  const std::vector<double>& speeds = greedy.phases.back().speeds;
  ASSERT_EQ(speeds.size(), 2u);
  EXPECT_NEAR(speeds[1] / speeds[0], 2, 0.2);
  EXPECT_LE(over_ideal(greedy.phases.back()), 1.1);
  EXPECT_LE(over_ideal(run({.strategy = "refine", .measure_speeds = true}, 5).phases.back()), 1.1);
  EXPECT_TRUE(run({.strategy = "greedy"}, 1).phases.back().speeds.empty());  // weighed as equal
}

// Equal workers: no object's time changes as it moves, the estimate stays 1 and greedy
// balances as it does without it.
TEST(ObjectRuntimeSpeeds, MeasuredSpeedsOfEqualWorkersStayOne) {
  const auto measured = run({.strategy = "greedy", .measure_speeds = true}, 4, {1, 1});
  const auto undeclared = run({.strategy = "greedy"}, 4, {1, 1});
  EXPECT_EQ(measured.phases.back().speeds, (std::vector<double>{1, 1}));
  EXPECT_EQ(measured.phases.back().max_load, undeclared.phases.back().max_load);
  EXPECT_LE(over_ideal(measured.phases.back(), 2), 1.1);
}

// Objects split and removed between the phases: the new ones are not compared with
// the past, the others go on telling the ratio.
TEST(ObjectRuntimeSpeeds, MeasuredSpeedsFollowObjectsThatComeAndGo) {
  const auto report = run({.strategy = "greedy", .measure_speeds = true}, 6, {1, 2}, [](Runtime& rt, int phase) {
    const auto k = static_cast<std::uint64_t>(phase);
    rt.split(k, {100 + 2 * k, 101 + 2 * k}, {Piece{0.5}, Piece{0.5}});
    rt.remove(30 + k);
  });
  ASSERT_EQ(report.phases.back().speeds.size(), 2u);
  EXPECT_NEAR(report.phases.back().speeds[1] / report.phases.back().speeds[0], 2, 0.2);
  EXPECT_EQ(report.objects_created, 12u);
}

TEST(ObjectRuntimeSpeeds, BadSpeedsAreOneLineErrors) {
  EXPECT_EQ(error_of([] { balanced_over_ideal("greedy", {1, 0}); }),
            "--speeds: node 1's speed is 0; accepted: one speed per node, each a number > 0, comma-separated, "
            "e.g. 1,2");
  EXPECT_EQ(error_of([] { balanced_over_ideal("greedy", {1, 2, 3}); }),
            "--speeds: 3 speeds for 2 nodes; accepted: one speed per node, each a number > 0, comma-separated, e.g. "
            "1,2");
  const char* argv[] = {"program", "--speeds", "1,nan"};
  EXPECT_EQ(error_of([&] { ObjectRuntimeOptions::parse(3, argv); }),
            "--speeds '1,nan': the speed 'nan' is not accepted; accepted: one speed per node, each a number > 0, "
            "comma-separated, e.g. 1,2, or measured");
  // A strategy blind to speeds would balance the declared loads as equal workers' (1.5 here).
  const std::string accepted = "greedy, refine, diffusion, dimension_exchange, sos, chebyshev, partition, hierarchical";
  EXPECT_EQ(error_of([] { balanced_over_ideal("tempered", {1, 2}); }),
            "--speeds with strategy tempered: its criterion balances loads, not times; accepted: --speeds with " +
                accepted + ", or a strategy that declares weighs_speeds");
  EXPECT_EQ(error_of([] { run({.strategy = "tempered", .measure_speeds = true}, 1); }),
            "--speeds measured with strategy tempered: its criterion balances loads, not times; accepted: --speeds "
            "measured with " + accepted + ", or a strategy that declares weighs_speeds");
  EXPECT_EQ(error_of([] { run({.strategy = "greedy", .speeds = {1, 2}, .measure_speeds = true}, 1); }),
            "ObjectRuntimeOptions: speeds declared and measure_speeds at once; accepted: one of them");
  EXPECT_EQ(balanced_over_ideal("none", {1, 2}), 1.5);
  const char* good[] = {"program", "--speeds", "1,2.5"};
  EXPECT_EQ(ObjectRuntimeOptions::parse(3, good).speeds, (std::vector<double>{1, 2.5}));
  const char* measured[] = {"program", "--speeds", "measured"};
  EXPECT_TRUE(ObjectRuntimeOptions::parse(3, measured).measure_speeds);
  const char* fast[] = {"program", "--speeds", "fast"};
  EXPECT_EQ(error_of([&] { ObjectRuntimeOptions::parse(3, fast); }),
            "--speeds 'fast': the speed 'fast' is not accepted; accepted: one speed per node, each a number > 0, "
            "comma-separated, e.g. 1,2, or measured");
}

}  // namespace
