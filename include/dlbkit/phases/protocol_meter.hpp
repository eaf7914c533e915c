#pragma once
/// \file
/// The simulated time of a rank protocol (rank_protocol.hpp) as it runs: the agents' own
/// messages, round by round, priced by a cost model, so that `dlbkit phases --as-protocol`
/// predicts what the MPI driver (objects/detail/protocol_driver.hpp) takes. Each round of the
/// driver is an exchange of the agents' messages and a reduction of the round's figures:
///
///     round time = max over ranks (sent x send_overhead + received x handle_cost
///                                  + max(bytes sent, bytes received) x per_byte)
///                + 2 latency                                 (when a message was sent)
///                + 2 ceil(log2 P) x (latency + send_overhead + handle_cost)
///                + protocol_round
///
/// the second term the messages' way there and their acknowledgments' way back (the driver's
/// exchange is NBX: a synchronous send completes once its receiver has matched it, and only
/// then does its rank enter the closing barrier), the third the driver's all-gather of the
/// round's figures and its exchange's closing barrier, each in log2 P steps of one message
/// (recursive doubling, a dissemination barrier), and the last the driver's own time in a
/// round beyond its messages; and the step adds `protocol_step` once and `protocol_object` for
/// each object of the rank of the most (the plan API's checks and sums around the rounds).
/// These are the cost model's, 0 in its presets (`dlbkit calibrate --engine mpi` measures them).
///
/// Where the model's `protocol_compute` is above 0, the agents' own computation is priced too,
/// by direct execution (as SimGrid's SMPI prices an MPI program's computation): each agent's
/// round is timed on this machine, scaled by protocol_compute and added to its rank's term in
/// the max, and the step adds the slowest rank's time to make its agent and to read its plan.
/// Such a prediction varies with this machine's timing; with 0 (every preset) nothing is timed.
///
/// ```
/// dlbkit::ProtocolMeter meter(ranks.size(), cost);
/// auto plans = dlbkit::run_protocol_in_process(meter.metered(make), ranks, topology, inf, seed);
/// meter.finish();   // meter.time(), meter.rounds(), meter.messages(), meter.bytes()
/// ```

#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <cstdint>
#include <vector>

namespace dlbkit {

class ProtocolMeter {
public:
  ProtocolMeter(std::size_t ranks, const CostModel& cost);
  ProtocolMeter(const ProtocolMeter&) = delete;
  ProtocolMeter& operator=(const ProtocolMeter&) = delete;

  /// `make`'s agents, each reporting its rounds' messages here (the meter must outlive them).
  RankProtocolFactory metered(RankProtocolFactory make);
  /// Prices the last round and the step's fixed cost; once, after the step.
  void finish();

  SimTime time() const { return time_; }
  std::uint64_t rounds() const { return rounds_; }
  std::uint64_t messages() const { return messages_; }
  double bytes() const { return bytes_; }

  /// For the agents' wrapper: rank `from` sent `bytes` to `to` in `round`.
  void sent(std::uint64_t round, NodeId from, NodeId to, std::size_t bytes);
  /// For the agents' wrapper: an agent runs `round`; the first of a new round closes the one before.
  void begin(std::uint64_t round);
  /// For the agents' wrapper: whether the agents' computation is timed (protocol_compute > 0).
  bool times_agents() const { return cost_.protocol_compute > 0; }
  /// For the agents' wrapper: rank `rank`'s agent computed `seconds` in the current round,
  /// or, with `in_round` false, outside the rounds (made, its plan read).
  void computed(NodeId rank, double seconds, bool in_round);

private:
  void close_round();

  CostModel cost_;
  SimTime collective_;
  std::vector<std::uint64_t> sent_, received_;
  std::vector<double> bytes_out_, bytes_in_;
  std::vector<double> round_compute_, step_compute_;  // ns priced, by rank (with times_agents())
  std::size_t most_objects_ = 0;                       // of a rank
  std::vector<NodeId> touched_;
  std::uint64_t round_ = 0;
  bool open_ = false;
  SimTime time_ = 0;
  std::uint64_t rounds_ = 0, messages_ = 0;
  double bytes_ = 0;
};

}  // namespace dlbkit
