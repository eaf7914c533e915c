#include <dlbkit/phases/memory.hpp>

#include <algorithm>
#include <cassert>

namespace dlbkit {

NodeMemory::NodeMemory(const Phase& phase, const std::vector<NodeId>& mapping) : phase_(&phase) {
  if (!phase.has_memory) return;
  nodes_.resize(phase.nodes);
  for (std::size_t v = 0; v < phase.nodes; ++v) nodes_[v].own = phase.node_working_bytes[v];
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    if (mapping[i] == kNowhere) continue;
    Node& node = nodes_[mapping[i]];
    const ObjectMemory& m = phase.objects[i].memory;
    node.footprints += m.footprint_bytes;
    ++node.working[m.working_bytes];
    if (m.block >= 0 && node.blocks[m.block]++ == 0) node.shared += phase.block_bytes[m.block];
  }
}

double NodeMemory::total(const Node& node) const {
  const double largest_working = node.working.empty() ? 0.0 : node.working.rbegin()->first;
  return node.own + node.shared + node.footprints + largest_working;
}

double NodeMemory::of(NodeId node) const { return nodes_.empty() ? 0.0 : total(nodes_[node]); }

double NodeMemory::of_group(NodeId node, std::size_t group) const {
  if (group == 1) return of(node);
  const std::size_t first = node / group * group, end = std::min(first + group, phase_->nodes);
  double sum = 0;
  for (std::size_t u = first; u < end; ++u) sum += of(static_cast<NodeId>(u));
  return sum;
}

double NodeMemory::max() const {
  double largest = 0;
  for (const Node& node : nodes_) largest = std::max(largest, total(node));
  return largest;
}

double NodeMemory::with(std::span<const ObjectIndex> objects, NodeId to) const {
  if (nodes_.empty()) return 0.0;
  const Node& node = nodes_[to];
  double added = 0, largest_working = node.working.empty() ? 0.0 : node.working.rbegin()->first;
  for (std::size_t k = 0; k < objects.size(); ++k) {
    const ObjectMemory& m = phase_->objects[objects[k]].memory;
    added += m.footprint_bytes;
    largest_working = std::max(largest_working, m.working_bytes);
    // A block counts once: new unless the node or an earlier object of the span has it (the
    // span is usually one block's objects, so the scan stops at the first).
    const auto same_block = [&](ObjectIndex i) { return phase_->objects[i].memory.block == m.block; };
    if (m.block >= 0 && !node.blocks.contains(m.block) &&
        std::none_of(objects.begin(), objects.begin() + static_cast<std::ptrdiff_t>(k), same_block))
      added += phase_->block_bytes[m.block];
  }
  return node.own + node.shared + node.footprints + added + largest_working;
}

double NodeMemory::without(std::span<const ObjectIndex> objects, NodeId from) const {
  if (nodes_.empty()) return 0.0;
  const Node& node = nodes_[from];
  const auto memory_of = [&](ObjectIndex i) -> const ObjectMemory& { return phase_->objects[i].memory; };
  // How many of the objects (a span of a few, so no container) have this block or working size.
  const auto leaving = [&](auto same) {
    return static_cast<std::uint32_t>(std::count_if(objects.begin(), objects.end(), same));
  };
  double footprints = node.footprints, shared = node.shared;
  for (std::size_t k = 0; k < objects.size(); ++k) {
    const ObjectMemory& m = memory_of(objects[k]);
    footprints -= m.footprint_bytes;
    const auto same_block = [&](ObjectIndex i) { return memory_of(i).block == m.block; };
    // Each block once, at its first object in the span.
    if (m.block < 0 || std::any_of(objects.begin(), objects.begin() + static_cast<std::ptrdiff_t>(k), same_block))
      continue;
    const auto held = node.blocks.find(m.block);
    const std::uint32_t of_block = leaving(same_block);
    assert(held != node.blocks.end() && held->second >= of_block);
    if (held->second == of_block) shared -= phase_->block_bytes[m.block];
  }
  double largest_working = 0;  // the largest working bytes some object that stays has
  for (auto it = node.working.rbegin(); it != node.working.rend(); ++it)
    if (leaving([&](ObjectIndex i) { return memory_of(i).working_bytes == it->first; }) < it->second) {
      largest_working = it->first;
      break;
    }
  return node.own + shared + footprints + largest_working;
}

void NodeMemory::move(ObjectIndex object, NodeId from, NodeId to) {
  if (nodes_.empty() || from == to) return;
  const ObjectMemory& m = phase_->objects[object].memory;
  if (from != kNowhere) {
    Node& source = nodes_[from];
    source.footprints -= m.footprint_bytes;
    const auto working = source.working.find(m.working_bytes);
    assert(working != source.working.end());
    if (--working->second == 0) source.working.erase(working);
    if (m.block >= 0) {
      const auto block = source.blocks.find(m.block);
      assert(block != source.blocks.end());
      if (--block->second == 0) {
        source.blocks.erase(block);
        source.shared -= phase_->block_bytes[m.block];
      }
    }
  }
  Node& target = nodes_[to];
  target.footprints += m.footprint_bytes;
  ++target.working[m.working_bytes];
  if (m.block >= 0 && target.blocks[m.block]++ == 0) target.shared += phase_->block_bytes[m.block];
}

}  // namespace dlbkit
