#pragma once
/// \file
/// What one node may see and do: its own state, the (common-knowledge) topology, and
/// messages. A strategy never reads another node's state; it asks by message, as on a
/// real multicomputer. Each engine (simulator, threads, MPI) implements this interface.

#include <dlbkit/core/message.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <cstdint>
#include <span>

namespace dlbkit {

inline constexpr std::uint32_t kNoHopLimit = 0xFFFFFFFFu;

class NodeContext {
public:
  virtual NodeId self() const = 0;
  virtual const Topology& topology() const = 0;

  /// Tasks on this node not yet completed, the executing one included (WLR93 Sec. II).
  virtual std::int64_t load() const = 0;
  /// Tasks that may migrate now: the queued ones, not the executing one (WLR93 IV-A fn. 2).
  virtual std::int64_t migratable() const = 0;
  /// Current time on this node's processor (simulated or real).
  virtual SimTime now() const = 0;
  /// This node's own random stream.
  virtual Rng& rng() = 0;

  /// Sends a message to any node; a non-neighbour costs its hop count in the simulator.
  virtual void send(NodeId to, const Message& message) = 0;
  /// Selects up to `amount` migratable tasks, the most recently queued first, skipping
  /// tasks that have already migrated `max_hops` times (GM's hop counter, WLR93 Sec. V),
  /// and ships them to `to` in as many messages as the engine's tasks-per-message needs.
  /// Returns how many tasks left.
  virtual std::int64_t migrate(NodeId to, std::int64_t amount, std::uint32_t max_hops = kNoHopLimit) = 0;
  /// Calls Strategy::on_timer(tag) on this node after `delay`.
  virtual void set_timer(SimTime delay, std::uint64_t tag) = 0;
  /// One 64-bit value per neighbour, in the order of neighbors(), that the engine keeps for
  /// this node's strategy for the whole run (zero at first): where a strategy keeps what it
  /// knows of each neighbour (SID and RID: their loads). The simulator keeps every node's
  /// values in one array and loads them ahead of the node's next event; a strategy object
  /// holding its own vector would cost a cache miss on each message at a million nodes.
  virtual std::span<std::int64_t> neighbor_slots() = 0;

  std::span<const NodeId> neighbors() const { return topology().neighbors(self()); }
  /// What a victim of work stealing may give: the migratable tasks, less the one it executes
  /// next when it executes none (a simulated node between two tasks or handling messages; a
  /// runtime worker's next task is not migratable already). A Cilk victim keeps the frame it
  /// works on; a victim that gave its only task while handling the message that brought it
  /// would leave two nodes passing that task to and fro forever.
  std::int64_t spare() const { return std::max<std::int64_t>(0, std::min(migratable(), load() - 1)); }

protected:
  ~NodeContext() = default;
};

}  // namespace dlbkit
