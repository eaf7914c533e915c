#include <dlbkit/sim/workload.hpp>

#include <cmath>

namespace dlbkit {

namespace {

/// The open queueing workload of AG91 Sec. 6: tasks arrive at every node in a Poisson
/// process of rate lambda, each needing an exponential service time of mean 1/mu (1 s by
/// default, the time unit); the system load is lambda/mu. N independent Poisson processes
/// of rate lambda are one of rate N lambda whose arrivals pick a node uniformly at random.
/// The run ends when `tasks` tasks have arrived and completed.
///
/// ```
/// auto w = dlbkit::builtin_workloads().configure("poisson", {{"load", "0.8"}, {"tasks", "20000"}}).create();
/// ```
class Poisson final : public Workload {
public:
  static constexpr const char* name = "poisson";
  static constexpr const char* description = "open system: Poisson arrivals at every node, exponential service times";
  static constexpr const char* source = "AG91 Sec. 6";
  static constexpr RealParam kLoad{.name = "load", .default_value = "0.8",
      .description = "system load lambda/mu (AG91: 0.1 to 0.9)", .min = 0.001, .max = 0.999};
  // At most 1e4 s: an exponential draw is at most 37.5 means (Rng::uniform_open() >=
  // 2^-54), so every task stays within the simulator's 1e6 s.
  static constexpr DurationParam kServiceMean{.name = "service_mean", .default_value = "1s",
      .description = "1/mu: mean service time, the time unit", .min = 1000, .max = 1e13};
  static constexpr IntegerParam kTasks{.name = "tasks", .default_value = "20000",
      .description = "tasks arriving in one run (AG91: 20,000 to 100,000)", .min = 1, .max = 1e9};
  static std::vector<ParamSpec> params() { return {kLoad, kServiceMean, kTasks}; }

  explicit Poisson(const Parameters& p)
      : load_(p[kLoad]), service_(static_cast<double>(p[kServiceMean])), tasks_(p[kTasks]) {}

  void initial_tasks(const Topology& topology, const CostModel&, Rng&, TaskSink&) override { nodes_ = topology.size(); }

  std::optional<Arrival> next_arrival(SimTime now, Rng& rng) override {
    if (arrived_ == tasks_) return std::nullopt;
    ++arrived_;
    // Rate N lambda in total, lambda = load / service mean (AG91 Sec. 6).
    const double rate = static_cast<double>(nodes_) * load_ / service_;
    clock_ += rng.exponential(rate);  // kept in double so rounding does not accumulate
    const auto node = static_cast<NodeId>(rng.below(nodes_));
    const auto work = std::max<SimTime>(1, static_cast<SimTime>(std::llround(rng.exponential(1.0 / service_))));
    return Arrival{std::max(now, static_cast<SimTime>(std::llround(clock_))), node, work};
  }

private:
  double load_;
  double service_;
  long long tasks_;
  long long arrived_ = 0;
  double clock_ = 0;
  std::size_t nodes_ = 1;
};

}  // namespace

WorkloadInfo poisson_workload_info() { return workload_info<Poisson>(); }

}  // namespace dlbkit
