#include <dlbkit/apps/bnb_workload.hpp>
#include <dlbkit/sim/closed_workload.hpp>
#include <dlbkit/error.hpp>

#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace dlbkit {

namespace {

class BranchAndBound final : public ClosedWorkload {
public:
  BranchAndBound(const Parameters& p, std::optional<TardinessInstance> fixed)
      : fixed_(std::move(fixed)),
        m_(static_cast<int>(p.integer("m"))),
        threshold_(p.is_auto("threshold") ? std::nullopt : std::optional<double>(p.real("threshold"))),
        slack_(p.real("slack")),
        step_time_(p.duration("step_time")),
        cyclic_(p.text("placement") == "cyclic") {
    if (!fixed_) {
      n_ = static_cast<int>(p.integer("n"));
      if (!p.is_auto("instance_seed")) instance_seed_ = static_cast<std::uint64_t>(p.integer("instance_seed"));
      generator_ = {.tardiness_factor = p.real("tardiness_factor"), .due_date_range = p.real("due_date_range")};
    } else {
      n_ = fixed_->jobs();
    }
    if (m_ > n_)
      throw InputError(fmt::format("workload bnb: parameter m={} is not accepted for n = {} jobs; accepted: 1 to {}", m_, n_, n_));
  }

  void initial_tasks(const Topology& topology, const CostModel&, Rng& rng, TaskSink& sink) override {
    TardinessInstance instance;
    if (fixed_) {
      instance = *fixed_;
    } else if (instance_seed_) {
      Rng own(*instance_seed_);
      instance = generate_tardiness_instance(n_, own, generator_);
    } else {
      instance = generate_tardiness_instance(n_, rng, generator_);
    }
    std::int64_t threshold = kNoTardinessThreshold;
    std::optional<std::int64_t> optimum;
    if (!threshold_) {
      optimum = solve_tardiness(instance).tardiness;
      threshold = static_cast<std::int64_t>(std::floor(static_cast<double>(*optimum) * (1 + slack_)));
    } else if (!std::isinf(*threshold_)) {
      threshold = static_cast<std::int64_t>(*threshold_);
    }
    const TardinessDecomposition tasks = decompose_tardiness(instance, m_, threshold);
    if (tasks.tasks.empty()) {
      if (!optimum) optimum = solve_tardiness(instance).tardiness;
      throw InputError(fmt::format("workload bnb: threshold={} leaves no task; accepted: a threshold >= the optimum {}",
                                   threshold, *optimum));
    }
    const std::size_t s = tasks.tasks.size(), N = topology.size();
    for (std::size_t i = 0; i < s; ++i) {
      const std::uint64_t steps = count_schedules_within(instance, threshold, tasks.tasks[i].prefix).steps;
      const auto node = static_cast<NodeId>(cyclic_ ? i % N : i * N / s);
      SimTime work;
      if (__builtin_mul_overflow(static_cast<SimTime>(steps), step_time_, &work) || work > 1'000'000 * kSecond)
        throw InputError(fmt::format("bnb: a task of {} search steps at step_time={} takes more than 1e6 s; accepted: "
                                     "a shorter step_time or a smaller task dimension m",
                                     steps, format_duration(step_time_)));
      sink.add(node, work, static_cast<std::uint32_t>(i));
    }
  }

private:
  std::optional<TardinessInstance> fixed_;
  int n_ = 0;
  int m_;
  std::optional<std::uint64_t> instance_seed_;
  TardinessGeneratorParams generator_;
  std::optional<double> threshold_;
  double slack_;
  SimTime step_time_;
  bool cyclic_;
};

std::vector<ParamSpec> search_params() {
  return {
      {.name = "m", .type = ParamType::integer, .default_value = "8",
       .description = "task dimension: jobs left free in each task, 1 to n (Table V: 6 to 9)", .min = 1,
       .max = kMaxTardinessJobs},
      {.name = "threshold", .type = ParamType::integer, .default_value = "auto",
       .description = "fixed tardiness threshold: schedules with total tardiness <= it are all found; "
                      "auto = floor(optimum (1 + slack))",
       .min = 0, .max = 1e15, .allow_inf = true, .allow_auto = true},
      {.name = "slack", .type = ParamType::real, .default_value = "0.1",
       .description = "with threshold=auto: the threshold's margin over the optimum", .min = 0, .max = 1e6},
      {.name = "step_time", .type = ParamType::duration, .default_value = "150us",
       .description = "processor time of one search step (WLR93 Sec. V-C: about 150 us)", .min = 1},
      {.name = "placement", .type = ParamType::choice, .default_value = "blocks",
       .description = "how the tasks, in depth-first order, are dealt to the nodes: contiguous blocks "
                      "(each node its own branch, as in the paper) or cyclic",
       .choices = {"blocks", "cyclic"}},
  };
}

}  // namespace

WorkloadInfo bnb_workload_info() {
  std::vector<ParamSpec> params = {
      {.name = "n", .type = ParamType::integer, .default_value = "11",
       .description = "jobs in the generated instance (Table V: 11)", .min = 1, .max = kMaxTardinessJobs},
      {.name = "instance_seed", .type = ParamType::integer, .default_value = "auto",
       .description = "seed of the generated instance; auto = drawn from the run's workload stream", .min = 0,
       .max = 9e15, .allow_auto = true},
      {.name = "tardiness_factor", .type = ParamType::real, .default_value = "0.6",
       .description = "generator's TF: due dates earlier as it grows", .min = 0, .max = 1},
      {.name = "due_date_range", .type = ParamType::real, .default_value = "0.6",
       .description = "generator's RDD: spread of the due dates", .min = 0, .max = 1},
  };
  for (ParamSpec& spec : search_params()) params.push_back(std::move(spec));
  return WorkloadInfo{
      .name = "bnb",
      .description = "branch-and-bound total tardiness: subtrees at depth n-m as tasks, work = real search steps x step_time",
      .source = "WLR93 Sec. V-C, Table V, Fig. 8",
      .params = std::move(params),
      .create = [](const Parameters& p) { return std::make_unique<BranchAndBound>(p, std::nullopt); },
  };
}

WorkloadInfo bnb_workload_info(TardinessInstance instance) {
  return WorkloadInfo{
      .name = "bnb",
      .description = fmt::format("branch-and-bound total tardiness on a fixed {}-job instance", instance.jobs()),
      .source = "WLR93 Sec. V-C, Table V, Fig. 8",
      .params = search_params(),
      .create = [instance = std::move(instance)](const Parameters& p) { return std::make_unique<BranchAndBound>(p, instance); },
  };
}

}  // namespace dlbkit
