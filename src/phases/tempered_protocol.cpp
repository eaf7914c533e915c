// tempered as a protocol between ranks (rank_protocol.hpp): the stages of the phase strategy
// (tempered.cpp: vt's TemperedLB, LBAF's InformAndTransfer with the Recursive transfer
// strategy, on loads) with every message sent for real, each rank knowing only its own
// objects and what it was told.
//
// Round 0 reduces the loads to their mean (vt does so before the iterations). Each of
// n_iterations then has
// - inform (vt's informSync / propagateRound): for n_rounds, the informing ranks (load below
//   the mean; every rank with peers=LBAF) in the first round, then those that learnt something
//   in the round before, send all they know (rank, load, and memory beside it, as vt gossips
//   it) to `fanout` random ranks they do not know yet;
// - transfer: a source (load above the mean; every rank with peers=LBAF) offers its objects in
//   the order strategy's order, one proposal at a time (or proposals_per_round, each weighed on
//   its load less those before and the targets' known loads plus them), to a known rank chosen by the tempered
//   criterion through LBAF's cumulative mass function (deterministic_transfer: the best), among
//   those whose gossiped memory leaves room; the target accepts when the criterion holds on
//   both ranks' current loads and the object fits its memory, and its reply carries its load.
//   Proposals and replies alternate until a round in which no rank proposed (a reduction).
// Where the phase strategy decides for all nodes in one process, here: each target handles
// its proposals in an order drawn from its own stream (the strategy: the sources' shuffled
// order, one for all); a source judges room from the memory gossiped at the iteration's start
// with the object's block counted as new there (the target decides exactly); what cannot be
// placed is not reported. Clustering, and work models other than the loads, are the phase
// strategy's only.

#include "rank_holdings.hpp"
#include "rank_protocols.hpp"

#include <dlbkit/core/random.hpp>

#include <algorithm>
#include <limits>
#include <map>
#include <optional>

namespace dlbkit::detail {

namespace {

enum Kind : std::uint8_t { kGossip = 1, kProposal = 2, kReply = 3 };

/// A rank as the gossip tells of it: its load and memory at the iteration's start.
struct Known {
  double load, resident, largest_working;  // RankMemory's figures
  NodeId rank;
  std::uint32_t padding = 0;  // no byte of a message left undefined
};

struct Offer {
  std::uint64_t id;
  double load;
};

class TemperedProtocol final : public RankProtocol {
public:
  TemperedProtocol(const TemperedProtocolOptions& o, const RankSetup& s)
      : o_(o), ranks_(s.topology.size()), bound_(s.memory_bound), rng_(s.seed, s.rank), holdings_(s.mine, s.rank) {}

  void round(const RoundInput& in, RoundOutput& out) override {
    if (ranks_ < 2) stage_ = Stage::finish;
    switch (stage_) {
      case Stage::mean:
        if (in.round == 0) {
          out.sums = {holdings_.load()};
          return;
        }
        mean_ = in.sums[0] / static_cast<double>(ranks_);
        return start_inform(out);
      case Stage::inform: return inform(in, out);
      case Stage::propose: return propose(in, out);
      case Stage::reply: return reply(in, out);
      case Stage::finish: return holdings_.end_step(in, out);
    }
  }

  std::vector<ObjectMove> departures() const override { return holdings_.departures(); }
  std::vector<ObjectMove> arrivals() const override { return holdings_.arrivals(); }
  double load() const override { return holdings_.load(); }

private:
  enum class Stage { mean, inform, propose, reply, finish };
  NodeId self() const { return holdings_.self(); }

  /// lbsTemperedCriterion.compute: how much the larger of the two loads falls when `amount`
  /// goes from a rank of load `from` to one of load `to` (< 0: it rises).
  static double criterion(double from, double to, double amount) {
    return std::max(from, to) - std::max(from - amount, to + amount);
  }

  void start_inform(RoundOutput& out) {
    stage_ = Stage::inform;
    gossip_round_ = 0;
    known_.clear();
    const double load = holdings_.load();
    informing_ = o_.every_node || load < mean_;
    if (informing_)
      known_.push_back({load, holdings_.memory().resident(), holdings_.memory().largest_working(), self()});
    gossip(out);
  }

  std::vector<Known>::const_iterator find(NodeId rank) const {
    return std::lower_bound(known_.begin(), known_.end(), rank, [](const Known& k, NodeId r) { return k.rank < r; });
  }
  bool knows(NodeId rank) const {
    const auto it = find(rank);
    return it != known_.end() && it->rank == rank;
  }
  /// The index in known_ of a rank it holds (one this rank proposed to).
  std::size_t index_of(NodeId rank) const { return static_cast<std::size_t>(find(rank) - known_.begin()); }

  // vt: fanout distinct random ranks, neither itself nor one it knows; none once it knows all.
  void gossip(RoundOutput& out) {
    if (!informing_) return;
    const std::uint64_t fanout = std::min<std::uint64_t>(static_cast<std::uint64_t>(o_.fanout), ranks_ - 1);
    std::vector<std::byte> bytes;
    put(bytes, kGossip);
    for (const Known& k : known_) put(bytes, k);
    std::vector<NodeId> chosen;
    for (std::uint64_t f = 0; f < fanout && known_.size() + chosen.size() + 1 < ranks_ + knows(self()); ++f) {
      NodeId to;
      do to = static_cast<NodeId>(rng_.below(ranks_));
      while (to == self() || knows(to) || std::find(chosen.begin(), chosen.end(), to) != chosen.end());
      chosen.push_back(to);
      out.outbox.push_back({to, bytes});
    }
  }

  void inform(const RoundInput& in, RoundOutput& out) {
    // A rank's entry is the same in every list that carries it: the union needs no order.
    for (const ProtocolMessage& m : in.inbox) {
      ByteReader r(m.bytes);
      r.get<std::uint8_t>();
      while (!r.empty()) known_.push_back(r.get<Known>());
    }
    std::stable_sort(known_.begin(), known_.end(), [](const Known& a, const Known& b) { return a.rank < b.rank; });
    const auto same = [](const Known& a, const Known& b) { return a.rank == b.rank; };
    known_.erase(std::unique(known_.begin(), known_.end(), same), known_.end());
    informing_ = !in.inbox.empty();
    if (++gossip_round_ < o_.rounds) return gossip(out);
    start_transfer(out);
  }

  void start_transfer(RoundOutput& out) {
    std::erase_if(known_, [&](const Known& k) { return k.rank == self(); });  // LBAF: known_peers minus the rank
    pending_.clear();
    if ((o_.every_node || holdings_.load() > mean_) && !known_.empty()) {
      for (const auto& [id, h] : holdings_.objects())
        if (h.record.migratable) pending_.push_back({id, h.record.load});
      order(pending_);
    }
    update_least_known();
    stage_ = Stage::propose;
    offer(out);
  }

  /// LBAF's order strategies (lbsRecursiveTransferStrategy.py), as tempered.cpp's ordered();
  /// the rank offers from the end. "arbitrary" is the order of the ids.
  void order(std::vector<Offer>& objects) const {
    const auto up = [](const Offer& a, const Offer& b) { return a.load < b.load; };
    const auto down = [](const Offer& a, const Offer& b) { return a.load > b.load; };
    double excess = -mean_;
    for (const Offer& o : objects) excess += o.load;
    if (o_.order == "decreasing_loads") {
      std::stable_sort(objects.begin(), objects.end(), down);
    } else if (o_.order == "increasing_loads") {
      std::stable_sort(objects.begin(), objects.end(), up);
    } else if (o_.order == "fewest_migrations") {
      const auto fits = [&](const Offer& o) { return o.load <= excess; };
      auto middle = std::stable_partition(objects.begin(), objects.end(), fits);
      std::stable_sort(objects.begin(), middle, down);
      std::stable_sort(middle, objects.end(), up);
    } else if (o_.order == "small_objects") {
      std::stable_sort(objects.begin(), objects.end(), up);
      std::size_t count = 0;
      for (double sum = 0; count < objects.size() && sum + objects[count].load <= excess; ++count)
        sum += objects[count].load;
      count = std::min(count + 1, objects.size());
      std::stable_sort(objects.begin(), objects.begin() + static_cast<std::ptrdiff_t>(count), down);
    }
  }

  void update_least_known() {
    least_known_ = std::numeric_limits<double>::infinity();
    for (const Known& k : known_) least_known_ = std::min(least_known_, k.load);
  }

  /// Whether the gossip says `o` fits on the known rank k (its block counted as new there).
  bool room(const Known& k, const ObjectRecord& o) const {
    return k.resident + o.footprint + (o.block >= 0 ? o.block_bytes : 0.0) + std::max(k.largest_working, o.working) <=
           bound_;
  }

  /// tempered.cpp's select_target on loads: the known target for `o` by the criterion through
  /// LBAF's CMF (deterministic: the best) among those with room; none when every such
  /// criterion is negative.
  /// `pledged`: the load it proposed in this handshake already.
  std::optional<std::size_t> select_target(const ObjectRecord& o, double pledged) {
    const double own = holdings_.load() - pledged, amount = o.load;
    if (amount > 0 && amount > own - least_known_) return std::nullopt;
    constexpr double kNoRoom = -std::numeric_limits<double>::infinity();
    std::vector<double> values(known_.size());
    double low = std::numeric_limits<double>::infinity(), high = kNoRoom, sum = 0;
    std::size_t eligible = 0;
    for (std::size_t t = 0; t < known_.size(); ++t) {
      const bool fits = room(known_[t], o);
      values[t] = fits ? criterion(own, known_[t].load, amount) : kNoRoom;
      if (!fits) continue;
      sum += values[t];
      ++eligible;
      low = std::min(low, values[t]);
      high = std::max(high, values[t]);
    }
    if (high == kNoRoom || high < 0) return std::nullopt;
    if (o_.deterministic) return std::find(values.begin(), values.end(), high) - values.begin();
    if (low == high) {  // uniformly among the eligible
      std::size_t k = rng_.below(eligible);
      for (std::size_t t = 0; t < values.size(); ++t)
        if (values[t] != kNoRoom && k-- == 0) return t;
    }
    const double u = rng_.uniform() * (sum - low * static_cast<double>(eligible));
    double mass = 0;
    std::size_t last = values.size();
    for (std::size_t t = 0; t < values.size(); ++t) {
      if (values[t] == kNoRoom) continue;
      mass += values[t] - low;
      if (!(mass < u)) return t;
      last = t;
    }
    return last;
  }

  // The source's side: its next object that a target would take by the known loads, proposed.
  // With proposals_per_round, the next ones the same way, each weighed as if those before it
  // were taken. One message to each target: its objects in the order proposed, each beside the
  // load the source weighed it on (its own less what it proposed before), as the phase strategy's
  // targets weigh a proposal on the source's load with those before it taken.
  void offer(RoundOutput& out) {
    double made = 0, pledged = 0;
    std::map<NodeId, std::vector<std::byte>> to;  // by target rank: the message
    while (!pending_.empty() && made < o_.proposals) {
      const ObjectRecord o = holdings_.objects().at(pending_.back().id).record;
      pending_.pop_back();
      const auto t = select_target(o, pledged);
      if (!t || criterion(holdings_.load() - pledged, known_[*t].load, o.load) < 0) continue;
      auto [message, first] = to.try_emplace(known_[*t].rank);
      if (first) put(message->second, kProposal);
      put(message->second, holdings_.load() - pledged);
      put(message->second, o);
      if (++made < o_.proposals) {
        pledged += o.load;
        known_[*t].load += o.load;
        update_least_known();
      }
    }
    for (auto& [rank, bytes] : to) out.outbox.push_back({rank, std::move(bytes)});
    out.sums = {made > 0 ? 1.0 : 0.0};
    stage_ = Stage::reply;
  }

  void propose(const RoundInput& in, RoundOutput& out) {
    for (const ProtocolMessage* m : by_sender(in.inbox)) {  // the replies to this rank's proposals
      ByteReader r(m->bytes);
      r.get<std::uint8_t>();
      known_[index_of(m->peer)].load = r.get<double>();
      while (!r.empty()) {
        const auto id = r.get<std::uint64_t>();
        if (r.get<std::uint8_t>()) holdings_.leave(id, m->peer);
      }
    }
    update_least_known();
    offer(out);
  }

  // The target's side: the proposals in an order of its own stream, each taken when the
  // criterion holds on both current loads and the object fits.
  void reply(const RoundInput& in, RoundOutput& out) {
    if (in.sums[0] == 0) {  // no rank proposed: the stage is over
      if (++iteration_ < o_.iterations) return start_inform(out);
      stage_ = Stage::finish;
      return holdings_.end_step(in, out);
    }
    std::vector<const ProtocolMessage*> proposals = by_sender(in.inbox);
    if (!o_.deterministic)
      for (std::size_t i = proposals.size(); i > 1; --i) std::swap(proposals[i - 1], proposals[rng_.below(i)]);
    for (const ProtocolMessage* m : proposals) {
      ByteReader r(m->bytes);
      r.get<std::uint8_t>();
      std::vector<std::byte> answers;
      while (!r.empty()) {
        const auto from_load = r.get<double>();
        const auto o = r.get<ObjectRecord>();
        const bool accepted =
            criterion(from_load, holdings_.load(), o.load) >= 0 && holdings_.memory().with(o) <= bound_;
        if (accepted) holdings_.arrive(o, m->peer);
        put(answers, o.id);
        put(answers, static_cast<std::uint8_t>(accepted));
      }
      // The reply: this rank's load once the message is handled, then the answers.
      std::vector<std::byte> bytes;
      put(bytes, kReply);
      put(bytes, holdings_.load());
      bytes.insert(bytes.end(), answers.begin(), answers.end());
      out.outbox.push_back({m->peer, std::move(bytes)});
    }
    stage_ = Stage::propose;
  }

  TemperedProtocolOptions o_;
  std::size_t ranks_;
  double bound_;
  Rng rng_;
  Holdings holdings_;
  Stage stage_ = Stage::mean;
  double mean_ = 0;
  long long iteration_ = 0, gossip_round_ = 0;
  bool informing_ = false;
  std::vector<Known> known_;  // by rank
  double least_known_ = 0;
  std::vector<Offer> pending_;  // the source's objects still to offer, from the end
};

}  // namespace

std::unique_ptr<RankProtocol> tempered_rank_protocol(const TemperedProtocolOptions& options, const RankSetup& setup) {
  return std::make_unique<TemperedProtocol>(options, setup);
}

}  // namespace dlbkit::detail
