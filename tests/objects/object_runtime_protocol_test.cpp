// ObjectRuntime runs a distributed strategy's rank protocol (phases/rank_protocol.hpp), each
// worker an agent with its own objects, and gathers the loads only for the others. Under MPI:
// the stencil and particles examples' checksum tests with tempered and diffusion.
#include <dlbkit/objects/object_runtime.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>

#include <gtest/gtest.h>

#include <limits>
#include <string>
#include <vector>

namespace {

constexpr std::uint64_t kProtocolObjects = 48;

// Object i's load: heavy on the first worker's objects.
double load_of(std::uint64_t id) { return id < 12 ? 4.0 + static_cast<double>(id % 5) : 1.0 + static_cast<double>(id % 3); }

struct Value {
  std::uint64_t v = 0;
};

TEST(ObjectRuntimeProtocol, ADistributedStrategysStepIsItsAgentsPlan) {
  for (const std::string name : {"tempered", "diffusion"}) {
    SCOPED_TRACE(name);
    dlbkit::ObjectRuntime<Value, int> rt({.engine = "threads", .strategy = name, .workers = 4, .seed = 5});
    for (std::uint64_t id = 0; id < kProtocolObjects; ++id) rt.add(id, Value{id}, static_cast<dlbkit::NodeId>(id / 12));
    const auto work = [](Value& x, dlbkit::ObjectContext<int>& ctx) {
      x.v = x.v * 3 + 1;
      ctx.set_load(load_of(ctx.id()));
    };
    rt.run_phase(work);
    rt.run_phase(work);  // the step after phase 0 runs as phase 1 starts

    // The agents on the same loads, with the step's seed (the runtime's + the phase).
    std::vector<dlbkit::LocalPhase> ranks(4);
    for (std::uint64_t id = 0; id < kProtocolObjects; ++id) ranks[id / 12].objects.push_back({.id = id, .load = load_of(id)});
    const auto choice = dlbkit::builtin_phase_strategies().configure(name, {});
    const auto plans = dlbkit::run_protocol_in_process(dlbkit::rank_protocol_factory(choice), ranks,
                                                       dlbkit::parse_topology("complete:4"),
                                                       std::numeric_limits<double>::infinity(), 5);
    std::vector<dlbkit::NodeId> expected(kProtocolObjects);
    for (std::uint64_t id = 0; id < kProtocolObjects; ++id) expected[id] = static_cast<dlbkit::NodeId>(id / 12);
    std::size_t moved = 0;
    for (const auto& plan : plans)
      for (const auto& d : plan.departures) expected[d.id] = d.rank, ++moved;
    EXPECT_GT(moved, 0u);
    for (std::uint64_t id = 0; id < kProtocolObjects; ++id) EXPECT_EQ(rt.worker_of(id), expected[id]) << "object " << id;
    const auto report = rt.finish();
    ASSERT_EQ(report.balances.size(), 1u);
    EXPECT_LT(report.balances[0].imbalance_after, report.balances[0].imbalance_before);
    EXPECT_EQ(report.balances[0].objects_migrated, moved);
  }
}

}  // namespace
