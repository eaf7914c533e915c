// dlbkit tardiness: the branch-and-bound total-tardiness solver of WLR93 Sec. V-C, run
// sequentially on one instance (docs/apps/tardiness.md).

#include "commands.hpp"

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <chrono>
#include <fmt/format.h>
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

namespace dlbkit::cli {

namespace {

std::int64_t parse_threshold(const std::string& text) {
  if (text == "inf" || text == "infinity") return kNoTardinessThreshold;
  constexpr std::uint64_t kMax = 1'000'000'000'000'000;
  try {
    return static_cast<std::int64_t>(parse_unsigned(text, "--threshold", kMax));
  } catch (const InputError&) {
    throw InputError(fmt::format("--threshold: '{}' is not accepted; accepted: an integer from 0 to {}, or inf", text, kMax));
  }
}

std::string threshold_text(std::int64_t t) { return t == kNoTardinessThreshold ? "inf" : std::to_string(t); }

std::uint64_t falling_factorial(int n, int k) {  // n!/(n-k)!
  std::uint64_t out = 1;
  for (int i = 0; i < k; ++i) out *= static_cast<std::uint64_t>(n - i);
  return out;
}

template <class F>
double timed(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

double rate(std::uint64_t steps, double seconds) { return seconds > 0 ? static_cast<double>(steps) / seconds : 0.0; }

}  // namespace

Run add_tardiness(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "tardiness", "Solve a single-machine total tardiness instance by WLR93's branch and bound (Sec. V-C), sequentially");
  struct Options {
    std::string instance, seed = "1", threshold, write;
    int generate = 0, task_dimension = 0;
    double tardiness_factor = 0.6, due_date_range = 0.6;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  auto* instance = cmd->add_option("--instance", o->instance, "instance file (format: docs/apps/tardiness.md)");
  auto* generate = cmd->add_option("--generate", o->generate, "generate a random instance of N jobs (1 to 20)");
  instance->excludes(generate);
  generate->excludes(instance);
  auto* seed = cmd->add_option("--seed", o->seed, "with --generate: random seed, 0 to 2^64-1")->capture_default_str();
  auto* tf = cmd->add_option("--tardiness-factor", o->tardiness_factor, "with --generate: TF in [0, 1]")->capture_default_str();
  auto* rdd = cmd->add_option("--due-date-range", o->due_date_range, "with --generate: RDD in [0, 1]")->capture_default_str();
  for (auto* opt : {seed, tf, rdd}) opt->needs(generate);
  auto* threshold = cmd->add_option("--threshold", o->threshold,
                                    "count every schedule with total tardiness <= T (an integer, or inf)");
  auto* task_dimension =
      cmd->add_option("--task-dimension", o->task_dimension,
                      "with --threshold: cut the tree into tasks of M free jobs (WLR93 Table V) and show their sizes")
          ->needs(threshold);
  cmd->add_option("--write", o->write, "write the instance to this file");
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs and the figures");
  return [o, instance, generate, task_dimension] {
    if (instance->count() == 0 && generate->count() == 0) throw InputError("tardiness: give --instance PATH or --generate N");
    nlohmann::json out;
    TardinessInstance jobs;
    if (instance->count() > 0) {
      jobs = load_tardiness_instance(o->instance);
      out["input"] = {{"instance", o->instance}};
    } else {
      const std::uint64_t seed = parse_unsigned(o->seed, "--seed", std::numeric_limits<std::uint64_t>::max());
      Rng rng(seed);
      jobs = generate_tardiness_instance(o->generate, rng, {o->tardiness_factor, o->due_date_range});
      out["input"] = {{"generate", o->generate}, {"seed", seed}, {"tardiness_factor", o->tardiness_factor},
                      {"due_date_range", o->due_date_range}};
    }
    if (!o->write.empty()) save_tardiness_instance(o->write, jobs);
    const int n = jobs.jobs();
    out["instance"] = {{"jobs", n}, {"processing", jobs.processing}, {"due", jobs.due}};

    TardinessOptimum best;
    const double solve_seconds = timed([&] { best = solve_tardiness(jobs); });
    out["optimum"] = {{"tardiness", best.tardiness}, {"schedule", best.schedule}, {"nodes_searched", best.steps},
                      {"seconds", solve_seconds}, {"nodes_per_second", rate(best.steps, solve_seconds)}};

    std::optional<std::int64_t> T;
    TardinessCount within;
    double count_seconds = 0;
    if (!o->threshold.empty()) {
      T = parse_threshold(o->threshold);
      out["input"]["threshold"] = threshold_text(*T);
      count_seconds = timed([&] { within = count_schedules_within(jobs, *T); });
      out["threshold"] = {{"threshold", threshold_text(*T)}, {"schedules", within.schedules}, {"nodes_searched", within.steps},
                          {"seconds", count_seconds}, {"nodes_per_second", rate(within.steps, count_seconds)}};
    }

    std::optional<TardinessDecomposition> parts;
    std::uint64_t min_steps = 0, max_steps = 0, sum_steps = 0;
    if (task_dimension->count() > 0) {
      out["input"]["task_dimension"] = o->task_dimension;
      parts = decompose_tardiness(jobs, o->task_dimension, *T);
      min_steps = parts->tasks.empty() ? 0 : std::numeric_limits<std::uint64_t>::max();
      for (const TardinessTask& task : parts->tasks) {
        const std::uint64_t steps = count_schedules_within(jobs, *T, task.prefix).steps;
        min_steps = std::min(min_steps, steps);
        max_steps = std::max(max_steps, steps);
        sum_steps += steps;
      }
      const double mean = parts->tasks.empty() ? 0.0 : static_cast<double>(sum_steps) / static_cast<double>(parts->tasks.size());
      out["decomposition"] = {{"task_dimension", o->task_dimension},
                              {"depth", n - o->task_dimension},
                              {"tasks", parts->tasks.size()},
                              {"tasks_without_threshold", falling_factorial(n, n - o->task_dimension)},
                              {"nodes_above", parts->steps_above},
                              {"task_nodes", {{"min", min_steps}, {"mean", mean}, {"max", max_steps}, {"sum", sum_steps}}}};
    }

    if (o->json) {
      fmt::print("{}\n", json_text(out));
      return 0;
    }
    fmt::print("{} jobs, {}\n\n", n,
               instance->count() > 0 ? "from " + o->instance
                                     : fmt::format("generated (seed {}, TF {}, RDD {})", o->seed, o->tardiness_factor,
                                                   o->due_date_range));
    fmt::print("optimise (bound = best schedule so far)\n");
    fmt::print("  optimum tardiness    {}\n", best.tardiness);
    fmt::print("  schedule             {}\n", fmt::join(best.schedule, " "));
    fmt::print("  nodes searched       {}\n", best.steps);
    fmt::print("  time                 {:.3f} s ({:.1f} M nodes/s)\n", solve_seconds, rate(best.steps, solve_seconds) / 1e6);
    if (T) {
      fmt::print("\nfixed threshold T = {} (prune partial tardiness > T)\n", threshold_text(*T));
      fmt::print("  schedules within T   {}\n", within.schedules);
      fmt::print("  nodes searched       {}\n", within.steps);
      fmt::print("  time                 {:.3f} s ({:.1f} M nodes/s)\n", count_seconds, rate(within.steps, count_seconds) / 1e6);
    }
    if (parts) {
      fmt::print("\ndecomposition, task dimension m = {} (prefixes of {} jobs)\n", o->task_dimension, n - o->task_dimension);
      fmt::print("  tasks s              {}   (n!/m! = {} with no threshold)\n", parts->tasks.size(),
                 falling_factorial(n, n - o->task_dimension));
      fmt::print("  nodes above depth    {}\n", parts->steps_above);
      fmt::print("  nodes per task       min {}, mean {:.1f}, max {}\n", min_steps,
                 out["decomposition"]["task_nodes"]["mean"].get<double>(), max_steps);
      fmt::print("  above + tasks        {}   (= nodes searched with threshold T)\n", parts->steps_above + sum_steps);
    }
    return 0;
  };
}

}  // namespace dlbkit::cli
