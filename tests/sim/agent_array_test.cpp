#include "agent_array.hpp"
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>

#include <stdexcept>

namespace {

using dlbkit::AgentArray;

// Counts its live instances and knows the order it was built in; the build numbered
// `fail_at` throws.
int live = 0, built = 0, fail_at = -1;
struct Counted final : dlbkit::Strategy {
  explicit Counted(const dlbkit::Parameters&) : number(built++) {
    if (number == fail_at) throw std::runtime_error("agent refused");
    ++live;
  }
  ~Counted() override { --live; }
  int number;
  char payload[100] = {};  // not a multiple of the alignment: the array rounds its stride
};

dlbkit::StrategyInfo counted_info(bool in_place) {
  return {.name = "counted",
          .create = [](const dlbkit::Parameters& p) { return std::make_unique<Counted>(p); },
          .in_place = in_place ? dlbkit::in_place_of<Counted>() : dlbkit::InPlace{}};
}

TEST(AgentArray, BuildsAgentsInOrderAndDestroysThem) {
  for (const bool in_place : {true, false}) {
    SCOPED_TRACE(in_place ? "in place" : "one by one");
    const dlbkit::StrategyInfo info = counted_info(in_place);
    live = built = 0;
    fail_at = -1;
    {
      const AgentArray agents({&info, {}}, 1000);
      EXPECT_EQ(agents.contiguous(), in_place);
      EXPECT_EQ(live, 1000);
      for (std::size_t v = 0; v < 1000; ++v) {
        const auto& agent = dynamic_cast<const Counted&>(agents[v]);
        EXPECT_EQ(agent.number, static_cast<int>(v));
        if (in_place && v > 0) {
          EXPECT_GE(reinterpret_cast<const char*>(&agent) - reinterpret_cast<const char*>(&agents[v - 1]),
                    static_cast<std::ptrdiff_t>(sizeof(Counted)));
        }
      }
    }
    EXPECT_EQ(live, 0);
  }
}

TEST(AgentArray, AConstructorsExceptionReachesTheCallerAndNothingLeaks) {
  for (const bool in_place : {true, false}) {
    const dlbkit::StrategyInfo info = counted_info(in_place);
    live = built = 0;
    fail_at = 37;
    EXPECT_THROW(AgentArray({&info, {}}, 100), std::runtime_error);
    EXPECT_EQ(live, 0);
  }
}

// A process's partition: agents only for its nodes [lo, hi), at their nodes' places, and
// only those destroyed; a failure part way destroys those built.
TEST(AgentArray, BuildsOnlyTheAgentsOfAPartition) {
  for (const bool in_place : {true, false}) {
    SCOPED_TRACE(in_place ? "in place" : "one by one");
    const dlbkit::StrategyInfo info = counted_info(in_place);
    live = built = 0;
    fail_at = -1;
    {
      const AgentArray agents({&info, {}}, 1000, 300, 700);
      EXPECT_EQ(live, 400);
      for (std::size_t v = 300; v < 700; ++v)
        EXPECT_EQ(dynamic_cast<const Counted&>(agents[v]).number, static_cast<int>(v - 300));
    }
    EXPECT_EQ(live, 0);
    live = built = 0;
    fail_at = 50;
    EXPECT_THROW(AgentArray({&info, {}}, 1000, 300, 700), std::runtime_error);
    EXPECT_EQ(live, 0);
  }
}

// Every builtin strategy says how to build its agents in place, so the simulator keeps them
// in one array; large arrays come from huge pages.
TEST(AgentArray, EveryBuiltinStrategyIsBuiltInPlace) {
  for (const dlbkit::StrategyInfo& info : dlbkit::builtin_strategies().all()) {
    SCOPED_TRACE(info.name);
    ASSERT_NE(info.in_place.construct, nullptr);
    const auto choice = dlbkit::builtin_strategies().configure(info.name, {});
    const AgentArray agents(choice, 3 * dlbkit::kHugePage / info.in_place.size / 2);
    EXPECT_TRUE(agents.contiguous());
  }
}

}  // namespace
