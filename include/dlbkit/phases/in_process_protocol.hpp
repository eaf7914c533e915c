#pragma once
/// \file
/// The in-process driver of a rank protocol (rank_protocol.hpp): the agents of P ranks in one
/// process, round by round. It is the plan API's form for ranks that are threads of one
/// process, and the simulator's harness: with a shuffle seed, each round runs the agents and
/// delivers each inbox in an order drawn from it (in synchronous rounds, the order is all
/// that a message's delay can change), and a protocol must give the same plan whatever it is.
///
/// ```
/// const auto choice = dlbkit::builtin_phase_strategies().configure("tempered", {});
/// const auto plans = dlbkit::run_protocol_in_process(dlbkit::rank_protocol_factory(choice), parts,
///                                                    dlbkit::parse_topology("complete:4"), inf, 7);
/// // parts: 4 LocalPhase; plans[r].departures: rank r's objects that leave, with their destinations
/// ```

#include <dlbkit/phases/rank_protocol.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace dlbkit {

struct InProcessOptions {
  /// Where set, the agents of a round run, and their inboxes arrive, in an order drawn from it.
  std::optional<std::uint64_t> shuffle_seed;
  /// A step not ended after this many rounds for each of its passes (RankProtocol::passes) is
  /// an error (detail::throw_round_limit).
  std::uint64_t max_rounds = 1'000'000;
};

/// Runs the agents that `make` makes for the ranks' parts `ranks` (rank r: ranks[r]) over
/// `topology` (ranks.size() nodes) to the step's end; each rank's plan and figures.
std::vector<RankPlan> run_protocol_in_process(const RankProtocolFactory& make, std::span<const LocalPhase> ranks,
                                              const Topology& topology, double memory_bound, std::uint64_t seed,
                                              const InProcessOptions& options = {});

}  // namespace dlbkit
