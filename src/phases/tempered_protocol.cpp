// tempered as a protocol between ranks (rank_protocol.hpp): the stages of the phase strategy
// (tempered.cpp: vt's TemperedLB, LBAF's InformAndTransfer with either transfer strategy, on
// loads) with every message sent for real, each rank knowing only its own objects and what it
// was told.
//
// Round 0 reduces the loads to their mean (vt does so before the iterations). Each of
// n_iterations then has
// - inform (vt's informSync / propagateRound): for n_rounds, the informing ranks (load below
//   the mean; every rank with peers=LBAF) in the first round, then those that learnt something
//   in the round before, send all they know (rank, load, and memory beside it, as vt gossips
//   it) to `fanout` random ranks they do not know yet;
// - transfer, Recursive: a source (load above the mean; every rank with peers=LBAF) offers its
//   objects in the order strategy's order, one proposal at a time (or proposals_per_round, each
//   weighed on its load less those before and the targets' known loads plus them), to a known
//   rank chosen by the tempered criterion through LBAF's cumulative mass function
//   (deterministic_transfer: the best), among those whose gossiped memory leaves room; the
//   target accepts when the criterion holds on both ranks' current loads and the object fits
//   its memory, and its reply carries its load. Proposals and replies alternate until a round
//   in which no rank proposed (a reduction).
// - transfer, Clustering (LBAF's lbsClusteringTransferStrategy, as tempered.cpp's
//   cluster_transfers): in slots of four rounds, a source asks its next known target (in a
//   random order) for a swap; the target grants one request a slot and sends its load, its
//   clusters (its migratable objects of each shared block) and what the rest of its memory
//   holds; the source decides the swaps on both ranks' true loads and memories, as the
//   strategy's swap_clusters, and commits them; the target applies them in order, each checked
//   against the bound on its true state, and acknowledges those it applied (all of them, as its
//   state did not change since it granted), and the source then applies the same. A source
//   stops asking once a target swapped; then (unless it swapped and transfers are random) it
//   polls its known targets' loads and memory and offers one subcluster, which the target
//   takes when the criterion holds on both current loads and it fits. With
//   separate_subclustering the subclusters come once no source asks any more (a reduction).
// With vt's trials or rollback, a reduction of the largest load after each iteration (or each
// trial's last): every rank keeps its holdings of the best and starts each trial from the phase's.
// Where the phase strategy decides for all nodes in one process, here: each target handles
// its proposals in an order drawn from its own stream (the strategy: the sources' shuffled
// order, one for all); a source judges room from the memory gossiped at the iteration's start
// (a subcluster: polled) with the objects' block counted as new there (the target decides
// exactly); what cannot be placed is not reported. In Clustering the sources ask side by side,
// not one after another: a target asked by several in one slot serves one (deterministic: the
// lowest rank; else drawn from its stream) and the others ask it again in a later slot, and a
// rank busy with its own request or offer refuses requests and offers. With peers=LBAF, where
// a source may be a target too, a source asks a target only in the slots in which a colouring
// of the ranks by their bits makes it the asking side and the target the asked side, so that
// two sources never wait on each other. Work models other than the loads are the phase
// strategy's only.

#include "rank_holdings.hpp"
#include "rank_protocols.hpp"
#include "tempered_subclusters.hpp"

#include <dlbkit/core/random.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>

namespace dlbkit::detail {

namespace {

enum Kind : std::uint8_t {
  kGossip = 1,
  kProposal = 2,
  kReply = 3,
  // Clustering's
  kRequest = 4,    // a source asks for a swap
  kGrant = 5,      // the target's load, clusters and memory
  kBusy = 6,       // the target serves another, or is busy itself
  kCommit = 7,     // the swaps the source decided
  kSwapAck = 8,    // how many of them the target applied
  kQuery = 9,      // a source polls a known target
  kAnswer = 10,    // its load and memory
  kOffer = 11,     // a subcluster
  kOfferAck = 12,  // taken or not
};

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

using Cluster = std::vector<ObjectRecord>;

/// Fisher-Yates from the end (tempered.cpp's shuffle).
template <class T>
void shuffle(std::vector<T>& items, Rng& rng) {
  for (std::size_t i = items.size(); i > 1; --i) std::swap(items[i - 1], items[rng.below(i)]);
}

double load_of(std::span<const ObjectRecord> objects) {
  double sum = 0;
  for (const ObjectRecord& o : objects) sum += o.load;
  return sum;
}

double total(const RankMemory& m) { return m.resident() + m.largest_working(); }

void put_records(std::vector<std::byte>& bytes, std::span<const ObjectRecord> records) {
  put(bytes, static_cast<std::uint32_t>(records.size()));
  for (const ObjectRecord& o : records) put(bytes, o);
}

Cluster get_records(ByteReader& r) {
  Cluster records(r.get<std::uint32_t>());
  for (ObjectRecord& o : records) o = r.get<ObjectRecord>();
  return records;
}

class TemperedProtocol final : public RankProtocol {
public:
  TemperedProtocol(const TemperedProtocolOptions& o, const RankSetup& s)
      : o_(o),
        ranks_(s.topology.size()),
        bound_(s.memory_bound),
        own_working_(s.mine.working_bytes),
        rng_(s.seed, s.rank),
        holdings_(s.mine, s.rank) {}

  void round(const RoundInput& in, RoundOutput& out) override {
    if (ranks_ < 2) stage_ = Stage::finish;
    switch (stage_) {
      case Stage::mean:
        if (in.round == 0) {
          out.sums = {holdings_.load()};
          if (keeps_best()) out.maxima = {holdings_.load()};
          return;
        }
        mean_ = in.sums[0] / static_cast<double>(ranks_);
        if (keeps_best()) start_ = holdings_, start_max_ = in.maxima[0];
        return start_inform(out);
      case Stage::inform: return inform(in, out);
      case Stage::propose: return propose(in, out);
      case Stage::reply: return reply(in, out);
      case Stage::cluster: return cluster_round(in, out);
      case Stage::tally: return tally(in, out);
      case Stage::finish: return holdings_.end_step(in, out);
    }
  }

  std::vector<ObjectMove> departures() const override { return holdings_.departures(); }
  std::vector<ObjectMove> arrivals() const override { return holdings_.arrivals(); }
  double load() const override { return holdings_.load(); }
  std::uint64_t passes() const override { return static_cast<std::uint64_t>(o_.trials * o_.iterations); }

private:
  enum class Stage { mean, inform, propose, reply, cluster, tally, finish };
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
    if (o_.clustering) out.maxima = {load};  // the iteration's maximum load, for the subclusters
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
    if (o_.clustering && gossip_round_ == 0) max_load_ = in.maxima[0];
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
    update_least_known();
    if (o_.clustering) return start_clusters(out);
    pending_.clear();
    if ((o_.every_node || holdings_.load() > mean_) && !known_.empty()) {
      for (const auto& [id, h] : holdings_.objects())
        if (h.record.migratable) pending_.push_back({id, h.record.load});
      order(pending_);
    }
    stage_ = Stage::propose;
    offer(out);
  }

  /// The transfer stage is over on every rank: the next iteration, or the step's end; with
  /// vt's trials or rollback, first the loads' maximum (tempered.cpp's rebalance).
  void end_transfer(const RoundInput& in, RoundOutput& out) {
    ++iteration_;
    if (keeps_best() && (o_.rollback || iteration_ == o_.iterations)) {
      stage_ = Stage::tally;
      out.maxima = {holdings_.load()};
      return;
    }
    if (iteration_ < o_.iterations) return start_inform(out);
    finish(in, out);
  }

  void finish(const RoundInput& in, RoundOutput& out) {
    stage_ = Stage::finish;
    holdings_.end_step(in, out);
  }

  bool keeps_best() const { return o_.trials > 1 || o_.rollback; }

  /// Every rank keeps its holdings of the iteration of least max load, none above the start's,
  /// and returns to the phase's at each new trial; at the end, to the best (or the phase's).
  void tally(const RoundInput& in, RoundOutput& out) {
    if (in.maxima[0] < best_max_ && in.maxima[0] <= start_max_) best_ = holdings_, best_max_ = in.maxima[0];
    if (iteration_ < o_.iterations) return start_inform(out);
    if (++trial_ < o_.trials) {
      holdings_ = *start_;
      iteration_ = 0;
      return start_inform(out);
    }
    holdings_ = best_ ? *best_ : *start_;
    finish(in, out);
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

  /// Whether the gossip (or a poll) says `objects` fit on the known rank k, their blocks
  /// counted as new there.
  bool room(const Known& k, std::span<const ObjectRecord> objects) const {
    double memory = k.resident, working = k.largest_working;
    std::set<std::int64_t> blocks;
    for (const ObjectRecord& o : objects) {
      memory += o.footprint;
      memory += o.block >= 0 && blocks.insert(o.block).second ? o.block_bytes : 0.0;
      working = std::max(working, o.working);
    }
    return memory + working <= bound_;
  }

  /// tempered.cpp's select_target on loads: the known target for `amount` leaving a rank of
  /// load `own`, by the criterion through LBAF's CMF (deterministic: the best) among those that
  /// `fits`; none when every such criterion is negative.
  template <class Fits>
  std::optional<std::size_t> select_target(double own, double amount, Fits fits) {
    if (amount > 0 && amount > own - least_known_) return std::nullopt;
    constexpr double kNoRoom = -std::numeric_limits<double>::infinity();
    std::vector<double> values(known_.size());
    double low = std::numeric_limits<double>::infinity(), high = kNoRoom, sum = 0;
    std::size_t eligible = 0;
    for (std::size_t t = 0; t < known_.size(); ++t) {
      const bool room = fits(known_[t]);
      values[t] = room ? criterion(own, known_[t].load, amount) : kNoRoom;
      if (!room) continue;
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
      const double own = holdings_.load() - pledged;
      const auto t = select_target(own, o.load, [&](const Known& k) { return room(k, {&o, 1}); });
      if (!t || criterion(own, known_[*t].load, o.load) < 0) continue;
      auto [message, first] = to.try_emplace(known_[*t].rank);
      if (first) put(message->second, kProposal);
      put(message->second, own);
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
    if (in.sums[0] == 0) return end_transfer(in, out);  // no rank proposed: the stage is over
    std::vector<const ProtocolMessage*> proposals = by_sender(in.inbox);
    if (!o_.deterministic) shuffle(proposals, rng_);
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

  // ---- Clustering ------------------------------------------------------------------------
  // A slot's four rounds: 0, sources read the acknowledgements and send their requests (or
  // polls), and every rank says whether it has more to do (a reduction); 1, the stage ends
  // when none has, else targets grant or refuse and answer the polls; 2, sources decide and
  // commit their swaps (or offer a subcluster); 3, targets apply the commits, then take or
  // refuse the offers. A target's state changes only in round 3 and a source's in round 0, so
  // what a target granted in round 1 is what the commit finds in round 3.

  enum class Step { swaps, subcluster, done };  // a source's, in the stage
  enum class Wait { none, grant, swap_ack, answers, offer_ack };
  struct Swap {
    Cluster give, take;
  };

  void start_clusters(RoundOutput& out) {
    stage_ = Stage::cluster;
    second_pass_ = false;
    swapped_ = false;
    bool migratable = false;
    for (const auto& [id, h] : holdings_.objects()) migratable |= h.record.migratable != 0;
    // LBAF _get_ranks_to_traverse: ranks with migratable objects and someone to send to.
    source_ = (o_.every_node || holdings_.load() > mean_) && migratable && !known_.empty();
    step_ = source_ ? Step::swaps : Step::done;
    asking_.resize(source_ ? known_.size() : 0);
    std::iota(asking_.begin(), asking_.end(), std::size_t{0});
    if (!o_.deterministic) shuffle(asking_, rng_);
    next_ask_ = 0;
    slot_ = 0;
    phase_ = 0;
    cluster_round({}, out);
  }

  void cluster_round(const RoundInput& in, RoundOutput& out) {
    const int phase = phase_;
    phase_ = (phase_ + 1) % 4;
    switch (phase) {
      case 0:
        read_acknowledgements(in);
        return act(out);
      case 1:
        if (in.sums[0] == 0) return end_clusters(in, out);
        return grant(in, out);
      case 2: return decide(in, out);
      case 3: return apply(in, out);
    }
  }

  bool subclusters() const { return o_.max_subclusters > 0; }

  /// With peers=LBAF a source may be a target too: in slot k a rank asks only when its bit
  /// k mod B (B: the bits of the largest rank; inverted in every other run of B slots) is 1,
  /// and only a rank whose bit is 0. Two ranks differ in some bit, so within 2B slots each
  /// rank may ask each other once, and no rank asks while it is asked.
  bool may_ask(NodeId target) const {
    if (!o_.every_node) return true;  // vt: the sources (above the mean) know only ranks below it
    const auto bits = static_cast<std::uint64_t>(std::bit_width(ranks_ - 1));
    const std::uint64_t bit = slot_ % bits, flip = (slot_ / bits) & 1;
    const auto colour = [&](NodeId r) { return ((r >> bit) & 1) ^ flip; };
    return colour(self()) == 1 && colour(target) == 0;
  }

  // Round 0. A source's next action: a swap request to its next target, or once its swaps are
  // over (a target swapped, or it asked them all) its subcluster's poll.
  void act(RoundOutput& out) {
    if (step_ == Step::swaps && (swapped_ || next_ask_ == asking_.size()))
      step_ = subclusters() && !o_.separate && (o_.deterministic || !swapped_) ? Step::subcluster : Step::done;
    if (step_ == Step::swaps) {
      partner_ = known_[asking_[next_ask_]].rank;
      if (may_ask(partner_)) {
        out.outbox.push_back({partner_, std::vector<std::byte>{std::byte{kRequest}}});
        wait_ = Wait::grant;
      }
    } else if (step_ == Step::subcluster) {
      step_ = Step::done;  // one subcluster per source and stage
      if (find_subclusters()) {
        for (const Known& k : known_) out.outbox.push_back({k.rank, std::vector<std::byte>{std::byte{kQuery}}});
        wait_ = Wait::answers;
      }
    }
    ++slot_;
    out.sums = {step_ != Step::done || wait_ != Wait::none ? 1.0 : 0.0, swapped_ ? 1.0 : 0.0};
  }

  // Round 1, with no source active: with separate_subclustering, the sources' subclusters
  // (none when transfers are random and any source swapped); then the next iteration.
  void end_clusters(const RoundInput& in, RoundOutput& out) {
    if (o_.separate && subclusters() && !second_pass_ && (o_.deterministic || in.sums[1] == 0)) {
      second_pass_ = true;
      step_ = source_ ? Step::subcluster : Step::done;
      phase_ = 0;
      return;
    }
    end_transfer(in, out);
  }

  /// The rank's clusters, as tempered.cpp's clusters(): its migratable objects of each shared
  /// block, with `empty` the empty cluster too; in a random order unless deterministic.
  std::vector<Cluster> clusters(bool empty) {
    std::map<std::int64_t, Cluster> by_block;
    if (empty) by_block[-1];
    for (const auto& [id, h] : holdings_.objects())
      if (h.record.migratable && h.record.block >= 0) by_block[h.record.block].push_back(h.record);
    std::vector<Cluster> list;
    for (auto& [block, objects] : by_block) list.push_back(std::move(objects));
    if (!o_.deterministic) shuffle(list, rng_);
    return list;
  }

  // Round 1, the target's side: one request granted (unless the rank is busy with its own),
  // the others refused; every poll answered.
  void grant(const RoundInput& in, RoundOutput& out) {
    std::vector<NodeId> requests;
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      if (m->bytes[0] == std::byte{kRequest}) {
        requests.push_back(m->peer);
        continue;
      }
      std::vector<std::byte> bytes;  // a poll's answer
      put(bytes, kAnswer);
      put(bytes, holdings_.load());
      put(bytes, holdings_.memory().resident());
      put(bytes, holdings_.memory().largest_working());
      out.outbox.push_back({m->peer, std::move(bytes)});
    }
    if (requests.empty()) return;
    std::optional<NodeId> granted;
    if (wait_ == Wait::none) granted = requests[o_.deterministic ? 0 : rng_.below(requests.size())];
    for (const NodeId r : requests)
      out.outbox.push_back({r, r == granted ? grant_message() : std::vector<std::byte>{std::byte{kBusy}}});
  }

  /// What a source needs to decide swaps with this rank: its load, the memory of all but its
  /// clusters (a record per shared block they hold, one with their footprints and largest
  /// working bytes), and its clusters in the order it would try them.
  std::vector<std::byte> grant_message() {
    Cluster fixed;
    std::map<std::int64_t, double> blocks;
    ObjectRecord rest;
    for (const auto& [id, h] : holdings_.objects()) {
      const ObjectRecord& o = h.record;
      if (o.migratable && o.block >= 0) continue;
      rest.footprint += o.footprint;
      rest.working = std::max(rest.working, o.working);
      if (o.block >= 0) blocks[o.block] = o.block_bytes;
    }
    fixed.push_back(rest);
    for (const auto& [block, bytes] : blocks) fixed.push_back({.block = block, .block_bytes = bytes});
    std::vector<std::byte> bytes;
    put(bytes, kGrant);
    put(bytes, holdings_.load());
    put(bytes, own_working_);
    put_records(bytes, fixed);
    const auto list = clusters(true);
    put(bytes, static_cast<std::uint32_t>(list.size()));
    for (const Cluster& c : list) put_records(bytes, c);
    return bytes;
  }

  // Round 2, the source's side: a grant's swaps decided and committed, a refusal asked again
  // in a later slot; or the polls' answers read and a subcluster offered.
  void decide(const RoundInput& in, RoundOutput& out) {
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      ByteReader r(m->bytes);
      const auto kind = r.get<Kind>();
      if (kind == kBusy) {
        wait_ = Wait::none;
      } else if (kind == kGrant) {
        ++next_ask_;
        commit_swaps(r, out);
      } else {  // kAnswer
        Known& k = known_[index_of(m->peer)];
        k.load = r.get<double>();
        k.resident = r.get<double>();
        k.largest_working = r.get<double>();
      }
    }
    if (wait_ == Wait::answers) offer_subcluster(out);
  }

  /// tempered.cpp's swap_clusters with one target, on both ranks' true loads and memories:
  /// each of this rank's clusters (the empty one too) swapped with the first of the target's
  /// for which the criterion gains more than cluster_swap_rtol x the cluster's load and both
  /// ranks stay within the bound.
  void commit_swaps(ByteReader& r, RoundOutput& out) {
    double own = holdings_.load(), theirs_load = r.get<double>();
    RankMemory mine_memory = holdings_.memory(), their_memory(r.get<double>());
    for (const ObjectRecord& o : get_records(r)) their_memory.add(o);
    std::vector<Cluster> theirs(r.get<std::uint32_t>());
    for (Cluster& c : theirs) {
      c = get_records(r);
      for (const ObjectRecord& o : c) their_memory.add(o);
    }
    const auto shift = [](const Cluster& c, RankMemory& from, RankMemory& to) {
      for (const ObjectRecord& o : c) from.remove(o), to.add(o);
    };
    swaps_.clear();
    for (const Cluster& give : clusters(true)) {
      for (auto take = theirs.begin(); take != theirs.end(); ++take) {
        const double out_load = load_of(give), in_load = load_of(*take);
        const double gain =
            std::max(own, theirs_load) - std::max(own - out_load + in_load, theirs_load + out_load - in_load);
        if (!(gain > 0 && gain > o_.swap_rtol * out_load)) continue;
        shift(give, mine_memory, their_memory);
        shift(*take, their_memory, mine_memory);
        if ((!take->empty() && total(mine_memory) > bound_) || (!give.empty() && total(their_memory) > bound_)) {
          shift(give, their_memory, mine_memory);
          shift(*take, mine_memory, their_memory);
          continue;
        }
        own += in_load - out_load;
        theirs_load += out_load - in_load;
        swaps_.push_back({give, std::move(*take)});
        theirs.erase(take);
        break;
      }
    }
    known_[index_of(partner_)].load = theirs_load;
    update_least_known();
    if (swaps_.empty()) {
      wait_ = Wait::none;
      return;
    }
    std::vector<std::byte> bytes;
    put(bytes, kCommit);
    put(bytes, static_cast<std::uint32_t>(swaps_.size()));
    for (const Swap& s : swaps_) {
      put_records(bytes, s.give);
      put(bytes, static_cast<std::uint32_t>(s.take.size()));
      for (const ObjectRecord& o : s.take) put(bytes, o.id);
    }
    out.outbox.push_back({partner_, std::move(bytes)});
    wait_ = Wait::swap_ack;
  }

  /// tempered.cpp's transfer_subcluster, its subclusters: those of this rank's clusters (at
  /// most max_objects_per_transfer objects) that leave it at or above (1 - cluster_swap_rtol) x
  /// the mean, from the one that leaves it lowest. Whether there is one.
  bool find_subclusters() {
    subcluster_source_load_ = holdings_.load();
    const double own = subcluster_source_load_;
    subclusters_.clear();
    subcluster_objects_.clear();
    if (o_.deterministic && own < o_.sub_threshold * max_load_) return false;
    const auto keep = [&](std::span<const ObjectRecord> objects) {
      const double reach = own - load_of(objects);
      if (reach < (1 - o_.swap_rtol) * mean_) return;
      subclusters_.push_back({reach, subcluster_objects_.size(), objects.size()});
      subcluster_objects_.insert(subcluster_objects_.end(), objects.begin(), objects.end());
    };
    for (Cluster& cluster : clusters(false))
      for_each_subcluster(cluster, {o_.deterministic, o_.max_objects, o_.max_subclusters, o_.max_enumerated}, rng_,
                          [](const ObjectRecord& o) { return o.id; }, keep);
    std::stable_sort(subclusters_.begin(), subclusters_.end(),
                     [](const Subcluster& a, const Subcluster& b) { return a.reach < b.reach; });
    return !subclusters_.empty();
  }

  /// tempered.cpp's transfer_subcluster, its target, on the polled loads: the first subcluster
  /// for which a known target with room gains by the criterion is offered there (deterministic:
  /// the target whose load lands closest to the mean where the criterion exceeds
  /// subclustering_minimum_improvement x the source's load; random: LBAF's CMF).
  void offer_subcluster(RoundOutput& out) {
    wait_ = Wait::none;
    update_least_known();
    const double own = subcluster_source_load_;
    for (const Subcluster& sub : subclusters_) {
      const std::span<const ObjectRecord> objects(subcluster_objects_.data() + sub.begin, sub.size);
      const double amount = own - sub.reach;
      const auto fits = [&](const Known& k) { return room(k, objects); };
      std::optional<std::size_t> t;
      if (o_.deterministic) {
        double closest = std::numeric_limits<double>::infinity(), best = 0;
        for (std::size_t k = 0; k < known_.size(); ++k) {
          const double c = criterion(own, known_[k].load, amount);
          if (c <= o_.sub_improvement * own || !fits(known_[k])) continue;
          const double distance = std::abs(known_[k].load + amount - mean_);
          if (distance < closest || (distance == closest && c > best)) closest = distance, best = c, t = k;
        }
      } else {
        t = select_target(own, amount, fits);
      }
      if (!t || criterion(own, known_[*t].load, amount) <= 0) continue;
      partner_ = known_[*t].rank;
      offered_.assign(objects.begin(), objects.end());
      std::vector<std::byte> bytes;
      put(bytes, kOffer);
      put(bytes, own);
      put(bytes, amount);
      put_records(bytes, offered_);
      out.outbox.push_back({partner_, std::move(bytes)});
      wait_ = Wait::offer_ack;
      return;
    }
  }

  // Round 3, the target's side: the commit of the swap it granted, each swap applied when this
  // rank stays within the bound (the source checked its own side), until one does not; then
  // the offers, in an order of its own stream, each taken when the criterion holds on both
  // current loads and it fits, unless the rank is busy with its own swap or offer.
  void apply(const RoundInput& in, RoundOutput& out) {
    std::vector<const ProtocolMessage*> offers;
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      if (m->bytes[0] == std::byte{kOffer}) {
        offers.push_back(m);
        continue;
      }
      ByteReader r(m->bytes);  // the commit
      r.get<Kind>();
      const auto count = r.get<std::uint32_t>();
      std::uint32_t applied = 0;
      for (std::uint32_t s = 0; s < count; ++s) {
        const Cluster give = get_records(r);
        std::vector<std::uint64_t> take(r.get<std::uint32_t>());
        for (std::uint64_t& id : take) id = r.get<std::uint64_t>();
        if (applied < s) continue;  // one did not fit: the rest are read past
        RankMemory memory = holdings_.memory();
        for (const std::uint64_t id : take) memory.remove(holdings_.objects().at(id).record);
        for (const ObjectRecord& o : give) memory.add(o);
        if (!give.empty() && total(memory) > bound_) continue;
        for (const std::uint64_t id : take) holdings_.leave(id, m->peer);
        for (const ObjectRecord& o : give) holdings_.arrive(o, m->peer);
        ++applied;
      }
      std::vector<std::byte> bytes;
      put(bytes, kSwapAck);
      put(bytes, holdings_.load());
      put(bytes, applied);
      out.outbox.push_back({m->peer, std::move(bytes)});
    }
    if (!o_.deterministic) shuffle(offers, rng_);
    for (const ProtocolMessage* m : offers) {
      ByteReader r(m->bytes);
      r.get<Kind>();
      const auto from_load = r.get<double>(), amount = r.get<double>();
      const Cluster objects = get_records(r);
      RankMemory memory = holdings_.memory();
      for (const ObjectRecord& o : objects) memory.add(o);
      const bool taken =
          wait_ == Wait::none && criterion(from_load, holdings_.load(), amount) > 0 && total(memory) <= bound_;
      if (taken)
        for (const ObjectRecord& o : objects) holdings_.arrive(o, m->peer);
      std::vector<std::byte> bytes;
      put(bytes, kOfferAck);
      put(bytes, holdings_.load());
      put(bytes, static_cast<std::uint8_t>(taken));
      out.outbox.push_back({m->peer, std::move(bytes)});
    }
  }

  // Round 0, the source's side: what the target applied of its swaps, or whether it took the
  // subcluster, done here too.
  void read_acknowledgements(const RoundInput& in) {
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      ByteReader r(m->bytes);
      const auto kind = r.get<Kind>();
      known_[index_of(m->peer)].load = r.get<double>();
      if (kind == kSwapAck) {
        const auto applied = r.get<std::uint32_t>();
        for (std::uint32_t s = 0; s < applied; ++s) {
          for (const ObjectRecord& o : swaps_[s].give) holdings_.leave(o.id, m->peer);
          for (const ObjectRecord& o : swaps_[s].take) holdings_.arrive(o, m->peer);
        }
        swapped_ = swapped_ || applied > 0;
      } else if (r.get<std::uint8_t>()) {  // kOfferAck, taken
        for (const ObjectRecord& o : offered_) holdings_.leave(o.id, m->peer);
      }
      wait_ = Wait::none;
    }
    update_least_known();
  }

  TemperedProtocolOptions o_;
  std::size_t ranks_;
  double bound_;
  double own_working_;  // the rank's own working bytes (LocalPhase::working_bytes)
  Rng rng_;
  Holdings holdings_;
  std::optional<Holdings> start_, best_;  // with trials or rollback
  double start_max_ = 0, best_max_ = std::numeric_limits<double>::infinity();
  Stage stage_ = Stage::mean;
  double mean_ = 0;
  long long iteration_ = 0, gossip_round_ = 0, trial_ = 0;
  bool informing_ = false;
  std::vector<Known> known_;  // by rank
  double least_known_ = 0;
  std::vector<Offer> pending_;  // the source's objects still to offer, from the end
  // Clustering
  struct Subcluster {
    double reach;             // the source's load without it
    std::size_t begin, size;  // its objects in subcluster_objects_
  };
  double max_load_ = 0;  // over the ranks at the iteration's start
  bool source_ = false, swapped_ = false, second_pass_ = false;
  Step step_ = Step::done;
  Wait wait_ = Wait::none;
  int phase_ = 0;                    // the round of the slot
  std::uint64_t slot_ = 0;           // slots since the stage's start
  std::vector<std::size_t> asking_;  // known_'s indices in the order the source asks them
  std::size_t next_ask_ = 0;
  NodeId partner_ = 0;  // the target of the source's request, commit or offer
  std::vector<Swap> swaps_;  // committed
  double subcluster_source_load_ = 0;
  std::vector<Subcluster> subclusters_;
  Cluster subcluster_objects_, offered_;
};

}  // namespace

std::unique_ptr<RankProtocol> tempered_rank_protocol(const TemperedProtocolOptions& options, const RankSetup& setup) {
  return std::make_unique<TemperedProtocol>(options, setup);
}

}  // namespace dlbkit::detail
