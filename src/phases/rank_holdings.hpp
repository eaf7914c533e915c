#pragma once
// What a rank's protocol agent holds while it runs (rank_protocol.hpp): the objects on the
// rank now, their load and memory, and the bookkeeping that turns the objects' travels into
// the plan (departures with their destinations, arrivals with their sources). Also the wire
// form of an object and of the messages' bytes.

#include <dlbkit/phases/rank_protocol.hpp>

#include <cstdint>
#include <cstring>
#include <map>
#include <span>
#include <type_traits>
#include <vector>

namespace dlbkit::detail {

/// Appends `value`'s bytes (trivially copyable) to `bytes`.
template <class T>
void put(std::vector<std::byte>& bytes, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  const auto* p = reinterpret_cast<const std::byte*>(&value);
  bytes.insert(bytes.end(), p, p + sizeof value);
}

/// Reads the values that put() wrote, in order; std::logic_error past the end (a protocol's bug).
class ByteReader {
public:
  explicit ByteReader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    check(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof value);
    at_ += sizeof value;
    return value;
  }
  bool empty() const { return at_ == bytes_.size(); }

private:
  void check(std::size_t size) const;
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

/// An object as it travels between ranks: what a rank needs to hold it (its load and memory)
/// and the rank it had before the step.
struct ObjectRecord {
  std::uint64_t id = 0;
  double load = 0;
  double footprint = 0, working = 0;
  std::int64_t block = -1;  ///< the shared block's id (LocalBlock::id); -1: none
  double block_bytes = 0;
  NodeId origin = 0;
  std::uint32_t migratable = 1;
};

/// A rank's memory as phases/memory.hpp reads a node's: its own working bytes, each shared
/// block once, the footprints, and the largest working bytes of one object.
class RankMemory {
public:
  explicit RankMemory(double own_working) : own_(own_working) {}
  void add(const ObjectRecord& o);
  void remove(const ObjectRecord& o);
  /// The rank's memory with `o` here too.
  double with(const ObjectRecord& o) const;
  /// All but the largest working bytes, and those: what a rank tells others of its memory.
  double resident() const;
  double largest_working() const { return working_.empty() ? 0 : working_.rbegin()->first; }

private:
  double own_, footprints_ = 0, shared_ = 0;
  std::map<std::int64_t, std::pair<double, std::uint32_t>> blocks_;  // id -> (bytes, objects here)
  std::map<double, std::uint32_t> working_;                          // working bytes -> objects
};

/// The objects on a rank during the step. A landed note, sent once the moves are over, tells
/// an object's first rank where it ended when it did not go there directly.
class Holdings {
public:
  struct Held {
    ObjectRecord record;
    NodeId came_from;  ///< the rank that shipped it here (its origin while it has not moved)
  };
  Holdings(const LocalPhase& mine, NodeId self);

  NodeId self() const { return self_; }
  double load() const { return load_; }
  const RankMemory& memory() const { return memory_; }
  const std::map<std::uint64_t, Held>& objects() const { return held_; }

  /// `id` leaves for `to`; its record.
  ObjectRecord leave(std::uint64_t id, NodeId to);
  /// `o` arrives from `from`.
  void arrive(const ObjectRecord& o, NodeId from);

  /// The two rounds that end a step once no object moves any more: the first sends the
  /// landed notes of the objects here that came by another rank than their origin, the
  /// second reads those sent here, and the agent is done.
  void end_step(const RoundInput& in, RoundOutput& out);

  std::vector<ObjectMove> departures() const;
  std::vector<ObjectMove> arrivals() const;

private:
  static constexpr std::uint8_t kLandedNote = 255;  // a note's first byte: the protocols' kinds are below

  NodeId self_;
  double load_ = 0;
  RankMemory memory_;
  std::map<std::uint64_t, Held> held_;
  std::map<std::uint64_t, NodeId> departed_;  // own objects not here -> where they are
  bool notes_sent_ = false;
};

/// The messages of `inbox` by sender, and a sender's by kind (their first byte), for an agent
/// whose decisions must not depend on the order of arrival: the protocols send a rank at
/// most one message of a kind in a round.
std::vector<const ProtocolMessage*> by_sender(std::span<const ProtocolMessage> inbox);

}  // namespace dlbkit::detail
