#include <dlbkit/sim/load_history.hpp>

#include <algorithm>
#include <cassert>

namespace dlbkit {

LoadHistory::LoadHistory(std::size_t nodes, std::size_t bins)
    : bins_(bins != 0 ? bins : std::clamp<std::size_t>((std::size_t{1} << 24) / std::max<std::size_t>(1, nodes), 16, 256)),
      sum_(nodes * bins_, 0.0),
      last_load_(nodes, 0),
      last_change_(nodes, 0) {
  bins_ += bins_ % 2;  // merging takes pairs
  sum_.resize(nodes * bins_, 0.0);
}

void LoadHistory::grow(SimTime t) {
  while (t > static_cast<SimTime>(bins_) * width_) {
    const std::size_t half = bins_ / 2;
    for (std::size_t v = 0; v < last_load_.size(); ++v) {
      double* row = &sum_[v * bins_];
      for (std::size_t i = 0; i < half; ++i) row[i] = row[2 * i] + row[2 * i + 1];
      std::fill(row + half, row + bins_, 0.0);
    }
    width_ *= 2;
  }
}

void LoadHistory::add(NodeId node, SimTime until) {
  grow(until);
  const double load = static_cast<double>(last_load_[node]);
  double* row = &sum_[node * bins_];
  for (SimTime from = last_change_[node]; from < until;) {
    const auto i = static_cast<std::size_t>(from / width_);
    const SimTime to = std::min(until, static_cast<SimTime>(i + 1) * width_);
    row[i] += load * static_cast<double>(to - from);
    from = to;
  }
  last_change_[node] = until;
}

void LoadHistory::on_load(NodeId node, std::int64_t load, SimTime t) {
  add(node, t);
  last_load_[node] = load;
  end_ = std::max(end_, t);
}

void LoadHistory::finish(SimTime end) {
  end = std::max({end, end_, SimTime{1}});
  end_ = end;
  for (NodeId v = 0; v < last_load_.size(); ++v) add(v, end);
  used_ = static_cast<std::size_t>((end + width_ - 1) / width_);
  assert(used_ <= bins_);
}

double LoadHistory::load(NodeId node, std::size_t i) const {
  const SimTime begin = static_cast<SimTime>(i) * width_;
  return sum_[node * bins_ + i] / static_cast<double>(std::min(width_, end_ - begin));
}

}  // namespace dlbkit
