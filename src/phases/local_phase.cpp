#include <dlbkit/error.hpp>
#include <dlbkit/phases/local_phase.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace dlbkit {

namespace {

void check_amount(double value, const std::string& what, const char* field, std::uint64_t id) {
  if (!std::isfinite(value) || value < 0)
    throw InputError(fmt::format("{}: {} of object {} is {}; accepted: a finite number >= 0", what, field, id, value));
}

}  // namespace

std::vector<LocalPhase> local_phases(const Phase& phase) {
  std::vector<LocalPhase> ranks(phase.nodes);
  std::vector<std::vector<std::int32_t>> block_at(phase.nodes);  // a block's index on each node, -1: none yet
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    LocalPhase& rank = ranks[phase.node_of[i]];
    PhaseObject object = phase.objects[i];
    if (object.memory.block >= 0) {
      auto& at = block_at[phase.node_of[i]];
      at.resize(phase.block_bytes.size(), -1);
      std::int32_t& local = at[static_cast<std::size_t>(object.memory.block)];
      if (local < 0) {
        local = static_cast<std::int32_t>(rank.blocks.size());
        rank.blocks.push_back({phase.block_ids[static_cast<std::size_t>(object.memory.block)],
                               phase.block_bytes[static_cast<std::size_t>(object.memory.block)]});
      }
      object.memory.block = local;
    }
    rank.objects.push_back(object);
  }
  for (const ObjectCommunication& c : phase.communications)
    ranks[phase.node_of[c.from]].edges.push_back(
        {.from = phase.objects[c.from].id, .to = phase.objects[c.to].id, .messages = c.messages, .bytes = c.bytes});
  for (NodeId r = 0; r < phase.nodes; ++r) {
    if (!phase.node_working_bytes.empty()) ranks[r].working_bytes = phase.node_working_bytes[r];
    if (!phase.node_alpha.empty()) ranks[r].speed = 1 / phase.node_alpha[r];
  }
  return ranks;
}

void check_local_phase(const LocalPhase& mine, const std::string& what) {
  if (!std::isfinite(mine.speed) || mine.speed <= 0)
    throw InputError(fmt::format("{}: the rank's speed is {}; accepted: a finite number > 0", what, mine.speed));
  if (!std::isfinite(mine.working_bytes) || mine.working_bytes < 0)
    throw InputError(
        fmt::format("{}: the rank's working bytes are {}; accepted: a finite number >= 0", what, mine.working_bytes));
  std::vector<std::uint64_t> ids;
  ids.reserve(mine.objects.size());
  for (const PhaseObject& object : mine.objects) {
    check_amount(object.load, what, "the load", object.id);
    check_amount(object.memory.footprint_bytes, what, "the footprint bytes", object.id);
    check_amount(object.memory.working_bytes, what, "the working bytes", object.id);
    check_amount(object.memory.serialized_bytes, what, "the serialized bytes", object.id);
    if (object.memory.block < -1 || object.memory.block >= static_cast<std::int64_t>(mine.blocks.size()))
      throw InputError(fmt::format("{}: object {} uses shared block {}; accepted: -1 or a block in [0, {})", what,
                                   object.id, object.memory.block, mine.blocks.size()));
    ids.push_back(object.id);
  }
  std::sort(ids.begin(), ids.end());
  if (const auto twice = std::adjacent_find(ids.begin(), ids.end()); twice != ids.end())
    throw InputError(fmt::format("{}: object {} is listed twice; accepted: each id once", what, *twice));
  for (const LocalBlock& block : mine.blocks)
    if (!std::isfinite(block.bytes) || block.bytes < 0)
      throw InputError(fmt::format("{}: shared block {} has {} bytes; accepted: a finite number >= 0", what, block.id,
                                   block.bytes));
  for (const LocalEdge& edge : mine.edges) {
    if (!std::binary_search(ids.begin(), ids.end(), edge.from))
      throw InputError(fmt::format("{}: an edge from object {}, which this rank does not list; accepted: an edge "
                                   "from one of its objects",
                                   what, edge.from));
    if (!std::isfinite(edge.messages) || edge.messages < 0 || !std::isfinite(edge.bytes) || edge.bytes < 0)
      throw InputError(fmt::format("{}: the edge {} -> {} has {} messages and {} bytes; accepted: finite numbers >= 0",
                                   what, edge.from, edge.to, edge.messages, edge.bytes));
  }
}

}  // namespace dlbkit
