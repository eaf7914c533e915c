#include <dlbkit/error.hpp>
#include <dlbkit/phases/phase.hpp>

#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

void check_entry_amount(double value, const std::string& what, const char* field, std::size_t index) {
  if (!std::isfinite(value) || value < 0)
    throw InputError(fmt::format("{}: {} of entry {} is {}; accepted: a finite number >= 0", what, field, index, value));
}

}  // namespace

void check_phase(const Phase& phase, const std::string& what) {
  if (phase.nodes == 0) throw InputError(what + ": no node; accepted: at least one");
  if (phase.node_of.size() != phase.objects.size())
    throw InputError(fmt::format("{}: {} objects but {} entries in the mapping", what, phase.objects.size(),
                                 phase.node_of.size()));
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const PhaseObject& object = phase.objects[i];
    if (phase.node_of[i] >= phase.nodes)
      throw InputError(fmt::format("{}: object {} is on node {}; accepted: a node in [0, {}]", what, object.id,
                                   phase.node_of[i], phase.nodes - 1));
    check_entry_amount(object.load, what, "the load", i);
    check_entry_amount(object.memory.footprint_bytes, what, "the footprint bytes", i);
    check_entry_amount(object.memory.working_bytes, what, "the working bytes", i);
    check_entry_amount(object.memory.serialized_bytes, what, "the serialized bytes", i);
    check_entry_amount(object.memory.serialize_seconds, what, "the serialize seconds", i);
    check_entry_amount(object.memory.deserialize_seconds, what, "the deserialize seconds", i);
    if (object.memory.block < -1 || object.memory.block >= static_cast<std::int64_t>(phase.block_bytes.size()))
      throw InputError(fmt::format("{}: object {} uses shared block {}; accepted: -1 or a block in [0, {})", what,
                                   object.id, object.memory.block, phase.block_bytes.size()));
  }
  for (std::size_t i = 0; i < phase.communications.size(); ++i) {
    const ObjectCommunication& c = phase.communications[i];
    if (c.from >= phase.objects.size() || c.to >= phase.objects.size())
      throw InputError(fmt::format("{}: communication {} joins objects {} and {}; accepted: objects in [0, {})", what,
                                   i, c.from, c.to, phase.objects.size()));
    check_entry_amount(c.messages, what, "the messages", i);
    check_entry_amount(c.bytes, what, "the bytes", i);
  }
  if (phase.has_memory && phase.node_working_bytes.size() != phase.nodes)
    throw InputError(fmt::format("{}: {} nodes but {} nodes' working bytes", what, phase.nodes,
                                 phase.node_working_bytes.size()));
  for (std::size_t i = 0; i < phase.node_working_bytes.size(); ++i)
    check_entry_amount(phase.node_working_bytes[i], what, "the node working bytes", i);
  if (phase.block_ids.size() != phase.block_bytes.size())
    throw InputError(fmt::format("{}: {} shared blocks but {} block ids", what, phase.block_bytes.size(),
                                 phase.block_ids.size()));
  for (std::size_t i = 0; i < phase.block_bytes.size(); ++i)
    check_entry_amount(phase.block_bytes[i], what, "the shared bytes", i);
  if (!phase.node_alpha.empty() && phase.node_alpha.size() != phase.nodes)
    throw InputError(fmt::format("{}: {} nodes but {} nodes' alpha", what, phase.nodes, phase.node_alpha.size()));
  for (std::size_t i = 0; i < phase.node_alpha.size(); ++i)
    check_entry_amount(phase.node_alpha[i], what, "the alpha", i);
  if (phase.subphase_loads.size() != phase.objects.size() * phase.subphases)
    throw InputError(fmt::format("{}: {} objects and {} subphases but {} subphase loads; accepted: one per object "
                                 "and subphase",
                                 what, phase.objects.size(), phase.subphases, phase.subphase_loads.size()));
  for (std::size_t i = 0; i < phase.subphase_loads.size(); ++i)
    check_entry_amount(phase.subphase_loads[i], what, "the subphase load", i);
  const auto check_cost = [&](const char* name, double value) {
    if (!std::isfinite(value) || value < 0)
      throw InputError(fmt::format("{}: {} is {}; accepted: a finite number >= 0", what, name, value));
  };
  check_cost("message_serialize_seconds_per_byte", phase.message_serialize_seconds_per_byte);
  check_cost("message_deserialize_seconds_per_byte", phase.message_deserialize_seconds_per_byte);
}

std::vector<double> node_loads(const Phase& phase, const std::vector<NodeId>& mapping) {
  std::vector<double> loads(phase.nodes, 0.0);
  for (std::size_t i = 0; i < phase.objects.size(); ++i) loads[mapping[i]] += phase.objects[i].load;
  return loads;
}

std::vector<double> node_subphase_loads(const Phase& phase, const std::vector<NodeId>& mapping) {
  const std::size_t parts = phase.subphases;
  std::vector<double> loads(phase.nodes * parts, 0.0);
  for (std::size_t i = 0; i < phase.objects.size(); ++i)
    for (std::size_t s = 0; s < parts; ++s) loads[mapping[i] * parts + s] += phase.subphase_loads[i * parts + s];
  return loads;
}

double total_speed(const Phase& phase) {
  double speed = 0;
  for (NodeId v = 0; v < phase.nodes; ++v) speed += 1 / alpha_of(phase, v);
  return speed;
}

}  // namespace dlbkit
