#include "rank_holdings.hpp"

#include <algorithm>
#include <stdexcept>

namespace dlbkit::detail {

void ByteReader::check(std::size_t size) const {
  if (at_ + size > bytes_.size()) throw std::logic_error("a protocol message read past its end");
}

void RankMemory::add(const ObjectRecord& o) {
  footprints_ += o.footprint;
  ++working_[o.working];
  if (o.block < 0) return;
  auto& [bytes, count] = blocks_[o.block];
  if (count++ == 0) bytes = o.block_bytes, shared_ += o.block_bytes;
}

void RankMemory::remove(const ObjectRecord& o) {
  footprints_ -= o.footprint;
  if (--working_[o.working] == 0) working_.erase(o.working);
  if (o.block < 0) return;
  const auto it = blocks_.find(o.block);
  if (--it->second.second == 0) {
    shared_ -= it->second.first;
    blocks_.erase(it);
  }
}

double RankMemory::with(const ObjectRecord& o) const {
  const bool new_block = o.block >= 0 && !blocks_.contains(o.block);
  return resident() + o.footprint + (new_block ? o.block_bytes : 0.0) + std::max(largest_working(), o.working);
}

double RankMemory::resident() const { return own_ + shared_ + footprints_; }

Holdings::Holdings(const LocalPhase& mine, NodeId self) : self_(self), memory_(mine.working_bytes) {
  for (const PhaseObject& o : mine.objects) {
    const std::int32_t b = o.memory.block;
    const ObjectRecord r{.id = o.id,
                         .load = o.load,
                         .footprint = o.memory.footprint_bytes,
                         .working = o.memory.working_bytes,
                         .block = b >= 0 ? mine.blocks[static_cast<std::size_t>(b)].id : -1,
                         .block_bytes = b >= 0 ? mine.blocks[static_cast<std::size_t>(b)].bytes : 0.0,
                         .origin = self,
                         .migratable = o.migratable ? 1u : 0u};
    arrive(r, self);
  }
}

ObjectRecord Holdings::leave(std::uint64_t id, NodeId to) {
  const auto it = held_.find(id);
  if (it == held_.end() || !it->second.record.migratable || to == self_)
    throw std::logic_error("a protocol shipped an object that its rank may not ship");
  const ObjectRecord r = it->second.record;
  held_.erase(it);
  load_ -= r.load;
  memory_.remove(r);
  if (r.origin == self_) departed_[id] = to;
  return r;
}

void Holdings::arrive(const ObjectRecord& o, NodeId from) {
  if (!held_.emplace(o.id, Held{o, from}).second) throw std::logic_error("a protocol delivered an object twice");
  load_ += o.load;
  memory_.add(o);
  if (o.origin == self_) departed_.erase(o.id);
}

void Holdings::end_step(const RoundInput& in, RoundOutput& out) {
  if (!notes_sent_) {
    notes_sent_ = true;
    std::map<NodeId, std::vector<std::byte>> notes;
    for (const auto& [id, h] : held_)
      if (h.record.origin != self_ && h.came_from != h.record.origin) {
        auto& bytes = notes[h.record.origin];
        if (bytes.empty()) put(bytes, kLandedNote);
        put(bytes, id);
      }
    for (auto& [to, bytes] : notes) out.outbox.push_back({to, std::move(bytes)});
    return;
  }
  for (const ProtocolMessage& note : in.inbox) {
    ByteReader r(note.bytes);
    if (r.get<std::uint8_t>() != kLandedNote) throw std::logic_error("a protocol message after the step's end");
    while (!r.empty()) departed_.at(r.get<std::uint64_t>()) = note.peer;
  }
  out.done = true;
}

std::vector<ObjectMove> Holdings::departures() const {
  std::vector<ObjectMove> moves;
  for (const auto& [id, to] : departed_) moves.push_back({id, to});
  return moves;
}

std::vector<ObjectMove> Holdings::arrivals() const {
  std::vector<ObjectMove> moves;
  for (const auto& [id, h] : held_)
    if (h.record.origin != self_) moves.push_back({id, h.record.origin});
  return moves;
}

std::vector<const ProtocolMessage*> by_sender(std::span<const ProtocolMessage> inbox) {
  std::vector<const ProtocolMessage*> sorted;
  for (const ProtocolMessage& m : inbox) sorted.push_back(&m);
  const auto kind = [](const ProtocolMessage* m) { return m->bytes.empty() ? std::byte{0} : m->bytes[0]; };
  std::sort(sorted.begin(), sorted.end(), [&](const ProtocolMessage* a, const ProtocolMessage* b) {
    return a->peer != b->peer ? a->peer < b->peer : kind(a) < kind(b);
  });
  return sorted;
}

}  // namespace dlbkit::detail
