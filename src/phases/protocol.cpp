#include <dlbkit/phases/protocol.hpp>

#include <algorithm>

namespace dlbkit {

Protocol::Protocol(const Topology& topology, const CostModel& cost)
    : topology_(&topology), cost_(cost), sent_(topology.size(), 0), received_(topology.size(), 0) {}

void Protocol::send(NodeId from, NodeId to, std::uint64_t count) {
  if (count == 0 || from == to) return;
  if (sent_[from] == 0 && received_[from] == 0) touched_.push_back(from);
  if (sent_[to] == 0 && received_[to] == 0) touched_.push_back(to);
  sent_[from] += count;
  received_[to] += count;
  messages_ += count;
  round_messages_ += count;
  if (cost_.per_hop > 0) longest_route_ = std::max(longest_route_, topology_->distance(from, to));
  else longest_route_ = std::max(longest_route_, 1);
}

void Protocol::end_round() {
  last_messages_ = round_messages_;
  last_time_ = 0;
  round_messages_ = 0;
  if (touched_.empty()) return;
  SimTime busiest = 0;
  for (NodeId v : touched_) {
    busiest = std::max(busiest, static_cast<SimTime>(sent_[v]) * cost_.send_overhead +
                                    static_cast<SimTime>(received_[v]) * cost_.handle_cost);
    sent_[v] = received_[v] = 0;
  }
  touched_.clear();
  last_time_ = busiest + cost_.latency + static_cast<SimTime>(std::max(longest_route_ - 1, 0)) * cost_.per_hop;
  time_ += last_time_;
  longest_route_ = 0;
  ++rounds_;
}

void Protocol::repeat_last_round(std::uint64_t count) {
  if (last_messages_ == 0) return;
  rounds_ += count;
  messages_ += count * last_messages_;
  time_ += static_cast<SimTime>(count) * last_time_;
}

}  // namespace dlbkit
