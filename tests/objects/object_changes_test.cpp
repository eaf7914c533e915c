// dlbkit::ObjectRuntime's objects that come and go between phases (add after the first phase,
// remove, split, merge, move): the table that follows, the loads the balancer is given for the
// new objects, and the bad changes, each one error at the next collective call. Under MPI:
// tests/objects/mpi_program/objects_ranks.cpp (changes) and the AMR example's tests.
#include "../support/object_options.hpp"
#include "../support/error_of.hpp"
#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

using dlbkit::test::threads_options;
using dlbkit::test::error_of;

using dlbkit::ObjectContext;
using dlbkit::ObjectRuntime;
using dlbkit::ObjectRuntimeOptions;

struct ChangingCell {
  std::uint64_t value = 0;
  template <class A>
  void serialize(A& a) {
    a(value);
  }
};
using ChangingRuntime = ObjectRuntime<ChangingCell, std::uint64_t>;

// Each object's load is its id's last digit + 1 seconds, given: known loads to inherit.
void work(ChangingCell& c, ObjectContext<std::uint64_t>& ctx) {
  c.value += ctx.id();
  ctx.set_load(static_cast<double>(ctx.id() % 10 + 1));
}

// A program's own strategy that moves nothing and keeps the loads it was given, by id.
class Seeing : public dlbkit::PhaseStrategy {
public:
  static constexpr const char* name = "seeing";
  static constexpr const char* description = "moves nothing, keeps the loads it is given";
  static constexpr const char* source = "a test";
  static inline std::map<std::uint64_t, double> loads;
  explicit Seeing(const dlbkit::Parameters&) {}
  void rebalance(dlbkit::PhaseContext& ctx) override {
    loads.clear();
    for (const auto& o : ctx.phase().objects) loads[o.id] = o.load;
  }
};

std::map<std::uint64_t, dlbkit::NodeId> where(ChangingRuntime& rt) {
  std::map<std::uint64_t, dlbkit::NodeId> out;
  rt.for_each_object([&](std::uint64_t id, const ChangingCell&) { out[id] = rt.worker_of(id); });
  return out;
}

TEST(ObjectChanges, ObjectsComeAndGoBetweenPhases) {
  ChangingRuntime rt(threads_options("none", 2));
  for (std::uint64_t id = 0; id < 8; ++id) rt.add(id, ChangingCell{}, static_cast<dlbkit::NodeId>(id % 2));
  rt.run_phase(work);
  rt.split(3, {30, 31, 32}, {ChangingCell{300}, ChangingCell{310}, ChangingCell{320}});
  rt.merge({0, 2, 4}, 40, ChangingCell{1000});
  rt.remove(5);
  rt.add(50, ChangingCell{7}, 1);
  EXPECT_EQ(where(rt).size(), 8u) << "the changes wait for the next phase";
  rt.run_phase(work);
  const std::map<std::uint64_t, dlbkit::NodeId> expected{{1, 1}, {6, 0}, {7, 1}, {30, 1}, {31, 1},
                                                         {32, 1}, {40, 0}, {50, 1}};
  EXPECT_EQ(where(rt), expected);
  // The values: each object's start, plus its id in each phase it ran.
  const std::vector<std::uint64_t> values = rt.collect([](std::uint64_t, const ChangingCell& c) { return c.value; });
  EXPECT_EQ(values, (std::vector<std::uint64_t>{2, 12, 14, 330, 341, 352, 1040, 57}));
  const auto report = rt.finish();
  EXPECT_EQ(report.objects_created, 5u);
  EXPECT_EQ(report.objects_destroyed, 5u);
  EXPECT_EQ(report.phases[1].max_load, 2 + 8 + 1 + 2 + 3 + 1);  // worker 1: 1, 7, 30 to 32, 50
}

TEST(ObjectChanges, ANewObjectIsGivenALoadBeforeItsFirstPhase) {
  for (const std::string model : {"persistence", "linear"}) {
    SCOPED_TRACE(model);
    ObjectRuntimeOptions o = threads_options("seeing", 2);
    o.load_model = model;
    ChangingRuntime rt(o, dlbkit::phase_strategy_info<Seeing>());
    for (std::uint64_t id = 0; id < 6; ++id) rt.add(id, ChangingCell{}, static_cast<dlbkit::NodeId>(id % 2));
    rt.run_phase(work);  // loads 1 to 6: worker 0 holds 1, 3, 5; worker 1 holds 2, 4, 6
    rt.run_phase(work);  // the linear model sees a flat trend: its prediction is the load
    rt.split(5, {15, 25}, {ChangingCell{}, ChangingCell{}}, {0.75, 0.5});  // 6 s: 4.5 and 3
    rt.split(1, {11, 21, 31}, {ChangingCell{}, ChangingCell{}, ChangingCell{}});  // 2 s: a third each
    rt.merge({0, 2}, 20, ChangingCell{});                       // 1 + 3 s
    rt.merge({4}, 40, ChangingCell{}, 0.5);                     // 5 s: half
    rt.add(60, ChangingCell{}, 1, 0.25);                        // given
    rt.add(70, ChangingCell{}, 1);                              // worker 1's last mean: (2 + 4 + 6) / 3
    rt.balance();
    const std::map<std::uint64_t, double> expected{{3, 4},         {40, 2.5},         {11, 2.0 / 3}, {15, 4.5},
                                                   {20, 4},        {21, 2.0 / 3},  {25, 3},     {31, 2.0 / 3},
                                                   {60, 0.25},     {70, 4}};
    ASSERT_EQ(Seeing::loads.size(), expected.size());
    for (const auto& [id, load] : expected) EXPECT_NEAR(Seeing::loads[id], load, 1e-9) << id;
  }
}

TEST(ObjectChanges, AMoveBringsObjectsTogetherForAMergeAfterTheBalancingStep) {
  ObjectRuntimeOptions o = threads_options("greedy", 2);
  o.every = 1;
  ChangingRuntime rt(o);
  for (std::uint64_t id = 0; id < 8; ++id) rt.add(id, ChangingCell{}, 0);
  rt.run_phase(work);
  for (std::uint64_t id : {1, 3, 5, 7}) rt.move(id, 0);  // greedy spreads them; the moves hold
  rt.run_phase(work);
  ASSERT_EQ(rt.report().balances.size(), 1u);
  EXPECT_GT(rt.report().objects_migrated, 0u);
  for (std::uint64_t id : {1, 3, 5, 7}) EXPECT_EQ(rt.worker_of(id), 0u) << id;
  rt.merge({1, 3, 5, 7}, 100, ChangingCell{});
  rt.run_phase(work);
  EXPECT_EQ(where(rt).count(100), 1u);
}

TEST(ObjectChanges, ABadChangeIsOneErrorAtTheNextCallAndTheRuntimeRefusesTheRest) {
  const auto at_next_phase = [](const std::function<void(ChangingRuntime&)>& change) {
    ChangingRuntime rt(threads_options("none", 2));
    for (std::uint64_t id = 0; id < 4; ++id) rt.add(id, ChangingCell{}, static_cast<dlbkit::NodeId>(id % 2));
    rt.run_phase(work);
    change(rt);
    const std::string error = error_of([&] { rt.run_phase(work); });
    EXPECT_NE(error_of([&] { rt.run_phase(work); }).find("after one that failed"), std::string::npos) << error;
    return error;
  };
  EXPECT_EQ(at_next_phase([](ChangingRuntime& rt) { rt.split(1, {10, 3}, {ChangingCell{}, ChangingCell{}}); }),
            "ObjectRuntime::split(1)'s child 3: id 3 is already in use, by the object on worker 1; accepted: an id "
            "that no other object holds");
  EXPECT_EQ(at_next_phase([](ChangingRuntime& rt) {
              rt.split(1, {10, 11}, {ChangingCell{}, ChangingCell{}});
              rt.add(11, ChangingCell{}, 0);
            }),
            "ObjectRuntime::add(11): id 11 is already in use, by split(1)'s child 11; accepted: an id that no other "
            "object holds");
  EXPECT_EQ(at_next_phase([](ChangingRuntime& rt) { rt.merge({0, 1}, 9, ChangingCell{}); }),
            "ObjectRuntime::merge: object 0 on worker 0 and object 1 on worker 1; accepted: objects on one worker "
            "(move them there first: move() takes effect at the next phase)");
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) {
              rt.remove(2);
              rt.split(2, {10}, {ChangingCell{}});
            }).find("split(2): the object is already removed"),
            std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) { rt.remove(9); }).find("remove(9): no object 9"), std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) { rt.split(1, {10, 11}, {ChangingCell{}}); }).find("as many objects as ids"),
            std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) { rt.split(1, {10, 11}, {ChangingCell{}, ChangingCell{}}, {0.5, -1}); }).find("weight -1"),
            std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) { rt.add(9, ChangingCell{}, 5); }).find("add(9) on worker 5"), std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) { rt.merge({0, 2}, 9, ChangingCell{}, std::nan("")); }).find("with weight nan"),
            std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) { rt.move(1, 2); }).find("move(1, 2); accepted: a worker from 0 to 1"),
            std::string::npos);
  EXPECT_NE(at_next_phase([](ChangingRuntime& rt) {
              rt.move(1, 0);
              rt.remove(1);
            }).find("move(1, 0): the object is destroyed"),
            std::string::npos);
  // A message to an object destroyed.
  ChangingRuntime rt(threads_options("none", 2));
  for (std::uint64_t id = 0; id < 4; ++id) rt.add(id, ChangingCell{}, 0);
  rt.run_phase(work);
  rt.remove(2);
  EXPECT_NE(error_of([&] { rt.run_phase([](ChangingCell&, ObjectContext<std::uint64_t>& ctx) { ctx.send(2, 1); }); })
                .find("no object 2"),
            std::string::npos);
  // Before the first phase, only add.
  ChangingRuntime early(threads_options("none", 2));
  early.add(0, ChangingCell{}, 0);
  early.remove(0);
  EXPECT_NE(error_of([&] { early.run_phase(work); }).find("remove(0) before the first phase"), std::string::npos);
  // A bad add before the first phase: the first phase's error too (under MPI, on every rank).
  ChangingRuntime elsewhere(threads_options("none", 2));
  elsewhere.add(0, ChangingCell{}, 2);
  EXPECT_NE(error_of([&] { elsewhere.run_phase(work); }).find("add(0) on worker 2; accepted: a worker of this process"),
            std::string::npos);
  ChangingRuntime weighed(threads_options("none", 2));
  weighed.add(0, ChangingCell{}, 0, -1.0);
  EXPECT_NE(error_of([&] { weighed.run_phase(work); }).find("add(0) with load -1"), std::string::npos);
}

}  // namespace
