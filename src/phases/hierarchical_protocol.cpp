// hierarchical as a protocol between ranks (rank_protocol.hpp): the phase strategy's steps
// (hierarchical.cpp, hierarchical_groups.hpp), each group's at its leader, with every message
// sent for real. Rounds:
// 0. every rank sends its objects and working bytes to its group's leader;
// 1. each leader sends its group's total to every other leader;
// 2. each leader computes the transport between groups from the totals (the same at every
//    leader) and sends the objects of its group's flows to the receiving leaders;
// 3. each receiving leader places them, giver by giver, and sends back those without room;
// 4. each leader takes those back, balances inside its group, and tells every rank concerned:
//    an object's first rank where it goes, and its new rank the object itself;
// 5. every rank carries that out; then the holdings' two closing rounds.
// A leader holds its group's objects and the groups' totals, no more. Each object moves once,
// from its first rank to its last. The plan is the phase strategy's (both run the same steps
// in the same order).

#include "hierarchical_groups.hpp"
#include "rank_holdings.hpp"
#include "rank_protocols.hpp"

#include <dlbkit/phases/gather_tree.hpp>

#include <algorithm>
#include <cmath>
#include <map>

namespace dlbkit::detail {

namespace {

enum Kind : std::uint8_t { kMembers = 1, kTotal = 2, kGive = 3, kRefused = 4, kDecide = 5 };

struct Departure {
  std::uint64_t id;
  NodeId to;
  std::uint32_t padding = 0;  // no byte of a message left undefined
};

class HierarchicalProtocol final : public RankProtocol {
public:
  HierarchicalProtocol(const HierarchicalProtocolOptions& o, const RankSetup& s)
      : o_(o),
        groups_{.nodes = s.topology.size(),
                .size = o.group != 0 ? std::min(o.group, s.topology.size()) : GatherTree(s.topology.size(), 0).group,
                .speeds = s.speeds},
        bound_(s.memory_bound),
        working_(s.mine.working_bytes),
        holdings_(s.mine, s.rank) {}

  void round(const RoundInput& in, RoundOutput& out) override {
    const bool leader = self() == groups_.leader(group());
    switch (in.round) {
      case 0: return send_members(leader, out);
      case 1: return leader ? send_total(in, out) : void();
      case 2: return leader ? give(in, out) : void();
      case 3: return leader ? receive(in, out) : void();
      case 4: return leader ? decide(in, out) : void();
      case 5: carry_out(in);
    }
    holdings_.end_step(in, out);
  }

  std::vector<ObjectMove> departures() const override { return holdings_.departures(); }
  std::vector<ObjectMove> arrivals() const override { return holdings_.arrivals(); }
  double load() const override { return holdings_.load(); }

private:
  NodeId self() const { return holdings_.self(); }
  std::size_t group() const { return groups_.of(self()); }
  NodeId leader_of(std::size_t g) const { return groups_.leader(g); }

  std::vector<ObjectRecord> own_records() const {
    std::vector<ObjectRecord> records;
    for (const auto& [id, h] : holdings_.objects()) records.push_back(h.record);
    return records;
  }

  void send_members(bool leader, RoundOutput& out) {
    if (leader) return;
    std::vector<std::byte> bytes;
    put(bytes, kMembers);
    put(bytes, working_);
    for (const ObjectRecord& o : own_records()) put(bytes, o);
    out.outbox.push_back({leader_of(group()), std::move(bytes)});
  }

  void send_total(const RoundInput& in, RoundOutput& out) {
    members_.resize(groups_.members(group()));
    for (std::size_t k = 0; k < members_.size(); ++k) {
      members_[k].rank = self() + static_cast<NodeId>(k);
      members_[k].bounded = std::isfinite(bound_);
      members_[k].speed = groups_.speed(members_[k].rank);
    }
    members_[0].memory = RankMemory(working_);
    for (const ObjectRecord& o : own_records()) members_[0].add(o);
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      ByteReader r(m->bytes);
      r.get<std::uint8_t>();
      GroupMember& member = members_[m->peer - self()];
      member.memory = RankMemory(r.get<double>());
      while (!r.empty()) member.add(r.get<ObjectRecord>());
    }
    total_ = 0;
    for (const GroupMember& m : members_) total_ += m.load;
    for (std::size_t g = 0; g < groups_.count(); ++g)
      if (g != group()) {
        std::vector<std::byte> bytes;
        put(bytes, kTotal);
        put(bytes, total_);
        out.outbox.push_back({leader_of(g), std::move(bytes)});
      }
  }

  void give(const RoundInput& in, RoundOutput& out) {
    std::vector<double> totals(groups_.count(), 0.0);
    totals[group()] = total_;
    for (const ProtocolMessage& m : in.inbox) {
      ByteReader r(m.bytes);
      r.get<std::uint8_t>();
      totals[groups_.of(m.peer)] = r.get<double>();
    }
    std::vector<GroupFlow> mine = group_transport(groups_, totals, o_.tolerance);
    std::erase_if(mine, [&](const GroupFlow& f) { return f.from != group(); });
    std::vector<double> amounts;
    for (const GroupFlow& f : mine) amounts.push_back(f.amount);
    const auto taken = take_for_flows(members_, amounts);
    for (std::size_t f = 0; f < mine.size(); ++f) {
      if (taken[f].empty()) continue;
      std::vector<std::byte> bytes;
      put(bytes, kGive);
      for (const ObjectRecord& o : taken[f]) put(bytes, o);
      out.outbox.push_back({leader_of(mine[f].to), std::move(bytes)});
    }
  }

  // Giver by giver, as the phase strategy places them.
  void receive(const RoundInput& in, RoundOutput& out) {
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      ByteReader r(m->bytes);
      r.get<std::uint8_t>();
      std::vector<ObjectRecord> given;
      while (!r.empty()) given.push_back(r.get<ObjectRecord>());
      const auto where = place(members_, given, bound_);
      std::vector<std::byte> refused;
      put(refused, kRefused);
      for (std::size_t k = 0; k < where.size(); ++k)
        if (where[k] < 0) put(refused, given[k]);
      if (refused.size() > 1) out.outbox.push_back({m->peer, std::move(refused)});
    }
  }

  void decide(const RoundInput& in, RoundOutput& out) {
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      ByteReader r(m->bytes);
      r.get<std::uint8_t>();
      while (!r.empty()) {
        const auto o = r.get<ObjectRecord>();
        members_[o.origin - self()].add(o);
      }
    }
    balance_inside(members_, o_.greedy_inside, o_.tolerance, bound_);
    // To each rank concerned: the departures of its objects, then the objects that arrive.
    std::map<NodeId, std::pair<std::vector<Departure>, std::vector<ObjectRecord>>> to;
    for (const GroupMember& m : members_)
      for (const ObjectRecord& o : m.objects)
        if (o.origin != m.rank) {
          to[o.origin].first.push_back({o.id, m.rank});
          to[m.rank].second.push_back(o);
        }
    for (auto& [rank, decisions] : to) {
      std::vector<std::byte> bytes;
      put(bytes, kDecide);
      put(bytes, static_cast<std::uint64_t>(decisions.first.size()));
      for (const Departure& d : decisions.first) put(bytes, d);
      for (const ObjectRecord& o : decisions.second) put(bytes, o);
      if (rank == self()) own_decision_ = std::move(bytes);  // carried out with the others'
      else out.outbox.push_back({rank, std::move(bytes)});
    }
    members_.clear();
  }

  void carry_out(const RoundInput& in) {
    std::vector<std::pair<NodeId, std::span<const std::byte>>> decisions;
    for (const ProtocolMessage* m : by_sender(in.inbox)) decisions.emplace_back(m->peer, m->bytes);
    if (!own_decision_.empty()) decisions.emplace_back(self(), own_decision_);
    std::stable_sort(decisions.begin(), decisions.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [peer, bytes] : decisions) {
      ByteReader r(bytes);
      r.get<std::uint8_t>();
      for (auto count = r.get<std::uint64_t>(); count > 0; --count) {
        const auto d = r.get<Departure>();
        holdings_.leave(d.id, d.to);
      }
      while (!r.empty()) {
        const auto o = r.get<ObjectRecord>();
        holdings_.arrive(o, o.origin);
      }
    }
  }

  HierarchicalProtocolOptions o_;
  Groups groups_;
  double bound_;
  double working_;
  Holdings holdings_;
  std::vector<GroupMember> members_;  // a leader's, from round 1 to round 4
  double total_ = 0;
  std::vector<std::byte> own_decision_;
};

}  // namespace

std::unique_ptr<RankProtocol> hierarchical_rank_protocol(const HierarchicalProtocolOptions& options,
                                                         const RankSetup& setup) {
  return std::make_unique<HierarchicalProtocol>(options, setup);
}

}  // namespace dlbkit::detail
