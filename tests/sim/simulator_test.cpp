#include "conservation.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/experiment.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cstring>

using namespace dlbkit;
using dlbkit::test::ConservationObserver;

namespace {

// A hostile strategy for the engine: on timers it ships random amounts to random nodes,
// near or far, and pings random nodes, a bounded number of times.
class Chaos final : public Strategy {
public:
  void on_start(NodeContext& ctx) override { ctx.set_timer(static_cast<SimTime>(ctx.rng().below(2000)) * kMicrosecond, 0); }
  void on_timer(NodeContext& ctx, std::uint64_t) override {
    const auto n = static_cast<NodeId>(ctx.topology().size());
    const NodeId to = static_cast<NodeId>(ctx.rng().below(n));
    if (to != ctx.self()) {
      ctx.migrate(to, static_cast<std::int64_t>(ctx.rng().below(static_cast<std::uint64_t>(ctx.migratable() + 2))));
      ctx.send(to, Message::make(0, std::int64_t{1}));
    }
    if (++rounds_ < 40) ctx.set_timer(static_cast<SimTime>(1 + ctx.rng().below(3000)) * kMicrosecond, 0);
  }
  void on_message(NodeContext& ctx, NodeId from, const Message&) override {
    if (ctx.migratable() > 3) ctx.migrate(from, 1);
  }

private:
  int rounds_ = 0;
};

const StrategyInfo kChaosInfo{.name = "chaos",
                              .description = "test only",
                              .source = "test",
                              .message_kinds = {"ping"},
                              .create = [](const Parameters&) { return std::make_unique<Chaos>(); }};

// Node 1 sends node 0 one message at the start; node 0 records when it handled it.
StrategyInfo recorder_info(SimTime* handled_at) {
  struct Recorder final : Strategy {
    explicit Recorder(SimTime* h) : handled_at(h) {}
    void on_start(NodeContext& ctx) override {
      if (ctx.self() == 1) ctx.send(0, Message::make(0, 0));
    }
    void on_message(NodeContext& ctx, NodeId, const Message&) override { *handled_at = ctx.now(); }
    SimTime* handled_at;
  };
  return {.name = "recorder", .message_kinds = {"m"},
          .create = [handled_at](const Parameters&) { return std::make_unique<Recorder>(handled_at); }};
}

StrategyChoice choose(const std::string& name, std::map<std::string, std::string> params = {}) {
  return builtin_strategies().configure(name, params);
}

std::unique_ptr<Workload> artificial(long long g) {
  return builtin_workloads().configure("artificial", {{"granularity", std::to_string(g)}}).create();
}

}  // namespace

TEST(Simulator, EveryTaskIsExecutedExactlyOnce) {
  const std::vector<std::string> topologies = {"hypercube:3", "hypercube:5", "torus:4x4", "mesh:3x5", "ring:7",
                                               "tree:binary:4", "complete:6", "odd:3", "bisectional:5"};
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> costs = {
      {"ideal", {}},
      {"ipsc2", {}},
      {"ipsc2", {{"latency", "2s"}}},  // every piece of load information is stale on arrival
      {"ipsc2", {{"tasks_per_message", "3"}, {"poll_interval", "0"}}},
      {"ideal", {{"poll_interval", "50us"}, {"handle_cost", "20us"}, {"per_hop", "1ms"}}},
  };
  Rng pick(2024);
  int runs = 0;
  for (const auto& spec : topologies) {
    const Topology topology = parse_topology(spec);
    for (const auto& [preset, overrides] : costs) {
      for (const auto& strategy : {choose("none"), choose("rid"), choose("rid", {{"l_low", "inf"}, {"u", "1"}}),
                                   choose("rid", {{"retry_on_update", "true"}}), StrategyChoice{&kChaosInfo, {}}}) {
        ConservationObserver check;
        auto workload = pick.below(3) == 0 ? std::unique_ptr<Workload>(std::make_unique<test::DynamicWorkload>())
                                           : artificial(static_cast<long long>(1 + pick.below(40)));
        SimulationConfig config{.topology = &topology,
                                .strategy = strategy,
                                .workload = workload.get(),
                                .cost = make_cost_model(preset, overrides),
                                .seed = pick.next(),
                                .observers = {&check}};
        const SimulationResult r = simulate(config);
        SCOPED_TRACE(spec + " " + preset + " " + strategy.name());
        check.expect_all_done();
        EXPECT_EQ(r.tasks_completed, r.tasks_created);
        EXPECT_EQ(r.tasks_completed, check.completed());
        std::uint64_t executed = 0;
        for (const NodeStats& n : r.nodes) executed += n.tasks_executed;
        EXPECT_EQ(executed, r.tasks_completed);
        ++runs;
      }
    }
  }
  EXPECT_EQ(runs, 9 * 5 * 5);
}

TEST(Simulator, SameInputsGiveByteIdenticalJson) {
  const auto run = [](std::uint64_t seed) {
    const ExperimentSetup setup{.topology = parse_topology("hypercube:4"),
                                .strategy = choose("rid"),
                                .workload = builtin_workloads().configure("artificial", {{"granularity", "30"}}),
                                .cost = make_cost_model("ipsc2"),
                                .seed = seed};
    nlohmann::json j = to_json(setup, run_experiment(setup), true);
    j.erase("wall_seconds");  // wall-clock fields are the only ones allowed to differ
    j.erase("events_per_second");
    return j.dump();
  };
  EXPECT_EQ(run(5), run(5));
  EXPECT_NE(run(5), run(6));
}

// The simulator keeps agents built in place in one array, and makes those of a strategy
// without StrategyInfo::in_place one by one: every builtin strategy runs the same either way.
TEST(Simulator, AgentsInOneArrayOrOneByOneRunAlike) {
  const auto run = [](const StrategyChoice& strategy, const std::string& topology) {
    const ExperimentSetup setup{.topology = parse_topology(topology),
                                .strategy = strategy,
                                .workload = builtin_workloads().configure("artificial", {{"granularity", "30"}}),
                                .cost = make_cost_model("ipsc2"),
                                .seed = 9};
    nlohmann::json j = to_json(setup, run_experiment(setup), true);
    j.erase("wall_seconds");
    j.erase("events_per_second");
    return j.dump();
  };
  for (const StrategyInfo& info : builtin_strategies().all()) {
    SCOPED_TRACE(info.name);
    StrategyInfo one_by_one = info;
    one_by_one.in_place = {};
    const StrategyChoice in_place = choose(info.name);
    ASSERT_NE(info.in_place.construct, nullptr);
    std::string topology = "hypercube:4";  // or a ring, for the strategies defined on rings
    if (info.check_topology) {
      try {
        info.check_topology(parse_topology(topology));
      } catch (const InputError&) {
        topology = "ring:16";
      }
    }
    EXPECT_EQ(run(in_place, topology), run(StrategyChoice{&one_by_one, in_place.params}, topology));
  }
}

TEST(Simulator, BusyNodeHandlesMessagesAtPollPoints) {
  // Node 0 runs one 1 ms task; node 1 sends it a message at time 0 that arrives after
  // 30 us. With polls every 100 us of execution, node 0 handles it at 100 us, and the
  // 20 us of handling delays the task's completion to 1.02 ms.
  SimTime handled_at = -1;
  const StrategyInfo info = recorder_info(&handled_at);
  struct OneTask final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override { sink.add(0, kMillisecond); }
  } workload;
  const Topology pair = parse_topology("complete:2");
  const CostModel cost =
      make_cost_model("ideal", {{"poll_interval", "100us"}, {"latency", "30us"}, {"handle_cost", "20us"}});
  const SimulationResult r = simulate({.topology = &pair, .strategy = {&info, {}}, .workload = &workload, .cost = cost});
  EXPECT_EQ(handled_at, 100 * kMicrosecond + 20 * kMicrosecond);  // now() after the handling cost
  EXPECT_EQ(r.makespan, kMillisecond + 20 * kMicrosecond);
  EXPECT_EQ(r.nodes[0].overhead, 20 * kMicrosecond);
  EXPECT_EQ(r.nodes[0].busy, kMillisecond);
}

TEST(Simulator, EachPollPointCostsPollCostForStrategiesThatCheck) {
  // The same as above with 7 us per check: node 0 reaches its first poll point at 100 us of
  // work, checks until 107 us, handles the message until 127 us. Its 1 ms task passes 10
  // poll points (the last at its end), so it completes at 1 ms + 10 x 7 + 20 us. A strategy
  // that does not check (NOBAL) pays nothing, and poll_cost=0 is the old model.
  SimTime handled_at = -1;
  StrategyInfo info = recorder_info(&handled_at);
  struct OneTask final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override { sink.add(0, kMillisecond); }
  };
  const Topology pair = parse_topology("complete:2");
  const auto cost = [](const char* poll_cost) {
    return make_cost_model("ideal", {{"poll_interval", "100us"}, {"latency", "30us"}, {"handle_cost", "20us"},
                                     {"poll_cost", poll_cost}});
  };
  OneTask w1;
  const SimulationResult r = simulate({.topology = &pair, .strategy = {&info, {}}, .workload = &w1, .cost = cost("7us")});
  EXPECT_EQ(handled_at, 127 * kMicrosecond);
  EXPECT_EQ(r.makespan, kMillisecond + 90 * kMicrosecond);
  EXPECT_EQ(r.nodes[0].overhead, 90 * kMicrosecond);
  EXPECT_EQ(r.nodes[0].busy, kMillisecond);

  OneTask w2;
  const SimulationResult free =
      simulate({.topology = &pair, .strategy = {&info, {}}, .workload = &w2, .cost = cost("0")});
  EXPECT_EQ(free.makespan, kMillisecond + 20 * kMicrosecond);

  OneTask w3;
  info.checks_messages = false;
  const SimulationResult nobal =
      simulate({.topology = &pair, .strategy = {&info, {}}, .workload = &w3, .cost = cost("7us")});
  EXPECT_EQ(nobal.makespan, kMillisecond + 20 * kMicrosecond);  // the handling only
  EXPECT_FALSE(builtin_strategies().find("none").checks_messages);
  EXPECT_TRUE(builtin_strategies().find("dem").checks_messages);
}

TEST(Simulator, IdleNodeHandlesMessagesAtOnceAndSendingCostsTime) {
  // Node 0 has no task: a message arriving at 30 us is handled at once (now = 30 + 20 us).
  // Node 1 pays 5 us to send before it starts its own 1 ms task.
  SimTime handled_at = -1;
  const StrategyInfo info = recorder_info(&handled_at);
  struct OneTask final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override { sink.add(1, kMillisecond); }
  } workload;
  const Topology pair = parse_topology("complete:2");
  const CostModel cost = make_cost_model(
      "ideal", {{"poll_interval", "100us"}, {"latency", "30us"}, {"handle_cost", "20us"}, {"send_overhead", "5us"}});
  const SimulationResult r = simulate({.topology = &pair, .strategy = {&info, {}}, .workload = &workload, .cost = cost});
  EXPECT_EQ(handled_at, 55 * kMicrosecond);  // sent at 5 us, arrives at 35 us, handled for 20 us
  EXPECT_EQ(r.makespan, kMillisecond + 5 * kMicrosecond);
}

// neighbor_slots(): one value per neighbour, zero at first, the node's own for the whole run
// (the engine keeps all nodes' in one array).
TEST(Simulator, NeighborSlotsAreEachNodesOwnOnePerNeighbour) {
  struct Checks {
    int bad = 0, messages = 0;
  } checks;
  class Slots final : public Strategy {
  public:
    explicit Slots(Checks& c) : checks_(c) {}
    void on_start(NodeContext& ctx) override {
      const auto slots = ctx.neighbor_slots();
      if (slots.size() != ctx.neighbors().size()) ++checks_.bad;
      for (std::size_t k = 0; k < slots.size(); ++k) {
        if (slots[k] != 0) ++checks_.bad;
        slots[k] = 1000 * static_cast<std::int64_t>(ctx.self()) + static_cast<std::int64_t>(k);
      }
      for (NodeId n : ctx.neighbors()) ctx.send(n, Message::make(0, 0));
    }
    void on_message(NodeContext& ctx, NodeId, const Message&) override {
      ++checks_.messages;
      const auto slots = ctx.neighbor_slots();
      for (std::size_t k = 0; k < slots.size(); ++k)
        if (slots[k] != 1000 * static_cast<std::int64_t>(ctx.self()) + static_cast<std::int64_t>(k)) ++checks_.bad;
    }

  private:
    Checks& checks_;
  };
  const StrategyInfo info{.name = "slots", .message_kinds = {"m"},
                          .create = [&checks](const Parameters&) { return std::make_unique<Slots>(checks); }};
  const Topology mesh = parse_topology("mesh:3x4");  // degrees 2, 3 and 4
  auto w = artificial(3);
  simulate({.topology = &mesh, .strategy = StrategyChoice{&info, {}}, .workload = w.get(),
            .cost = make_cost_model("ipsc2"), .seed = 1});
  EXPECT_EQ(checks.bad, 0);
  EXPECT_EQ(checks.messages, static_cast<int>(2 * mesh.edge_count()));
}

// A message arrives as it was sent, byte for byte, whether its body fits an in-flight slot
// (nothing past its first 16 bytes) or not (a byte in its last 16, or in the reserved ones),
// and a timer keeps its tag.
TEST(Simulator, MessagesAndTimersArriveAsSent) {
  std::vector<Message> sent(3);
  sent[0] = Message::make(1, std::array<std::uint64_t, 2>{~std::uint64_t{0}, 42});
  sent[1] = Message::make(2, std::array<std::uint64_t, 4>{1, 2, 3, std::uint64_t{1} << 63});
  sent[2] = sent[0];
  sent[2].reserved[1] = 7;
  struct Seen {
    std::vector<Message> messages;
    std::uint64_t tag = 0;
  } seen;
  class Echo final : public Strategy {
  public:
    Echo(const std::vector<Message>& sent, Seen& seen) : sent_(sent), seen_(seen) {}
    void on_start(NodeContext& ctx) override {
      if (ctx.self() != 0) return;
      for (const Message& m : sent_) ctx.send(1, m);
      ctx.set_timer(kMillisecond, 0xFEDCBA9876543210u);
    }
    void on_message(NodeContext&, NodeId, const Message& m) override { seen_.messages.push_back(m); }
    void on_timer(NodeContext&, std::uint64_t tag) override { seen_.tag = tag; }

  private:
    const std::vector<Message>& sent_;
    Seen& seen_;
  };
  const StrategyInfo info{.name = "echo", .message_kinds = {"a", "b", "c"},
                          .create = [&](const Parameters&) { return std::make_unique<Echo>(sent, seen); }};
  const Topology pair = parse_topology("complete:2");
  auto w = artificial(1);
  simulate({.topology = &pair, .strategy = {&info, {}}, .workload = w.get(), .cost = make_cost_model("ipsc2")});
  ASSERT_EQ(seen.messages.size(), sent.size());
  for (std::size_t i = 0; i < sent.size(); ++i)
    EXPECT_EQ(std::memcmp(&seen.messages[i], &sent[i], sizeof(Message)), 0) << "message " << i;
  EXPECT_EQ(seen.tag, 0xFEDCBA9876543210u);
}

TEST(Simulator, TaskMessagesCarryAtMostTasksPerMessageAndCostPerHop) {
  struct ShipAll final : Strategy {
    void on_start(NodeContext& ctx) override {
      if (ctx.self() == 0) ctx.migrate(3, 7);  // node 3 is three hops away on a ring of 6
    }
  };
  const StrategyInfo info{.name = "ship", .create = [](const Parameters&) { return std::make_unique<ShipAll>(); }};
  struct Seven final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
      for (int i = 0; i < 8; ++i) sink.add(0, kMillisecond);
    }
  } workload;
  const Topology ring = parse_topology("ring:6");
  const CostModel cost = make_cost_model(
      "ideal", {{"tasks_per_message", "3"}, {"latency", "100us"}, {"per_hop", "50us"}, {"per_task", "10us"}});
  ConservationObserver check;
  const SimulationResult r =
      simulate({.topology = &ring, .strategy = {&info, {}}, .workload = &workload, .cost = cost, .observers = {&check}});
  check.expect_all_done();
  EXPECT_EQ(r.tasks_transferred, 7u);
  EXPECT_EQ(r.messages_by_kind.back(), 3u);  // 3 + 3 + 1 tasks
  EXPECT_EQ(r.nodes[3].tasks_received, 7u);
  // All three messages leave at 0 (no send overhead): the one-task batch is the lightest
  // and arrives first, at 100 + 2 * 50 + 10 us; node 3 then runs the seven tasks back to back.
  EXPECT_EQ(r.makespan, 210 * kMicrosecond + 7 * kMillisecond);
}

TEST(Simulator, MigrateSkipsTasksAtTheirHopLimit) {
  // Node 0 ships everything to node 1 with a hop limit of 1; node 1 tries to pass it all
  // on to node 2, but every task has used its one hop, so nothing leaves node 1.
  struct Forward final : Strategy {
    explicit Forward(std::int64_t* moved) : moved(moved) {}
    void on_start(NodeContext& ctx) override {
      if (ctx.self() == 0) ctx.migrate(1, 100, 1);
    }
    void on_tasks_arrived(NodeContext& ctx, NodeId, std::int64_t) override {
      if (ctx.self() == 1) *moved += ctx.migrate(2, 100, 1);
    }
    std::int64_t* moved;
  };
  std::int64_t moved_on = 0;  // outlives the agents, which the engine owns
  const StrategyInfo info{.name = "forward", .create = [&](const Parameters&) {
                            return std::make_unique<Forward>(&moved_on);
                          }};
  struct Five final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
      for (int i = 0; i < 5; ++i) sink.add(0, kMillisecond);
    }
  } workload;
  const Topology ring = parse_topology("ring:3");
  ConservationObserver check;
  const SimulationResult r = simulate({.topology = &ring, .strategy = {&info, {}}, .workload = &workload,
                                       .cost = make_cost_model("ipsc2"), .observers = {&check}});
  check.expect_all_done();
  EXPECT_EQ(r.nodes[0].tasks_sent, 5u);  // on_start comes before the first task starts
  EXPECT_EQ(r.nodes[1].tasks_sent, 0u);
  EXPECT_EQ(r.nodes[1].tasks_executed, 5u);
  EXPECT_EQ(moved_on, 0);
}

TEST(Simulator, ConfigErrorsAreReported) {
  const Topology t = parse_topology("ring:3");
  auto w = artificial(2);
  EXPECT_THROW(simulate({.topology = nullptr, .strategy = choose("none"), .workload = w.get()}), InputError);
  EXPECT_THROW(simulate({.topology = &t, .strategy = choose("none"), .workload = nullptr}), InputError);
  EXPECT_THROW(make_cost_model("ipsc3"), InputError);
  EXPECT_THROW(make_cost_model("ipsc2", {{"latency", "-1us"}}), InputError);
  EXPECT_THROW(make_cost_model("ipsc2", {{"tasks_per_message", "0"}}), InputError);
  EXPECT_THROW(make_cost_model("ipsc2", {{"bandwidth", "1"}}), InputError);
}

TEST(Simulator, EventLimitStopsARunawayStrategy) {
  struct PingPong final : Strategy {  // keeps bouncing its tasks and never lets them run
    void on_start(NodeContext& ctx) override { bounce(ctx); }
    void on_tasks_arrived(NodeContext& ctx, NodeId, std::int64_t) override { bounce(ctx); }
    static void bounce(NodeContext& ctx) { ctx.migrate(ctx.self() ^ 1u, ctx.migratable()); }
  };
  const StrategyInfo info{.name = "pingpong", .create = [](const Parameters&) { return std::make_unique<PingPong>(); }};
  struct Two final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
      sink.add(0, kSecond);
      sink.add(0, kSecond);
    }
  } workload;
  const Topology pair = parse_topology("complete:2");
  SimulationConfig config{.topology = &pair, .strategy = {&info, {}}, .workload = &workload,
                          .cost = make_cost_model("ipsc2"), .event_limit = 10000};
  EXPECT_THROW(simulate(config), EventLimitReached);
}

TEST(Simulator, ZeroTimeLivelockIsReportedNotRunForever) {
  // Two nodes hand their tasks back and forth on arrival; with free, instant messages
  // simulated time never advances.
  struct Juggle final : Strategy {
    void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t) override { ctx.migrate(from, ctx.migratable()); }
    void on_start(NodeContext& ctx) override { ctx.migrate(ctx.self() ^ 1u, ctx.migratable()); }
  };
  const StrategyInfo info{.name = "juggle", .create = [](const Parameters&) { return std::make_unique<Juggle>(); }};
  struct Some final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
      for (int i = 0; i < 4; ++i) sink.add(0, kSecond);
    }
  } workload;
  const Topology pair = parse_topology("complete:2");
  try {
    simulate({.topology = &pair, .strategy = {&info, {}}, .workload = &workload, .cost = make_cost_model("ideal"),
              .instant_event_limit = 100'000});
    FAIL() << "the livelock was not detected";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("without time passing"), std::string::npos) << e.what();
  }
}

TEST(Simulator, ALegitimateBurstOfZeroTimeEventsIsNotALivelock) {
  // Many tasks of no work complete at one instant, and work stealing under the ideal model
  // moves them in zero time: events at one instant grow with the tasks, not with a livelock
  // (a trace of 8 M root tasks stopped at the fixed limit of ten million).
  struct ManyEmpty final : Workload {
    void initial_tasks(const Topology&, const CostModel&, Rng&, TaskSink& sink) override {
      for (int i = 0; i < 2000; ++i) sink.add(0, 0);
    }
  } workload;
  const Topology cube = parse_topology("hypercube:3");
  const SimulationResult r =
      simulate({.topology = &cube, .strategy = builtin_strategies().configure("work_stealing", {}),
                .workload = &workload, .cost = make_cost_model("ideal"), .instant_event_limit = 1'000});
  EXPECT_EQ(r.tasks_completed, 2000u);
}

TEST(Experiment, RidBeatsNobalOnTheWlr93Workload) {
  // WLR93 Table IV setting; the paper measured a speedup of 1.50 over NOBAL.
  for (std::uint64_t seed : {1, 2, 3}) {
    const ExperimentSetup setup{.topology = parse_topology("hypercube:5"),
                                .strategy = choose("rid"),
                                .workload = builtin_workloads().configure("artificial", {{"granularity", "100"}}),
                                .cost = make_cost_model("ipsc2"),
                                .seed = seed};
    const ExperimentResult r = run_experiment(setup);
    EXPECT_GT(r.speedup, 1.2) << "seed " << seed;
    EXPECT_GT(r.pi, 0.3) << "seed " << seed;
    EXPECT_GT(r.balanced.tasks_transferred, 0u);
    EXPECT_EQ(r.nobal.tasks_transferred, 0u);
    EXPECT_EQ(r.nobal.total_work, r.balanced.total_work);  // the same tasks in both runs
    EXPECT_LT(r.optimal, to_seconds(r.balanced.makespan));
  }
}

TEST(Experiment, AnUndefinedFigureCarriesAReasonInsteadOfInfinity) {
  // One loop of work in all: NOBAL is already optimal, so eq. (36) divides by zero (the
  // report printed Pi -inf).
  const ExperimentSetup setup{.topology = parse_topology("hypercube:3"),
                              .strategy = choose("rid"),
                              .workload = builtin_workloads().configure("artificial", {{"total_load", "1"}}),
                              .cost = make_cost_model("ipsc2")};
  const ExperimentResult r = run_experiment(setup);
  EXPECT_TRUE(r.speedup_undefined.empty());
  EXPECT_NE(r.pi_undefined.find("already optimal"), std::string::npos) << r.pi_undefined;
  const nlohmann::json j = to_json(setup, r, false);
  EXPECT_TRUE(j["pi"].is_null());
  EXPECT_EQ(j["pi_undefined"], r.pi_undefined);
  EXPECT_TRUE(j["speedup"].is_number());
  EXPECT_FALSE(j.contains("speedup_undefined"));
}

TEST(Workload, ArtificialMatchesTable3) {
  // g tasks per node; L = 2.5e7 N loops in expectation (8e8 at N = 32).
  struct Sum final : Observer {
    std::vector<std::uint64_t> per_node = std::vector<std::uint64_t>(32);
    SimTime work = 0;
    void on_task_created(NodeId n, const Task& t, SimTime) override {
      ++per_node[n];
      work += t.work;
    }
  };
  const Topology cube = parse_topology("hypercube:5");
  double total_loops = 0;
  const int runs = 100;
  for (int seed = 1; seed <= runs; ++seed) {
    Sum sum;
    auto w = artificial(100);
    simulate({.topology = &cube, .strategy = choose("none"), .workload = w.get(),
              .cost = make_cost_model("ideal"), .seed = static_cast<std::uint64_t>(seed), .observers = {&sum}});
    for (auto c : sum.per_node) EXPECT_EQ(c, 100u);
    total_loops += static_cast<double>(sum.work) / 1300.0;
  }
  // One run's total has a standard deviation of about 0.82e8 loops (32 node loads uniform
  // in (0, 5e7)), so the mean of 100 runs is within 3 sigma = 0.25e8 of 8e8.
  // (Table III's data sets total 7.97e8 to 8.24e8.)
  EXPECT_NEAR(total_loops / runs, 8e8, 0.25e8);
}
