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

double NodeMemory::max() const {
  double largest = 0;
  for (const Node& node : nodes_) largest = std::max(largest, total(node));
  return largest;
}

double NodeMemory::with(ObjectIndex object, NodeId to) const {
  if (nodes_.empty()) return 0.0;
  const Node& node = nodes_[to];
  const ObjectMemory& m = phase_->objects[object].memory;
  const double largest_working =
      std::max(node.working.empty() ? 0.0 : node.working.rbegin()->first, m.working_bytes);
  const bool new_block = m.block >= 0 && !node.blocks.contains(m.block);
  return node.own + node.shared + (new_block ? phase_->block_bytes[m.block] : 0.0) + node.footprints +
         m.footprint_bytes + largest_working;
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
