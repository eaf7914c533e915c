// The `bnb` app: the depth-first branch and bound for total tardiness of WLR93 Sec. V-C
// (eq. 37) as runtime tasks, in optimise mode, with the best bound shared by all workers.
//
// A task is a prefix of the schedule (a node of the search tree). A prefix that leaves more
// than `m` jobs free is split: its children (the prefix plus one more job, in earliest-due-
// date order) that survive the bound become tasks. A prefix with at most m free jobs is
// searched whole, depth first, inside its task (WLR93 Table V's tasks of dimension m).
// Pruning is solve_tardiness's: the jobs are relabelled in EDD order, the EDD schedule is
// the first incumbent, and a prefix whose partial tardiness is >= the best known total is
// cut. Every better complete schedule lowers the shared bound (TaskContext::offer_bound).
// The optimum therefore equals solve_tardiness's; the schedule found first may differ
// between runs when several are optimal, and the steps depend on when bounds arrive.

#include <dlbkit/apps/runtime_apps.hpp>
#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <array>
#include <fmt/format.h>

namespace dlbkit {

namespace {

constexpr int kMaxJobs = kMaxTardinessJobs;

struct Prefix {
  std::array<std::uint8_t, kMaxJobs> jobs;  // EDD labels
  std::uint32_t depth;
  std::uint32_t used;                       // bit j: job j is in the prefix
  std::int64_t completion;                  // of the prefix's last job
  std::int64_t partial;                     // partial tardiness of the prefix
};

struct Best {
  std::int64_t tardiness;
  std::array<std::uint8_t, kMaxJobs> schedule;  // EDD labels
  std::uint64_t steps;
};

class Bnb final : public Application<Prefix, Best> {
public:
  Bnb(const TardinessInstance& instance, int m) : m_(m), n_(instance.jobs()), edd_(edd_order(instance)) {
    for (int k = 0; k < n_; ++k) {
      e_[static_cast<std::size_t>(k)] = instance.processing[static_cast<std::size_t>(edd_[static_cast<std::size_t>(k)])];
      d_[static_cast<std::size_t>(k)] = instance.due[static_cast<std::size_t>(edd_[static_cast<std::size_t>(k)])];
    }
    edd_tardiness_ = instance.tardiness(edd_);
  }

  std::int64_t initial_bound() const override { return edd_tardiness_; }

  Best identity() const override {
    Best b{edd_tardiness_, {}, 0};
    for (int k = 0; k < n_; ++k) b.schedule[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(k);
    return b;
  }

  std::vector<Prefix> roots(NodeId worker, std::size_t) const override {
    if (worker != 0) return {};
    return {Prefix{{}, 0, 0, 0, 0}};
  }

  void execute(const Prefix& p, TaskContext<Prefix, Best>& ctx) override {
    if (n_ - static_cast<int>(p.depth) <= m_) {
      Prefix q = p;
      std::uint64_t steps = 0;  // a register in the search, added to the result once
      search(q, ctx, steps);
      ctx.result().steps += steps;
      return;
    }
    // Split: children in reverse EDD order onto the stack, so the first EDD child is on top.
    for (int j = n_ - 1; j >= 0; --j) {
      if (p.used & (1u << j)) continue;
      ++ctx.result().steps;
      Prefix c = child(p, j);
      if (c.partial >= ctx.bound()) continue;
      if (static_cast<int>(c.depth) == n_) complete(c, ctx);
      else ctx.spawn(c);
    }
  }

  void combine(Best& into, const Best& o) const override {
    into.steps += o.steps;
    if (o.tardiness < into.tardiness || (o.tardiness == into.tardiness && o.schedule < into.schedule)) {
      into.tardiness = o.tardiness;
      into.schedule = o.schedule;
    }
  }

  nlohmann::json report(const Best& b) const override {
    std::vector<int> schedule;
    for (int k = 0; k < n_; ++k) schedule.push_back(edd_[b.schedule[static_cast<std::size_t>(k)]]);
    return {{"jobs", n_}, {"optimum", b.tardiness}, {"schedule", schedule}, {"steps", b.steps}};
  }
  std::vector<std::string> exact_keys() const override { return {"jobs", "optimum"}; }

private:
  Prefix child(const Prefix& p, int j) const {
    Prefix c = p;
    c.jobs[p.depth] = static_cast<std::uint8_t>(j);
    ++c.depth;
    c.used |= 1u << j;
    c.completion += e_[static_cast<std::size_t>(j)];
    c.partial += std::max<std::int64_t>(0, c.completion - d_[static_cast<std::size_t>(j)]);  // eq. (37)
    return c;
  }

  void complete(const Prefix& c, TaskContext<Prefix, Best>& ctx) {
    Best& best = ctx.result();
    if (c.partial < best.tardiness || (c.partial == best.tardiness && c.jobs < best.schedule)) {
      best.tardiness = c.partial;
      best.schedule = c.jobs;
    }
    ctx.offer_bound(c.partial);
  }

  // Depth first below p (changed in place and restored), EDD order, pruning at the shared
  // bound; poll() every 4096 steps.
  void search(Prefix& p, TaskContext<Prefix, Best>& ctx, std::uint64_t& steps) {
    const Prefix saved = p;
    for (int j = 0; j < n_; ++j) {
      if (p.used & (1u << j)) continue;
      if ((++steps & 4095) == 0) ctx.poll();
      const std::int64_t completion = saved.completion + e_[static_cast<std::size_t>(j)];
      const std::int64_t partial =
          saved.partial + std::max<std::int64_t>(0, completion - d_[static_cast<std::size_t>(j)]);  // eq. (37)
      if (partial >= ctx.bound()) continue;
      p.jobs[saved.depth] = static_cast<std::uint8_t>(j);
      p.depth = saved.depth + 1;
      p.used = saved.used | (1u << j);
      p.completion = completion;
      p.partial = partial;
      if (static_cast<int>(p.depth) == n_) complete(p, ctx);
      else search(p, ctx, steps);
    }
    p = saved;
  }

  int m_;
  int n_ = 0;
  std::vector<int> edd_;
  std::array<std::int64_t, kMaxJobs> e_{}, d_{};
  std::int64_t edd_tardiness_ = 0;
};

}  // namespace

std::unique_ptr<AnyApplication> make_bnb_app(const TardinessInstance& instance, int m) {
  if (m < 0 || m > instance.jobs())
    throw InputError(fmt::format("app bnb: m={} with {} jobs; accepted: 0 to {}", m, instance.jobs(), instance.jobs()));
  return std::make_unique<Bnb>(instance, m);
}

AppInfo bnb_app_info() {
  return AppInfo{
      .name = "bnb",
      .description = "branch and bound for single-machine total tardiness, optimise mode, best bound shared",
      .source = "WLR93 Sec. V-C, eq. (37), Table V",
      .params =
          {
              {.name = "n", .type = ParamType::integer, .default_value = "11", .description = "jobs",
               .min = 1, .max = kMaxTardinessJobs},
              {.name = "m", .type = ParamType::integer, .default_value = "auto",
               .description = "a prefix with at most m free jobs is searched whole in one task; auto = n - 3",
               .min = 0, .max = kMaxTardinessJobs, .allow_auto = true},
              {.name = "instance_seed", .type = ParamType::integer, .default_value = "1",
               .description = "the instance is generate_tardiness_instance(n, Rng(instance_seed))", .min = 0,
               .max = 9.0e15},
              {.name = "tardiness_factor", .type = ParamType::real, .default_value = "0.6",
               .description = "TF of the generator", .min = 0, .max = 1},
              {.name = "due_date_range", .type = ParamType::real, .default_value = "0.6",
               .description = "RDD of the generator", .min = 0, .max = 1},
          },
      .create =
          [](const Parameters& p) {
            const int n = static_cast<int>(p.integer("n"));
            Rng rng(static_cast<std::uint64_t>(p.integer("instance_seed")));
            const TardinessInstance instance = generate_tardiness_instance(
                n, rng, {.tardiness_factor = p.real("tardiness_factor"), .due_date_range = p.real("due_date_range")});
            return make_bnb_app(instance, p.is_auto("m") ? std::max(0, n - 3) : static_cast<int>(p.integer("m")));
          },
  };
}

}  // namespace dlbkit
