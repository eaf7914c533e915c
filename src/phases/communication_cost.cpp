#include <dlbkit/phases/communication_cost.hpp>

#include <algorithm>

namespace dlbkit {

double communication_seconds(const Phase& phase, const std::vector<NodeId>& mapping, const CostModel& cost) {
  struct Traffic {
    double sent = 0, received = 0, bytes_sent = 0, bytes_received = 0;
  };
  std::vector<Traffic> node(phase.nodes);
  bool crossing = false;
  for (const ObjectCommunication& c : phase.communications) {
    const NodeId from = mapping[c.from], to = mapping[c.to];
    if (from == to) continue;
    crossing = true;
    node[from].sent += c.messages;
    node[from].bytes_sent += c.bytes;
    node[to].received += c.messages;
    node[to].bytes_received += c.bytes;
  }
  if (!crossing) return 0;
  double slowest = 0, pack = 0, unpack = 0;  // ns, seconds, seconds
  for (const Traffic& t : node) {
    slowest = std::max(slowest, t.sent * static_cast<double>(cost.send_overhead) +
                                    t.received * static_cast<double>(cost.handle_cost) +
                                    std::max(t.bytes_sent, t.bytes_received) * cost.per_byte);
    pack = std::max(pack, t.bytes_sent * phase.message_serialize_seconds_per_byte);
    unpack = std::max(unpack, t.bytes_received * phase.message_deserialize_seconds_per_byte);
  }
  return pack + (slowest + static_cast<double>(cost.latency)) * 1e-9 + unpack;
}

}  // namespace dlbkit
