#include <dlbkit/strategies/direct_neighbor.hpp>
#include <dlbkit/strategies/load_update.hpp>

#include <cassert>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace dlbkit {

double distorted_load(double w, double local, std::span<const double> others) {
  if (others.empty()) return local;
  double sum = 0;
  for (double dl : others) sum += dl;
  return w * local + (1.0 - w) / static_cast<double>(others.size()) * sum;  // Sec. 3.1, M - 1 = others.size()
}

std::int64_t equalising_amount(double local, double neighbour) {
  if (!(local > neighbour)) return 0;
  return static_cast<std::int64_t>(std::floor((local - neighbour) / 2.0));
}

namespace {

struct LoadInfo {
  double load;          // the sender's (possibly distorted) load as meant for the receiver
  std::int64_t landed;  // 1: a transfer from the receiver to the sender has landed (the couple ends)
};
struct DnLoadRequest {
  std::int64_t amount;
};
struct RequestReply {
  std::int64_t granted;
};
struct CoupleRequest {
  std::int64_t amount;  // what the sender means to migrate (0 with amount_at=couple: not decided yet)
};
struct CoupleReply {
  std::int64_t accepted;  // 1: waiting to receive load; 0: already in a couple with the sender
  double load;            // the replier's load as meant for the sender (announced load included
                          // with count_announced)
};
struct DnTransfer {
  std::int64_t moved;  // what the sender migrated after the reply (0: nothing could go)
};

constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();

// Sec. 2: "After a sender-receiver couple is established, the sender decides the entities to
// migrate". A couple is per pair of neighbours: each node keeps, for each neighbour, where the
// couple with it stands.
enum class Couple : std::uint8_t { none, requested, sending, receiving };

class DirectNeighbor final : public Strategy {
public:
  static constexpr const char* name = "direct_neighbor";
  static constexpr const char* description =
      "Direct-neighbour policy: equalise with the least loaded neighbour when new load information "
      "arrives, optionally with distorted load information and extended distribution";
  static constexpr const char* source =
      "Zambonelli, Sec. 2, 3.1 (distorted load information), 3.2 (extended load distribution)";
  static constexpr RealParam kW{.name = "w", .default_value = "1",
      .description = "weight of the effective load in the load sent to a neighbour (Sec. 3.1); 1 = "
                     "undistorted, the paper's best 0.5-0.6 for slowly changing load",
      .min = 0, .max = 1, .search = {"0.5"}};
  static constexpr RealParam kThreshold{.name = "threshold", .default_value = "0.2",
      .description = "act when the local load exceeds the least loaded neighbour's by more than this "
                     "fraction (Sec. 4: 20%)",
      .min = 0, .search = {"0.1", "0.5"}};
  static constexpr ChoiceParam kInitiation{.name = "initiation", .default_value = "sender",
      .description = "sender: overloaded nodes push (the paper's implementation); receiver: underloaded "
                     "nodes ask their most loaded neighbour",
      .choices = {"sender", "receiver"}};
  static constexpr BooleanParam kExtended{.name = "extended", .default_value = "false",
      .description = "extended load distribution (Sec. 3.2): forward arriving load to a less loaded "
                     "neighbour, down to a local minimum"};
  static constexpr ChoiceParam kProtocol{.name = "protocol", .default_value = "couple",
      .description = "couple: the sender asks, the receiver accepts, and neither starts another migration "
                     "with the other until it lands (Sec. 2, 3.2); none: migrate at once (sender-initiated only)",
      .choices = {"couple", "none"}};
  static constexpr BooleanParam kCountAnnounced{.name = "count_announced", .default_value = "false",
      .description = "a receiver in a couple counts the load announced to it and still in transit in what it "
                     "reports and decides (not in the paper, which says only \"waiting to receive load\", "
                     "Sec. 3.2)"};
  static constexpr ChoiceParam kThresholdOf{.name = "threshold_of", .default_value = "lower",
      .description = "what the threshold is a fraction of (Sec. 2: \"exceeds the load of its less loaded "
                     "neighbor by more than a threshold (i.e., a percentage)\"): lower: of the lower load of "
                     "the pair; higher: of the higher one (the node's own, sender-initiated); absolute: "
                     "threshold is a number of processes",
      .choices = {"lower", "higher", "absolute"}};
  static constexpr ChoiceParam kAmountAt{.name = "amount_at", .default_value = "request",
      .description = "when the sender decides how many processes migrate (couple protocol): request: when it "
                     "asks; couple: once the couple is established, from the load in the receiver's reply "
                     "(Sec. 2: \"After a sender-receiver couple is established, the sender decides the "
                     "entities to migrate\")",
      .choices = {"request", "couple"}};
  static constexpr RealParam kMinChange{.name = "min_change", .default_value = "0.5",
      .description = "send a neighbour new load information when it differs by at least this many "
                     "processes from what it last got (w = 1: every change)",
      .min = 1e-9};
  static constexpr ChoiceParam kReport{.name = "report", .default_value = "min_change",
      .description = "when load information is sent (not in the paper): min_change: when the value for a "
                     "neighbour moved by min_change; own_change: also on every change of the node's own load, "
                     "whatever w",
      .choices = {"min_change", "own_change"}};
  static std::vector<ParamSpec> params() {
    // threshold first: advise varies the first searched parameter slowest.
    return {kThreshold, kW, kInitiation, kExtended, kProtocol, kMinChange, kReport, kCountAnnounced, kThresholdOf,
            kAmountAt};
  }
  enum Kind : std::uint16_t { kLoadInfo, kLoadRequest, kRequestReply, kCoupleRequest, kCoupleReply, kTransfer, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{
      "load_info", "load_request", "request_reply", "couple_request", "couple_reply", "transfer"};

  explicit DirectNeighbor(const Parameters& p)
      : w_(p[kW]),
        threshold_(p[kThreshold]),
        receiver_initiated_(p[kInitiation] == kInitiation.choice("receiver")),
        extended_(p[kExtended]),
        couple_protocol_(p[kProtocol] == kProtocol.choice("couple")),
        min_change_(p[kMinChange]),
        report_own_changes_(p[kReport] == kReport.choice("own_change")),
        count_announced_(p[kCountAnnounced]),
        threshold_of_(p[kThresholdOf] == kThresholdOf.choice("higher")     ? ThresholdOf::higher
                      : p[kThresholdOf] == kThresholdOf.choice("absolute") ? ThresholdOf::absolute
                                                                           : ThresholdOf::lower),
        amount_at_couple_(p[kAmountAt] == kAmountAt.choice("couple")) {}

  void on_start(NodeContext& ctx) override {
    const std::size_t m = ctx.neighbors().size();
    known_.assign(m, kUnknown);
    sent_.assign(m, kUnknown);
    couple_.assign(m, Couple::none);
    requested_.assign(m, 0);
    announced_.assign(m, 0);
    arrived_.assign(m, 0);
    expected_.assign(m, -1);
    reply_due_.assign(m, false);
    decide_on_reply_.assign(m, false);
    others_.reserve(m);
    inform(ctx, true);
  }

  // Sec. 2: "the triggering event ... is the asynchronous arrival of updated load
  // information, either from one of the neighbor nodes or caused by a change in the local state".
  void on_load_change(NodeContext& ctx) override {
    inform(ctx, true);
    balance(ctx);
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    const auto k = static_cast<std::size_t>(neighbor_index(ctx, from));
    assert(neighbor_index(ctx, from) >= 0);
    switch (m.kind) {
      case kLoadInfo: {
        const auto info = m.as<LoadInfo>();
        known_[k] = info.load;  // Sec. 3.1: taken as the sender's load
        if (info.landed != 0 && couple_[k] == Couple::sending) couple_[k] = Couple::none;
        inform(ctx, false);  // what we tell the other neighbours depends on it when distorted
        balance(ctx);
        break;
      }
      case kLoadRequest: {
        // Receiver-initiated: the sender still decides the entities, never more than half its load.
        const std::int64_t asked = m.as<DnLoadRequest>().amount;
        const std::int64_t granted = ctx.migrate(from, std::max<std::int64_t>(0, std::min(asked, ctx.load() / 2)));
        ctx.send(from, Message::make(kRequestReply, RequestReply{granted}));
        break;
      }
      case kRequestReply: {
        request_pending_ = false;
        known_[k] -= static_cast<double>(m.as<RequestReply>().granted);
        break;
      }
      case kCoupleRequest: on_couple_request(ctx, k, m.as<CoupleRequest>().amount); break;
      case kCoupleReply: on_couple_reply(ctx, k, m.as<CoupleReply>()); break;
      case kTransfer: {
        assert(couple_[k] == Couple::receiving);
        expected_[k] = m.as<DnTransfer>().moved;
        end_if_landed(ctx, k);
        break;
      }
      default:
        assert(false && "unknown direct_neighbor message kind");
    }
  }

  // Sec. 3.2: a node receiving load that knows a less loaded neighbour forwards it on; each
  // node repeats this, so the load stops at a node whose load is minimal in its neighbourhood.
  // No threshold applies here (Sec. 4.3: "with no consideration of the threshold").
  void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t count) override {
    const int f = neighbor_index(ctx, from);
    if (couple_protocol_ && f >= 0 && couple_[static_cast<std::size_t>(f)] == Couple::receiving) {
      arrived_[static_cast<std::size_t>(f)] += count;
      end_if_landed(ctx, static_cast<std::size_t>(f));
    }
    if (!extended_) return;
    // With count_announced the load counts what is coming, so what this node has offered on
    // and not yet sent goes off it too, as in balance(): else each of several arrivals at one
    // instant was forwarded against the same total, and three processes circled the centre
    // of mesh:3x3 in zero time (-c ideal).
    const std::int64_t offered = count_announced_ ? offered_to_others() : 0;
    const double before = effective_load(ctx) - static_cast<double>(count + offered);
    const int k = least_loaded(ctx, from);
    if (k < 0 || !(known_[static_cast<std::size_t>(k)] < before)) return;
    start_migration(ctx, static_cast<std::size_t>(k), count);
  }

private:
  // Sends each neighbour j the load meant for it when it has changed by min_change since the
  // last value j got (w = 1: every change of the load). With report=own_change, any change
  // goes out when this node's own load changed (`own`), whatever w; min_change then applies
  // only to changes that come from the neighbours' information. (The paper does not say.)
  void inform(NodeContext& ctx, bool own) {
    for (std::size_t j = 0; j < ctx.neighbors().size(); ++j) {
      const double dl = load_for(ctx, j);
      const bool due = own && report_own_changes_ ? dl != sent_[j] : std::abs(dl - sent_[j]) >= min_change_;
      if (!std::isnan(sent_[j]) && !due) continue;
      ctx.send(ctx.neighbors()[j], Message::make(kLoadInfo, LoadInfo{dl, 0}));
      sent_[j] = dl;
    }
  }

  // Sec. 3.1: the load meant for neighbour j, distorted when w < 1.
  double load_for(const NodeContext& ctx, std::size_t j) {
    const double local = effective_load(ctx);
    if (w_ == 1.0) return local;
    others_.clear();
    for (std::size_t k = 0; k < ctx.neighbors().size(); ++k)
      if (k != j) others_.push_back(std::isnan(known_[k]) ? local : known_[k]);  // unknown: as ourselves
    return distorted_load(w_, local, others_);
  }

  // The load this node reports and decides with: what it holds (Sec. 2: "the local current
  // load"), plus with count_announced what a couple has announced to it and not yet landed.
  double effective_load(const NodeContext& ctx) const {
    if (!count_announced_) return static_cast<double>(ctx.load());
    std::int64_t incoming = 0;
    for (std::size_t k = 0; k < couple_.size(); ++k)
      if (couple_[k] == Couple::receiving)
        incoming += std::max<std::int64_t>(0, (expected_[k] < 0 ? announced_[k] : expected_[k]) - arrived_[k]);
    return static_cast<double>(ctx.load() + incoming);
  }

  // Sec. 2: "exceeds the load of its less loaded neighbor by more than a threshold (i.e., a
  // percentage)"; of which load the percentage is taken is not said (threshold_of).
  bool exceeds(double high, double low) const {
    switch (threshold_of_) {
      case ThresholdOf::lower: return high > (1.0 + threshold_) * low;
      case ThresholdOf::higher: return high - low > threshold_ * high;
      case ThresholdOf::absolute: return high - low > threshold_;
    }
    return false;
  }

  // What this node has offered in couple requests and not yet sent: no longer its own to offer.
  std::int64_t offered_to_others() const { return std::accumulate(requested_.begin(), requested_.end(), std::int64_t{0}); }

  // Sec. 3.2: a node in a couple "waiting to receive load".
  bool waiting_to_receive() const {
    for (const Couple c : couple_)
      if (c == Couple::receiving) return true;
    return false;
  }

  // Sec. 2: if the local load exceeds the least loaded neighbour's by more than the threshold
  // (a percentage), migrate to equalise the pair (Sec. 3.1: against the neighbour's DL).
  void balance(NodeContext& ctx) {
    const auto nb = ctx.neighbors();
    if (receiver_initiated_) {
      // Sec. 2, 3.2: a node in a couple is "waiting to receive load". A receiver that asked
      // again for load already coming handed the surplus on by extended distribution: with
      // zero-cost messages a process then circled a loop of neighbours in zero time
      // (hypercube:3, the ideal model). So it asks for nothing while it waits (as WLR93's RID:
      // "no outstanding load requests") unless count_announced counts that load here.
      const double local = effective_load(ctx);
      if (request_pending_ || (!count_announced_ && waiting_to_receive())) return;
      const int k = most_loaded(ctx);
      if (k < 0) return;
      const double other = known_[static_cast<std::size_t>(k)];
      if (!exceeds(other, local)) return;
      const std::int64_t amount = equalising_amount(other, local);
      if (amount < 1) return;
      ctx.send(nb[static_cast<std::size_t>(k)], Message::make(kLoadRequest, DnLoadRequest{amount}));
      request_pending_ = true;
      return;
    }
    const std::int64_t offered = offered_to_others();
    const double local = effective_load(ctx) - static_cast<double>(offered);
    const int k = least_loaded(ctx, ctx.self());
    if (k < 0) return;
    const double other = known_[static_cast<std::size_t>(k)];
    if (!exceeds(local, other)) return;
    const std::int64_t amount = std::min(equalising_amount(local, other), ctx.migratable() - offered);
    if (amount < 1) return;
    start_migration(ctx, static_cast<std::size_t>(k), amount, amount_at_couple_);
  }

  // With the couple protocol, asks neighbour k to receive `amount` (Sec. 2, 3.2), or with
  // `decide_on_reply` an amount decided when k accepts (amount_at=couple; extended distribution
  // forwards all that arrived, decided already); without, migrates at once and counts what
  // went as part of k's load until k reports again.
  void start_migration(NodeContext& ctx, std::size_t k, std::int64_t amount, bool decide_on_reply = false) {
    if (!couple_protocol_) {
      known_[k] += static_cast<double>(ctx.migrate(ctx.neighbors()[k], amount));
      return;
    }
    couple_[k] = Couple::requested;
    requested_[k] = amount;  // offered: not the node's own to offer to another until the reply
    decide_on_reply_[k] = decide_on_reply;
    ctx.send(ctx.neighbors()[k], Message::make(kCoupleRequest, CoupleRequest{decide_on_reply ? 0 : amount}));
  }

  void on_couple_request(NodeContext& ctx, std::size_t k, std::int64_t amount) {
    const NodeId from = ctx.neighbors()[k];
    bool accept = couple_[k] == Couple::none && !reply_due_[k];
    // Both asked each other at once: the request of the lower-numbered node stands, so that one
    // of the two goes ahead and neither waits for the other.
    if (couple_[k] == Couple::requested && from < ctx.self()) {
      requested_[k] = 0;
      reply_due_[k] = true;  // our request will be refused; its reply must not end this couple
      accept = true;
    }
    if (accept) {
      couple_[k] = Couple::receiving;
      announced_[k] = amount;
      arrived_[k] = 0;
      expected_[k] = -1;
    }
    const double load = load_for(ctx, k);
    if (accept) sent_[k] = load;
    ctx.send(from, Message::make(kCoupleReply, CoupleReply{accept ? 1 : 0, load}));
    if (accept && count_announced_) inform(ctx, true);  // the announced load is part of what the others hear
  }

  void on_couple_reply(NodeContext& ctx, std::size_t k, const CoupleReply& reply) {
    known_[k] = reply.load;
    if (couple_[k] != Couple::requested) {  // the refusal of a request that gave way to the neighbour's
      assert(reply_due_[k] && reply.accepted == 0);
      reply_due_[k] = false;
      return;
    }
    std::int64_t amount = requested_[k];
    requested_[k] = 0;
    couple_[k] = Couple::none;
    if (reply.accepted == 0) return;  // the next load information triggers again, with k's new load
    // With amount_at=couple the request announced nothing; the sender decides now (Sec. 2),
    // equalising with the load k has just replied, less what it has offered to others.
    const std::int64_t announced = decide_on_reply_[k] ? 0 : amount;
    const std::int64_t offered = decide_on_reply_[k] ? offered_to_others() : 0;
    if (decide_on_reply_[k]) amount = equalising_amount(effective_load(ctx) - static_cast<double>(offered), reply.load);
    const std::int64_t moved =
        ctx.migrate(ctx.neighbors()[k], std::max<std::int64_t>(0, std::min(amount, ctx.migratable() - offered)));
    ctx.send(ctx.neighbors()[k], Message::make(kTransfer, DnTransfer{moved}));
    // k's reply counted what was announced as coming only with count_announced.
    known_[k] += static_cast<double>(moved - (count_announced_ ? announced : 0));
    if (moved > 0) couple_[k] = Couple::sending;
  }

  // The couple ends when all the sender migrated has arrived: the receiver tells the sender so
  // with its new load, whatever min_change says.
  void end_if_landed(NodeContext& ctx, std::size_t k) {
    if (expected_[k] < 0 || arrived_[k] < expected_[k]) return;
    couple_[k] = Couple::none;
    announced_[k] = arrived_[k] = 0;
    expected_[k] = -1;
    const double load = load_for(ctx, k);
    sent_[k] = load;
    ctx.send(ctx.neighbors()[k], Message::make(kLoadInfo, LoadInfo{load, 1}));
  }

  // The neighbour with the least known load that no couple holds, `except` excluded; the first
  // one on ties; -1 if none is known.
  int least_loaded(const NodeContext& ctx, NodeId except) const {
    const auto nb = ctx.neighbors();
    int best = -1;
    for (std::size_t k = 0; k < nb.size(); ++k)
      if (nb[k] != except && !std::isnan(known_[k]) && couple_[k] == Couple::none && !reply_due_[k] &&
          (best < 0 || known_[k] < known_[static_cast<std::size_t>(best)]))
        best = static_cast<int>(k);
    return best;
  }
  int most_loaded(const NodeContext& ctx) const {
    int best = -1;
    for (std::size_t k = 0; k < ctx.neighbors().size(); ++k)
      if (!std::isnan(known_[k]) && (best < 0 || known_[k] > known_[static_cast<std::size_t>(best)]))
        best = static_cast<int>(k);
    return best;
  }

  double w_;
  double threshold_;
  bool receiver_initiated_;
  bool extended_;
  bool couple_protocol_;
  double min_change_;
  bool report_own_changes_;
  bool count_announced_;
  enum class ThresholdOf : std::uint8_t { lower, higher, absolute } threshold_of_;
  bool amount_at_couple_;
  std::vector<double> known_;  // DL_k: the last load each neighbour told us (adjusted by what we moved)
  std::vector<double> sent_;   // the last load we told each neighbour
  // Per neighbour k, the couple protocol: where the couple stands, what we asked k to receive,
  // what k announced it would send us, what of it arrived, what k says it sent (-1: not yet).
  std::vector<Couple> couple_;
  std::vector<std::int64_t> requested_, announced_, arrived_, expected_;
  std::vector<bool> reply_due_;  // a refusal from k is on its way (our request gave way to k's)
  std::vector<bool> decide_on_reply_;  // our request to k announced no amount (amount_at=couple)
  std::vector<double> others_;  // load_for()'s scratch
  bool request_pending_ = false;
};

}  // namespace

StrategyInfo direct_neighbor_strategy_info() { return strategy_info<DirectNeighbor>(); }

}  // namespace dlbkit
