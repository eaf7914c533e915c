// The open queueing model of AG91 Sec. 6: the poisson workload, the ahmad91 cost model's
// exponential transfers, the metrics observer (Little's law) and confidence intervals.
#include "../sim/conservation.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/workloads/queueing_metrics.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/sim/statistics.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace dlbkit;

namespace {

QueueingMetrics run_none(const Topology& t, double load, long long tasks, std::uint64_t seed,
                         test::ConservationObserver* check = nullptr) {
  auto w = builtin_workloads()
               .configure("poisson", {{"load", std::to_string(load)}, {"tasks", std::to_string(tasks)}})
               .create();
  QueueingObserver metrics(static_cast<std::uint64_t>(tasks / 10));
  std::vector<Observer*> observers{&metrics};
  if (check) observers.push_back(check);
  const SimulationResult r = simulate({.topology = &t,
                                       .strategy = builtin_strategies().configure("none", {}),
                                       .workload = w.get(),
                                       .cost = make_cost_model("ahmad91"),
                                       .seed = seed,
                                       .observers = observers});
  EXPECT_EQ(r.tasks_created, static_cast<std::uint64_t>(tasks));
  return metrics.metrics(r);
}

}  // namespace

TEST(Statistics, StudentIntervals) {
  const std::vector<double> x = {1, 2, 3, 4, 5};
  const Estimate e = confidence_95(x);
  EXPECT_DOUBLE_EQ(e.mean, 3);
  EXPECT_NEAR(e.half_width, 2.776 * std::sqrt(2.5) / std::sqrt(5.0), 1e-9);
  EXPECT_EQ(confidence_95(std::vector<double>{4}).half_width, 0);
  EXPECT_NEAR(student_t_975(1), 12.706, 1e-9);
  EXPECT_NEAR(student_t_975(60), 2.000, 2e-3);
  EXPECT_NEAR(student_t_975(1000), 1.962, 2e-3);
}

TEST(Queueing, EveryTaskCompletesOnceAndLittlesLawHolds) {
  // 8 independent M/M/1 queues at load 0.7, 5 replications: the time-average number in the
  // system equals arrival rate x mean response within the confidence interval, and the
  // response time is the M/M/1 value 1/(1 - 0.7).
  const Topology t = parse_topology("hypercube:3");
  std::vector<double> in_system, little, response;
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    test::ConservationObserver check;
    const QueueingMetrics m = run_none(t, 0.7, 20000, seed, &check);
    check.expect_all_done();
    EXPECT_EQ(m.measured_tasks, 18000u);
    EXPECT_NEAR(m.arrival_rate, 8 * 0.7, 0.2);
    in_system.push_back(m.mean_in_system);
    little.push_back(m.arrival_rate * m.mean_response);
    response.push_back(m.mean_response);
    EXPECT_NEAR(m.utilisation_mean, 0.7, 0.05);
  }
  const Estimate l = confidence_95(in_system), lw = confidence_95(little), r = confidence_95(response);
  EXPECT_LE(std::abs(l.mean - lw.mean), l.half_width) << l.mean << " vs " << lw.mean;
  EXPECT_GT(l.half_width, 0);
  EXPECT_NEAR(r.mean, 1 / (1 - 0.7), 3 * r.half_width + 0.1);
}

TEST(Queueing, PoissonParametersAreChecked) {
  EXPECT_THROW(builtin_workloads().configure("poisson", {{"load", "1.2"}}), InputError);
  EXPECT_THROW(builtin_workloads().configure("poisson", {{"tasks", "0"}}), InputError);
  EXPECT_THROW(builtin_workloads().configure("poisson", {{"rate", "1"}}), InputError);
}

TEST(Queueing, Ahmad91TransfersAreExponentialWithMeanPerTask) {
  const CostModel c = make_cost_model("ahmad91");
  EXPECT_EQ(c.per_task, 50 * kMillisecond);
  EXPECT_EQ(c.transfer, TransferDistribution::exponential);
  EXPECT_EQ(c.to_json()["transfer"], "exponential");
  EXPECT_EQ(make_cost_model("ahmad91", {{"transfer", "fixed"}}).transfer, TransferDistribution::fixed);
  EXPECT_THROW(make_cost_model("ahmad91", {{"transfer", "uniform"}}), InputError);
  // One task moved per arrival, from every node to its neighbour: the mean delay from
  // creation to the start at the neighbour (idle: no queueing) is the transfer's mean.
  class Mover final : public Strategy {
    void on_task_submitted(NodeContext& ctx) override { ctx.migrate(ctx.neighbors()[0], 1); }
  };
  class Delay final : public Observer {
  public:
    void on_task_created(NodeId, const Task& t, SimTime at) override { created[t.id] = at; }
    void on_task_started(NodeId, const Task& t, SimTime at) override {
      sum += to_seconds(at - created[t.id]);
      ++n;
    }
    std::map<std::uint64_t, SimTime> created;
    double sum = 0;
    int n = 0;
  } delay;
  StrategyInfo info{.name = "mover", .message_kinds = {}, .create = [](const Parameters&) { return std::make_unique<Mover>(); }};
  const Topology t = parse_topology("complete:2");
  auto w = builtin_workloads().configure("poisson", {{"load", "0.001"}, {"tasks", "4000"}}).create();
  simulate({.topology = &t, .strategy = {&info, {}}, .workload = w.get(), .cost = c, .seed = 2, .observers = {&delay}});
  ASSERT_EQ(delay.n, 4000);
  EXPECT_NEAR(delay.sum / delay.n, 0.05, 0.005);
}

TEST(Statistics, MedianIsTheMiddleSampleAndIgnoresTheTail) {
  EXPECT_EQ(dlbkit::median(std::vector<double>{}), 0);
  EXPECT_EQ(dlbkit::median(std::vector<double>{3}), 3);
  EXPECT_EQ(dlbkit::median(std::vector<double>{5, 1, 1e9}), 5);
  EXPECT_EQ(dlbkit::median(std::vector<double>{4, 1, 3, 2}), 3);  // the upper of an even count
}
