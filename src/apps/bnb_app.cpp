// The `bnb` app: the depth-first branch and bound for total tardiness of WLR93 Sec. V-C
// (eq. 37) as runtime tasks, on the tree of tasks apps/bnb_search.hpp describes (the one
// the simulator's `bnb` workload walks with placement=tree).
//
// Optimise mode (the default): the bound is the best known total tardiness, shared by all
// workers. Pruning is solve_tardiness's: the EDD schedule is the first incumbent, and a
// prefix whose partial tardiness is >= the best known total is cut. Every better complete
// schedule lowers the shared bound (TaskContext::offer_bound). The optimum therefore equals
// solve_tardiness's; the schedule found first may differ between runs when several are
// optimal, and the steps depend on when bounds arrive.
//
// Threshold mode (mode=threshold): WLR93's fixed requirement. Every schedule with total
// tardiness <= the threshold is counted; the bound never moves, so the steps, the tasks and
// the count equal count_schedules_within's whatever the timing.

#include <dlbkit/apps/bnb_search.hpp>
#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <optional>

namespace dlbkit {

namespace {

using Prefix = BnbTaskTree::Prefix;

[[noreturn]] void fail_step_budget() {
  throw InputError(fmt::format("app bnb: a worker's search passed {:.0e} steps (minutes of search) and was stopped; "
                               "accepted: instances that search fewer (fewer jobs n, or mode=threshold with a lower "
                               "threshold)",
                               static_cast<double>(kTardinessStepBudget)));
}

struct Best {
  std::int64_t tardiness;
  std::array<std::uint8_t, BnbTaskTree::kMaxJobs> schedule;  // EDD labels
  std::uint64_t steps;
  std::uint64_t schedules;  // threshold mode: complete schedules within the threshold
};

class Bnb final : public ReportedApplication<Prefix, Best> {
public:
  Bnb(const TardinessInstance& instance, int m, std::optional<std::int64_t> threshold)
      : tree_(instance, m), threshold_(threshold) {}

  std::int64_t initial_bound() const override {
    return threshold_ ? threshold_bound(*threshold_) : tree_.edd_tardiness();
  }

  Best identity() const override {
    Best b{tree_.edd_tardiness(), {}, 0, 0};
    for (int k = 0; k < tree_.jobs(); ++k) b.schedule[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k);
    return b;
  }

  std::vector<Prefix> roots(NodeId worker, std::size_t) const override {
    if (worker != 0) return {};
    return {tree_.root()};
  }

  void execute(const Prefix& p, TaskContext<Prefix, Best>& ctx) override {
    const auto bound = [&ctx] { return ctx.bound(); };
    const auto complete = [&](const Prefix& c) { this->complete(c, ctx); };
    if (tree_.searched_whole(p)) {
      Prefix q = p;
      std::uint64_t steps = 0;  // a register in the search, added to the result once
      tree_.search(q, bound, complete, [&] {
        ctx.poll();
        // The budget of the simulator's bnb workload (kTardinessStepBudget), on each worker.
        if (ctx.result().steps + steps > kTardinessStepBudget) fail_step_budget();
      }, steps);
      ctx.result().steps += steps;
      return;
    }
    ctx.result().steps += tree_.split(p, bound, complete, [&ctx](const Prefix& c) { ctx.spawn(c); });
  }

  void combine(Best& into, const Best& o) const override {
    into.steps += o.steps;
    into.schedules += o.schedules;
    if (o.tardiness < into.tardiness || (o.tardiness == into.tardiness && o.schedule < into.schedule)) {
      into.tardiness = o.tardiness;
      into.schedule = o.schedule;
    }
  }

  nlohmann::json report(const Best& b) const override {
    if (threshold_) return {{"jobs", tree_.jobs()}, {"threshold", *threshold_}, {"schedules", b.schedules}, {"steps", b.steps}};
    std::vector<int> schedule;
    for (int k = 0; k < tree_.jobs(); ++k) schedule.push_back(tree_.job_of(b.schedule[static_cast<std::size_t>(k)]));
    return {{"jobs", tree_.jobs()}, {"optimum", b.tardiness}, {"schedule", schedule}, {"steps", b.steps}};
  }
  std::vector<std::string> exact_keys() const override {
    if (threshold_) return {"jobs", "threshold", "schedules", "steps"};
    return {"jobs", "optimum"};
  }

private:
  void complete(const Prefix& c, TaskContext<Prefix, Best>& ctx) const {
    Best& best = ctx.result();
    if (threshold_) {
      ++best.schedules;
      return;
    }
    if (c.partial < best.tardiness || (c.partial == best.tardiness && c.jobs < best.schedule)) {
      best.tardiness = c.partial;
      best.schedule = c.jobs;
    }
    ctx.offer_bound(c.partial);
  }

  BnbTaskTree tree_;
  std::optional<std::int64_t> threshold_;  // none: optimise mode
};

}  // namespace

std::unique_ptr<AnyApplication> make_bnb_app(const TardinessInstance& instance, int m,
                                             std::optional<std::int64_t> threshold) {
  if (m < 0 || m > instance.jobs())
    throw InputError(fmt::format("app bnb: m={} with {} jobs; accepted: 0 to {}", m, instance.jobs(), instance.jobs()));
  return std::make_unique<Bnb>(instance, m, threshold);
}

AppInfo bnb_app_info() {
  std::vector<ParamSpec> params = bnb_instance_params("1");
  params.insert(params.begin() + 1,
                {.name = "m", .type = ParamType::integer, .default_value = "auto",
                 .description = "a prefix with at most m free jobs is searched whole in one task; auto = n - 3",
                 .min = 0, .max = kMaxTardinessJobs, .allow_auto = true});
  params.push_back({.name = "mode", .type = ParamType::choice, .default_value = "optimise",
                    .description = "optimise: find the optimum with a shared bound; threshold: count every schedule "
                                   "within threshold (WLR93's fixed requirement, the simulator's bnb workload)",
                    .choices = {"optimise", "threshold"}});
  for (ParamSpec& spec : bnb_threshold_params()) {
    spec.description = "mode=threshold: " + spec.description;
    params.push_back(std::move(spec));
  }
  return AppInfo{
      .name = "bnb",
      .description = "branch and bound for single-machine total tardiness: optimise mode with the best bound shared, "
                     "or threshold mode",
      .source = "WLR93 Sec. V-C, eq. (37), Table V",
      .params = std::move(params),
      .create =
          [](const Parameters& p) {
            const TardinessInstance instance = bnb_instance(p, nullptr);
            const int n = instance.jobs();
            std::optional<std::int64_t> threshold;
            if (p.text("mode") == "threshold") threshold = bnb_threshold(p, instance);
            return make_bnb_app(instance, p.is_auto("m") ? std::max(0, n - 3) : static_cast<int>(p.integer("m")),
                                threshold);
          },
  };
}

}  // namespace dlbkit
