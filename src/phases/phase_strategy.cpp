#include <dlbkit/phases/phase_strategy.hpp>

#include <algorithm>
#include <cassert>
#include <fmt/format.h>
#include <stdexcept>

namespace dlbkit {

PhaseContext::PhaseContext(const Phase& phase, const Topology& topology, const CostModel& cost, double memory_bound,
                           std::uint64_t seed, const WorkModel& work_model, std::size_t memory_group)
    : phase_(&phase),
      topology_(&topology),
      mapping_(phase.node_of),
      loads_(node_loads(phase, phase.node_of)),
      work_model_(work_model),
      work_(follows_loads(work_model, phase) ? std::nullopt
                                             : std::optional<NodeWork>(std::in_place, phase, phase.node_of, work_model)),
      memory_bound_(memory_bound),
      memory_group_(memory_group),
      memory_(phase, phase.node_of),
      protocol_(topology, cost),
      rng_(seed, 0x9a5e) {}

std::vector<std::vector<ObjectIndex>> PhaseContext::objects_by_node() const {
  std::vector<std::vector<ObjectIndex>> lists(nodes());
  for (ObjectIndex i = 0; i < mapping_.size(); ++i) lists[mapping_[i]].push_back(i);
  return lists;
}

bool PhaseContext::fits(ObjectIndex object, NodeId to) const {
  return mapping_[object] == to || fits(std::span(&object, 1), to);
}

bool PhaseContext::fits(std::span<const ObjectIndex> objects, NodeId to) const {
  if (!phase_->has_memory) return true;
  if (memory_group_ == 1) return memory_.with(objects, to) <= memory_bound_;
  // The group's memory as it would be: `to`'s with the objects, and their node's without
  // them where it is in the same group.
  const NodeId from = mapping_[objects.front()];
  assert(std::all_of(objects.begin(), objects.end(), [&](ObjectIndex i) { return mapping_[i] == from; }));
  double memory = bounded_memory(to) - memory_.of(to) + memory_.with(objects, to);
  if (from / memory_group_ == to / memory_group_) memory += memory_.without(objects, from) - memory_.of(from);
  return memory <= memory_bound_;
}

bool PhaseContext::move(ObjectIndex object, NodeId to) {
  const NodeId from = mapping_[object];
  if (from == to) return true;
  if (!phase_->objects[object].migratable || !fits(object, to)) return false;
  memory_.move(object, from, to);
  if (work_) work_->move(object, from, to);
  loads_[from] -= phase_->objects[object].load;
  loads_[to] += phase_->objects[object].load;
  mapping_[object] = to;
  return true;
}

bool PhaseContext::move_together(std::span<const std::pair<ObjectIndex, NodeId>> moves) {
  for (const auto& [object, to] : moves)
    if (to != mapping_[object] && !phase_->objects[object].migratable) return false;
  if (phase_->has_memory) {  // every move in the accounting, then the gaining nodes checked
    for (const auto& [object, to] : moves) memory_.move(object, mapping_[object], to);
    bool fits = true;
    for (const auto& [object, to] : moves)
      if (to != mapping_[object] && bounded_memory(to) > memory_bound_) fits = false;
    if (!fits) {
      for (auto it = moves.rbegin(); it != moves.rend(); ++it) memory_.move(it->first, it->second, mapping_[it->first]);
      return false;
    }
  }
  for (const auto& [object, to] : moves) {
    if (work_) work_->move(object, mapping_[object], to);
    loads_[mapping_[object]] -= phase_->objects[object].load;
    loads_[to] += phase_->objects[object].load;
    mapping_[object] = to;
  }
  return true;
}

void PhaseContext::remap(const std::vector<NodeId>& mapping) {
  if (mapping.size() != mapping_.size()) throw std::logic_error("remap: a plan of another length");
  std::vector<bool> gains(nodes(), false);
  for (ObjectIndex i = 0; i < mapping.size(); ++i) {
    if (mapping[i] == mapping_[i]) continue;
    if (mapping[i] >= nodes()) throw std::logic_error("remap: an object sent to no node");
    if (!phase_->objects[i].migratable) throw std::logic_error("remap: an unmigratable object moved");
    gains[mapping[i]] = true;
  }
  NodeMemory memory(*phase_, mapping);
  if (phase_->has_memory)
    for (NodeId v = 0; v < nodes(); ++v)
      if (gains[v] && memory.of_group(v, memory_group_) > memory_bound_)
        throw std::logic_error(fmt::format("remap: node {} would hold {} bytes, above the bound {}", v,
                                           memory.of_group(v, memory_group_), memory_bound_));
  take(mapping, std::move(memory));
}

void PhaseContext::return_to(const State& state) {
  if (state.mapping.size() != mapping_.size()) throw std::logic_error("return_to: a mapping of another length");
  take(state.mapping, NodeMemory(*phase_, state.mapping));
  unplaced_ = state.unplaced;
}

void PhaseContext::take(const std::vector<NodeId>& mapping, NodeMemory memory) {
  mapping_ = mapping;
  loads_ = node_loads(*phase_, mapping_);
  if (work_) work_.emplace(*phase_, mapping_, work_model_);
  memory_ = std::move(memory);
}

}  // namespace dlbkit
