#pragma once
/// \file
/// The driver of a rank protocol (phases/rank_protocol.hpp) over the ranks of a
/// DistributedEngine: each rank runs its own agent, the round's messages travel by the
/// engine's sparse exchange and its reductions by an all-gather summed in rank order, so that
/// the plan is bit for bit the in-process driver's (phases/in_process_protocol.hpp) for the
/// same seed. The ranks agree before every collective: an agent that throws on one rank
/// throws the same error on every rank, and a step that does not end within its round limit
/// is an error on every rank alike.

#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/runtime/detail/distributed_engine.hpp>

#include <cstdint>

namespace dlbkit::detail {

struct ProtocolDriverOptions {
  std::uint64_t max_rounds = 1'000'000;  // for each of the agent's passes (RankProtocol::passes)
  /// Most microseconds of a random sleep before each round's sends (0: none), drawn from the
  /// rank's own stream: the adversity of a test, ranks late at random.
  std::uint64_t max_delay_us = 0;
};

/// Collective over `engine`'s ranks: runs this rank's agent made by `make` on `mine`, over
/// `topology` (as many nodes as ranks), to the step's end; this rank's plan and figures.
RankPlan run_rank_protocol(const DistributedEngine& engine, const RankProtocolFactory& make, const LocalPhase& mine,
                           const Topology& topology, double memory_bound, std::uint64_t seed,
                           const ProtocolDriverOptions& options = {});

}  // namespace dlbkit::detail
