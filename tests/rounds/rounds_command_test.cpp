// rounds_command, the run behind `dlbkit rounds` and dlbkit.rounds in Python: the loads of
// every step on request, and the bound on their memory.

#include <dlbkit/error.hpp>
#include <dlbkit/rounds/rounds_command.hpp>

#include <gtest/gtest.h>

#include <numeric>
#include <string>

namespace dlbkit {
namespace {

TEST(RoundsCommand, RecordsTheLoadsOfEveryStepOfTheEngine) {
  RoundsInputs in{.algorithm = "sos", .topology = "torus:4x4", .init = "spike", .until = "eps:1e-3"};
  const RoundsResult plain = rounds_command(in);
  in.record_loads = true;
  const RoundsResult r = rounds_command(in);
  const std::uint64_t steps = r.json["steps"];
  EXPECT_EQ(steps, plain.json["steps"].get<std::uint64_t>());
  EXPECT_EQ(r.json["final_error"], plain.json["final_error"]);
  EXPECT_FALSE(r.json.contains("trace"));
  ASSERT_EQ(r.loads.size(), (steps + 1) * 16);
  EXPECT_EQ(r.loads[0], 16);  // spike: N units on node 0
  EXPECT_NEAR(std::accumulate(r.loads.end() - 16, r.loads.end(), 0.0), 16, 1e-12);
}

TEST(RoundsCommand, RecordsTheLoadsOfEveryShiftOfTheLiquidModel) {
  // Henrich Table 3: 16 elements on a ring of 8 are balanced after 18 shifts.
  RoundsInputs in{.algorithm = "lm", .topology = "ring:8", .init = "spike:16", .until = "balanced",
                  .record_loads = true};
  const RoundsResult r = rounds_command(in);
  EXPECT_EQ(r.json["shifts_to_balancing"], 18);
  EXPECT_FALSE(r.json.contains("trace"));  // the loads go to the report, the JSON stays the CLI's
  const std::uint64_t steps = r.json["steps"];
  ASSERT_EQ(r.loads.size(), (steps + 1) * 8);
  EXPECT_EQ(r.loads[0], 16);
  for (std::uint64_t s = 0; s <= steps; ++s)
    EXPECT_EQ(std::accumulate(r.loads.begin() + s * 8, r.loads.begin() + (s + 1) * 8, 0.0), 16) << s;
}

TEST(RoundsCommand, RefusesToRecordBeyondTheBound) {
  // (1e6 steps + 1) x 100 nodes is just above 1e8 values; 999 999 steps just within.
  RoundsInputs in{.algorithm = "diffusion", .topology = "torus:10x10", .init = "spike", .until = "eps:1e-3",
                  .record_loads = true};
  try {
    rounds_command(in);
    ADD_FAILURE() << "1e6 steps of 100 nodes may be recorded";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("accepted: at most 100000000"), std::string::npos) << e.what();
  }
  in.max_steps = "999999";
  EXPECT_NO_THROW(rounds_command(in));
  in.until = "steps:5";  // the rule bounds the steps as well as max_steps
  in.max_steps = "1000000";
  EXPECT_EQ(rounds_command(in).loads.size(), 6u * 100);
  in.arrivals = "normal:1:1";
  EXPECT_THROW(rounds_command(in), InputError);
  in = {.algorithm = "nna", .topology = "ring:100", .init = "spike", .until = "balanced", .record_loads = true};
  EXPECT_THROW(rounds_command(in), InputError);  // lm, nna: max_steps counts shifts, 1e6 by default
}

}  // namespace
}  // namespace dlbkit
