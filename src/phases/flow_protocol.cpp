// The flow strategies as protocols between ranks (rank_protocol.hpp): the rounds of the phase
// strategies (flows.hpp: diffusion, sos and chebyshev on the loads in flow form, or dimension
// exchange over an edge colouring; then the flow realised as objects) with every message sent
// for real, each rank knowing only its own objects.
//
// Round 0: each rank sends its z (first-order diffusion: its load; dimension exchange: its
// load, to its partner across colour 0 only) and contributes its load to the reductions: the
// next round knows the mean and the maximum, so the stop rule max/mean - 1 <= tolerance, and
// round 1 contributes (l - mean)^2 so that round 2 knows FlowStop::factor and the round count
// (FlowScheme::rounds), the same bits as the phase strategy's. Each later round: unless
// the loads of the round before meet the rule or the rounds are spent, the rank takes the
// round's exchange from what its partners sent (flows.hpp: l_v -= sum_u alpha (z_v - z_u), or
// lambda (l_v - l_p) with the partner), and sends its next z. A rank sums its own and its
// neighbours' z over the rounds (Z), so the flow to neighbour u is alpha (Z_v - Z_u), known at
// both ends alike; dimension exchange sums what it sent across each edge. On ranks of unequal
// speed (RankSetup::speeds, known alike) the heterogeneous schemes of flows.hpp: a rank sends
// z / c, contributes l / c to the maxima and (l - c mean)^2 / c to the factor's sum.
//
// hbm computes its flow its own way (hbm.cpp, WLR93 Sec. III-D): d rounds up, in which the
// controller of each right half sends its domain's load to the controller of the domain
// above, which decides the level's order (eq. 22-24) from the two halves' loads; then d rounds
// down a binomial tree from node 0, each controller passing the orders of the levels above to
// the controller of its right half, so that every node knows the orders of its d domains and
// so its flows (the phase strategy sends the orders to the heavier halves only: here the
// lighter partner learns its inflow too, which transit=forward reads).
//
// Then the hops (realise() in flows.cpp): a rank fills its positive outgoing flows, largest
// first, with the objects it holds (selection, transit and hops as there) and ships them in
// one message per neighbour; a rank that received objects passes them on in the next hop. The
// hops end after one in which no rank shipped (a reduction). Under a memory bound the
// receiver takes what fits and sends the rest back in the next round; those stay where they
// were (realise() offers a refused object to the node's next edges at once). A rank counts
// what it shipped in its memory until it can no longer come back, so that it never takes
// more than the bound allows.

#include "rank_holdings.hpp"
#include "rank_protocols.hpp"

#include <dlbkit/phases/flows.hpp>
#include <dlbkit/topology/edge_coloring.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

namespace dlbkit::detail {

namespace {

enum Kind : std::uint8_t { kZ = 1, kObjects = 2, kRefused = 3, kDomain = 4, kOrders = 5 };

class FlowProtocol final : public RankProtocol {
public:
  FlowProtocol(const Parameters& p, const RankSetup& s, FlowScheme scheme)
      : scheme_(std::move(scheme)),
        ranks_(s.topology.size()),
        neighbours_(s.topology.neighbors(s.rank).begin(), s.topology.neighbors(s.rank).end()),
        stop_(scheme_.form == Form::hierarchy ? FlowStop{} : FlowStop::from(p)),
        close_gap_(p[kFlowSelection] == kFlowSelection.choice("greedy")),
        forward_(p[kFlowTransit] == kFlowTransit.choice("forward")),
        bound_(s.memory_bound),
        holdings_(s.mine, s.rank),
        reserved_(holdings_.memory()) {
    {  // of every rank's capacities only what this rank reads, not a copy per rank
      const FlowCapacities c = flow_capacities(s.speeds, ranks_);
      capacity_total_ = c.total;
      spread_ = c.spread;
      capacity_ = c[s.rank];
      for (const NodeId u : neighbours_) neighbour_capacity_.push_back(c[u]);
      hops_ = flow_hops(p, s.topology, !c.empty());
    }
    neighbour_z_.assign(neighbours_.size(), 0.0);
    neighbour_sum_.assign(neighbours_.size(), 0.0);
    if (scheme_.form == Form::exchange) {  // the neighbour slot of each colour
      const auto& colouring = s.topology.shared<EdgeColoring>("edge_coloring", edge_coloring);
      partner_slot_.assign(colouring.colors(), kNoPartner);
      for (std::size_t k = 0; k < neighbours_.size(); ++k) partner_slot_[colouring.color(s.rank, k)] = k;
    }
  }

  void round(const RoundInput& in, RoundOutput& out) override {
    if (ranks_ < 2) stage_ = Stage::finish;
    switch (stage_) {
      case Stage::loads: return scheme_.form == Form::hierarchy ? hierarchy(in, out) : loads(in, out);
      case Stage::hops: return hop(in, out);
      case Stage::finish: return holdings_.end_step(in, out);
    }
  }

  std::vector<ObjectMove> departures() const override { return holdings_.departures(); }
  std::vector<ObjectMove> arrivals() const override { return holdings_.arrivals(); }
  double load() const override { return holdings_.load(); }

private:
  enum class Stage { loads, hops, finish };

  // This round's z to the round's partners (and the load to the reductions).
  void send_z(RoundOutput& out) {
    if (scheme_.form == Form::exchange) {
      exchange_slot_ = partner_slot_.empty() ? kNoPartner : partner_slot_[rounds_ % partner_slot_.size()];
      z_ = load_;
    } else {
      const double beta = scheme_.betas[std::min<std::size_t>(rounds_, scheme_.betas.size() - 1)];
      z_ = rounds_ == 0 ? load_ : (beta - 1.0) * z_ + beta * load_;
    }
    const double sent = scheme_.form == Form::exchange ? z_ : z_ / capacity_;
    for (std::size_t k = 0; k < neighbours_.size(); ++k) {
      if (scheme_.form == Form::exchange && k != exchange_slot_) continue;
      std::vector<std::byte> bytes;
      put(bytes, kZ);
      put(bytes, sent);
      out.outbox.push_back({neighbours_[k], std::move(bytes)});
    }
    out.sums = {load_, deviation_};
    out.maxima = {load_ / capacity_};
  }

  std::size_t slot_of(NodeId u) const {
    return static_cast<std::size_t>(std::find(neighbours_.begin(), neighbours_.end(), u) - neighbours_.begin());
  }

  void loads(const RoundInput& in, RoundOutput& out) {
    if (in.round == 0) {
      load_ = holdings_.load();
      return send_z(out);
    }
    for (const ProtocolMessage& m : in.inbox) {
      ByteReader r(m.bytes);
      r.get<std::uint8_t>();
      neighbour_z_[slot_of(m.peer)] = r.get<double>();
    }
    // With capacities (flows.hpp, FlowCapacities) the mean is sum l / sum c, as each rank knows
    // every speed; on equal ranks c = 1 makes each step below exact, the same bits.
    const double mean = in.sums[0] / capacity_total_;
    if (in.round == 1) {  // the first loads' mean: their deviations from it go with the next z
      start_mean_ = mean;
      const double e = load_ - capacity_ * mean;
      deviation_ = e * e / capacity_;
    } else {
      deviation_ = 0;
    }
    if (in.round == 2) {  // FlowStop::factor of the first loads
      const double spread = std::sqrt(spread_) * std::sqrt(in.sums[1]) / (stop_.tolerance * start_mean_);
      limit_ = scheme_.rounds(start_mean_ > 0 ? std::max(spread, 1.0) : 1.0);
    }
    const bool balanced = !(mean > 0) || in.maxima[0] / mean - 1 <= stop_.tolerance;
    const bool no_partner = scheme_.form == Form::exchange && partner_slot_.empty();
    if (balanced || rounds_ == limit_ || no_partner) return start_hops(in.round, out);
    if (scheme_.form == Form::exchange) {
      if (exchange_slot_ != kNoPartner) {
        const double partner = neighbour_capacity_[exchange_slot_];
        const double y = exchange_weight(scheme_.alpha, capacity_, partner) *
                         (load_ / capacity_ - neighbour_z_[exchange_slot_] / partner);
        neighbour_sum_[exchange_slot_] += y;  // what crossed the edge
        load_ -= y;
      }
    } else {
      double sent = 0;
      const double scaled = z_ / capacity_;
      z_sum_ += scaled;
      for (std::size_t k = 0; k < neighbours_.size(); ++k) {
        neighbour_sum_[k] += neighbour_z_[k];
        sent += scheme_.alpha * (scaled - neighbour_z_[k]);
      }
      load_ -= sent;
    }
    ++rounds_;
    send_z(out);
  }

  // hbm's rounds (round r): up while r < d, then down; at round 2d every node knows its flows.
  void hierarchy(const RoundInput& in, RoundOutput& out) {
    const NodeId self = holdings_.self();
    const auto d = static_cast<std::uint64_t>(std::countr_zero(ranks_));
    const std::uint64_t r = in.round;
    const auto low_zero = [&](std::uint64_t bits) { return (self & ((NodeId{1} << bits) - 1)) == 0; };
    if (r == 0) {
      domain_ = holdings_.load();
      orders_.assign(d + 1, 0.0);
    }
    for (const ProtocolMessage& m : in.inbox) {
      ByteReader bytes(m.bytes);
      if (bytes.get<std::uint8_t>() == kDomain) {  // level r: this rank controls the domain of its two halves
        const double left = domain_, right = bytes.get<double>();
        const double imbalance = left - right;                                                // L_L - L_R
        if (std::abs(imbalance) > scheme_.threshold_base * std::ldexp(1.0, static_cast<int>(r)))  // eq. (22)
          orders_[r] = imbalance;
        domain_ = left + right;
      } else {  // the orders of the levels from this rank's down step up
        for (std::uint64_t level = 2 * d - r + 1; level <= d; ++level) orders_[level] = bytes.get<double>();
      }
    }
    if (r < d && low_zero(r) && (self >> r) & 1) {  // the controller of a right half: up
      std::vector<std::byte> bytes;
      put(bytes, kDomain);
      put(bytes, domain_);
      out.outbox.push_back({self ^ (NodeId{1} << r), std::move(bytes)});
    }
    if (r >= d && r < 2 * d) {  // down step k = 2d - r: to the controller of the right half
      const std::uint64_t k = 2 * d - r;
      if (low_zero(k)) {
        std::vector<std::byte> bytes;
        put(bytes, kOrders);
        for (std::uint64_t level = k; level <= d; ++level) put(bytes, orders_[level]);
        out.outbox.push_back({self + (NodeId{1} << (k - 1)), std::move(bytes)});
      }
    }
    if (r < 2 * d) return;
    for (std::uint64_t i = 1; i <= d; ++i) {  // eq. (23) and (24)
      if (orders_[i] == 0) continue;
      const NodeId half = NodeId{1} << (i - 1);
      const bool right = self & half, right_heavier = orders_[i] < 0;
      const double delta = std::abs(orders_[i]) / std::ldexp(1.0, static_cast<int>(i));
      neighbour_sum_[slot_of(self ^ half)] += right == right_heavier ? delta : -delta;
    }
    start_hops(r, out);
  }

  void start_hops(std::uint64_t round, RoundOutput& out) {
    stage_ = Stage::hops;
    owed_.resize(neighbours_.size());
    double in = 0, outflow = 0;
    for (std::size_t k = 0; k < neighbours_.size(); ++k) {
      const double f =
          scheme_.form == Form::polynomial ? scheme_.alpha * (z_sum_ - neighbour_sum_[k]) : neighbour_sum_[k];
      owed_[k] = std::max(f, 0.0);
      outflow += owed_[k];
      in += std::max(-f, 0.0);
    }
    // transit=forward: the rank's own objects cover only its net excess in the first hop.
    budget_ = forward_ ? std::max(0.0, outflow - in) : std::numeric_limits<double>::infinity();
    for (const auto& [id, h] : holdings_.objects())
      if (h.record.migratable) held_.emplace_back(h.record.load, id);
    std::sort(held_.begin(), held_.end());
    ship(round, out);
  }

  void hop(const RoundInput& in, RoundOutput& out) {
    bool received = false;
    for (const ProtocolMessage* m : by_sender(in.inbox)) {
      ByteReader r(m->bytes);
      const auto kind = r.get<std::uint8_t>();
      std::vector<std::byte> refused;
      while (!r.empty()) {
        const auto o = r.get<ObjectRecord>();
        if (kind == kRefused) {  // back where it was; its flow is owed again
          holdings_.arrive(o, m->peer);
          owed_[slot_of(m->peer)] += o.load;
          std::erase_if(shipped_[in.round % 2], [&](const ObjectRecord& s) { return s.id == o.id; });
        } else if (reserved_.with(o) <= bound_) {
          holdings_.arrive(o, m->peer);
          reserved_.add(o);
          held_.insert(std::upper_bound(held_.begin(), held_.end(), Candidate{o.load, o.id}), Candidate{o.load, o.id});
          received = true;
        } else {
          if (refused.empty()) put(refused, kRefused);
          put(refused, o);
        }
      }
      if (!refused.empty()) out.outbox.push_back({m->peer, std::move(refused)});
    }
    // What this rank shipped two rounds ago and was not sent back has left for good.
    for (const ObjectRecord& o : shipped_[in.round % 2]) reserved_.remove(o);
    shipped_[in.round % 2].clear();
    if (in.sums[0] == 0) {  // no rank shipped in the hop before
      stage_ = Stage::finish;
      return holdings_.end_step(in, out);
    }
    ++hop_;
    if (received) ship(in.round, out);
    else out.sums = {0.0};
  }

  // One hop: the outgoing flows still owed, largest first, filled from the objects held as
  // realise() fills them.
  void ship(std::uint64_t round, RoundOutput& out) {
    double shipped = 0;
    if (hop_ < hops_) {
      std::vector<std::size_t> slots;
      for (std::size_t k = 0; k < owed_.size(); ++k)
        if (owed_[k] > 0) slots.push_back(k);
      std::stable_sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) { return owed_[a] > owed_[b]; });
      for (const std::size_t k : slots) {
        std::vector<std::byte> bytes;
        put(bytes, kObjects);
        const auto send = [&](std::vector<Candidate>::iterator it) {
          const double load = it->first;
          const ObjectRecord o = holdings_.leave(it->second, neighbours_[k]);
          put(bytes, o);
          if (std::isfinite(bound_)) shipped_[round % 2].push_back(o);
          held_.erase(it);
          owed_[k] -= load;
          if (hop_ == 0) budget_ -= load;
          ++shipped;
        };
        while (owed_[k] > 0 && budget_ > 0 && !held_.empty()) {
          const double want = std::min(owed_[k], budget_);
          auto it = std::upper_bound(held_.begin(), held_.end(), Candidate{want, ~std::uint64_t{0}});
          if (it != held_.begin()) {
            send(std::prev(it));  // the largest not above what is left
            continue;
          }
          // Every object is above what is left: the smallest closes the gap if it lands nearer.
          if (close_gap_ && held_.front().first - want < want) send(held_.begin());
          break;
        }
        if (bytes.size() > 1) out.outbox.push_back({neighbours_[k], std::move(bytes)});
      }
      if (forward_ && hop_ == 0) {  // from now on only what arrives is passed on
        held_.clear();
        budget_ = std::numeric_limits<double>::infinity();
      }
    }
    out.sums = {shipped};
  }

  using Form = FlowScheme::Form;
  using Candidate = std::pair<double, std::uint64_t>;  // (load, id), ascending
  static constexpr std::size_t kNoPartner = ~std::size_t{0};
  FlowScheme scheme_;
  std::size_t ranks_;
  std::vector<NodeId> neighbours_;
  FlowStop stop_;
  bool close_gap_, forward_;
  long long hops_ = 0;
  double bound_;
  Holdings holdings_;
  RankMemory reserved_;  // holdings_'s, and what left in the last two rounds
  // flows.hpp's FlowCapacities, as this rank reads them (hbm balances loads): its own, its
  // neighbours', their sum and the largest.
  double capacity_ = 1, capacity_total_ = 0, spread_ = 1;
  std::vector<double> neighbour_capacity_;
  std::vector<ObjectRecord> shipped_[2];  // by round parity, while it may come back
  Stage stage_ = Stage::loads;
  // The rounds on the loads: this rank's load and z, its neighbours' z / c of the round; the
  // sums Z of its and their z / c over the rounds (dimension exchange: what it sent across
  // each edge).
  double load_ = 0, z_ = 0, z_sum_ = 0;
  double start_mean_ = 0, deviation_ = 0;  // for FlowStop::factor
  std::vector<double> neighbour_z_, neighbour_sum_;
  std::vector<std::size_t> partner_slot_;  // dimension exchange: by colour
  std::size_t exchange_slot_ = kNoPartner;
  double domain_ = 0;            // hbm: the load of the largest domain this rank controls so far
  std::vector<double> orders_;   // hbm: by level, L_L - L_R where above the threshold, else 0
  std::uint64_t rounds_ = 0, limit_ = ~std::uint64_t{0};  // limit_: known from round 2 (at least 1)
  // The hops: the flow still owed to each neighbour, the objects that may be shipped.
  std::vector<double> owed_;
  double budget_ = 0;
  std::vector<Candidate> held_;
  long long hop_ = 0;
};

}  // namespace

std::unique_ptr<RankProtocol> flow_rank_protocol(const Parameters& p, const RankSetup& setup, FlowScheme scheme) {
  return std::make_unique<FlowProtocol>(p, setup, std::move(scheme));
}

}  // namespace dlbkit::detail
