#pragma once
// Test support: a NodeContext with a scripted load that records what a strategy does.

#include <dlbkit/core/node_context.hpp>

#include <vector>

namespace dlbkit::test {

class FakeContext final : public NodeContext {
public:
  FakeContext(const Topology& topology, NodeId self, std::int64_t load) : topology_(topology), self_(self), load_(load) {}

  struct Sent {
    NodeId to;
    Message message;
  };
  struct Migration {
    NodeId to;
    std::int64_t amount;
  };

  NodeId self() const override { return self_; }
  const Topology& topology() const override { return topology_; }
  std::int64_t load() const override { return load_; }
  std::int64_t migratable() const override { return load_ > 0 && executing ? load_ - 1 : load_; }
  SimTime now() const override { return time; }
  Rng& rng() override { return rng_; }
  void send(NodeId to, const Message& m) override { sent.push_back({to, m}); }
  std::int64_t migrate(NodeId to, std::int64_t amount, std::uint32_t = kNoHopLimit) override {
    const std::int64_t moved = std::min(amount, migratable());
    migrations.push_back({to, moved});
    load_ -= moved;
    return moved;
  }
  void set_timer(SimTime, std::uint64_t tag) override { timers.push_back(tag); }
  std::span<std::int64_t> neighbor_slots() override {
    slots_.resize(neighbors().size());
    return slots_;
  }

  void set_load(std::int64_t load) { load_ = load; }
  /// Messages of one kind sent so far.
  std::vector<Sent> of_kind(std::uint16_t kind) const {
    std::vector<Sent> out;
    for (const Sent& s : sent)
      if (s.message.kind == kind) out.push_back(s);
    return out;
  }

  std::vector<Sent> sent;
  std::vector<Migration> migrations;
  std::vector<std::uint64_t> timers;
  SimTime time = 0;  ///< what now() returns; tests advance it by hand
  bool executing = true;  ///< one task of the load executes; false: all are queued

private:
  const Topology& topology_;
  NodeId self_;
  std::int64_t load_;
  Rng rng_{1};
  std::vector<std::int64_t> slots_;
};

}  // namespace dlbkit::test
