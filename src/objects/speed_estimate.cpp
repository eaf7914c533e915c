#include <dlbkit/objects/speed_estimate.hpp>

#include <algorithm>
#include <cmath>

namespace dlbkit {

namespace {

// A moved object's sample keeps this share of its weight in the next phase, and is dropped
// after kPhases: older phases fade, so that a worker whose speed changes is followed within
// several phases, while a strategy that moves few objects (refine) keeps enough of them that
// a phase's stretched times do not outvote them.
constexpr double kKeep = 0.9;
constexpr int kPhases = 20;
// A pair of workers is read from this many samples on: their median outvotes one stretched time.
constexpr std::size_t kSamples = 3;

}  // namespace

double SpeedEstimate::median(std::vector<Sample> samples) {
  std::sort(samples.begin(), samples.end(),
            [](const Sample& a, const Sample& b) { return std::pair(a.log_ratio, a.weight) < std::pair(b.log_ratio, b.weight); });
  double total = 0;
  for (const Sample& s : samples) total += s.weight;
  double below = 0;
  for (const Sample& s : samples) {
    below += s.weight;
    if (below >= total / 2) return s.log_ratio;
  }
  return samples.back().log_ratio;
}

SpeedEstimate::SpeedEstimate(std::size_t workers) : speeds_(workers, 1.0) {}

void SpeedEstimate::observe(std::span<const NodeId> workers, std::span<const double> times) {
  for (auto& [pair, link] : links_)
    std::erase_if(link.samples, [](Sample& s) {
      s.weight *= kKeep;
      return ++s.age >= kPhases;
    });
  bool moved = false;
  if (earlier_.times.size() == times.size() && last_.times.size() == times.size())
    for (std::size_t i = 0; i < times.size(); ++i) {
      // Before the move, the time of the phase before the last: the strategy chose the object
      // by the last one, and an object moved for a time stretched by a pause would otherwise
      // read as a fast destination.
      NodeId a = last_.workers[i], b = workers[i];
      const double before = earlier_.times[i], now = times[i];
      if (a == b || earlier_.workers[i] != a || !(before > 0) || !(now > 0)) continue;
      double log_ratio = std::log(before / now);  // log s_b - log s_a
      if (a > b) {
        std::swap(a, b);
        log_ratio = -log_ratio;
      }
      // Each object alike: a weight by its times would weigh those a pause stretched more.
      links_[{a, b}].samples.push_back({log_ratio, 1, 0});
      moved = true;
    }
  earlier_ = std::move(last_);
  last_.workers.assign(workers.begin(), workers.end());
  last_.times.assign(times.begin(), times.end());
  if (!moved) return;
  std::erase_if(links_, [](const auto& entry) { return entry.second.samples.empty(); });
  for (auto& [pair, link] : links_) {
    link.difference = median(link.samples);
    link.weight = 0;
    if (link.samples.size() >= kSamples)
      for (const Sample& s : link.samples) link.weight += s.weight;
  }
  fit();
}

void SpeedEstimate::renumber(std::span<const ObjectIndex> old_of) {
  for (Past* past : {&last_, &earlier_}) {
    Past now{std::vector<NodeId>(old_of.size(), 0), std::vector<double>(old_of.size(), 0.0)};  // 0: no past
    for (std::size_t k = 0; k < old_of.size(); ++k)
      if (old_of[k] != none && old_of[k] < past->times.size()) {
        now.workers[k] = past->workers[old_of[k]];
        now.times[k] = past->times[old_of[k]];
      }
    *past = std::move(now);
  }
}

// Minimises sum over the links of weight x (x_b - x_a - difference)^2, x the log speeds, by
// conjugate gradients on its normal equations L x = c (L the links' weighted Laplacian) from
// the current estimate. Each step moves x within L's range, which is orthogonal to every
// group of linked workers' constant vector: each group keeps its mean, an unlinked worker
// its value.
void SpeedEstimate::fit() {
  const std::size_t n = speeds_.size();
  std::vector<double> x(n), c(n, 0.0);
  for (std::size_t v = 0; v < n; ++v) x[v] = std::log(speeds_[v]);
  for (const auto& [pair, link] : links_) {
    c[pair.second] += link.weight * link.difference;
    c[pair.first] -= link.weight * link.difference;
  }
  const auto laplacian = [&](const std::vector<double>& in, std::vector<double>& out) {
    std::fill(out.begin(), out.end(), 0.0);
    for (const auto& [pair, link] : links_) {
      const double flow = link.weight * (in[pair.first] - in[pair.second]);
      out[pair.first] += flow;
      out[pair.second] -= flow;
    }
  };
  const auto dot = [](const std::vector<double>& a, const std::vector<double>& b) {
    double sum = 0;
    for (std::size_t v = 0; v < a.size(); ++v) sum += a[v] * b[v];
    return sum;
  };
  std::vector<double> r(n), lp(n);
  laplacian(x, r);
  for (std::size_t v = 0; v < n; ++v) r[v] = c[v] - r[v];
  std::vector<double> p = r;
  double rr = dot(r, r);
  const double tolerance = 1e-24 * std::max(dot(c, c), 1e-300);
  for (std::size_t step = 0; step < 2 * n + 10 && rr > tolerance; ++step) {
    laplacian(p, lp);
    const double curvature = dot(p, lp);
    if (!(curvature > 0)) break;
    const double alpha = rr / curvature;
    for (std::size_t v = 0; v < n; ++v) {
      x[v] += alpha * p[v];
      r[v] -= alpha * lp[v];
    }
    const double next = dot(r, r);
    for (std::size_t v = 0; v < n; ++v) p[v] = r[v] + next / rr * p[v];
    rr = next;
  }
  for (std::size_t v = 0; v < n; ++v) speeds_[v] = std::exp(x[v]);
}

}  // namespace dlbkit
