#include <dlbkit/error.hpp>
#include <dlbkit/workloads/dynamic_load.hpp>
#include <dlbkit/workloads/load_metrics.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace dlbkit {

namespace {

// Where relocated processes go: to a random neighbour of the old node (probability q), or
// to the current hot spot, whose domain (the hot spot and its neighbours) receives them as a
// group, one process per node, once as many have been relocated; the hot spot moves to a
// random node after receiving g processes.
class Placement {
public:
  Placement(const Topology& t, double q, double g) : topology_(&t), q_(q), g_(std::max(1.0, g)) {}

  /// Appends where the replacement of a process relocated from `from` is created now (none
  /// while a hot-spot group is still gathering).
  void relocate(NodeId from, Rng& rng, std::vector<NodeId>& out) {
    const auto nb = topology_->neighbors(from);
    if (!nb.empty() && rng.uniform() < q_) {
      out.push_back(nb[rng.below(nb.size())]);
      return;
    }
    if (!hot_ready_ || received_ >= g_) {
      hot_ = static_cast<NodeId>(rng.below(topology_->size()));
      hot_ready_ = true;
      received_ = 0;
    }
    const auto domain = topology_->neighbors(hot_);
    if (++gathered_ <= domain.size()) return;
    gathered_ = 0;
    out.push_back(hot_);
    out.insert(out.end(), domain.begin(), domain.end());
    received_ += static_cast<double>(domain.size() + 1);
  }

private:
  const Topology* topology_;
  double q_, g_;
  NodeId hot_ = 0;
  bool hot_ready_ = false;
  double received_ = 0;
  std::size_t gathered_ = 0;
};

// The load process alone: every node with load relocates at rate r (the Poisson stream of
// completions of a busy processor-sharing node thinned by p), measured over `events`
// relocations with the paper's indicators.
LoadChange measure_model(const Topology& t, double g, double r, double q, SimTime delta_t, int events) {
  const std::size_t n = t.size();
  Rng rng(0x5A4D, 7);  // fixed: calibration is deterministic
  Placement place(t, q, g);
  std::vector<double> load(n, g), change(n, 0.0);
  const double dt = static_cast<double>(delta_t) * 1e-9;
  double time = 0, mu = g;
  long long interval = 0;
  LoadChange sum;
  std::vector<NodeId> to;
  auto close = [&] {
    const LoadChange c = load_change(t, change, mu);
    sum.dsigma += c.dsigma;
    sum.ddelta += c.ddelta;
    std::fill(change.begin(), change.end(), 0.0);
  };
  for (int e = 0; e < events; ++e) {
    time += rng.exponential(r * static_cast<double>(n));
    const auto k = static_cast<long long>(time / dt);
    if (k != interval) {
      close();
      interval = k;
    }
    NodeId from;
    do from = static_cast<NodeId>(rng.below(n));
    while (load[from] < 1);
    load[from] -= 1;
    change[from] -= 1;
    to.clear();
    place.relocate(from, rng, to);
    for (NodeId v : to) {
      load[v] += 1;
      change[v] += 1;
    }
  }
  close();
  const double seconds = time;
  return {sum.dsigma / seconds, sum.ddelta / seconds};
}

constexpr int kCalibrationEvents = 4000;

class DynamicLoad final : public Workload {
public:
  static constexpr const char* name = "dynamic_load";
  static constexpr const char* description =
      "Zambonelli's dummy processes: g per node, relocated at a calibrated dynamicity "
      "(delta-sigma/s) and dispersion (delta-delta/delta-sigma); use with --execution ps";
  static constexpr const char* source =
      "Zambonelli Sec. 4, 4.1 (indicators); generator model ours (docs/reproductions/zambonelli.md)";
  static constexpr IntegerParam kGranularity{.name = "granularity", .default_value = "20",
      .description = "g: processes per node on average (Sec. 4: 20)", .min = 1, .max = 1e6};
  static constexpr RealParam kDynamicity{.name = "dynamicity", .default_value = "1",
      .description = "delta-sigma per second of the generated load (0: static)", .min = 0, .max = 1e4};
  static constexpr RealParam kDispersion{.name = "dispersion", .default_value = "0.5",
      .description = "delta-delta / delta-sigma of the generated load (Sec. 4: 0.3 to 0.7)", .min = 0,
      .max = 1};
  static constexpr DurationParam kWork{.name = "work", .default_value = "50ms",
      .description = "mean work of a process (exponential)", .min = 1e3, .max = 1e12};
  static constexpr DurationParam kDeltaT{.name = "delta_t", .default_value = "10ms",
      .description = "the interval Delta t of the indicators (Sec. 4.1)", .min = 1e3, .max = 1e12};
  static constexpr DurationParam kDuration{.name = "duration", .default_value = "20s",
      .description = "replace completed processes for about this long (duration N / work of them)",
      .min = 0, .max = 1e13};
  static constexpr ChoiceParam kInitial{.name = "initial", .default_value = "random",
      .description = "initial loads: uniform (g each), random (uniform in 0..2g), halves (each node 0 or "
                     "2g, evenly likely), gradient (g/2 at node "
                     "0, then floor(gradient x) per hop of distance from it: Fig. 2)",
      .choices = {"uniform", "random", "halves", "gradient"}};
  static constexpr RealParam kNearFraction{.name = "near_fraction", .default_value = "auto",
      .description = "q: share of relocations to a neighbour, the rest to hot spots; auto = calibrated "
                     "from dispersion (which a given q replaces)",
      .min = 0, .max = 1, .allow_auto = true};
  static constexpr RealParam kGradient{.name = "gradient", .default_value = "1.2",
      .description = "the gradient initial loads' ratio per hop", .min = 1, .max = 10};
  static std::vector<ParamSpec> params() {
    return {kGranularity, kDynamicity, kDispersion, kWork, kDeltaT, kDuration, kInitial, kNearFraction, kGradient};
  }

  explicit DynamicLoad(const Parameters& p)
      : g_(p[kGranularity]),
        dynamicity_(p[kDynamicity]),
        dispersion_(p[kDispersion]),
        work_(p[kWork]),
        delta_t_(p[kDeltaT]),
        duration_(p[kDuration]),
        initial_(p[kInitial]),
        gradient_(p[kGradient]),
        near_auto_(p.is_auto(kNearFraction)),
        near_fraction_(near_auto_ ? 0.0 : p[kNearFraction]) {}

  void initial_tasks(const Topology& topology, const CostModel&, Rng& rng, TaskSink& sink) override {
    const auto n = topology.size();
    const double g = static_cast<double>(g_);
    if (dynamicity_ > 0) {
      const DynamicLoadCalibration c =
          near_auto_ ? calibrate_dynamic_load(topology, g, dynamicity_, dispersion_, delta_t_)
                     : calibrate_dynamic_load(topology, g, dynamicity_, -near_fraction_, delta_t_);
      p_ = c.relocation_rate * static_cast<double>(work_) * 1e-9;
      if (p_ > 1)
        throw InputError(fmt::format("dynamic_load: dynamicity={:g} needs {:.3g} relocations per node per second, "
                                     "but processes of work={} complete at most {:.3g} per node per second; accepted: "
                                     "a shorter work or a lower dynamicity",
                                     dynamicity_, c.relocation_rate, format_duration(work_),
                                     1e9 / static_cast<double>(work_)));
      placement_.emplace(topology, c.near_fraction, g);
    } else {
      placement_.emplace(topology, 1.0, g);
    }
    // Fig. 2: L(0) = g / 2 at node 0, then L(d) = floor(ratio L(d - 1)) at distance d, so that no
    // neighbour pair differs by more than the ratio.
    std::vector<int> distance;
    std::vector<long long> by_distance;
    if (initial_ == kInitial.choice("gradient")) {
      distance = topology.bfs_distances(0);
      by_distance.push_back(std::max<long long>(1, g_ / 2));
      for (int d = 1; d <= topology.diameter(); ++d)
        by_distance.push_back(static_cast<long long>(std::floor(gradient_ * static_cast<double>(by_distance.back()))));
      if (by_distance.back() > 1'000'000)
        throw InputError(fmt::format("dynamic_load: gradient={:g} over a diameter of {} makes {} processes on one "
                                     "node; accepted: at most 1e6",
                                     gradient_, topology.diameter(), by_distance.back()));
    }
    for (NodeId i = 0; i < n; ++i) {
      long long count = g_;
      if (initial_ == kInitial.choice("random")) count = static_cast<long long>(rng.below(static_cast<std::uint64_t>(2 * g_ + 1)));
      else if (initial_ == kInitial.choice("halves")) count = rng.below(2) == 0 ? 0 : 2 * g_;
      else if (initial_ == kInitial.choice("gradient"))
        count = by_distance[static_cast<std::size_t>(distance[i])];
      for (long long j = 0; j < count; ++j) sink.add(i, draw_work(rng));
    }
    budget_ = static_cast<long long>(std::llround(static_cast<double>(duration_) / static_cast<double>(work_) *
                                                  static_cast<double>(n)));
  }

  void on_completed(const Task&, NodeId node, Rng& rng, TaskSink& sink) override {
    if (replaced_ >= budget_) return;
    ++replaced_;
    if (!(p_ > 0 && rng.uniform() < p_)) {
      sink.add(node, draw_work(rng));
      return;
    }
    to_.clear();
    placement_->relocate(node, rng, to_);
    for (NodeId v : to_) sink.add(v, draw_work(rng));
  }

private:
  SimTime draw_work(Rng& rng) const {
    return std::max<SimTime>(1, std::llround(rng.exponential(1.0 / static_cast<double>(work_))));
  }

  long long g_;
  double dynamicity_, dispersion_;
  SimTime work_, delta_t_, duration_;
  std::string initial_;
  double gradient_;
  bool near_auto_;
  double near_fraction_;
  double p_ = 0;
  std::optional<Placement> placement_;
  std::vector<NodeId> to_;
  long long budget_ = 0, replaced_ = 0;
};

}  // namespace

DynamicLoadCalibration calibrate_dynamic_load(const Topology& topology, double granularity, double dynamicity,
                                              double dispersion, SimTime delta_t) {
  DynamicLoadCalibration c;
  if (dynamicity <= 0) return c;
  // Sparse changes (at most one relocation per interval): each gives partial-sigma =
  // sqrt(2 / N) / mu, so delta-sigma per second = r N sqrt(2 / N) / mu. Start there, then
  // correct by measurement: delta-sigma grows like r^a with a <= 1 (a = 1/2 when every node
  // changes in every interval), so scaling r by target / measured approaches from one side.
  const auto n = static_cast<double>(topology.size());
  double r = dynamicity * granularity / std::sqrt(2.0 * n);
  auto ratio = [&](double q) {
    const LoadChange m = measure_model(topology, granularity, r, q, delta_t, kCalibrationEvents);
    return m.ddelta / m.dsigma;
  };
  auto fit_q = [&] {
    if (std::signbit(dispersion)) return -dispersion;  // q given
    const double lo = ratio(1.0), hi = ratio(0.0);  // all to neighbours, all to hot spots
    if (dispersion < lo - 0.01 || dispersion > hi + 0.01)
      throw InputError(fmt::format("dynamic_load: dispersion={:g} is out of reach at dynamicity={:g} on {}; "
                                   "accepted: {:.2f} to {:.2f}",
                                   dispersion, dynamicity, topology.spec(), lo, hi));
    double a = 0, b = 1;  // ratio falls as q grows
    for (int i = 0; i < 14; ++i) {
      const double m = (a + b) / 2;
      (ratio(m) > dispersion ? a : b) = m;
    }
    return (a + b) / 2;
  };
  for (int iteration = 0; iteration < 6; ++iteration) {
    if (iteration < 2) c.near_fraction = fit_q();
    const LoadChange m = measure_model(topology, granularity, r, c.near_fraction, delta_t, kCalibrationEvents);
    r *= dynamicity / m.dsigma;
  }
  c.near_fraction = fit_q();
  c.relocation_rate = r;
  const LoadChange m = measure_model(topology, granularity, r, c.near_fraction, delta_t, kCalibrationEvents);
  c.dsigma_per_second = m.dsigma;
  c.ddelta_per_second = m.ddelta;
  return c;
}

WorkloadInfo dynamic_load_workload_info() { return workload_info<DynamicLoad>(); }

}  // namespace dlbkit
