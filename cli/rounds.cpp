// dlbkit rounds: the synchronous round loop (diffusion, SOS, Chebyshev, OPS, dimension exchange, GDE) and the
// time to sharing and balancing of the Liquid model and NNA. The run is rounds_command()'s; this prints its report.

#include "commands.hpp"

#include <dlbkit/rounds/rounds_command.hpp>

#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace dlbkit::cli {

namespace {

std::string when(const nlohmann::json& x) { return x.is_null() ? std::string("not reached") : x.dump(); }

// --arrivals: the stochastic model of Cyb89 eq. (12)/(17), measured beside Theorems 2 and 5.
void print_stochastic_model(const RoundsResult& report, bool trace) {
  const nlohmann::json& j = report.json;
  fmt::print("{} ({}) on {} ({} nodes), arrivals {} (mu {:.6g}, sigma^2 {:.6g}), work c = {:.6g}, "
             "{} kernel step(s) per period\n\n",
             report.kernel_name, j["kernel"].get<std::string>(), j["inputs"]["topology"].get<std::string>(),
             report.nodes, j["arrivals"].get<std::string>(), j["mu"].get<double>(), j["sigma2"].get<double>(),
             j["work"].get<double>(), j["steps_per_period"].get<std::uint64_t>());
  fmt::print("  periods              {} ({} kernel steps), time average over the last {} after a warm-up of {}\n",
             j["periods"].get<std::uint64_t>(), j["kernel_steps"].get<std::uint64_t>(),
             j["samples"].get<std::uint64_t>(), j["warmup"].get<std::uint64_t>());
  fmt::print("  E||w - w_bar||^2     {:.6g} +- {:.2g} (standard error, batch means)\n", j["variance"].get<double>(),
             j["variance_stderr"].get<double>());
  if (!j["bound_theorem"].is_null())
    fmt::print("  bound ({})    {:.6g}\n", j["bound_theorem"].get<std::string>(),
               j["bound"].is_null() ? HUGE_VAL : j["bound"].get<double>());
  if (!j["exact_stationary_variance"].is_null())
    fmt::print("  exact stationary     {:.6g}\n", j["exact_stationary_variance"].get<double>());
  fmt::print("  mean load            {:.6g}   (expected {:.6g} = mean w0 + periods (mu - c))\n",
             j["mean_load"].get<double>(), j["expected_mean_load"].get<double>());
  fmt::print("  max - min            {:.6g}\n", j["max_min_difference"].get<double>());
  fmt::print("  time                 {:.3f} s\n", j["seconds"].get<double>());
  if (trace) {
    fmt::print("\n  period  ||w - w_bar||^2\n");
    const nlohmann::json& t = j["trace"];
    for (std::size_t s = 0; s < t.size(); ++s) fmt::print("  {:>6}  {:.9g}\n", s, t[s].get<double>());
  }
}

// --algorithm lm | nna: integer loads until balanced (Definition 2) and shared, time in shifts.
void print_liquid_or_nna(const RoundsResult& report, bool trace) {
  const nlohmann::json& j = report.json;
  const nlohmann::json& in = j["inputs"];
  const std::string until = in["until"].get<std::string>();
  const char* step_name = in["algorithm"] == "lm" ? "sub-steps" : "iterations";
  fmt::print("{} on {} ({} nodes), integer loads from {}, until {}\n\n", j["kernel"].get<std::string>(),
             in["topology"].get<std::string>(), report.nodes, in["init"].get<std::string>(), until);
  fmt::print("  shifts to sharing    {}   ({} {})\n", when(j["shifts_to_sharing"]), when(j["steps_to_sharing"]),
             step_name);
  fmt::print("  shifts to balancing  {}   ({} {}; balanced = max - min <= {})\n", when(j["shifts_to_balancing"]),
             when(j["steps_to_balancing"]), step_name, j["tolerance"].get<std::int64_t>());
  const bool goal = j["balanced"].get<bool>() &&
                    (j["shared"].get<bool>() || j["total_initial"].get<std::int64_t>() < static_cast<std::int64_t>(report.nodes));
  const bool stop_when_balanced = !until.starts_with("steps:");
  fmt::print("  shifts run           {}{}\n", j["shifts"].get<std::uint64_t>(),
             !stop_when_balanced || goal ? ""
             : j["fixed_point"].get<bool>() ? "   (a fixed point: the loads no longer change; never balanced)"
                                            : "   (NOT balanced and shared: --max-steps reached)");
  fmt::print("  max - min            {}\n", j["max_min_difference"].get<std::int64_t>());
  fmt::print("  total load           {}   (initially {})\n", j["total_final"].get<std::int64_t>(),
             j["total_initial"].get<std::int64_t>());
  fmt::print("  time                 {:.3f} s\n", j["seconds"].get<double>());
  if (trace) {
    fmt::print("\n  {:>6}  loads\n", "shifts");
    for (const nlohmann::json& s : j["trace"])
      fmt::print("  {:>6}  {}\n", s["shifts"].get<std::uint64_t>(),
                 fmt::join(s["loads"].get<std::vector<std::int64_t>>(), " "));
  }
}

// The round loop's report.
void print_rounds(const RoundsResult& report, bool trace) {
  const nlohmann::json& j = report.json;
  const nlohmann::json& in = j["inputs"];
  const std::string rounding = in["rounding"].get<std::string>();
  fmt::print("{} ({}) on {} ({} nodes), {} loads from {}, until {}\n\n", report.kernel_name,
             j["kernel"].get<std::string>(), in["topology"].get<std::string>(), report.nodes,
             in["integer"].get<bool>()
                 ? fmt::format("integer (rounding {})", rounding.empty() ? "deterministic" : rounding)
                 : std::string("continuous"),
             in["init"].get<std::string>(), in["until"].get<std::string>());
  fmt::print("  steps                {}{}\n", j["steps"].get<std::uint64_t>(),
             j["stop_rule_met"].get<bool>() ? "" : "   (stop rule NOT met: --max-steps reached)");
  fmt::print("  max - min            {:.6g}\n", j["max_min_difference"].get<double>());
  fmt::print("  ||w - w_bar||        {:.6g}   (initially {:.6g}; relative {:.3g})\n", j["final_error"].get<double>(),
             j["initial_error"].get<double>(), j["relative_error"].get<double>());
  fmt::print("  total load           {:.17g}   (initially {:.17g})\n", j["total_final"].get<double>(),
             j["total_initial"].get<double>());
  fmt::print("  time                 {:.3f} s   ({:.3g} node-updates/s)\n", j["seconds"].get<double>(),
             j["node_updates_per_second"].get<double>());
  if (trace) {
    fmt::print("\n  step  ||w - w_bar||\n");
    const nlohmann::json& t = j["trace"];
    for (std::size_t s = 0; s < t.size(); ++s) fmt::print("  {:>4}  {:.9g}\n", s, t[s].get<double>());
  }
}

}  // namespace

Run add_rounds(CLI::App& app) {
  auto* cmd = app.add_subcommand("rounds", "Run a synchronous balancing scheme on a load vector (round loop)");
  auto o = std::make_shared<RoundsInputs>();
  auto json = std::make_shared<bool>(false);
  cmd->add_option("--algorithm", o->algorithm,
                  "diffusion, sos, chebyshev, ops, dimension-exchange (hypercube), gde (any graph), lm (Liquid model, "
                  "torus) or nna (ring)")
      ->required();
  cmd->add_option("--topology", o->topology, "e.g. hypercube:20, torus:1024x1024 (see 'dlbkit list topologies')")
      ->required();
  cmd->add_option("--init", o->init, "initial load: spike, spike:AMOUNT, uniform:MAX or file:PATH (one per line)")
      ->required();
  cmd->add_option("--until", o->until,
                  "stop rule: steps:N, eps:X (relative error) or balanced:TOL (max - min); lm and nna: balanced "
                  "(Definition 2 and shared), balanced:TOL or steps:N (shifts)")
      ->required();
  cmd->add_option("--alpha", o->alpha,
                  "diffusion, sos, chebyshev, ops: a number, 'optimal', 'degree' (1/(max(d_i, d_j) + 1) per edge) or file:PATH "
                  "('u v alpha' lines); default 1/(max degree + 1)");
  cmd->add_option("--lambda", o->lambda, "gde: exchange parameter in (0, 1); default 0.5");
  cmd->add_option("--rounding", o->rounding,
                  "with --integer, diffusion/sos/chebyshev/ops: deterministic (default; toward zero), randomized "
                  "(up with the fractional part's probability) or flow-imitation (follow the continuous flow)");
  cmd->add_option("--max-steps", o->max_steps, "stop here even if the rule is not met (lm, nna: shifts)")
      ->capture_default_str();
  cmd->add_flag("--integer", o->integer, "integer loads (exactly conserved; rounding toward zero per edge)");
  cmd->add_option("--threads", o->threads, "1 or 2 (identical results)")->capture_default_str();
  cmd->add_option("--seed", o->seed, "seed of uniform:MAX, --arrivals and --rounding randomized")->capture_default_str();
  cmd->add_option("--arrivals", o->arrivals,
                  "stochastic model (Cyb89 eq. 12/17): new work per node and period, normal:MU:SIGMA, uniform:LO:HI "
                  "or exponential:MEAN; --until steps:N then counts periods");
  cmd->add_option("--work", o->work, "with --arrivals: work c completed per node and period")->capture_default_str();
  cmd->add_option("--warmup", o->warmup, "with --arrivals: periods before the time average starts")
      ->capture_default_str();
  cmd->add_option("--steps-per-period", o->steps_per_period, "with --arrivals: kernel steps between arrivals")
      ->capture_default_str();
  cmd->add_option("--condition", o->condition, "lm: shift condition c0..c5 (Henrich Table 1); default c5");
  cmd->add_option("--nna-transfer", o->nna_transfer, "nna: net (default, fn. 3) or gross (eq. 5 as written)");
  cmd->add_option("--nna-time", o->nna_time,
                  "nna: shifts per iteration, sequential (default: right, then left) or simultaneous");
  cmd->add_flag("--json", *json, "print one JSON document");
  cmd->add_flag("--trace", o->trace, "report the error norm ||w - w_bar|| after every step");
  return [o, json] {
    const RoundsResult report = rounds_command(*o);
    if (*json) fmt::print("{}\n", json_text(report.json));
    else if (o->algorithm == "lm" || o->algorithm == "nna") print_liquid_or_nna(report, o->trace);
    else if (!o->arrivals.empty()) print_stochastic_model(report, o->trace);
    else print_rounds(report, o->trace);
    return 0;
  };
}

}  // namespace dlbkit::cli
