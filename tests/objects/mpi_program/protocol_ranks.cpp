// The rank protocols over MPI (objects/detail/protocol_driver.hpp), run by ctest under mpirun
// at 2, 3 and 4 ranks (tests/CMakeLists.txt), the ranks late at random before each round's
// sends: each rank's plan is the in-process driver's for the same seed (which the phases
// tests check under random orders), every departure is an arrival, and an agent that throws
// on one rank (made, or its plan read) throws the same error on every rank. Prints "protocols: ok" and exits 0 when
// every check holds, 1 otherwise (a line on stderr says which).
#include <dlbkit/error.hpp>
#include <dlbkit/objects/detail/protocol_driver.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <span>
#include <string>
#include <tuple>
#include <vector>

namespace {

using dlbkit::LocalPhase;
using dlbkit::NodeId;
using dlbkit::ObjectMove;

/// Every rank's part, the same on every rank: 15 objects each, rank 0 a hot spot; with
/// `memory`, footprints and two shared blocks a rank.
std::vector<LocalPhase> ranks_of(int ranks, bool memory, bool speeds) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::vector<LocalPhase> out(static_cast<std::size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    LocalPhase& mine = out[static_cast<std::size_t>(r)];
    if (memory) mine.blocks = {{.id = 2 * r, .bytes = 40}, {.id = 2 * r + 1, .bytes = 60}};
    if (speeds) mine.speed = std::vector<double>{1, 2, 0.7, 3}[static_cast<std::size_t>(r) % 4];
    for (std::uint64_t i = 0; i < 15; ++i) {
      dlbkit::PhaseObject o{.id = i * static_cast<std::uint64_t>(ranks) + static_cast<std::uint64_t>(r),
                            .load = uniform(rng) * (r == 0 ? 5 : 1)};
      if (memory) o.memory = {.footprint_bytes = 10, .working_bytes = 5, .block = static_cast<std::int32_t>(i % 2)};
      mine.objects.push_back(o);
    }
  }
  return out;
}

bool same(const std::vector<ObjectMove>& a, const std::vector<ObjectMove>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const ObjectMove& x, const ObjectMove& y) { return x.id == y.id && x.rank == y.rank; });
}

std::vector<std::byte> bytes_of(const std::vector<ObjectMove>& moves) {
  std::vector<std::byte> bytes(moves.size() * sizeof(ObjectMove));
  if (!moves.empty()) std::memcpy(bytes.data(), moves.data(), bytes.size());
  return bytes;
}

std::vector<ObjectMove> moves_of(const std::vector<std::byte>& bytes) {
  std::vector<ObjectMove> moves(bytes.size() / sizeof(ObjectMove));
  if (!moves.empty()) std::memcpy(moves.data(), bytes.data(), bytes.size());
  return moves;
}

struct Case {
  std::string strategy;
  std::map<std::string, std::string> params;
  std::string topology;  // {} for the ranks' count (complete below 3 ranks); hypercube: of the ranks
  bool memory;
  bool speeds = false;  // ranks of speeds 1, 2, 0.7, 3: every rank's agent knows them all
};

}  // namespace

int main() try {
  auto resolved = dlbkit::detail::resolve_engine("mpi", dlbkit::Communicator{});
  const dlbkit::detail::DistributedEngine& engine = *resolved.mpi;
  const int rank = engine.rank(), size = engine.size();
  int failures = 0;
  const auto fail = [&](const std::string& what) {
    std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
    ++failures;
  };
  const std::vector<Case> cases = {
      {"tempered", {}, "complete:{}", false},
      {"tempered", {{"deterministic_transfer", "true"}, {"fanout", "1"}}, "complete:{}", true},
      {"tempered", {{"peers", "LBAF"}, {"n_iterations", "2"}}, "complete:{}", false},
      {"tempered", {{"proposals_per_round", "inf"}}, "complete:{}", false},
      {"tempered", {{"transfer_strategy", "Clustering"}}, "complete:{}", true},
      {"tempered",
       {{"transfer_strategy", "Clustering"}, {"deterministic_transfer", "true"}, {"peers", "LBAF"}},
       "complete:{}",
       true},
      {"tempered", {{"transfer_strategy", "Clustering"}, {"separate_subclustering", "true"}}, "complete:{}", true},
      {"diffusion", {}, "ring:{}", false},
      {"diffusion", {{"transit", "own"}}, "complete:{}", true},
      {"sos", {}, "ring:{}", false},
      {"dimension_exchange", {}, "complete:{}", true},
      {"hbm", {}, "hypercube", false},  // at 2 and 4 ranks
      {"hierarchical", {}, "complete:{}", false},
      {"hierarchical", {{"group", "1"}, {"inner", "greedy"}}, "complete:{}", true},
      {"diffusion", {}, "ring:{}", false, true},
      {"dimension_exchange", {}, "complete:{}", false, true},
      {"hierarchical", {}, "complete:{}", false, true},
  };
  for (const Case& c : cases)
    for (const std::uint64_t seed : {1u, 2u}) {
      if (c.topology == "hypercube" && !std::has_single_bit(static_cast<unsigned>(size))) continue;
      const auto ranks = ranks_of(size, c.memory, c.speeds);
      const double bound = c.memory ? 20 + 100 + 30 * 10 : std::numeric_limits<double>::infinity();
      const std::string spec = c.topology == "hypercube"
                                   ? fmt::format("hypercube:{}", std::countr_zero(static_cast<unsigned>(size)))
                                   : fmt::format(fmt::runtime(size < 3 ? "complete:{}" : c.topology), size);
      const dlbkit::Topology topology = dlbkit::parse_topology(spec);
      const auto choice = dlbkit::builtin_phase_strategies().configure(c.strategy, c.params);
      const auto make = dlbkit::rank_protocol_factory(choice);
      const auto r = static_cast<std::size_t>(rank);
      const auto expected = dlbkit::run_protocol_in_process(make, ranks, topology, bound, seed)[r];
      const auto plan =
          dlbkit::detail::run_rank_protocol(engine, make, ranks[r], topology, bound, seed, {.max_delay_us = 300});
      const std::string what = fmt::format("{} seed {}{}", c.strategy, seed, c.speeds ? " with speeds" : "");
      if (!same(plan.departures, expected.departures) || !same(plan.arrivals, expected.arrivals))
        fail(what + ": not the in-process plan");
      if (plan.load_after != expected.load_after) fail(what + ": not the in-process load after");
      if (plan.figures.rounds != expected.figures.rounds || plan.figures.messages != expected.figures.messages ||
          plan.figures.bytes != expected.figures.bytes)
        fail(what + ": not the in-process figures");
      // Every departure is an arrival where it goes, and none moves twice.
      std::set<std::tuple<std::uint64_t, NodeId, NodeId>> left, came;
      const auto departures = engine.all_gather(bytes_of(plan.departures));
      const auto arrivals = engine.all_gather(bytes_of(plan.arrivals));
      std::size_t moved = 0;
      for (int r = 0; r < size; ++r) {
        for (const ObjectMove& d : moves_of(departures[static_cast<std::size_t>(r)]))
          if (!left.insert({d.id, static_cast<NodeId>(r), d.rank}).second) fail(what + ": an object leaves twice");
        for (const ObjectMove& a : moves_of(arrivals[static_cast<std::size_t>(r)]))
          came.insert({a.id, a.rank, static_cast<NodeId>(r)});
        moved += moves_of(departures[static_cast<std::size_t>(r)]).size();
      }
      if (left != came) fail(what + ": departures and arrivals differ");
      if (moved == 0) fail(what + ": nothing moved off the hot spot");
    }

  // Agents that throw on rank 1 alone, made or as the driver reads their plan after the last
  // round: the same InputError on every rank, no hang.
  const dlbkit::Topology complete = dlbkit::parse_topology(fmt::format("complete:{}", size));
  const auto tempered = dlbkit::rank_protocol_factory(dlbkit::builtin_phase_strategies().configure("tempered", {}));
  const auto ranks = ranks_of(size, false, false);
  const auto expect_error = [&](const dlbkit::RankProtocolFactory& faulty, const std::string& error) {
    try {
      dlbkit::detail::run_rank_protocol(engine, faulty, ranks[static_cast<std::size_t>(rank)], complete,
                                        std::numeric_limits<double>::infinity(), 1);
      fail("no error: " + error);
    } catch (const dlbkit::InputError& e) {
      if (std::string(e.what()) != error) fail(std::string("another error: ") + e.what());
    }
  };
  expect_error(
      [&](const dlbkit::RankSetup& s) {
        if (s.rank == 1) throw dlbkit::InputError("rank 1's objects are bad");
        return tempered(s);
      },
      "rank 1's objects are bad");
  struct BadPlan : dlbkit::RankProtocol {
    std::unique_ptr<dlbkit::RankProtocol> agent;
    bool bad;
    void round(const dlbkit::RoundInput& in, dlbkit::RoundOutput& out) override { agent->round(in, out); }
    std::vector<ObjectMove> departures() const override {
      if (bad) throw dlbkit::InputError("rank 1's plan is bad");
      return agent->departures();
    }
    std::vector<ObjectMove> arrivals() const override { return agent->arrivals(); }
    double load() const override { return agent->load(); }
  };
  expect_error(
      [&](const dlbkit::RankSetup& s) -> std::unique_ptr<dlbkit::RankProtocol> {
        auto a = std::make_unique<BadPlan>();
        a->agent = tempered(s);
        a->bad = s.rank == 1;
        return a;
      },
      "rank 1's plan is bad");

  const int all_failures = [&] {
    const auto all = engine.all_gather(std::as_bytes(std::span(&failures, 1)));
    int sum = 0;
    for (const auto& b : all) sum += *reinterpret_cast<const int*>(b.data());
    return sum;
  }();
  if (rank == 0 && all_failures == 0) std::printf("protocols: ok\n");
  return all_failures == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "unexpected: %s\n", e.what());
  return 1;
}
