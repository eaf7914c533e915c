#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/work_model.hpp>

#include <algorithm>
#include <fmt/format.h>

namespace dlbkit {

WorkModel parse_work_model(const std::string& text, const std::string& what) {
  const std::string accepted = "accepted: load, or beta=B,gamma=G,delta=D,intra=I (any of them, numbers >= 0)";
  if (text == "load") return {};
  WorkModel model;
  const std::pair<const char*, double*> terms[] = {
      {"beta", &model.beta}, {"gamma", &model.gamma}, {"delta", &model.delta}, {"intra", &model.intra}};
  bool seen[std::size(terms)] = {};
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(',', start), text.size());
    const std::string term = text.substr(start, end - start);
    const std::size_t eq = term.find('=');
    const std::string name = term.substr(0, eq), value = eq == std::string::npos ? "" : term.substr(eq + 1);
    const auto k = static_cast<std::size_t>(
        std::find_if(std::begin(terms), std::end(terms), [&](const auto& t) { return name == t.first; }) -
        std::begin(terms));
    double x = 0;
    if (k == std::size(terms) || eq == std::string::npos || seen[k] || !parse_number(value, x) || x < 0)
      throw InputError(fmt::format("{} '{}': term '{}' is not accepted; {}", what, excerpt(text), excerpt(term), accepted));
    *terms[k].second = x;
    seen[k] = true;
    start = end + 1;
  }
  return model;
}

std::string to_string(const WorkModel& model) {
  std::string text;
  for (const auto& [name, value] :
       {std::pair{"beta", model.beta}, {"gamma", model.gamma}, {"delta", model.delta}, {"intra", model.intra}})
    if (value != 0) text += fmt::format("{}{}={}", text.empty() ? "" : ",", name, value);
  return text.empty() ? "load" : text;
}

std::vector<double> node_works(const Phase& phase, const std::vector<NodeId>& mapping, const WorkModel& model) {
  const NodeWork work(phase, mapping, model);
  std::vector<double> works(phase.nodes);
  for (NodeId v = 0; v < phase.nodes; ++v) works[v] = work.of(v);
  return works;
}

NodeWork::NodeWork(const Phase& phase, const std::vector<NodeId>& mapping, const WorkModel& model)
    : phase_(&phase),
      model_(model),
      loads_(node_loads(phase, mapping)),
      sent_(phase.nodes, 0.0),
      received_(phase.nodes, 0.0),
      local_(phase.nodes, 0.0),
      homing_(phase.nodes, 0.0) {
  if (!model.weighs_placement()) return;
  mapping_ = mapping;
  const std::size_t n = phase.objects.size();
  moving_.assign(n, 0);
  edge_start_.assign(n + 1, 0);
  for (const ObjectCommunication& c : phase.communications) {
    ++edge_start_[c.from + 1];
    if (c.to != c.from) ++edge_start_[c.to + 1];  // an object's message to itself: once
    if (mapping[c.from] != mapping[c.to]) {
      sent_[mapping[c.from]] += c.bytes;
      received_[mapping[c.to]] += c.bytes;
    } else {
      local_[mapping[c.from]] += c.bytes;
    }
  }
  for (std::size_t i = 0; i < n; ++i) edge_start_[i + 1] += edge_start_[i];
  edges_.resize(edge_start_[n]);
  std::vector<std::size_t> next(edge_start_.begin(), edge_start_.end() - 1);
  for (std::uint32_t e = 0; e < phase.communications.size(); ++e) {
    const ObjectCommunication& c = phase.communications[e];
    edges_[next[c.from]++] = e;
    if (c.to != c.from) edges_[next[c.to]++] = e;
  }
  // A block's homes: where the phase's own mapping has its objects.
  homes_.assign(phase.block_bytes.size(), {});
  holders_.assign(phase.block_bytes.size(), {});
  for (std::size_t i = 0; i < n; ++i)
    if (const std::int32_t b = phase.objects[i].memory.block; b >= 0) homes_[b].push_back(phase.node_of[i]);
  for (auto& h : homes_) {
    std::sort(h.begin(), h.end());
    h.erase(std::unique(h.begin(), h.end()), h.end());
  }
  for (std::size_t i = 0; i < n; ++i)
    if (const std::int32_t b = phase.objects[i].memory.block; b >= 0) {
      auto& holders = holders_[b];
      const auto it = std::find_if(holders.begin(), holders.end(), [&](const auto& h) { return h.first == mapping[i]; });
      if (it != holders.end()) ++it->second;
      else holders.emplace_back(mapping[i], 1);
    }
  for (std::size_t b = 0; b < holders_.size(); ++b)
    for (const auto& [node, objects] : holders_[b])
      if (!home(static_cast<std::int32_t>(b), node)) homing_[node] += phase.block_bytes[b];
}

double NodeWork::work(NodeId node, const Terms& t) const {
  return alpha_of(*phase_, node) * t.load + model_.beta * std::max(t.sent, t.received) + model_.gamma +
         model_.delta * t.homing + model_.intra * t.local;
}

bool NodeWork::home(std::int32_t block, NodeId node) const {
  return std::binary_search(homes_[block].begin(), homes_[block].end(), node);
}

std::uint32_t NodeWork::held(std::int32_t block, NodeId node) const {
  for (const auto& [v, objects] : holders_[block])
    if (v == node) return objects;
  return 0;
}

std::pair<double, double> NodeWork::after(std::span<const ObjectIndex> out, NodeId from, NodeId to,
                                          std::span<const ObjectIndex> back) const {
  const auto& objects = phase_->objects;
  Terms f{loads_[from], sent_[from], received_[from], local_[from], homing_[from]},
      t{loads_[to], sent_[to], received_[to], local_[to], homing_[to]};
  for (ObjectIndex i : out) f.load -= objects[i].load, t.load += objects[i].load;
  for (ObjectIndex i : back) t.load -= objects[i].load, f.load += objects[i].load;
  if (model_.weighs_placement()) {
    // Where each object is after the transfer: a moved object's new node, else its own.
    for (ObjectIndex i : out) moving_[i] = 1;
    for (ObjectIndex i : back) moving_[i] = 2;
    const auto moved_to = [&](ObjectIndex i) { return moving_[i] == 1 ? to : moving_[i] == 2 ? from : mapping_[i]; };
    // A crossing message counts on its two ends, a local one on its node; only `from` and
    // `to` are kept here.
    const auto count = [&](NodeId a, NodeId b, double bytes) {
      for (auto [node, terms] : {std::pair{from, &f}, {to, &t}}) {
        if (a == b && a == node) terms->local += bytes;
        if (a != b && a == node) terms->sent += bytes;
        if (a != b && b == node) terms->received += bytes;
      }
    };
    for (const auto& moving : {out, back})
      for (ObjectIndex i : moving)
        for (std::size_t k = edge_start_[i]; k < edge_start_[i + 1]; ++k) {
          const ObjectCommunication& c = phase_->communications[edges_[k]];
          const ObjectIndex other = c.from == i ? c.to : c.from;
          const NodeId other_to = moved_to(other);
          if (other_to != mapping_[other] && other < i) continue;  // counted from the other end
          count(mapping_[c.from], mapping_[c.to], -c.bytes);
          count(moved_to(c.from), moved_to(c.to), c.bytes);
        }
    // Each block whose objects move: whether `from` and `to` hold it before and after.
    std::vector<std::pair<std::int32_t, long long>> blocks;  // block, objects gained by `to`
    for (const auto& [moving, sign] : {std::pair{out, 1LL}, {back, -1LL}})
      for (ObjectIndex i : moving)
        if (const std::int32_t b = objects[i].memory.block; b >= 0) {
          const auto it = std::find_if(blocks.begin(), blocks.end(), [&](const auto& x) { return x.first == b; });
          if (it != blocks.end()) it->second += sign;
          else blocks.emplace_back(b, sign);
        }
    for (ObjectIndex i : out) moving_[i] = 0;
    for (ObjectIndex i : back) moving_[i] = 0;
    for (const auto& [b, gained] : blocks) {
      const long long at_from = held(b, from), at_to = held(b, to);
      const double bytes = phase_->block_bytes[b];
      if (!home(b, from)) f.homing += bytes * ((at_from - gained > 0) - (at_from > 0));
      if (!home(b, to)) t.homing += bytes * ((at_to + gained > 0) - (at_to > 0));
    }
  }
  return {work(from, f), work(to, t)};
}

void NodeWork::move(ObjectIndex object, NodeId from, NodeId to) {
  if (from == to) return;
  loads_[from] -= phase_->objects[object].load;
  loads_[to] += phase_->objects[object].load;
  if (!model_.weighs_placement()) return;
  const auto count = [&](NodeId a, NodeId b, double bytes) {
    if (a == b) {
      local_[a] += bytes;
      return;
    }
    sent_[a] += bytes;
    received_[b] += bytes;
  };
  for (std::size_t k = edge_start_[object]; k < edge_start_[object + 1]; ++k) {
    const ObjectCommunication& c = phase_->communications[edges_[k]];
    count(mapping_[c.from], mapping_[c.to], -c.bytes);
  }
  mapping_[object] = to;
  for (std::size_t k = edge_start_[object]; k < edge_start_[object + 1]; ++k) {
    const ObjectCommunication& c = phase_->communications[edges_[k]];
    count(mapping_[c.from], mapping_[c.to], c.bytes);
  }
  if (const std::int32_t b = phase_->objects[object].memory.block; b >= 0) {
    auto& holders = holders_[b];
    const auto at = [&](NodeId v) {
      auto it = std::find_if(holders.begin(), holders.end(), [&](const auto& h) { return h.first == v; });
      return it != holders.end() ? it : holders.insert(holders.end(), {v, 0});
    };
    const auto f = at(from);
    if (--f->second == 0) {
      if (!home(b, from)) homing_[from] -= phase_->block_bytes[b];
      holders.erase(f);
    }
    const auto t = at(to);
    if (++t->second == 1 && !home(b, to)) homing_[to] += phase_->block_bytes[b];
  }
}

}  // namespace dlbkit
