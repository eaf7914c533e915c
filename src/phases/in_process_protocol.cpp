#include <dlbkit/phases/in_process_protocol.hpp>

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <numeric>

namespace dlbkit {

std::vector<RankPlan> run_protocol_in_process(const RankProtocolFactory& make, std::span<const LocalPhase> ranks,
                                              const Topology& topology, double memory_bound, std::uint64_t seed,
                                              const InProcessOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const std::size_t n = ranks.size();
  if (topology.size() != n)
    throw InputError(fmt::format("a rank protocol on topology {} of {} nodes for {} ranks; accepted: {} nodes",
                                 topology.spec(), topology.size(), n, n));
  std::vector<double> speeds;  // known alike: one process holds every rank
  if (std::any_of(ranks.begin(), ranks.end(), [](const LocalPhase& r) { return r.speed != 1; }))
    for (const LocalPhase& r : ranks) speeds.push_back(r.speed);
  std::vector<std::unique_ptr<RankProtocol>> agents;
  for (NodeId r = 0; r < n; ++r)
    agents.push_back(make({.mine = ranks[r], .rank = r, .topology = topology, .memory_bound = memory_bound,
                           .seed = seed, .speeds = speeds}));
  std::optional<Rng> order;
  if (options.shuffle_seed) order.emplace(*options.shuffle_seed);
  const auto shuffle = [&](auto& items) {
    if (order)
      for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[order->below(i)]);
  };

  std::vector<RankPlan> plans(n);
  std::vector<std::vector<ProtocolMessage>> inbox(n), next(n);
  std::vector<double> sums, maxima, next_sums, next_maxima;
  std::vector<RoundOutput> outputs(n);
  std::vector<NodeId> turn(n);
  std::iota(turn.begin(), turn.end(), NodeId{0});
  const std::uint64_t limit = n == 0 ? options.max_rounds : detail::round_limit(options.max_rounds, *agents[0]);
  for (std::uint64_t round = 0;; ++round) {
    if (round == limit) detail::throw_round_limit(limit);
    shuffle(turn);
    for (const NodeId r : turn) {
      shuffle(inbox[r]);
      outputs[r] = {};
      agents[r]->round({.round = round, .inbox = inbox[r], .sums = sums, .maxima = maxima}, outputs[r]);
    }
    bool done = true, quiet = true;
    for (NodeId r = 0; r < n; ++r) {
      detail::reduce_round(next_sums, next_maxima, outputs[r], r == 0);
      done = done && outputs[r].done;
      for (ProtocolMessage& m : outputs[r].outbox) {
        quiet = false;
        ++plans[r].figures.messages;
        plans[r].figures.bytes += m.bytes.size();
        next.at(m.peer).push_back({r, std::move(m.bytes)});
      }
      inbox[r].clear();
    }
    inbox.swap(next);
    sums.swap(next_sums);
    maxima.swap(next_maxima);
    if (done && quiet) {
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      for (NodeId r = 0; r < n; ++r) {
        plans[r].departures = agents[r]->departures();
        plans[r].arrivals = agents[r]->arrivals();
        plans[r].load_after = agents[r]->load();
        plans[r].figures.rounds = round + 1;
        plans[r].figures.seconds = seconds;
      }
      return plans;
    }
  }
}

}  // namespace dlbkit
