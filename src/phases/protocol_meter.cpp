#include <dlbkit/phases/protocol_meter.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <memory>
#include <utility>

namespace dlbkit {

namespace {

// An agent that reports each round's messages to the meter, and otherwise is its inner agent.
class Metered : public RankProtocol {
public:
  Metered(std::unique_ptr<RankProtocol> inner, ProtocolMeter& meter, NodeId rank)
      : inner_(std::move(inner)), meter_(&meter), rank_(rank) {}
  void round(const RoundInput& in, RoundOutput& out) override {
    meter_->begin(in.round);
    inner_->round(in, out);
    for (const ProtocolMessage& m : out.outbox) meter_->sent(in.round, rank_, m.peer, m.bytes.size());
  }
  std::vector<ObjectMove> departures() const override { return inner_->departures(); }
  std::vector<ObjectMove> arrivals() const override { return inner_->arrivals(); }
  double load() const override { return inner_->load(); }

private:
  std::unique_ptr<RankProtocol> inner_;
  ProtocolMeter* meter_;
  NodeId rank_;
};

}  // namespace

ProtocolMeter::ProtocolMeter(std::size_t ranks, const CostModel& cost)
    : cost_(cost),
      collective_(ranks > 1 ? 2 * static_cast<SimTime>(std::bit_width(ranks - 1)) *
                                  (cost.latency + cost.send_overhead + cost.handle_cost)
                            : 0),
      sent_(ranks, 0),
      received_(ranks, 0),
      bytes_out_(ranks, 0.0),
      bytes_in_(ranks, 0.0) {}

RankProtocolFactory ProtocolMeter::metered(RankProtocolFactory make) {
  return [this, make = std::move(make)](const RankSetup& setup) -> std::unique_ptr<RankProtocol> {
    return std::make_unique<Metered>(make(setup), *this, setup.rank);
  };
}

void ProtocolMeter::begin(std::uint64_t round) {
  if (open_ && round == round_) return;
  if (open_) close_round();
  round_ = round;
  open_ = true;
}

void ProtocolMeter::sent(std::uint64_t, NodeId from, NodeId to, std::size_t bytes) {
  for (NodeId v : {from, to})
    if (sent_[v] == 0 && received_[v] == 0) touched_.push_back(v);
  ++sent_[from];
  ++received_[to];
  bytes_out_[from] += static_cast<double>(bytes);
  bytes_in_[to] += static_cast<double>(bytes);
  ++messages_;
  bytes_ += static_cast<double>(bytes);
}

void ProtocolMeter::close_round() {
  double busiest = 0;
  for (NodeId v : touched_) {
    busiest = std::max(busiest, static_cast<double>(sent_[v] * cost_.send_overhead + received_[v] * cost_.handle_cost) +
                                    std::max(bytes_out_[v], bytes_in_[v]) * cost_.per_byte);
    sent_[v] = received_[v] = 0;
    bytes_out_[v] = bytes_in_[v] = 0;
  }
  time_ += static_cast<SimTime>(std::llround(busiest)) + (touched_.empty() ? 0 : cost_.latency) + collective_ +
           cost_.protocol_round;
  touched_.clear();
  ++rounds_;
  open_ = false;
}

void ProtocolMeter::finish() {
  if (open_) close_round();
  time_ += cost_.protocol_step;
}

}  // namespace dlbkit
