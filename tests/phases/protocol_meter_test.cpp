// phases/protocol_meter.hpp: a rank protocol's own rounds priced by a cost model, and
// `rebalance(..., {.as_protocol = true})`, the step as the MPI plan API runs it.
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/phases/local_phase.hpp>
#include <dlbkit/phases/protocol_meter.hpp>
#include <dlbkit/phases/rebalance.hpp>

#include <gtest/gtest.h>

#include <chrono>

#include <fstream>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit {
namespace {

// Round 0: rank 0 sends 3 messages of 100 bytes to rank 1 and one of 10 to rank 2; round 1:
// nothing, done.
class Toy : public RankProtocol {
public:
  explicit Toy(NodeId rank) : rank_(rank) {}
  void round(const RoundInput& in, RoundOutput& out) override {
    if (in.round == 0 && rank_ == 0) {
      for (int k = 0; k < 3; ++k) out.outbox.push_back({1, std::vector<std::byte>(100)});
      out.outbox.push_back({2, std::vector<std::byte>(10)});
    }
    out.done = in.round > 0;
  }
  std::vector<ObjectMove> departures() const override { return {}; }
  std::vector<ObjectMove> arrivals() const override { return {}; }
  double load() const override { return 0; }

private:
  NodeId rank_;
};

TEST(ProtocolMeter, PricesEachRoundsBusiestRankLatencyAndTheDriversCollectives) {
  const CostModel cost{.send_overhead = 7, .handle_cost = 5, .latency = 1000, .per_byte = 0.5};
  ProtocolMeter meter(3, cost);
  const RankProtocolFactory toy = [](const RankSetup& s) { return std::make_unique<Toy>(s.rank); };
  const std::vector<LocalPhase> ranks(3);
  run_protocol_in_process(meter.metered(toy), ranks, parse_topology("complete:3"),
                          std::numeric_limits<double>::infinity(), 1);
  meter.finish();
  // Round 0: rank 0 sends 4 (28) and 310 bytes (155); rank 1 receives 3 (15) and 300 bytes (150);
  // the messages' way and their acknowledgments' (NBX), 2 latencies. Both rounds: the
  // all-gather and the barrier, 2 x ceil(log2 3) = 4 steps of 1012.
  const SimTime collective = 4 * 1012;
  EXPECT_EQ(meter.rounds(), 2u);  // the second sees every agent done and none sending
  EXPECT_EQ(meter.messages(), 4u);
  EXPECT_EQ(meter.bytes(), 310.0);
  EXPECT_EQ(meter.time(), (28 + 155) + 2 * 1000 + 2 * collective);
}

// What the toy's step costs under `cost`, its ranks holding 0, 5 and 2 objects.
SimTime toy_step(const CostModel& cost, const RankProtocolFactory& make) {
  std::vector<LocalPhase> ranks(3);
  for (std::uint64_t k = 0; k < 5; ++k) ranks[1].objects.push_back({.id = k, .load = 1});
  for (std::uint64_t k = 5; k < 7; ++k) ranks[2].objects.push_back({.id = k, .load = 1});
  ProtocolMeter meter(3, cost);
  run_protocol_in_process(meter.metered(make), ranks, parse_topology("complete:3"),
                          std::numeric_limits<double>::infinity(), 1);
  meter.finish();
  return meter.time();
}

TEST(ProtocolMeter, AddsThePlanApisTimePerObjectOfTheFullestRank) {
  const RankProtocolFactory toy = [](const RankSetup& s) { return std::make_unique<Toy>(s.rank); };
  const CostModel cost{.latency = 1000};
  EXPECT_EQ(toy_step({.latency = 1000, .protocol_object = 4.5}, toy), toy_step(cost, toy) + 23);  // 5 x 4.5
}

// The toy, whose rank 1 also computes for 2 ms in round 0.
class Busy : public Toy {
public:
  explicit Busy(NodeId rank) : Toy(rank), rank_(rank) {}
  void round(const RoundInput& in, RoundOutput& out) override {
    Toy::round(in, out);
    if (in.round != 0 || rank_ != 1) return;
    const auto start = std::chrono::steady_clock::now();
    while (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(2)) {
    }
  }

private:
  NodeId rank_;
};

// Direct execution: the agents' computation, timed, scaled by protocol_compute and added to
// its rank's term of the round; nothing timed at 0.
TEST(ProtocolMeter, PricesTheAgentsComputationAsTimedWhereAsked) {
  const RankProtocolFactory busy = [](const RankSetup& s) { return std::make_unique<Busy>(s.rank); };
  const RankProtocolFactory toy = [](const RankSetup& s) { return std::make_unique<Toy>(s.rank); };
  const CostModel unpriced{.latency = 1000};
  EXPECT_EQ(toy_step(unpriced, busy), toy_step(unpriced, toy));
  const SimTime once = toy_step({.latency = 1000, .protocol_compute = 1}, busy);
  const SimTime thrice = toy_step({.latency = 1000, .protocol_compute = 3}, busy);
  EXPECT_GE(once, toy_step(unpriced, toy) + 2 * kMillisecond);
  EXPECT_GE(thrice, toy_step(unpriced, toy) + 6 * kMillisecond);
}

// The plan API's own costs, from a cost model file as `dlbkit calibrate` writes them: each
// round's and the step's, on top of the messages and collectives.
TEST(ProtocolMeter, AddsTheDriversCostPerRoundAndPerStep) {
  const auto toy_time = [](const CostModel& cost) {
    ProtocolMeter meter(3, cost);
    run_protocol_in_process(meter.metered([](const RankSetup& s) { return std::make_unique<Toy>(s.rank); }),
                            std::vector<LocalPhase>(3), parse_topology("complete:3"),
                            std::numeric_limits<double>::infinity(), 1);
    meter.finish();
    return meter.time();
  };
  const std::string path = ::testing::TempDir() + "protocol_meter_test_cost.json";
  std::ofstream(path) << make_cost_model("ideal", {{"latency", "1us"}, {"protocol_round", "7us"},
                                                   {"protocol_step", "300us"}})
                             .to_json()
                             .dump();
  const CostModel calibrated = make_cost_model("file:" + path);
  const SimTime without = toy_time(make_cost_model("ideal", {{"latency", "1us"}}));
  EXPECT_EQ(toy_time(calibrated), without + 2 * 7'000 + 300'000);  // two rounds, one step
  for (const auto& preset : cost_model_presets()) {  // none changes what it predicted
    EXPECT_EQ(make_cost_model(preset.name).protocol_round, 0);
    EXPECT_EQ(make_cost_model(preset.name).protocol_step, 0);
  }
}

TEST(ProtocolMeter, AsProtocolGivesTheAgentsMappingAndTheirRounds) {
  Phase phase{.nodes = 8};
  for (std::uint64_t i = 0; i < 80; ++i) {
    phase.objects.push_back({.id = 1000 + i, .load = 1.0 + static_cast<double>(i % 7) * (i < 20 ? 5 : 1)});
    phase.node_of.push_back(static_cast<NodeId>(i / 10));
  }
  const Topology ring = parse_topology("ring:8");
  const CostModel cost{.send_overhead = 1000, .handle_cost = 1000, .latency = 2000};
  for (const char* name : {"diffusion", "tempered"}) {
    SCOPED_TRACE(name);
    const auto strategy = builtin_phase_strategies().configure(name, {});
    const Rebalanced r = rebalance(strategy, phase, ring, {.cost = cost, .as_protocol = true});
    const auto plans = run_protocol_in_process(rank_protocol_factory(strategy), local_phases(phase), ring,
                                               std::numeric_limits<double>::infinity(), 1);
    std::size_t departures = 0;
    for (const RankPlan& p : plans) departures += p.departures.size();
    EXPECT_EQ(r.objects_migrated, departures);
    EXPECT_EQ(r.rounds, plans[0].figures.rounds);
    EXPECT_LT(r.after.imbalance, r.before.imbalance);
    EXPECT_GE(r.protocol_time, static_cast<SimTime>(r.rounds) * 2 * 3 * 4000);  // the collectives alone
  }
  // diffusion's agents decide as its PhaseContext form does (ids in the objects' order: the
  // agents break ties by id, the PhaseContext form by index).
  const auto diffusion = builtin_phase_strategies().configure("diffusion", {});
  EXPECT_EQ(rebalance(diffusion, phase, ring, {.as_protocol = true}).mapping, rebalance(diffusion, phase, ring, {}).mapping);
  EXPECT_THROW(rebalance(builtin_phase_strategies().configure("greedy", {}), phase, ring, {.as_protocol = true}),
               InputError);
}

TEST(LocalPhases, EachNodesPartWithItsBlocksEdgesAndSpeed) {
  Phase phase{.nodes = 2, .has_memory = true, .node_working_bytes = {5, 7}, .block_bytes = {40, 60},
              .block_ids = {11, 12}, .node_alpha = {1, 0.5}};
  phase.objects = {{.id = 1, .load = 1, .memory = {.block = 1}}, {.id = 2, .load = 2, .memory = {.block = 0}},
                   {.id = 3, .load = 3, .memory = {.block = 1}}};
  phase.node_of = {1, 0, 1};
  phase.communications = {{.from = 2, .to = 1, .messages = 4, .bytes = 64}};
  const auto ranks = local_phases(phase);
  ASSERT_EQ(ranks.size(), 2u);
  ASSERT_EQ(ranks[1].objects.size(), 2u);
  EXPECT_EQ(ranks[1].blocks.size(), 1u);  // block 12 once
  EXPECT_EQ(ranks[1].blocks[0].id, 12);
  EXPECT_EQ(ranks[1].objects[1].memory.block, 0);
  EXPECT_EQ(ranks[0].blocks[0].id, 11);
  ASSERT_EQ(ranks[1].edges.size(), 1u);
  EXPECT_EQ(ranks[1].edges[0].from, 3u);
  EXPECT_EQ(ranks[1].edges[0].to, 2u);
  EXPECT_EQ(ranks[0].working_bytes, 5);
  EXPECT_EQ(ranks[1].speed, 2);
  for (const auto& r : ranks) check_local_phase(r, "a node's part");
}

}  // namespace
}  // namespace dlbkit
