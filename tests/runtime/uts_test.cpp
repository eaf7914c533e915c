// UTS through the threads engine: the published counts of the standard trees, whatever the
// strategy or the worker count, and custom trees' counts equal to the sequential walk's.
#include "../support/networks.hpp"

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>

#include <tuple>

using namespace dlbkit;

namespace {

nlohmann::json published(const std::string& name) {
  for (const auto& t : uts::published_trees())
    if (t.name == name) return {{"nodes", t.nodes}, {"leaves", t.leaves}, {"max_depth", t.max_depth}};
  return {};
}

RuntimeResult run_uts(AnyApplication& app, const std::string& topology, const std::string& strategy) {
  const Topology t = parse_topology(topology);
  std::map<std::string, std::string> p;
  if (strategy == "rid") p = {{"retry_on_update", "true"}};
  return run_threads(app, {.topology = &t, .strategy = builtin_strategies().configure(strategy, p)});
}

// Runs `app` with every strategy, each on a network of 2 to 4 workers it accepts.
void expect_every_strategy_counts(AnyApplication& app, const nlohmann::json& expected) {
  for (const auto& info : builtin_strategies().all()) {
    SCOPED_TRACE(info.name);
    const auto network = test::network_for(info.name, {"hypercube:1", "ring:3", "bisectional:3"});
    ASSERT_TRUE(network) << "no network of 2 to 4 nodes for " << info.name;
    const RuntimeResult r = run_uts(app, *network, info.name);
    EXPECT_EQ(app.report_bytes(r.result.data()), expected);
  }
}

}  // namespace

TEST(UtsRuntime, T1CountsAsPublishedForEveryStrategy) {
  auto app = builtin_apps().configure("uts", {{"tree", "T1"}}).create();
  const auto expected = published("T1");
  ASSERT_EQ(expected["nodes"], 4130071u);
  expect_every_strategy_counts(*app, expected);
}

TEST(UtsRuntime, T3CountsAsPublishedOnFourWorkers) {
  auto app = builtin_apps().configure("uts", {{"tree", "T3"}}).create();
  for (const std::string strategy : {"work_stealing", "sid"}) {
    SCOPED_TRACE(strategy);
    const RuntimeResult r = run_uts(*app, "hypercube:2", strategy);
    EXPECT_EQ(app->report_bytes(r.result.data()), published("T3"));
    EXPECT_GT(r.tasks_moved(), 0u);
  }
}

// The `tree` parameter reads what `dlbkit uts --tree` reads: a standard tree with changes, or
// key=value pairs.
TEST(UtsRuntime, CustomTreesCountAsTheSequentialWalk) {
  for (const std::string spec : {"T1,depth=6", "type=binomial,b0=200,q=0.2,m=4,seed=7"}) {
    SCOPED_TRACE(spec);
    const uts::TreeCounts seq = uts::count_sequential(uts::parse_tree(spec));
    ASSERT_GT(seq.nodes, 100u);  // not a lone root: the spec was read
    auto app = builtin_apps().configure("uts", {{"tree", spec}}).create();
    const RuntimeResult r = run_uts(*app, "hypercube:2", "work_stealing");
    EXPECT_EQ(app->report_bytes(r.result.data()),
              (nlohmann::json{{"nodes", seq.nodes}, {"leaves", seq.leaves}, {"max_depth", seq.max_depth}}));
  }
}

TEST(UtsRuntime, BadTreesAreRefusedNamingTheValue) {
  for (const std::string spec : {"T9", "T1,sede=3", "type=binomial,q=0.5,m=4", "T1 depth=6"}) {
    SCOPED_TRACE(spec);
    try {
      builtin_apps().configure("uts", {{"tree", spec}}).create();
      ADD_FAILURE() << "accepted";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("tree=" + spec), std::string::npos) << e.what();
    }
  }
}

// tasks=subtree: a task walks its subtree itself and splits only when a strategy asks. The
// count is exact for every strategy, whether or not it moves work.
TEST(UtsRuntime, SubtreeTasksCountExactlyForEveryStrategy) {
  const std::string spec = "T1,depth=7";
  const uts::TreeCounts seq = uts::count_sequential(uts::parse_tree(spec));
  ASSERT_GT(seq.nodes, 10000u);
  const nlohmann::json expected = {{"nodes", seq.nodes}, {"leaves", seq.leaves}, {"max_depth", seq.max_depth}};
  for (const std::string split : {"levels", "children"}) {
    SCOPED_TRACE(split);
    auto app = builtin_apps().configure("uts", {{"tree", spec}, {"tasks", "subtree"}, {"split", split}}).create();
    EXPECT_EQ(app->task_bytes(), 32u);  // a node and a range of its children, not a node alone
    expect_every_strategy_counts(*app, expected);
  }
}

// All the work starts in one task on worker 0: it reaches worker 1 only through splits,
// whether a thief asks (work_stealing, lifeline) or a strategy weighs loads (RID answers a
// request with half its load, SID sends to a neighbour below the average). The splits are
// counted, not timed: the one task lasts the whole run of T1 (4 million nodes).
TEST(UtsRuntime, SubtreeTasksSplitWhenAStrategyWantsWork) {
  auto app = builtin_apps().configure("uts", {{"tree", "T1"}, {"tasks", "subtree"}}).create();
  for (const std::string strategy : {"work_stealing", "lifeline", "rid", "sid"}) {
    SCOPED_TRACE(strategy);
    const RuntimeResult r = run_uts(*app, "hypercube:1", strategy);
    EXPECT_EQ(app->report_bytes(r.result.data()), published("T1"));
    EXPECT_GT(r.workers[0].splits, 0u);
    EXPECT_GT(r.workers[1].tasks_received, 0u);
    EXPECT_LT(r.tasks_executed(), published("T1")["nodes"].get<std::uint64_t>() / 100) << "a task per subtree";
  }
}

// split=children: each unvisited child is a task of its own, so the stack a split leaves
// holds the frontier, and the strategies that count tasks move many of them, where a split
// by levels leaves one task per level of the path.
TEST(UtsRuntime, SubtreeTasksSplitByChildrenHandOverTheFrontier) {
  for (const std::string strategy : {"sid", "hbm", "diffusion"}) {
    SCOPED_TRACE(strategy);
    std::uint64_t received[2] = {};
    for (const int by_child : {0, 1}) {
      auto app = builtin_apps()
                     .configure("uts", {{"tree", "T1"}, {"tasks", "subtree"}, {"split", by_child ? "children" : "levels"}})
                     .create();
      const RuntimeResult r = run_uts(*app, "hypercube:1", strategy);
      EXPECT_EQ(app->report_bytes(r.result.data()), published("T1"));
      received[by_child] = r.workers[1].tasks_received;
    }
    EXPECT_GT(received[1], 2 * received[0]) << "levels " << received[0] << ", children " << received[1];
  }
}

TEST(UtsRuntime, BadTasksValueIsRefusedNamingIt) {
  try {
    builtin_apps().configure("uts", {{"tasks", "nodes"}}).create();
    ADD_FAILURE() << "accepted";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("nodes"), std::string::npos) << what;
    EXPECT_NE(what.find("node, subtree"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  for (const auto& [tasks, split, needle] :
       {std::tuple<std::string, std::string, std::string>{"subtree", "child", "levels, children"},
        {"node", "children", "tasks=subtree only"}}) {
    try {
      builtin_apps().configure("uts", {{"tasks", tasks}, {"split", split}}).create();
      ADD_FAILURE() << "accepted split=" << split << " with tasks=" << tasks;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  }
}
