// Zambonelli's load indicators (Sec. 4.1), the LoadMetrics observer and the dynamic_load
// generator's calibration.
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/workloads/dynamic_load.hpp>
#include <dlbkit/workloads/load_metrics.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <cmath>
#include <gtest/gtest.h>

using namespace dlbkit;

TEST(LoadIndicators, SigmaAndDeltaByHand) {
  // ring:4, loads 10 30 10 30: mu = 20, sigma = 10 / 20; every domain (a node and its two
  // neighbours) averages (10 + 30 + 30) / 3 or (30 + 10 + 10) / 3, mu_i - mu = +-10/3.
  const Topology ring = parse_topology("ring:4");
  const std::vector<double> loads{10, 30, 10, 30};
  EXPECT_DOUBLE_EQ(load_imbalance(loads), 0.5);
  EXPECT_NEAR(load_dispersion(ring, loads), 10.0 / 3.0 / 20.0, 1e-12);
  // On ring:8 a concentrated imbalance (one half high) has a larger delta for the same sigma
  // than an alternating one.
  const Topology ring8 = parse_topology("ring:8");
  const std::vector<double> alternating{10, 30, 10, 30, 10, 30, 10, 30}, halves{10, 10, 10, 10, 30, 30, 30, 30};
  EXPECT_DOUBLE_EQ(load_imbalance(halves), load_imbalance(alternating));
  EXPECT_GT(load_dispersion(ring8, halves), 2 * load_dispersion(ring8, alternating));
  EXPECT_EQ(load_imbalance(std::vector<double>{0, 0}), 0.0);
  // One process moved between neighbours of ring:4 at mu = 1: dsigma = sqrt(2/4).
  const LoadChange c = load_change(ring, std::vector<double>{-1, 1, 0, 0}, 1.0);
  EXPECT_NEAR(c.dsigma, std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(c.ddelta, std::sqrt((0 + 0 + 1.0 / 9 + 1.0 / 9) / 4), 1e-12);
}

TEST(LoadMetrics, StaticBalancedLoadShowsNoImbalanceAndNoDynamicity) {
  const Topology t = parse_topology("mesh:4x4");
  auto w = builtin_workloads()
               .configure("dynamic_load", {{"dynamicity", "0"}, {"initial", "uniform"}, {"duration", "2s"}})
               .create();
  LoadMetrics m(t, {.delta_t = 10 * kMillisecond, .from = 0, .until = kSecond});
  simulate({.topology = &t, .strategy = builtin_strategies().configure("none", {}), .workload = w.get(),
            .cost = make_cost_model("meiko-cs1"), .seed = 3, .observers = {&m},
            .execution = Execution::processor_sharing});
  const LoadMetricsSummary s = m.summary();
  EXPECT_NEAR(s.seconds, 1.0, 0.02);
  EXPECT_DOUBLE_EQ(s.sigma_mean, 0.0);
  EXPECT_DOUBLE_EQ(s.dsigma_per_second, 0.0);
  EXPECT_DOUBLE_EQ(s.mean_load, 20.0);
  EXPECT_GT(s.completed, 250u);  // 16 nodes x 1 s / 50 ms
  // Every node always busy: Little's law gives the ideal 20 x 50 ms, up to the randomness
  // of the completions.
  EXPECT_NEAR(s.response_time, 1.0, 0.15);
}

TEST(DynamicLoad, CalibrationHitsTheAskedDynamicityAndDispersion) {
  const Topology t = parse_topology("mesh:10x10");
  for (double dynamicity : {0.2, 2.0}) {
    const DynamicLoadCalibration c = calibrate_dynamic_load(t, 20, dynamicity, 0.45, 10 * kMillisecond);
    EXPECT_NEAR(c.dsigma_per_second, dynamicity, 0.05 * dynamicity);
    EXPECT_NEAR(c.ddelta_per_second / c.dsigma_per_second, 0.45, 0.03);
    EXPECT_GT(c.near_fraction, 0.0);
    EXPECT_LT(c.near_fraction, 1.0);
  }
  // A neighbour swap has delta-delta / delta-sigma of about 0.35 on a mesh: 0.1 is out of reach.
  EXPECT_THROW(calibrate_dynamic_load(t, 20, 1.0, 0.1, 10 * kMillisecond), InputError);
}

TEST(DynamicLoad, TheSimulatedGeneratorHasTheCalibratedDynamicity) {
  // No balancing, every node busy: what the observer measures in the run is what was asked.
  const Topology t = parse_topology("mesh:10x10");
  auto w = builtin_workloads()
               .configure("dynamic_load", {{"dynamicity", "1"}, {"dispersion", "0.45"}, {"initial", "uniform"},
                                           {"duration", "6s"}})
               .create();
  LoadMetrics m(t, {.delta_t = 10 * kMillisecond, .from = kSecond, .until = 5 * kSecond});
  simulate({.topology = &t, .strategy = builtin_strategies().configure("none", {}), .workload = w.get(),
            .cost = make_cost_model("meiko-cs1"), .seed = 1, .observers = {&m},
            .execution = Execution::processor_sharing});
  const LoadMetricsSummary s = m.summary();
  EXPECT_NEAR(s.dsigma_per_second, 1.0, 0.15);
  EXPECT_NEAR(s.ddelta_per_second / s.dsigma_per_second, 0.45, 0.06);
  EXPECT_EQ(s.migrations, 0u);
}

TEST(DynamicLoad, RejectsWhatItCannotGenerate) {
  const Topology t = parse_topology("mesh:10x10");
  // 3 delta-sigma per second needs more relocations than 1 s processes complete.
  auto w = builtin_workloads().configure("dynamic_load", {{"dynamicity", "3"}, {"work", "1s"}}).create();
  EXPECT_THROW(simulate({.topology = &t, .strategy = builtin_strategies().configure("none", {}), .workload = w.get(),
                         .cost = make_cost_model("meiko-cs1"), .execution = Execution::processor_sharing}),
               InputError);
  EXPECT_THROW(builtin_workloads().configure("dynamic_load", {{"initial", "spiral"}}), InputError);
}

TEST(CostModel, MeikoCs1MigratesAProcessIn25ms) {
  const CostModel c = make_cost_model("meiko-cs1");
  EXPECT_EQ(c.per_task, 25 * kMillisecond);
  EXPECT_EQ(c.poll_interval, 0);
}

TEST(DynamicLoad, RelocatedProcessesWakeAnIdleNodeUnderFcfs) {
  // Relocation creates a process at another node than the one completing. Under FCFS it was
  // queued there without waking the node when idle, and the run ran out of events with tasks
  // left (Zambonelli's model calibrates on completions of a busy node, Poisson for exponential
  // work under either execution, so FCFS is a valid run of it). Both executions must end with
  // every task done, and each relocated process reaches its node's strategy.
  const Topology t = parse_topology("hypercube:3");
  for (Execution e : {Execution::fcfs, Execution::processor_sharing}) {
    for (const char* strategy : {"none", "direct_neighbor"}) {
      SCOPED_TRACE(std::string(to_string(e)) + " " + strategy);
      auto w = builtin_workloads().configure("dynamic_load", {{"duration", "5s"}}).create();
      const SimulationResult r =
          simulate({.topology = &t, .strategy = builtin_strategies().configure(strategy, {}), .workload = w.get(),
                    .cost = make_cost_model("ideal"), .seed = 1, .execution = e});
      EXPECT_EQ(r.tasks_completed, r.tasks_created);
      EXPECT_GT(r.tasks_created, 8u * 20u);
    }
  }
}
