#pragma once
/// \file
/// The simulated time of a phase strategy's protocol under a cost model (sim/cost_model.hpp).
/// A strategy runs in synchronous rounds: in a round each node sends messages and handles the
/// ones sent to it; the round ends when the slowest node is done and the last message has
/// arrived:
///
///     round time = max over nodes (sent x send_overhead + received x handle_cost)
///                + latency + (h - 1) x per_hop      (h: the longest route of the round)
///
/// Then the objects migrate in three steps, each ended by a collective, as ObjectRuntime moves
/// them: every node packs what leaves it, the nodes exchange the bytes, every node unpacks what
/// arrived,
///
///     migration time = max over nodes (recorded serialize seconds of the objects out)
///                    + max over nodes (objects in and out x per_object
///                                      + max(bytes in, bytes out) x per_byte)
///                    + max over nodes (recorded deserialize seconds of the objects in).
///
/// A node handles its objects one at a time, but its bytes go out and come in at once (full
/// duplex, as an MPI all-to-all moves them).

#include <dlbkit/core/time.hpp>
#include <dlbkit/sim/cost_model.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <vector>

namespace dlbkit {

/// What moving an object costs, beyond the protocol's messages.
struct MigrationCost {
  SimTime per_object = 0;
  double per_byte = 0;  ///< nanoseconds, a fraction allowed
};

class Protocol {
public:
  Protocol(const Topology& topology, const CostModel& cost);

  /// `count` messages from `from` to `to` in this round (routed: the hops are the distance).
  void send(NodeId from, NodeId to, std::uint64_t count = 1);
  /// Ends the round: adds its time. A round without a message adds nothing.
  void end_round();
  /// Adds `count` more rounds like the one end_round() just ended (its messages and time), for
  /// a protocol that repeats a round many times: counted once, then repeated, at the cost of
  /// one. Nothing when that round had no message.
  void repeat_last_round(std::uint64_t count);
  /// The same for a sequence of rounds: what has been counted so far (mark()), then, after
  /// the sequence, `count` more of it (repeat_since(mark, count)).
  struct Mark {
    std::uint64_t rounds, messages;
    SimTime time;
  };
  Mark mark() const { return {rounds_, messages_, time_}; }
  void repeat_since(const Mark& mark, std::uint64_t count);

  std::uint64_t rounds() const { return rounds_; }
  std::uint64_t messages() const { return messages_; }
  SimTime time() const { return time_; }

private:
  const Topology* topology_;
  CostModel cost_;
  std::vector<std::uint64_t> sent_, received_;
  std::vector<NodeId> touched_;
  int longest_route_ = 0;
  std::uint64_t rounds_ = 0, messages_ = 0;
  SimTime time_ = 0;
  std::uint64_t round_messages_ = 0, last_messages_ = 0;  // of the open round, of the last ended
  SimTime last_time_ = 0;
};

}  // namespace dlbkit
