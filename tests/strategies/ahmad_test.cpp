// AG91's semi-distributed strategy and its fully distributed baseline: conservation under
// every cost model, and the behaviour Sec. 5-6 describe.
#include "../sim/conservation.hpp"
#include "fake_context.hpp"

#include <dlbkit/analysis/spheres.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/workloads/queueing_metrics.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>

using namespace dlbkit;
using dlbkit::test::ConservationObserver;

namespace {

struct Outcome {
  SimulationResult result;
  QueueingMetrics metrics;
};

Outcome run(const std::string& spec, const std::string& strategy, const std::map<std::string, std::string>& params,
        double load, long long tasks, const CostModel& cost, std::uint64_t seed, Workload* workload = nullptr,
        std::vector<Observer*> observers = {}) {
  const Topology t = parse_topology(spec);
  auto poisson = builtin_workloads()
                     .configure("poisson", {{"load", std::to_string(load)}, {"tasks", std::to_string(tasks)}})
                     .create();
  QueueingObserver metrics(static_cast<std::uint64_t>(tasks / 10));
  observers.push_back(&metrics);
  SimulationConfig config{.topology = &t,
                          .strategy = builtin_strategies().configure(strategy, params),
                          .workload = workload ? workload : poisson.get(),
                          .cost = cost,
                          .seed = seed,
                          .observers = observers};
  Outcome r{simulate(config), {}};
  r.metrics = metrics.metrics(r.result);
  return r;
}

std::uint64_t kind_count(const SimulationResult& r, const std::string& kind) {
  for (std::size_t k = 0; k < r.message_kinds.size(); ++k)
    if (r.message_kinds[k] == kind) return r.messages_by_kind[k];
  ADD_FAILURE() << "no message kind " << kind;
  return 0;
}

}  // namespace

TEST(AhmadStrategies, EveryTaskCompletesExactlyOnce) {
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> costs = {
      {"ahmad91", {}}, {"ideal", {}}, {"ipsc2", {}}, {"ipsc2", {{"latency", "2s"}}}, {"ipsc2", {{"tasks_per_message", "3"}}}};
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> variants = {
      {"semi_distributed", {}}, {"semi_distributed", {{"routing", "request"}}}, {"fully_distributed", {}}};
  int runs = 0;
  for (const char* spec : {"hypercube:3", "hypercube:5", "bisectional:7", "odd:4"})
    for (const auto& [strategy, params] : variants)
      for (const auto& [preset, overrides] : costs)
        for (int which = 0; which < 2; ++which) {
          SCOPED_TRACE(strategy + (params.empty() ? "" : " routing=request") + " on " + spec + ", " + preset +
                       ", workload " + std::to_string(which));
          const CostModel cost = make_cost_model(preset, overrides);
          // The poisson workload in seconds, or the test workload (initial tasks, children
          // and arrivals in microseconds, so the latencies above are long).
          test::DynamicWorkload dynamic;
          ConservationObserver check;
          const Outcome r = run(spec, strategy, params, 0.9, 600, cost, 7 + static_cast<std::uint64_t>(runs),
                            which == 1 ? &dynamic : nullptr, {&check});
          check.expect_all_done();
          EXPECT_EQ(r.result.tasks_completed, r.result.tasks_created);
          std::uint64_t received = 0;
          for (const NodeStats& n : r.result.nodes) received += n.tasks_received;
          EXPECT_EQ(received, r.result.tasks_transferred);
          ++runs;
        }
  EXPECT_EQ(runs, 4 * 3 * 5 * 2);
}

TEST(AhmadStrategies, SemiDistributedRunsOnlyWhereASchedulerSetExists) {
  const auto& info = builtin_strategies().find("semi_distributed");
  EXPECT_NO_THROW(info.check_topology(parse_topology("hypercube:8")));
  EXPECT_THROW(info.check_topology(parse_topology("torus:4x4")), InputError);
  EXPECT_THROW(info.check_topology(parse_topology("odd:5")), InputError);
  // The range must cover the network and stay below the scheduler distance (Q8: r = 2, delta = 4).
  EXPECT_THROW(run("hypercube:8", "semi_distributed", {{"range", "1"}}, 0.5, 50, make_cost_model("ahmad91"), 1),
               InputError);
  EXPECT_THROW(run("hypercube:8", "semi_distributed", {{"range", "4"}}, 0.5, 50, make_cost_model("ahmad91"), 1),
               InputError);
  EXPECT_NO_THROW(run("hypercube:8", "semi_distributed", {{"range", "3"}}, 0.5, 50, make_cost_model("ahmad91"), 1));
}

TEST(AhmadStrategies, SharedNodesKeepEverySchedulerInformed) {
  // Sec. 5.2: a node tells all of its schedulers when it finishes a task; a scheduler that
  // places a task on a shared node tells the others. With the poisson workload every load
  // change of a node is a completion, so the counts are exact.
  const Topology q8 = parse_topology("hypercube:8");
  const SchedulerSet c = scheduler_set(q8);
  const auto member = sphere_membership(q8, c.schedulers, 2);
  const Outcome r = run("hypercube:8", "semi_distributed", {}, 0.7, 3000, make_cost_model("ahmad91"), 3);
  std::uint64_t expected = 0;
  for (NodeId v = 0; v < q8.size(); ++v) {
    const bool is_scheduler = std::find(c.schedulers.begin(), c.schedulers.end(), v) != c.schedulers.end();
    expected += r.result.nodes[v].tasks_executed * (member[v].size() - (is_scheduler ? 1 : 0));
  }
  EXPECT_EQ(kind_count(r.result, "load_change"), expected);
  // Placements on nodes at distance 2 (in 4 spheres) each cost 3 updates.
  EXPECT_EQ(kind_count(r.result, "assign_update") % 3, 0u);
  EXPECT_GT(kind_count(r.result, "assign_update"), 0u);
}

TEST(AhmadStrategies, Threshold1KeepsTasksInTheSphere) {
  // Step 2: with threshold1 above any load no scheduler ever asks the others (Step 6);
  // with threshold1 = 0 at load 0.9 they do, and tasks move between spheres.
  const CostModel cost = make_cost_model("ahmad91");
  const Outcome local = run("hypercube:7", "semi_distributed", {{"threshold1", "1000000"}}, 0.9, 3000, cost, 5);
  EXPECT_EQ(kind_count(local.result, "sphere_load_request"), 0u);
  const Outcome eager =
      run("hypercube:7", "semi_distributed", {{"threshold1", "0"}, {"threshold2", "1"}}, 0.9, 3000, cost, 5);
  const std::uint64_t asked = kind_count(eager.result, "sphere_load_request");
  EXPECT_GT(asked, 0u);
  EXPECT_EQ(asked % 15, 0u);  // Step 6 asks all 15 other schedulers of Q7
  EXPECT_EQ(kind_count(eager.result, "sphere_load_reply"), asked);
}

TEST(AhmadStrategies, BothBeatNoBalancingAndSemiServesLightLoadsAtOnce) {
  // Sec. 6.1: both strategies improve on no balancing; at light load a scheduler nearly
  // always finds an idle node, so a task waits only for its two transfers (2 x 0.05).
  const CostModel cost = make_cost_model("ahmad91");
  const Outcome none = run("hypercube:8", "none", {}, 0.8, 6000, cost, 9);
  const Outcome semi = run("hypercube:8", "semi_distributed", {}, 0.8, 6000, cost, 9);
  const Outcome fully = run("hypercube:8", "fully_distributed", {}, 0.8, 6000, cost, 9);
  EXPECT_LT(semi.metrics.mean_response, 0.7 * none.metrics.mean_response);
  EXPECT_LT(fully.metrics.mean_response, 0.7 * none.metrics.mean_response);
  EXPECT_LT(semi.metrics.utilisation_sd, none.metrics.utilisation_sd);
  const Outcome light = run("hypercube:8", "semi_distributed", {}, 0.2, 4000, cost, 9);
  EXPECT_LT(light.metrics.mean_response, 1.25);
  EXPECT_EQ(kind_count(light.result, "sphere_load_request"), 0u);
}

TEST(AhmadStrategies, FullyDistributedMovesToTheLightestNeighbourOnlyWhenLighter) {
  const Topology q3 = parse_topology("hypercube:3");
  auto agent = builtin_strategies().configure("fully_distributed", {}).create();
  test::FakeContext ctx(q3, 0, 3);  // two tasks here, and the new one
  agent->on_start(ctx);
  agent->on_task_submitted(ctx);
  const auto asked = ctx.of_kind(0);
  ASSERT_EQ(asked.size(), 3u);  // every neighbour
  struct Reply {
    std::uint32_t probe, pad;
    std::int64_t load;
  };
  agent->on_message(ctx, 1, Message::make(1, Reply{0, 0, 2}));
  agent->on_message(ctx, 2, Message::make(1, Reply{0, 0, 1}));
  EXPECT_TRUE(ctx.migrations.empty());  // not every answer is in
  agent->on_message(ctx, 4, Message::make(1, Reply{0, 0, 4}));
  ASSERT_EQ(ctx.migrations.size(), 1u);
  EXPECT_EQ(ctx.migrations[0].to, 2u);
  // A neighbour as loaded as this node without the task: the task stays.
  agent->on_task_submitted(ctx);  // load is now 2: one other task and the new one
  for (NodeId nb : {1u, 2u, 4u}) agent->on_message(ctx, nb, Message::make(1, Reply{1, 0, 1}));
  EXPECT_EQ(ctx.migrations.size(), 1u);
  // transfer_limit = 0: no probing at all.
  auto still = builtin_strategies().configure("fully_distributed", {{"transfer_limit", "0"}}).create();
  test::FakeContext quiet(q3, 0, 3);
  still->on_start(quiet);
  still->on_task_submitted(quiet);
  EXPECT_TRUE(quiet.sent.empty());
}

TEST(AhmadStrategies, RoutingByRequestSavesTheTransferToTheScheduler) {
  // routing=request: the task travels once, from its node to the one its scheduler chose
  // (or not at all), as if it had arrived at the scheduler (AG91 Sec. 5.1).
  const CostModel cost = make_cost_model("ahmad91");
  const Outcome task = run("hypercube:8", "semi_distributed", {}, 0.6, 4000, cost, 4);
  const Outcome request = run("hypercube:8", "semi_distributed", {{"routing", "request"}}, 0.6, 4000, cost, 4);
  EXPECT_LT(request.result.tasks_transferred, task.result.tasks_transferred);
  EXPECT_LT(request.metrics.mean_response, task.metrics.mean_response);
  EXPECT_LT(request.metrics.mean_response, 1.06);
  EXPECT_GT(kind_count(request.result, "place_request"), 0u);
  EXPECT_EQ(kind_count(request.result, "place_at"), kind_count(request.result, "place_request"));  // one answer each
}
