// The runtime's applications as simulator workloads: the simulator runs the very tasks the
// runtime runs (uts: the same tree; busy: the same draw; bnb: the same tree of tasks and
// steps), and a recorded run replays in the simulator with the same tasks and total work.

#include "../sim/conservation.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/workloads/experiment_setup.hpp>
#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/runtime/recording.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>

using namespace dlbkit;

namespace {

const char* const kSmallTree = "type=geometric,shape=fixed,b0=4,depth=5,seed=19";

SimulationResult simulate_workload(const std::string& name, const std::map<std::string, std::string>& params,
                                   const std::string& topology = "hypercube:3", const std::string& strategy = "rid") {
  const Topology t = parse_topology(topology);
  auto workload = builtin_workloads().configure(name, params).create();
  return simulate({.topology = &t,
                   .strategy = builtin_strategies().configure(strategy, {}),
                   .workload = workload.get(),
                   .cost = make_cost_model("ipsc2"),
                   .seed = 3});
}

RuntimeResult run_app(AnyApplication& app, const std::string& topology) {
  const Topology t = parse_topology(topology);
  return run_threads(app, {.topology = &t, .strategy = builtin_strategies().configure("work_stealing", {})});
}

}  // namespace

TEST(AppWorkloads, UtsSimulatesTheTreeTheAppCounts) {
  const std::uint64_t nodes = uts::count_sequential(uts::parse_tree(kSmallTree)).nodes;
  ASSERT_GT(nodes, 100u);
  const SimulationResult r = simulate_workload("uts", {{"tree", kSmallTree}, {"node_time", "2us"}});
  EXPECT_EQ(r.tasks_completed, nodes);
  EXPECT_EQ(r.total_work, static_cast<SimTime>(nodes) * 2 * kMicrosecond);
  auto app = builtin_apps().configure("uts", {{"tree", kSmallTree}}).create();
  const RuntimeResult real = run_app(*app, "complete:2");
  EXPECT_EQ(real.tasks_executed(), r.tasks_completed);
  // Pending nodes only are held: far fewer slots than nodes for a tree this bushy.
  EXPECT_LT(r.peak_pending_tasks, nodes);
}

TEST(AppWorkloads, UtsRejectsABadTree) {
  EXPECT_THROW(builtin_workloads().configure("uts", {{"tree", "T9"}}).create(), InputError);
}

TEST(AppWorkloads, BusySimulatesTheAppsDraw) {
  const std::map<std::string, std::string> draw = {{"granularity", "7"}, {"total_load", "5000"}, {"seed", "4"}};
  auto app = builtin_apps().configure("busy", draw).create();
  const RuntimeResult seq = run_sequential(*app, 8);
  const nlohmann::json result = app->report_bytes(seq.result.data());
  auto params = draw;
  params["loop_time"] = "3us";
  const SimulationResult r = simulate_workload("busy", params);
  EXPECT_EQ(r.tasks_completed, result["tasks"].get<std::uint64_t>());
  EXPECT_EQ(r.total_work, result["loops"].get<SimTime>() * 3 * kMicrosecond);
}

// The one description of the B&B search: the app in threshold mode on real threads and the
// workload with placement=tree in the simulator explore the same tasks and the same steps,
// which are count_schedules_within's for the whole tree.
TEST(AppWorkloads, BnbSimulatedAndRealRunsExploreTheSameNodes) {
  for (const char* m : {"3", "5"}) {
    const std::map<std::string, std::string> search = {{"n", "9"}, {"m", m}, {"instance_seed", "4"}, {"slack", "0.2"}};
    auto app_params = search;
    app_params["mode"] = "threshold";
    auto app = builtin_apps().configure("bnb", app_params).create();
    const RuntimeResult real = run_app(*app, "complete:2");
    const nlohmann::json result = app->report_bytes(real.result.data());

    Rng rng(4);
    const TardinessInstance jobs = generate_tardiness_instance(9, rng);
    const auto threshold = static_cast<std::int64_t>(std::floor(static_cast<double>(solve_tardiness(jobs).tardiness) * 1.2));
    const TardinessCount whole = count_schedules_within(jobs, threshold);
    EXPECT_EQ(result["threshold"].get<std::int64_t>(), threshold);
    EXPECT_EQ(result["steps"].get<std::uint64_t>(), whole.steps) << "m = " << m;
    EXPECT_EQ(result["schedules"].get<std::uint64_t>(), whole.schedules) << "m = " << m;

    auto workload_params = search;
    workload_params["placement"] = "tree";
    workload_params["step_time"] = "1us";
    const SimulationResult sim = simulate_workload("bnb", workload_params);
    EXPECT_EQ(sim.tasks_completed, real.tasks_executed()) << "m = " << m;
    EXPECT_EQ(sim.total_work, static_cast<SimTime>(whole.steps) * kMicrosecond) << "m = " << m;
  }
}

// A time per unit with a fraction of a nanosecond (a sequential run's time over its units):
// the simulated total is the units x that time within half a nanosecond per task (bnb,
// busy) or a few ns per thousand nodes (uts), on any strategy.
TEST(AppWorkloads, FractionalTimesPerUnitKeepTheTotalWork) {
  Rng rng(4);
  const TardinessInstance jobs = generate_tardiness_instance(9, rng);
  const auto threshold = static_cast<std::int64_t>(std::floor(static_cast<double>(solve_tardiness(jobs).tardiness) * 1.2));
  const auto steps = static_cast<double>(count_schedules_within(jobs, threshold).steps);
  const std::map<std::string, std::string> bnb = {
      {"n", "9"}, {"m", "5"}, {"instance_seed", "4"}, {"slack", "0.2"}, {"placement", "tree"}, {"step_time", "6.3ns"}};
  const SimulationResult b = simulate_workload("bnb", bnb);
  EXPECT_NEAR(static_cast<double>(b.total_work), steps * 6.3, 0.5 * static_cast<double>(b.tasks_completed));
  EXPECT_GT(std::abs(static_cast<double>(b.total_work) - steps * 6), 0.04 * steps * 6);  // 6 ns was 5% short

  std::map<std::string, std::string> busy = {{"granularity", "7"}, {"total_load", "5000"}, {"loop_time", "1ns"}};
  const auto loops = static_cast<double>(simulate_workload("busy", busy).total_work);
  busy["loop_time"] = "1250.4ns";
  const SimulationResult u = simulate_workload("busy", busy);
  EXPECT_NEAR(static_cast<double>(u.total_work), loops * 1250.4, 0.5 * static_cast<double>(u.tasks_completed));

  const auto nodes = static_cast<double>(uts::count_sequential(uts::parse_tree(kSmallTree)).nodes);
  for (const char* strategy : {"rid", "work_stealing"}) {
    const SimulationResult t = simulate_workload("uts", {{"tree", kSmallTree}, {"node_time", "74.3ns"}}, "hypercube:3", strategy);
    EXPECT_NEAR(static_cast<double>(t.total_work), nodes * 74.3, 0.01 * nodes) << strategy;  // 0.01 ns per node
  }
}

TEST(AppWorkloads, BnbOptimiseModeIsUnchangedByTheThresholdMode) {
  auto app = builtin_apps().configure("bnb", {{"n", "9"}, {"instance_seed", "4"}}).create();
  const nlohmann::json result = app->report_bytes(run_sequential(*app, 1).result.data());
  Rng rng(4);
  EXPECT_EQ(result["optimum"].get<std::int64_t>(), solve_tardiness(generate_tardiness_instance(9, rng)).tardiness);
  EXPECT_FALSE(result.contains("schedules"));
}

// Record a threads run of a small UTS tree and replay it on another topology and strategy:
// the same tasks, and the simulated work is exactly the sum of the recorded durations.
TEST(AppWorkloads, RecordedRunReplaysWithTheSameTasksAndWork) {
  const std::string path = test::temp_path("uts.trace").string();
  auto app = builtin_apps().configure("uts", {{"tree", kSmallTree}}).create();
  RecordingApplication recorded(*app, path);
  const RuntimeResult real = run_app(recorded, "complete:3");
  recorded.finish();
  EXPECT_EQ(recorded.recorded(), real.tasks_executed());
  const nlohmann::json result = app->report_bytes(real.result.data());
  const std::uint64_t nodes = uts::count_sequential(uts::parse_tree(kSmallTree)).nodes;
  EXPECT_EQ(result["nodes"].get<std::uint64_t>(), nodes);

  const TaskTree tree = load_task_trace(path);
  EXPECT_EQ(tree.tasks(), nodes);
  EXPECT_EQ(tree.roots.size(), 1u);
  EXPECT_EQ(tree.workers, 3u);
  EXPECT_EQ(tree.poll_calls, std::optional<std::uint64_t>(0));  // uts node tasks never poll
  for (const char* strategy : {"rid", "sid", "gm"}) {
    const SimulationResult r = simulate_workload("trace", {{"file", path}}, "hypercube:4", strategy);
    EXPECT_EQ(r.tasks_completed, nodes) << strategy;
    EXPECT_EQ(r.total_work, tree.total_duration()) << strategy;
  }
  const SimulationResult doubled = simulate_workload("trace", {{"file", path}, {"scale", "2"}});
  EXPECT_NEAR(static_cast<double>(doubled.total_work), 2.0 * static_cast<double>(tree.total_duration()), 1.0 * nodes);
  std::remove(path.c_str());
}

TEST(AppWorkloads, TraceNeedsAReadableFile) {
  EXPECT_THROW(builtin_workloads().configure("trace", {}).create(), InputError);
  EXPECT_THROW(simulate_workload("trace", {{"file", test::temp_path("missing.trace").string()}}), InputError);
}

// --execution lifo: the same tasks, walked depth first, with far fewer pending at once.
TEST(AppWorkloads, LifoExecutionKeepsFewPendingTreeNodes) {
  const std::uint64_t nodes = uts::count_sequential(uts::parse_tree(kSmallTree)).nodes;
  const Topology t = parse_topology("hypercube:2");
  std::uint64_t peak[2];
  for (int lifo = 0; lifo < 2; ++lifo) {
    auto workload = builtin_workloads().configure("uts", {{"tree", kSmallTree}, {"node_time", "50us"}}).create();
    test::ConservationObserver check;
    const SimulationResult r = simulate({.topology = &t,
                                         .strategy = builtin_strategies().configure("work_stealing", {}),
                                         .workload = workload.get(),
                                         .cost = make_cost_model("ipsc2"),
                                         .observers = {&check},
                                         .execution = lifo ? Execution::lifo : Execution::fcfs});
    check.expect_all_done();
    EXPECT_EQ(r.tasks_completed, nodes);
    EXPECT_GT(r.tasks_transferred, 0u);
    peak[lifo] = r.peak_pending_tasks;
  }
  EXPECT_LT(4 * peak[1], peak[0]) << "fcfs " << peak[0] << ", lifo " << peak[1];
}

// Roots are recorded with the worker they started on, and replay there (mod N).
TEST(AppWorkloads, RecordedRootsKeepTheirWorker) {
  const std::string path = test::temp_path("busy.trace").string();
  auto app = builtin_apps().configure("busy", {{"granularity", "4"}, {"total_load", "600"}}).create();
  RecordingApplication recorded(*app, path);
  run_app(recorded, "ring:3");
  recorded.finish();
  const TaskTree tree = load_task_trace(path);
  EXPECT_EQ(tree.tasks(), 12u);
  EXPECT_EQ(tree.roots.size(), 12u);
  std::vector<int> per_worker(3, 0);
  for (const std::uint32_t origin : tree.root_origin) ++per_worker.at(origin);
  EXPECT_EQ(per_worker, (std::vector<int>{4, 4, 4}));
  EXPECT_GT(tree.poll_calls.value_or(0), 0u);  // busy polls every 16 loops
  std::remove(path.c_str());
}

// With checks = engines, a message reaches a running task only at its poll() calls: a task
// that never polls is looked into at its end. SID's idle node 1 reports load 0 once, at
// the start. Node 0's root (40 us, 16 children) that polls sees the report at 20 us, still
// alone, and nothing moves ever after (no report follows); one that does not poll sees it
// at its end, with its 16 children there, and sends half.
TEST(AppWorkloads, ATaskThatNeverPollsIsLookedIntoAtItsEnd) {
  const auto trace = [](std::uint64_t root_polls) {
    const std::string path = test::temp_path("polls.trace").string();
    TaskTraceSection section(path + ".part0", 0);
    section.add(TaskRef::root(0), 40 * kMicrosecond, root_polls);
    for (int i = 0; i < 16; ++i) section.add(TaskRef::task(0, 0), 100 * kMicrosecond);
    section.close();
    AtomicFile out(path);
    merge_task_trace(out, 2, std::vector<std::string>{path + ".part0"});
    out.commit();
    return path;
  };
  const Topology t = parse_topology("hypercube:1");
  const auto moved = [&](std::uint64_t root_polls, const std::string& checks) {
    const std::string path = trace(root_polls);
    auto workload = builtin_workloads().configure("trace", {{"file", path}}).create();
    test::ConservationObserver check;
    const SimulationResult r = simulate(
        {.topology = &t,
         .strategy = builtin_strategies().configure("sid", {}),
         .workload = workload.get(),
         .cost = make_cost_model("ideal", {{"poll_interval", "20us"}, {"send_overhead", "100ns"}, {"latency", "500ns"},
                                           {"checks", checks}}),
         .observers = {&check}});
    check.expect_all_done();
    EXPECT_EQ(r.tasks_completed, 17u);
    std::remove(path.c_str());
    return r.tasks_transferred;
  };
  EXPECT_GE(moved(0, "engines"), 8u);  // half at the root's end, more as node 1 reports
  EXPECT_EQ(moved(1, "engines"), 0u);
  EXPECT_EQ(moved(0, "each_event"), 0u);  // each_event: every task is looked into, as before
}

// mail = check_points (MPI): a busy worker sees what reached it between two tasks only at
// its next check point, once poll_interval has passed; mail = each_task (threads) after the
// task. Work stealing's idle node 1 asks node 0, busy with 1 us tree nodes, at once.
TEST(AppWorkloads, MailWaitsForACheckPointUnderCheckPoints) {
  struct FirstArrival final : Observer {
    SimTime at = -1;
    void on_task_arrived(NodeId, NodeId, const Task&, SimTime t) override {
      if (at < 0) at = t;
    }
  };
  const Topology t = parse_topology("hypercube:1");
  const auto first_arrival = [&](const std::string& mail) {
    auto workload = builtin_workloads().configure("uts", {{"tree", kSmallTree}, {"node_time", "1us"}}).create();
    test::ConservationObserver check;
    FirstArrival first;
    simulate({.topology = &t,
              .strategy = builtin_strategies().configure("work_stealing", {}),
              .workload = workload.get(),
              .cost = make_cost_model("ideal", {{"poll_interval", "50us"}, {"latency", "500ns"},
                                                {"send_overhead", "100ns"}, {"checks", "engines"}, {"mail", mail}}),
              .observers = {&check, &first},
              .execution = Execution::lifo});
    check.expect_all_done();
    return first.at;
  };
  const SimTime each_task = first_arrival("each_task"), check_points = first_arrival("check_points");
  EXPECT_GT(each_task, 0);
  EXPECT_LT(each_task, 5 * kMicrosecond);
  EXPECT_GE(check_points, 50 * kMicrosecond);
  EXPECT_LT(check_points, 60 * kMicrosecond);
}

// checks = engines: a strategy hears of its load only where a runtime worker looks (every
// poll_interval, on a message, out of tasks), so RID reports far fewer changes; every task
// still runs once, with a poll_interval at either end of its range. With poll_interval 0
// every event is a look: for tasks that poll (busy's) the run is the same as with each_event.
TEST(AppWorkloads, ChecksAsTheEnginesReportLoadOnlyAtCheckPoints) {
  const Topology t = parse_topology("hypercube:1");
  const auto run = [&](const std::string& workload_name, const std::map<std::string, std::string>& params,
                       const std::string& checks, const std::string& poll_interval) {
    auto workload = builtin_workloads().configure(workload_name, params).create();
    test::ConservationObserver check;
    const SimulationResult r =
        simulate({.topology = &t,
                  .strategy = builtin_strategies().configure("rid", {{"retry_on_update", "true"}}),
                  .workload = workload.get(),
                  .cost = make_cost_model("ideal", {{"poll_interval", poll_interval}, {"send_overhead", "150ns"},
                                                    {"latency", "500ns"}, {"checks", checks}}),
                  .observers = {&check},
                  .execution = Execution::lifo});
    check.expect_all_done();
    return r;
  };
  const std::uint64_t nodes = uts::count_sequential(uts::parse_tree(kSmallTree)).nodes;
  const auto uts = [&](const std::string& checks, const std::string& poll_interval) {
    const SimulationResult r = run("uts", {{"tree", kSmallTree}, {"node_time", "70ns"}}, checks, poll_interval);
    EXPECT_EQ(r.tasks_completed, nodes) << checks << " " << poll_interval;
    return r;
  };
  const auto updates = [](const SimulationResult& r) {
    const auto kind = std::find(r.message_kinds.begin(), r.message_kinds.end(), "load_update");
    return r.messages_by_kind.at(static_cast<std::size_t>(kind - r.message_kinds.begin()));
  };
  const SimulationResult each = uts("each_event", "20us"), engines = uts("engines", "20us");
  EXPECT_LT(3 * updates(engines), updates(each)) << updates(engines) << " against " << updates(each);
  EXPECT_GT(updates(engines), 0u);
  for (const std::string p : {"0", "1ns", "1s"}) uts("engines", p);
  const std::map<std::string, std::string> busy = {{"total_load", "3000"}, {"granularity", "6"}};
  const SimulationResult zero_each = run("busy", busy, "each_event", "0"), zero_engines = run("busy", busy, "engines", "0");
  EXPECT_GT(zero_each.messages_by_kind.at(0), 0u);
  EXPECT_EQ(zero_engines.makespan, zero_each.makespan);
  EXPECT_EQ(zero_engines.messages_by_kind, zero_each.messages_by_kind);
}

// A cost model's measured time per unit (dlbkit calibrate --app) is the workload's own
// parameter unless the run gives it; a bad one is refused naming the cost model.
TEST(AppWorkloads, ACostModelsMeasuredTimePerUnitServesUnlessGiven) {
  const std::uint64_t nodes = uts::count_sequential(uts::parse_tree(kSmallTree)).nodes;
  CostModel c = make_cost_model("ideal");
  c.name = "measured";
  c.workload_params["uts"]["node_time"] = "50ns";
  const std::string path = test::temp_path("measured-cost.json").string();
  std::ofstream(path) << c.to_json().dump();
  ExperimentInputs in{.strategy = "work_stealing", .topology = "hypercube:1", .workload = "uts",
                      .cost = "file:" + path, .workload_params = {{"tree", kSmallTree}}};
  EXPECT_EQ(run_experiment(experiment_setup(in)).balanced.total_work, static_cast<SimTime>(nodes) * 50);
  in.workload_params["node_time"] = "2us";
  EXPECT_EQ(run_experiment(experiment_setup(in)).balanced.total_work, static_cast<SimTime>(nodes) * 2000);
  c.workload_params["uts"]["node_time"] = "fast";
  std::ofstream(path) << c.to_json().dump();
  in.workload_params.erase("node_time");
  try {
    experiment_setup(in);
    ADD_FAILURE() << "a bad node_time in the cost model was taken";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("workload_params of uts"), std::string::npos) << e.what();
  }
}
