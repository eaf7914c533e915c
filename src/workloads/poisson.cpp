#include <dlbkit/workloads/poisson.hpp>

#include <cmath>

namespace dlbkit {

namespace {

class Poisson final : public Workload {
public:
  explicit Poisson(const Parameters& p)
      : load_(p.real("load")), service_(static_cast<double>(p.duration("service_mean"))), tasks_(p.integer("tasks")) {}

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

WorkloadInfo poisson_workload_info() {
  return WorkloadInfo{
      .name = "poisson",
      .description = "open system: Poisson arrivals at every node, exponential service times",
      .source = "AG91 Sec. 6",
      .params =
          {
              {.name = "load", .type = ParamType::real, .default_value = "0.8",
               .description = "system load lambda/mu (AG91: 0.1 to 0.9)", .min = 0.001, .max = 0.999},
              // At most 1e4 s: an exponential draw is at most 37.5 means (Rng::uniform_open() >=
              // 2^-54), so every task stays within the simulator's 1e6 s.
              {.name = "service_mean", .type = ParamType::duration, .default_value = "1s",
               .description = "1/mu: mean service time, the time unit", .min = 1000, .max = 1e13},
              {.name = "tasks", .type = ParamType::integer, .default_value = "20000",
               .description = "tasks arriving in one run (AG91: 20,000 to 100,000)", .min = 1, .max = 1e9},
          },
      .create = [](const Parameters& p) { return std::make_unique<Poisson>(p); },
  };
}

}  // namespace dlbkit
