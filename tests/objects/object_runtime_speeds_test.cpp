// ObjectRuntime with workers of declared speeds (ObjectRuntimeOptions::speeds): an object's
// measured time on a worker of speed s is its work / s. The test emulates a slower worker: on
// worker 0 (speed 1) each object's time is twice what it is on worker 1 (speed 2), given
// through set_load so that the figures do not depend on the machine.
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

// The busiest worker's time in the last of 4 phases, over total work / total speed, for 60
// objects of works 1 to 3, dealt alternately to workers 0 and 1 at the start.
double balanced_over_ideal(const std::string& strategy, const std::vector<double>& speeds) {
  const std::vector<double> emulated{1, 2};  // the machine the test pretends to be
  ObjectRuntimeOptions o{.engine = "threads", .strategy = strategy, .workers = 2, .quiet = true};
  o.speeds = speeds;
  ObjectRuntime<Piece, int> rt(o);
  double total = 0;
  for (std::uint64_t id = 0; id < 60; ++id) {
    const double work = 1 + static_cast<double>(id % 5) / 2;
    total += work;
    rt.add(id, Piece{work}, static_cast<dlbkit::NodeId>(id % 2));
  }
  for (int phase = 0; phase < 4; ++phase)
    rt.run_phase([&](Piece& p, ObjectContext<int>& ctx) { ctx.set_load(p.work / emulated[ctx.worker()]); });
  const auto report = rt.finish();
  return report.phases.back().max_load / (total / (emulated[0] + emulated[1]));
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
            "comma-separated, e.g. 1,2");
  // A strategy blind to speeds would balance the declared loads as equal workers' (1.5 here).
  EXPECT_EQ(error_of([] { balanced_over_ideal("tempered", {1, 2}); }),
            "--speeds with strategy tempered: its criterion balances loads, not times; accepted: --speeds with greedy, "
            "refine, diffusion, dimension_exchange, sos, chebyshev, partition, hierarchical, or a strategy that "
            "declares weighs_speeds");
  EXPECT_EQ(balanced_over_ideal("none", {1, 2}), 1.5);
  const char* good[] = {"program", "--speeds", "1,2.5"};
  EXPECT_EQ(ObjectRuntimeOptions::parse(3, good).speeds, (std::vector<double>{1, 2.5}));
}

}  // namespace
