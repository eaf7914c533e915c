#pragma once
/// \file
/// A distributed phase strategy as it runs on the ranks: one agent per rank that reads only
/// its own LocalPhase and the messages it receives, in synchronous rounds (BSP). In round r
/// every agent gets the messages sent to it in round r - 1 (each with its sender, in any
/// order: an agent must decide the same whatever the order) and the sums and maxima over the
/// ranks of what each contributed in round r - 1; it returns its messages and contributions
/// of round r. The step ends after a round in which every agent said it is done and none
/// sent a message. Then each agent knows which of its objects leave and where, and which
/// arrive from where. Messages are bytes, so that a driver can carry them over MPI
/// (objects/detail/protocol_driver.hpp) as well as between agents of one process
/// (in_process_protocol.hpp): both give the same plan for the same seed.
///
/// ```
/// const dlbkit::RankProtocolFactory make = dlbkit::rank_protocol_factory(choice);  // empty: central
/// if (make) agent = make({.mine = mine, .rank = r, .topology = ranks, .seed = 7});
/// ```

#include <dlbkit/phases/local_phase.hpp>
#include <dlbkit/phases/phase_strategy.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace dlbkit {

/// A protocol's message: its bytes, with its sender (in an inbox) or its destination (in an outbox).
struct ProtocolMessage {
  NodeId peer = 0;
  std::vector<std::byte> bytes;
};

struct RoundInput {
  std::uint64_t round = 0;
  std::span<const ProtocolMessage> inbox;  ///< sent to this rank in the round before, in any order
  /// Elementwise over the ranks, what they contributed in the round before (empty in round 0).
  std::span<const double> sums, maxima;
};

struct RoundOutput {
  std::vector<ProtocolMessage> outbox;
  /// Contributions to the reductions; every rank gives as many as the others in a round.
  std::vector<double> sums, maxima;
  /// Nothing more to do unless a message arrives: the step ends when every rank says so in a
  /// round in which no rank sends.
  bool done = false;
};

/// One rank's agent of a distributed phase strategy.
class RankProtocol {
public:
  virtual ~RankProtocol() = default;
  virtual void round(const RoundInput& in, RoundOutput& out) = 0;
  /// After the last round: this rank's objects that leave, each with its destination, and
  /// the objects that arrive, each with the rank it had (both sorted by id).
  virtual std::vector<ObjectMove> departures() const = 0;
  virtual std::vector<ObjectMove> arrivals() const = 0;
  /// The rank's load once the plan is carried out, as the protocol counted it.
  virtual double load() const = 0;
  /// The passes a step makes, each allowed a driver's round limit (InProcessOptions::max_rounds),
  /// the same on every rank: tempered's trials x n_iterations, so that a step asked for more
  /// iterations is not taken for one that never ends.
  virtual std::uint64_t passes() const { return 1; }
};

/// What an agent is made from: the rank's part of the phase and what every rank knows alike.
struct RankSetup {
  const LocalPhase& mine;
  NodeId rank = 0;
  /// Over the ranks (its size is theirs): the neighbours of diffusion. It outlives the agent.
  const Topology& topology;
  /// Most bytes a rank may hold (phases/memory.hpp's reading); infinity: no bound.
  double memory_bound = std::numeric_limits<double>::infinity();
  /// The agent's random stream is Rng(seed, rank).
  std::uint64_t seed = 0;
  /// Every rank's speed (LocalPhase::speed), known alike, for the flow strategies' heterogeneous
  /// schemes (flows.hpp, FlowCapacities); empty: every rank equally fast. It outlives the agent.
  std::span<const double> speeds;
};

using RankProtocolFactory = std::function<std::unique_ptr<RankProtocol>(const RankSetup&)>;

/// The agent factory of the strategy chosen, its parameters bound; empty for a strategy
/// without a rank protocol (a central one).
RankProtocolFactory rank_protocol_factory(const PhaseStrategyChoice& choice);
/// The same where the strategy runs as its rank protocol with these parameters (an agent can
/// be made: not for tempered's Clustering with proposals_per_round above 1) and its criterion
/// weighs the loads (the agents do not read works); empty otherwise, for a runtime to decide
/// centrally instead.
RankProtocolFactory runnable_rank_protocol(const PhaseStrategyChoice& choice, const WorkModel& work_model);

/// What a driver measured of one rank's step.
struct ProtocolFigures {
  std::uint64_t rounds = 0;    ///< the step's rounds (the same on every rank)
  std::uint64_t messages = 0;  ///< sent by this rank
  std::uint64_t bytes = 0;     ///< sent by this rank
  double seconds = 0;          ///< wall time of the decision
};

/// One rank's plan, as a driver returns it.
struct RankPlan {
  std::vector<ObjectMove> departures, arrivals;
  double load_after = 0;  ///< RankProtocol::load()
  ProtocolFigures figures;
};

namespace detail {
/// For the drivers. Adds one rank's contributions to the round's reductions, ranks in order
/// (the same bits in every driver); `first`: the first rank's. std::logic_error when their
/// lengths differ from the ranks' before (a protocol's bug).
void reduce_round(std::vector<double>& sums, std::vector<double>& maxima, const RoundOutput& rank, bool first);
/// The rounds a step may take: a driver's limit for one pass times the agent's passes (at
/// most 2^64 - 1).
std::uint64_t round_limit(std::uint64_t per_pass, const RankProtocol& agent);
/// The error of a step that has not ended within `max_rounds` rounds: a protocol's bug,
/// thrown on every rank alike instead of a hang.
[[noreturn]] void throw_round_limit(std::uint64_t max_rounds);
}  // namespace detail

}  // namespace dlbkit
