#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>

#include <gtest/gtest.h>

#include <string>

using namespace dlbkit;

namespace {

// Runs that another order of the events at one instant changes (ranks reversed within an
// instant change all three; diffusion's and gm's have ties whose creators are two nodes at
// one instant: docs/simulator.md, "Ties and parallel runs"). The figures are those of the
// engine that broke ties by a sequence number; the key must keep them, so that a parallel
// run can give the very same run.
struct Expected {
  const char* strategy;
  const char* topology;
  std::uint64_t seed;
  std::uint64_t events, messages, transferred;
  SimTime makespan;
};

TEST(TieOrder, RunsThatTheOrderOfTiesDecidesAreThoseOfTheSequenceNumber) {
  const Expected runs[] = {
      {"work_stealing", "hypercube:4", 1, 77'026, 35'194, 635, 41'354'302'900},
      {"diffusion", "hypercube:4", 2, 1'100'520, 585'506, 290, 55'527'205'600},
      {"gm", "hypercube:5", 2, 49'706, 20'208, 5'978, 47'585'880'600},
  };
  for (const Expected& want : runs) {
    const ExperimentSetup setup{.topology = parse_topology(want.topology),
                                .strategy = builtin_strategies().configure(want.strategy, {}),
                                .workload = builtin_workloads().configure("artificial", {}),
                                .cost = make_cost_model("ipsc2"),
                                .seed = want.seed};
    const SimulationResult got = run_experiment(setup).balanced;
    const std::string run = std::string(want.strategy) + " " + want.topology;
    EXPECT_EQ(got.events, want.events) << run;
    EXPECT_EQ(got.messages(), want.messages) << run;
    EXPECT_EQ(got.tasks_transferred, want.transferred) << run;
    EXPECT_EQ(got.makespan, want.makespan) << run;
  }
}

}  // namespace
