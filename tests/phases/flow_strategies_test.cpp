#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/flows.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>
#include <dlbkit/rounds/polynomial_kernel.hpp>
#include <dlbkit/topology/edge_coloring.hpp>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <random>

namespace dlbkit {
namespace {

const std::vector<std::string> kFlowStrategies = {"diffusion", "dimension_exchange", "sos", "chebyshev", "hbm"};

/// `topology`, or for hbm, which needs a hypercube, the hypercube of as many nodes.
std::string network_for(const std::string& strategy, const std::string& topology) {
  if (strategy != "hbm") return topology;
  const std::size_t n = parse_topology(topology).size();
  return fmt::format("hypercube:{}", std::countr_zero(n));
}

/// `per_node` objects on each node with loads uniform in [0, 1) times 1 + (node mod 5): an
/// imbalance of about 1 that diffusion can smooth.
Phase random_phase(std::size_t nodes, std::size_t per_node, std::uint64_t seed = 7) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> load(0, 1);
  Phase phase{.nodes = nodes};
  for (NodeId v = 0; v < nodes; ++v)
    for (std::size_t i = 0; i < per_node; ++i) {
      phase.objects.push_back({.id = phase.objects.size(), .load = load(rng) * static_cast<double>(1 + v % 5)});
      phase.node_of.push_back(v);
    }
  return phase;
}

Rebalanced run(const std::string& strategy, const Phase& phase, const std::string& topology,
               std::map<std::string, std::string> params = {}, const RebalanceOptions& options = {}) {
  return rebalance(builtin_phase_strategies().configure(strategy, params), phase, parse_topology(topology), options);
}

/// The loads after `steps` steps of a round kernel from `w`, the round loop's two buffers.
std::vector<double> kernel_loads(const RoundKernel& kernel, std::vector<double> w, std::uint64_t steps) {
  std::vector<double> next(w.size(), 0.0);
  for (std::uint64_t t = 0; t < steps; ++t) {
    kernel.update(t, w, next, 0, static_cast<NodeId>(w.size()));
    w.swap(next);
  }
  return w;
}

void expect_same_loads(const std::vector<double>& flow, const std::vector<double>& kernel) {
  ASSERT_EQ(flow.size(), kernel.size());
  for (std::size_t v = 0; v < flow.size(); ++v) EXPECT_NEAR(flow[v], kernel[v], 1e-9) << "node " << v;
}

// Every node's load is its start minus what its edges' flows took away: the flow is the
// loads' own bookkeeping.
void expect_flow_accounts_for_loads(const Topology& t, const std::vector<double>& start, const IdealFlow& flow) {
  const auto offsets = t.neighbor_offsets();
  for (NodeId v = 0; v < t.size(); ++v) {
    double out = 0;
    for (std::size_t s = offsets[v]; s < offsets[v + 1]; ++s) out += flow.edge[s];
    EXPECT_NEAR(start[v] - out, flow.loads[v], 1e-9) << "node " << v;
  }
}

constexpr double kNever = 1e-9;  // a tolerance the rounds below do not reach

TEST(FlowStrategies, DiffusionFlowMovesTheLoadOfTheRoundKernel) {
  const Topology t = parse_topology("torus:5x6");
  const Phase phase = random_phase(t.size(), 4);
  PhaseContext ctx(phase, t, {}, std::numeric_limits<double>::infinity(), 1);
  const double alpha = optimal_uniform_alpha(t, graph_laplacian_extremes(t)).alpha;
  const IdealFlow flow = polynomial_flow(ctx, alpha, {1.0}, 9, kNever);
  ASSERT_EQ(flow.rounds, 9u);
  expect_same_loads(flow.loads, kernel_loads(DiffusionKernel(DiffusionMatrix::uniform(t, alpha)), ctx.loads(), 9));
  expect_flow_accounts_for_loads(t, ctx.loads(), flow);
}

TEST(FlowStrategies, SosAndChebyshevFlowsMoveTheLoadOfThePolynomialKernel) {
  const Topology t = parse_topology("torus:6x6");
  const Phase phase = random_phase(t.size(), 4);
  const double alpha = optimal_uniform_alpha(t, graph_laplacian_extremes(t)).alpha;
  const DiffusionMatrix m = DiffusionMatrix::uniform(t, alpha);
  const double gamma = scheme_spectrum(m).gamma;
  ASSERT_LT(gamma, 1);
  {
    PhaseContext ctx(phase, t, {}, std::numeric_limits<double>::infinity(), 1);
    const IdealFlow flow = polynomial_flow(ctx, alpha, {1.0, sos_beta(gamma)}, 12, kNever);
    expect_same_loads(flow.loads, kernel_loads(PolynomialKernel::sos(m, gamma, {}), ctx.loads(), 12));
    expect_flow_accounts_for_loads(t, ctx.loads(), flow);
  }
  {
    PhaseContext ctx(phase, t, {}, std::numeric_limits<double>::infinity(), 1);
    const IdealFlow flow = polynomial_flow(ctx, alpha, chebyshev_beta_schedule(gamma), 12, kNever);
    expect_same_loads(flow.loads, kernel_loads(PolynomialKernel::chebyshev(m, gamma, {}), ctx.loads(), 12));
    expect_flow_accounts_for_loads(t, ctx.loads(), flow);
  }
}

TEST(FlowStrategies, DimensionExchangeFlowMovesTheLoadOfTheRoundKernel) {
  const Topology cube = parse_topology("hypercube:4");
  const Phase phase = random_phase(cube.size(), 4);
  PhaseContext ctx(phase, cube, {}, std::numeric_limits<double>::infinity(), 1);
  const IdealFlow flow = exchange_flow(ctx, edge_coloring(cube), 0.5, 4, kNever);
  expect_same_loads(flow.loads, kernel_loads(DimensionExchangeKernel::hypercube(cube), ctx.loads(), 4));
  // Theorem 4: one sweep balances exactly.
  const double mean = std::accumulate(ctx.loads().begin(), ctx.loads().end(), 0.0) / 16;
  for (double l : flow.loads) EXPECT_NEAR(l, mean, 1e-9);

  const Topology torus = parse_topology("torus:5x5");
  const Phase on_torus = random_phase(torus.size(), 4);
  PhaseContext tctx(on_torus, torus, {}, std::numeric_limits<double>::infinity(), 1);
  const IdealFlow tflow = exchange_flow(tctx, edge_coloring(torus), 0.3, 11, kNever);
  expect_same_loads(tflow.loads, kernel_loads(DimensionExchangeKernel::generalized(torus, edge_coloring(torus), 0.3),
                                              tctx.loads(), 11));
  expect_flow_accounts_for_loads(torus, tctx.loads(), tflow);
}

// The flows as the schemes' recurrences are written (flows.hpp), node by node and neighbour by
// neighbour, each round after a check whose mean sums the loads in index order.
bool reference_balanced(const std::vector<double>& l, double tolerance) {
  const double mean = std::accumulate(l.begin(), l.end(), 0.0) / static_cast<double>(l.size());
  return !(mean > 0) || *std::max_element(l.begin(), l.end()) / mean - 1 <= tolerance;
}

IdealFlow reference_polynomial_flow(const Topology& t, std::vector<double> l, double alpha,
                                    const std::vector<double>& betas, std::uint64_t max_rounds, double tolerance) {
  const auto offsets = t.neighbor_offsets();
  IdealFlow f{.edge = std::vector<double>(offsets.back(), 0.0), .loads = std::move(l)};
  std::vector<double> z(t.size()), z_sum(t.size(), 0.0), next(t.size());
  for (; f.rounds < max_rounds && !reference_balanced(f.loads, tolerance); ++f.rounds) {
    const double beta = betas[std::min<std::size_t>(f.rounds, betas.size() - 1)];
    for (NodeId v = 0; v < t.size(); ++v) {
      z[v] = f.rounds == 0 ? f.loads[v] : (beta - 1.0) * z[v] + beta * f.loads[v];
      z_sum[v] += z[v];
    }
    for (NodeId v = 0; v < t.size(); ++v) {
      double sent = 0;
      for (const NodeId u : t.neighbors(v)) sent += alpha * (z[v] - z[u]);
      next[v] = f.loads[v] - sent;
    }
    f.loads.swap(next);
  }
  for (NodeId v = 0; v < t.size(); ++v)
    for (std::size_t k = 0; k < t.degree(v); ++k)
      f.edge[offsets[v] + k] = alpha * (z_sum[v] - z_sum[t.neighbors(v)[k]]);
  return f;
}

IdealFlow reference_exchange_flow(const Topology& t, std::vector<double> l, const EdgeColoring& colouring,
                                  double lambda, std::uint64_t max_rounds, double tolerance) {
  const auto offsets = t.neighbor_offsets();
  IdealFlow f{.edge = std::vector<double>(offsets.back(), 0.0), .loads = std::move(l)};
  std::vector<double> next(t.size());
  for (; f.rounds < max_rounds && !reference_balanced(f.loads, tolerance); ++f.rounds) {
    for (NodeId v = 0; v < t.size(); ++v) {
      next[v] = f.loads[v];
      const auto nb = t.neighbors(v);
      for (std::size_t k = 0; k < nb.size(); ++k)
        if (colouring.color(v, k) == f.rounds % colouring.colors()) {
          const double y = lambda * (f.loads[v] - f.loads[nb[k]]);
          f.edge[offsets[v] + k] += y;
          next[v] = f.loads[v] - y;
        }
    }
    f.loads.swap(next);
  }
  return f;
}

void expect_identical(const IdealFlow& flow, const IdealFlow& reference) {
  EXPECT_EQ(flow.rounds, reference.rounds);
  EXPECT_EQ(flow.loads, reference.loads);
  EXPECT_EQ(flow.edge, reference.edge);
}

TEST(FlowStrategies, FlowsGiveTheSameBitsAsTheRecurrencesNodeByNode) {
  // First-order diffusion runs the diffusion kernel (its stencils on 2-D tori and hypercubes of
  // 32 nodes and more, neighbour lists elsewhere), dimension exchange one pass per colour.
  for (const std::string spec : {"torus:8x8", "torus:5x6", "hypercube:6", "hypercube:3", "mesh:4x5", "ring:7",
                                 "tree:binary:3", "complete:5"}) {
    SCOPED_TRACE(spec);
    const Topology t = parse_topology(spec);
    const Phase phase = random_phase(t.size(), 4);
    const double alpha = 0.9 / static_cast<double>(t.max_degree());
    const EdgeColoring colouring = edge_coloring(t);
    for (const double tolerance : {0.05, kNever}) {
      PhaseContext ctx(phase, t, {}, std::numeric_limits<double>::infinity(), 1);
      expect_identical(polynomial_flow(ctx, alpha, {1.0}, 300, tolerance),
                       reference_polynomial_flow(t, ctx.loads(), alpha, {1.0}, 300, tolerance));
      expect_identical(polynomial_flow(ctx, alpha, {1.0, 1.5}, 300, tolerance),
                       reference_polynomial_flow(t, ctx.loads(), alpha, {1.0, 1.5}, 300, tolerance));
      for (const double lambda : {0.5, 0.3})
        expect_identical(exchange_flow(ctx, colouring, lambda, 300, tolerance),
                         reference_exchange_flow(t, ctx.loads(), colouring, lambda, 300, tolerance));
    }
  }
}

TEST(FlowStrategies, TheStopCheckSumsTheLoadsInIndexOrder) {
  // Loads whose sum in index order is one unit in the last place above their sum over eight
  // lanes, and the tolerance that the first mean meets exactly: balanced before any round.
  const std::vector<double> loads = {
      0x1.8005bba580000p+1, 0x1.c00000002e5d3p+2, 0x1.05c6f20000000p+2, 0x1.0000000018d4ep+1,
      0x1.0000017da0800p+0, 0x1.0143330000000p+2, 0x1.00000000164e2p+3, 0x1.c003c2f100000p+2,
      0x1.ca58220000000p+2, 0x1.0000001989180p+3, 0x1.8000000028b6ep+1, 0x1.8c574e0000000p+2,
      0x1.80000000410a8p+1, 0x1.40014ad400000p+2, 0x1.010f970000000p+2, 0x1.000b047e00000p+0};
  const double tolerance = 0x1.7bde5a00d9d6ep-1;
  ASSERT_TRUE(reference_balanced(loads, tolerance));
  const Topology cube = parse_topology("hypercube:4");
  Phase phase{.nodes = 16};
  for (NodeId v = 0; v < 16; ++v) {
    phase.objects.push_back({.id = v, .load = loads[v]});
    phase.node_of.push_back(v);
  }
  PhaseContext ctx(phase, cube, {}, std::numeric_limits<double>::infinity(), 1);
  ASSERT_EQ(ctx.loads(), loads);
  EXPECT_EQ(polynomial_flow(ctx, 0.2, {1.0}, 10, tolerance).rounds, 0u);
  EXPECT_EQ(exchange_flow(ctx, edge_coloring(cube), 0.5, 10, tolerance).rounds, 0u);
}

TEST(FlowStrategies, ManySmallObjectsFollowTheFlowClosely) {
  const Phase phase = random_phase(64, 100);
  for (const std::string& s : kFlowStrategies) {
    SCOPED_TRACE(s);
    const Rebalanced r = run(s, phase, s == "dimension_exchange" ? "hypercube:6" : network_for(s, "torus:8x8"));
    EXPECT_GT(r.before.imbalance, 0.5);
    // The rounds stop at imbalance 0.05; objects of load below 5 on nodes of about 150 add little.
    EXPECT_LT(r.after.imbalance, 0.1);
    ASSERT_TRUE(r.flow_error.has_value());
    EXPECT_LT(*r.flow_error, 0.05);
    EXPECT_TRUE(r.unplaced.empty());
  }
}

TEST(FlowStrategies, OneHugeObjectCannotFollowTheFlowAndTheErrorSaysSo) {
  // Node 0 holds an object of 10, node 1 an unmigratable 4: the flow is 3.
  Phase phase{.nodes = 2};
  phase.objects = {{.id = 0, .load = 10}, {.id = 1, .load = 4, .migratable = false}};
  phase.node_of = {0, 1};
  for (const std::string& s : kFlowStrategies) {
    SCOPED_TRACE(s);
    const Rebalanced r = run(s, phase, network_for(s, "complete:2"));
    // Shipping the object would land 7 from the flow, staying 3: it stays, the whole flow is lost.
    EXPECT_EQ(r.objects_migrated, 0u);
    ASSERT_TRUE(r.flow_error.has_value());
    EXPECT_NEAR(*r.flow_error, 1.0, 1e-12);
  }
  // With a small object beside it (flow 3.5), greedy ships the small one: the error is what is left.
  phase.objects.push_back({.id = 2, .load = 1});
  phase.node_of.push_back(0);
  const Rebalanced r = run("diffusion", phase, "complete:2");
  EXPECT_EQ(r.mapping, (std::vector<NodeId>{0, 1, 1}));
  EXPECT_NEAR(*r.flow_error, 2.5 / 3.5, 1e-9);
}

TEST(FlowStrategies, GreedyClosesTheGapWithASmallObjectLargestFirstNeverExceedsTheFlow) {
  // Node 0 holds 2, 1.2 and 4; node 1 an unmigratable 1.2: the flow is (7.2 - 1.2) / 2 = 3.
  Phase phase{.nodes = 2};
  phase.objects = {{.id = 0, .load = 2}, {.id = 1, .load = 1.2}, {.id = 2, .load = 4},
                   {.id = 3, .load = 1.2, .migratable = false}};
  phase.node_of = {0, 0, 0, 1};
  // Both ship 2 (the largest not above 3); 1 is left, and 1.2 lands 0.2 over it, nearer than 1.
  const Rebalanced g = run("diffusion", phase, "complete:2", {{"selection", "greedy"}});
  EXPECT_EQ(g.mapping, (std::vector<NodeId>{1, 1, 0, 1}));
  EXPECT_NEAR(*g.flow_error, 0.2 / 3, 1e-12);
  const Rebalanced lf = run("diffusion", phase, "complete:2", {{"selection", "largest_first"}});
  EXPECT_EQ(lf.mapping, (std::vector<NodeId>{1, 0, 0, 1}));
  EXPECT_NEAR(*lf.flow_error, 1.0 / 3, 1e-12);
}

TEST(FlowStrategies, MoreHopsForwardAFlowThroughANodeThatHadNothing) {
  // tree:binary:2 is a path 1 - 0 - 2: all the load on node 1 must cross node 0 to reach node 2.
  Phase phase{.nodes = 3};
  for (std::uint64_t i = 0; i < 60; ++i) phase.objects.push_back({.id = i, .load = 1});
  phase.node_of.assign(60, 1);
  const Rebalanced one = run("diffusion", phase, "tree:binary:2", {{"hops", "1"}});
  const Rebalanced two = run("diffusion", phase, "tree:binary:2", {{"hops", "2"}});
  // One hop: node 0 had no object to pass on, so the flow 0 -> 2 (a third of the total flow) is lost.
  EXPECT_GT(*one.flow_error, 0.3);
  EXPECT_EQ(std::count(one.mapping.begin(), one.mapping.end(), NodeId{2}), 0);
  EXPECT_LT(*two.flow_error, 0.05);
  EXPECT_LT(two.after.imbalance, 0.1);
  EXPECT_GT(two.rounds, one.rounds);
  // The default: as many hops as the diameter (2).
  EXPECT_EQ(run("diffusion", phase, "tree:binary:2").mapping, two.mapping);
}

TEST(FlowStrategies, FlowThroughANodeMovesTheSourcesObjectsNotTheNodesOwn) {
  // The path 1 - 0 - 2 with 40, 20 and 0 objects of load 1: the flow carries 20 from node 1 to
  // node 0 and 20 from node 0 to node 2.
  Phase phase{.nodes = 3};
  for (std::uint64_t i = 0; i < 60; ++i) {
    phase.objects.push_back({.id = i, .load = 1});
    phase.node_of.push_back(i < 40 ? 1 : 0);
  }
  const std::map<std::string, std::string> exact{{"tolerance", "1e-9"}, {"rounds", "200"}};
  auto with = [&](const char* transit) {
    auto params = exact;
    params["transit"] = transit;
    return run("diffusion", phase, "tree:binary:2", params);
  };
  const Rebalanced forward = with("forward"), own = with("own");
  for (const Rebalanced* r : {&forward, &own}) EXPECT_LT(r->after.imbalance, 0.06);
  // forward: node 0 keeps its own objects and passes node 1's on; own: node 0's go to node 2
  // and node 1's to node 0, twice the migrations.
  EXPECT_EQ(forward.objects_migrated, 20u);
  for (ObjectIndex i = 40; i < 60; ++i) EXPECT_EQ(forward.mapping[i], 0u) << i;
  EXPECT_EQ(own.objects_migrated, 40u);
}

TEST(FlowStrategies, AHotSpotSpreadsWhenObjectsPassThroughNodes) {
  // 2000 objects on each of nodes 0..3, 20 on every other node of 64: imbalance about 20.
  Phase phase{.nodes = 64};
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> load(0, 1);
  for (NodeId v = 0; v < 64; ++v)
    for (int i = 0; i < (v < 4 ? 2000 : 20); ++i) {
      phase.objects.push_back({.id = phase.objects.size(), .load = load(rng)});
      phase.node_of.push_back(v);
    }
  for (const std::string& s : kFlowStrategies) {
    SCOPED_TRACE(s);
    const std::string network = network_for(s, "torus:8x8");
    const Rebalanced r = run(s, phase, network);  // rounds auto, hops auto
    EXPECT_GT(r.before.imbalance, 10);
    EXPECT_LT(r.after.imbalance, 0.1);
    EXPECT_LT(*r.flow_error, 0.02);
    const Rebalanced own = run(s, phase, network, {{"hops", "1"}});
    EXPECT_GT(*own.flow_error, 0.3);
    EXPECT_GT(own.after.imbalance, 1);
  }
}

TEST(FlowStrategies, MemoryBoundIsHonouredAndWhatFoundNoRoomIsReported) {
  // Ten objects of 100 bytes on node 0 of a ring of 4; a node may hold 250 bytes (two objects).
  Phase phase{.nodes = 4, .has_memory = true, .node_working_bytes = {0, 0, 0, 0}};
  for (std::uint64_t i = 0; i < 10; ++i)
    phase.objects.push_back({.id = i, .load = 1, .memory = {.footprint_bytes = 100}});
  phase.node_of.assign(10, 0);
  for (const std::string& s : kFlowStrategies) {
    SCOPED_TRACE(s);
    const Rebalanced r = run(s, phase, network_for(s, "ring:4"), {{"hops", "3"}}, {.memory_bound = 250});
    const NodeMemory memory(phase, r.mapping);
    for (NodeId v = 1; v < 4; ++v) EXPECT_LE(memory.of(v), 250) << "node " << v;
    EXPECT_GT(r.objects_migrated, 0u);
    EXPECT_FALSE(r.unplaced.empty());
    for (ObjectIndex o : r.unplaced) EXPECT_EQ(r.mapping[o], 0u);  // reported objects did not move
  }
}

TEST(FlowStrategies, UnmigratableObjectsStay) {
  Phase phase = random_phase(16, 10);
  for (ObjectIndex o = 0; o < phase.objects.size(); o += 3) phase.objects[o].migratable = false;
  for (const std::string& s : kFlowStrategies) {
    SCOPED_TRACE(s);
    const Rebalanced r = run(s, phase, "hypercube:4");
    EXPECT_GT(r.objects_migrated, 0u);
    for (ObjectIndex o = 0; o < phase.objects.size(); o += 3) EXPECT_EQ(r.mapping[o], phase.node_of[o]);
  }
}

TEST(FlowStrategies, ProtocolCountsTheRoundsTheReductionsAndTheAnnouncements) {
  const Phase phase = random_phase(16, 10);
  const std::size_t n = 16, edges = 32;
  // Diffusion on torus:4x4: 5 rounds of a message per edge direction, a reduction (n - 1 up,
  // n - 1 down a binomial tree: 2 log2 n rounds) before each, one migration round with an
  // announcement per edge with flow.
  const Rebalanced d = run("diffusion", phase, "torus:4x4", {{"rounds", "5"}, {"tolerance", "1e-9"}, {"hops", "1"}});
  EXPECT_EQ(d.messages, 5 * 2 * edges + 5 * 2 * (n - 1) + edges);
  EXPECT_EQ(d.rounds, 5 + 5 * 2 * 4 + 1);
  // Dimension exchange on hypercube:4: a round uses the 8 edges of one dimension.
  const Rebalanced x = run("dimension_exchange", phase, "hypercube:4", {{"rounds", "3"}, {"tolerance", "1e-9"}, {"hops", "1"}});
  EXPECT_EQ(x.messages, 3 * 2 * 8 + 3 * 2 * (n - 1) + 3 * 8);
  // Already balanced: one reduction and nothing else.
  Phase even{.nodes = 16};
  for (NodeId v = 0; v < 16; ++v) even.objects.push_back({.id = v, .load = 1}), even.node_of.push_back(v);
  const Rebalanced e = run("sos", even, "torus:4x4");
  EXPECT_EQ(e.messages, 2 * (n - 1));
  EXPECT_EQ(e.objects_migrated, 0u);
  EXPECT_DOUBLE_EQ(*e.flow_error, 0.0);
}

TEST(Protocol, RepeatsTheLastRoundItsMessagesAndTime) {
  const Topology t = parse_topology("complete:3");
  Protocol once(t, CostModel{.send_overhead = 10, .handle_cost = 1, .latency = 100});
  Protocol repeated = once;
  for (int r = 0; r < 4; ++r) {
    once.send(0, 1);
    once.send(0, 2);
    once.end_round();
  }
  repeated.send(0, 1);
  repeated.send(0, 2);
  repeated.end_round();
  repeated.repeat_last_round(3);
  EXPECT_EQ(repeated.rounds(), once.rounds());
  EXPECT_EQ(repeated.messages(), once.messages());
  EXPECT_EQ(repeated.time(), once.time());
  EXPECT_EQ(once.time(), 4 * (2 * 10 + 100));
  // A round without a message is not repeated.
  repeated.end_round();
  repeated.repeat_last_round(5);
  EXPECT_EQ(repeated.rounds(), 4u);
}

TEST(Protocol, RepeatsASequenceOfRounds) {
  const Topology t = parse_topology("ring:5");
  const CostModel cost{.send_overhead = 10, .handle_cost = 1, .latency = 100, .per_hop = 1000};
  Protocol once(t, cost), repeated(t, cost);
  const auto sequence = [](Protocol& p) {
    p.send(0, 1);
    p.end_round();
    p.send(0, 2, 3);  // 2 hops
    p.send(4, 2);
    p.end_round();
  };
  for (int r = 0; r < 3; ++r) sequence(once);
  const Protocol::Mark mark = repeated.mark();
  sequence(repeated);
  repeated.repeat_since(mark, 2);
  EXPECT_EQ(repeated.rounds(), once.rounds());
  EXPECT_EQ(repeated.messages(), once.messages());
  EXPECT_EQ(repeated.time(), once.time());
  EXPECT_EQ(once.time(), 3 * ((10 + 100) + (3 * 10 + 100 + 1000)));
}

TEST(FlowStrategies, EveryParameterAtTheEndsOfItsRangeTerminates) {
  const Phase phase = random_phase(16, 10);
  const std::vector<std::map<std::string, std::string>> common = {
      {{"rounds", "1"}},
      {{"rounds", "10000000"}},
      {{"tolerance", "1e-9"}, {"rounds", "200"}},
      {{"tolerance", "0.99"}},
      {{"hops", "1"}},
      {{"hops", "1000"}},
      {{"selection", "largest_first"}},
  };
  for (const std::string& s : kFlowStrategies)
    for (auto params : common) {
      if (s == "hbm") params.erase("rounds"), params.erase("tolerance");
      if (params.empty()) continue;
      SCOPED_TRACE(fmt::format("{} {}", s, params.begin()->first));
      const Rebalanced r = run(s, phase, network_for(s, "torus:4x4"), params);
      EXPECT_LT(r.after.imbalance, r.before.imbalance);
      EXPECT_TRUE(r.flow_error && std::isfinite(*r.flow_error));
    }
  const std::vector<std::pair<std::string, std::map<std::string, std::string>>> own = {
      {"diffusion", {{"alpha", "0"}, {"rounds", "3"}}},
      {"diffusion", {{"alpha", "1"}, {"rounds", "3"}}},  // capped at 1/4
      {"sos", {{"beta", "1"}}},
      {"sos", {{"beta", "2"}, {"rounds", "50"}}},
      {"sos", {{"alpha", "0"}, {"rounds", "2"}}},
      {"chebyshev", {{"alpha", "1"}, {"rounds", "7"}}},
      {"dimension_exchange", {{"lambda", "0"}, {"rounds", "4"}}},
      {"dimension_exchange", {{"lambda", "1"}, {"rounds", "4"}}},
      {"hbm", {{"threshold_base", "0"}}},
      {"hbm", {{"threshold_base", "1e300"}}},
  };
  for (const auto& [s, params] : own) {
    SCOPED_TRACE(fmt::format("{} {}={}", s, params.begin()->first, params.begin()->second));
    const Rebalanced r = run(s, phase, network_for(s, "torus:4x4"), params);
    EXPECT_TRUE(r.flow_error && std::isfinite(*r.flow_error));
    EXPECT_TRUE(std::isfinite(r.after.imbalance));
  }
  // No exchange at all: nothing moves, and no flow means no error.
  const Rebalanced still = run("diffusion", phase, "torus:4x4", {{"alpha", "0"}, {"rounds", "3"}});
  EXPECT_EQ(still.objects_migrated, 0u);
  EXPECT_DOUBLE_EQ(*still.flow_error, 0.0);
}

TEST(FlowStrategies, PhasesWithoutLoadOrWithOneNodeMoveNothing) {
  for (const std::string& s : kFlowStrategies) {
    SCOPED_TRACE(s);
    Phase idle{.nodes = 16};
    for (NodeId v = 0; v < 16; ++v) idle.objects.push_back({.id = v, .load = 0}), idle.node_of.push_back(v % 2);
    const Rebalanced r = run(s, idle, network_for(s, "torus:4x4"));
    EXPECT_EQ(r.objects_migrated, 0u);
    EXPECT_DOUBLE_EQ(*r.flow_error, 0.0);
    if (s == "hbm") continue;  // no hypercube has one node
    Phase alone{.nodes = 1};
    alone.objects = {{.id = 0, .load = 5}};
    alone.node_of = {0};
    EXPECT_EQ(run(s, alone, "complete:1").objects_migrated, 0u);
  }
}

TEST(FlowStrategies, HbmWithoutThresholdsIsDimensionExchangeInDimensionOrder) {
  const Phase phase = random_phase(16, 10);
  const Rebalanced h = run("hbm", phase, "hypercube:4");
  const Rebalanced x = run("dimension_exchange", phase, "hypercube:4", {{"rounds", "4"}, {"tolerance", "1e-9"}});
  EXPECT_EQ(h.mapping, x.mapping);
  EXPECT_NEAR(*h.flow_error, *x.flow_error, 1e-9);
  EXPECT_GT(h.objects_migrated, 0u);
}

TEST(FlowStrategies, HbmThresholdsLeaveDomainsWithinThemAlone) {
  // Unit objects: 3 on node 0, one on each other node of hypercube:2. Level 1: the pair (0, 1)
  // differs by 2, the pair (2, 3) by 0; level 2: the halves 4 and 2 differ by 2.
  Phase phase{.nodes = 4};
  for (NodeId v : {0, 0, 0, 1, 2, 3}) {
    phase.objects.push_back({.id = phase.objects.size(), .load = 1});
    phase.node_of.push_back(v);
  }
  // L_threshold(i) = 1 x 2^i: 2 at level 1, 4 at level 2: no imbalance exceeds them.
  const Rebalanced none = run("hbm", phase, "hypercube:2", {{"threshold_base", "1"}});
  EXPECT_EQ(none.objects_migrated, 0u);
  EXPECT_EQ(none.messages, 3u);  // the loads up, nothing else
  // 0.9 x 2^i: the pair (0, 1) balances (delta_1 = 2 / 2), the halves stay.
  const Rebalanced pair = run("hbm", phase, "hypercube:2", {{"threshold_base", "0.9"}});
  EXPECT_EQ(pair.mapping, (std::vector<NodeId>{0, 0, 1, 1, 2, 3}));
  EXPECT_EQ(pair.messages, 3u + 1u);  // the loads up, one announcement (node 0 is the controller)
}

TEST(FlowStrategies, HbmProtocolCountsTheLoadsUpTheOrdersDownAndTheAnnouncements) {
  // Node v holds 10 objects of load 16 - v: the left half is heavier in every domain, so every
  // controller is in its heavier half and passes the order down that half alone.
  Phase phase{.nodes = 16};
  for (NodeId v = 0; v < 16; ++v)
    for (int i = 0; i < 10; ++i) {
      phase.objects.push_back({.id = phase.objects.size(), .load = 16.0 - v});
      phase.node_of.push_back(v);
    }
  const Rebalanced r = run("hbm", phase, "hypercube:4", {{"hops", "1"}});
  // Up: n - 1. Down: 2^(i-1) - 1 a domain of level i (8 x 0 + 4 x 1 + 2 x 3 + 1 x 7). An
  // announcement on each of the 32 edges.
  EXPECT_EQ(r.messages, 15u + 17u + 32u);
  EXPECT_THROW(run("hbm", phase, "torus:4x4"), InputError);
}

TEST(FlowStrategies, AutoRoundsWhereTheSchemeCannotConvergeIsAnInputError) {
  const Phase phase = random_phase(16, 10);
  for (const char* s : {"diffusion", "sos", "chebyshev"}) {
    try {
      run(s, phase, "torus:4x4", {{"alpha", "0"}});
      ADD_FAILURE() << s << ": alpha=0 with rounds=auto ran";
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(std::string("phase strategy ") + s + ": "), std::string::npos) << what;
      EXPECT_NE(what.find("alpha=0 gives gamma(M) = 1 on torus:4x4"), std::string::npos) << what;
      EXPECT_NE(what.find("rounds=N (1 to 10000000)"), std::string::npos) << what;
      EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    }
    // alpha = 1/degree on a bipartite torus: -1 is an eigenvalue (Cyb89 Theorem 1).
    EXPECT_THROW(run(s, phase, "torus:4x4", {{"alpha", "0.25"}}), InputError) << s;
  }
  EXPECT_THROW(run("dimension_exchange", phase, "torus:4x4", {{"lambda", "1"}}), InputError);
  EXPECT_THROW(run("dimension_exchange", phase, "torus:4x4", {{"lambda", "0"}}), InputError);
  EXPECT_THROW(builtin_phase_strategies().configure("sos", {{"rounds", "0"}}), InputError);
  EXPECT_THROW(builtin_phase_strategies().configure("chebyshev", {{"selection", "best"}}), InputError);
}

}  // namespace
}  // namespace dlbkit
