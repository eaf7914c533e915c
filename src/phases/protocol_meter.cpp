#include <dlbkit/phases/protocol_meter.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <memory>
#include <utility>

namespace dlbkit {

namespace {

// Runs `work`, an agent's computation for `rank`; where the meter times the agents, tells it
// how long that took (in a round, or outside the rounds).
template <class Work>
void timed(ProtocolMeter& meter, NodeId rank, bool in_round, Work&& work) {
  if (!meter.times_agents()) return work();
  const auto start = std::chrono::steady_clock::now();
  work();
  meter.computed(rank, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(), in_round);
}

// An agent that reports each round's messages to the meter, and otherwise is its inner agent.
class Metered : public RankProtocol {
public:
  Metered(std::unique_ptr<RankProtocol> inner, ProtocolMeter& meter, NodeId rank)
      : inner_(std::move(inner)), meter_(&meter), rank_(rank) {}
  void round(const RoundInput& in, RoundOutput& out) override {
    meter_->begin(in.round);
    timed(*meter_, rank_, true, [&] { inner_->round(in, out); });
    for (const ProtocolMessage& m : out.outbox) meter_->sent(in.round, rank_, m.peer, m.bytes.size());
  }
  std::vector<ObjectMove> departures() const override {
    std::vector<ObjectMove> moves;
    timed(*meter_, rank_, false, [&] { moves = inner_->departures(); });
    return moves;
  }
  std::vector<ObjectMove> arrivals() const override {
    std::vector<ObjectMove> moves;
    timed(*meter_, rank_, false, [&] { moves = inner_->arrivals(); });
    return moves;
  }
  double load() const override { return inner_->load(); }
  std::uint64_t passes() const override { return inner_->passes(); }

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
      bytes_in_(ranks, 0.0),
      round_compute_(times_agents() ? ranks : 0, 0.0),
      step_compute_(times_agents() ? ranks : 0, 0.0) {}

RankProtocolFactory ProtocolMeter::metered(RankProtocolFactory make) {
  return [this, make = std::move(make)](const RankSetup& setup) -> std::unique_ptr<RankProtocol> {
    most_objects_ = std::max(most_objects_, setup.mine.objects.size());
    std::unique_ptr<RankProtocol> agent;
    timed(*this, setup.rank, false, [&] { agent = make(setup); });
    return std::make_unique<Metered>(std::move(agent), *this, setup.rank);
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

void ProtocolMeter::computed(NodeId rank, double seconds, bool in_round) {
  (in_round ? round_compute_ : step_compute_)[rank] += seconds * 1e9 * cost_.protocol_compute;
}

void ProtocolMeter::close_round() {
  double busiest = 0;
  for (NodeId v : touched_) {
    busiest = std::max(busiest, static_cast<double>(sent_[v] * cost_.send_overhead + received_[v] * cost_.handle_cost) +
                                    std::max(bytes_out_[v], bytes_in_[v]) * cost_.per_byte +
                                    (times_agents() ? std::exchange(round_compute_[v], 0.0) : 0.0));
    sent_[v] = received_[v] = 0;
    bytes_out_[v] = bytes_in_[v] = 0;
  }
  for (double& c : round_compute_)  // the ranks that computed and sent nothing
    busiest = std::max(busiest, std::exchange(c, 0.0));
  time_ += static_cast<SimTime>(std::llround(busiest)) + (touched_.empty() ? 0 : 2 * cost_.latency) + collective_ +
           cost_.protocol_round;
  touched_.clear();
  ++rounds_;
  open_ = false;
}

void ProtocolMeter::finish() {
  if (open_) close_round();
  time_ += cost_.protocol_step + static_cast<SimTime>(std::llround(cost_.protocol_object *
                                                                    static_cast<double>(most_objects_)));
  if (!step_compute_.empty())
    time_ += static_cast<SimTime>(std::llround(*std::max_element(step_compute_.begin(), step_compute_.end())));
}

}  // namespace dlbkit
