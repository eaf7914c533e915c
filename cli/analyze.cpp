// dlbkit analyze diffusion: Cybenko's convergence analysis of one diffusion matrix (analyze_diffusion_command's;
// this prints its report).

#include "commands.hpp"

#include <dlbkit/analysis/analyze_command.hpp>

#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

namespace dlbkit::cli {

namespace {

std::string steps_text(const std::optional<std::uint64_t>& steps) {
  return steps ? fmt::format("{}", *steps) : std::string("never (gamma = 1)");
}

void print_predictions(const DiffusionAnalysis& a, const SchemePrediction& p, std::optional<std::size_t> m) {
  fmt::print("\n  predicted steps to shrink the error by {:g}, from gamma:\n", a.factor);
  fmt::print("    FOS        {:>10}   gamma^t (eq. 11)\n", steps_text(p.fos));
  if (a.gamma < 1)
    fmt::print("    SOS        {:>10}   (beta - 1)^(t/2), beta = {:.12g} (GMS96)\n", steps_text(p.sos), sos_beta(a.gamma));
  else
    fmt::print("    SOS        {:>10}\n", steps_text(p.sos));
  fmt::print("    Chebyshev  {:>10}   2 r^t / (1 + r^(2t)), r = sqrt(beta - 1) (DFM99)\n", steps_text(p.chebyshev));
  if (m)
    fmt::print("    OPS        {:>10}   exact after m - 1 steps, m = {} distinct eigenvalues of L (DFM99)\n",
               fmt::format("{}", *p.ops), *m);
  else
    fmt::print("    OPS        {:>10}   (the eigenvalues are not known for this network)\n", "unknown");
}

void print_analysis(const DiffusionAnalysis& a) {
  fmt::print("diffusion on {} ({} nodes), {}\n\n", a.topology, a.nodes, a.alpha);
  fmt::print("  {}\n\n", a.theorem1.explanation());
  fmt::print("  lambda_2                 {:.12g}\n", a.lambda_2);
  fmt::print("  lambda_n                 {:.12g}\n", a.lambda_n);
  fmt::print("  gamma(M)                 {:.12g}   (1 - gamma = {:.6g}; {} eigen-solver)\n", a.gamma,
             a.spectral_gap, a.spectrum.method);
  fmt::print("  Lemma 2 kappa            {:.12g}{}\n", a.kappa,
             a.kappa_at_feasibility_bound ? "   (at the feasibility bound -min m_jj)" : "");
  fmt::print("  gamma(M(kappa))          {:.12g}\n", a.gamma_kappa);
  fmt::print("  optimal uniform alpha    {:.12g}{}   (gamma {:.12g})\n", a.optimal.alpha,
             a.optimal.capped_by_degree ? " (capped at 1/max degree)" : "", a.optimal.gamma);
  if (std::isfinite(a.variance_factor))
    fmt::print("  1/(1 - gamma^2)          {:.6g}   (Theorem 2)\n", a.variance_factor);
  else
    fmt::print("  1/(1 - gamma^2)          infinite   (Theorem 2)\n");
  fmt::print("  steps to shrink by {:<6g} {}   (eq. 11; with M(kappa): {})\n", a.factor, steps_text(a.steps),
             steps_text(a.steps_kappa));
}

}  // namespace

Run add_analyze(CLI::App& app) {
  auto* cmd = app.add_subcommand("analyze", "Spectral analyses of balancing schemes");
  cmd->require_subcommand(1);
  auto* diffusion = cmd->add_subcommand(
      "diffusion", "Cybenko's diffusion matrix M: Theorem 1, gamma, Lemma 2, optimal alpha, steps (eq. 11) and the steps "
      "SOS, Chebyshev and OPS need");
  struct Options {
    std::string topology, alpha = "optimal";
    double factor = 1000;
    bool json = false;
  };
  auto o = std::make_shared<Options>();
  diffusion->add_option("--topology", o->topology, "e.g. hypercube:10, torus:64x64 (see 'dlbkit list topologies')")
      ->required();
  diffusion
      ->add_option("--alpha", o->alpha,
                   "a number in (0, 1/max degree], 'optimal', 'degree' (1/(max(d_i, d_j) + 1) per edge), or file:PATH with "
                   "lines 'u v alpha' (unlisted edges 0)")
      ->capture_default_str();
  diffusion->add_option("--factor", o->factor, "error reduction factor for the step count of eq. 11 (> 1)")
      ->capture_default_str();
  diffusion->add_flag("--json", o->json, "print one JSON document");
  return [o, diffusion]() -> int {
    if (!diffusion->parsed()) return 0;
    const AnalyzeDiffusionResult r = analyze_diffusion_command({.topology = o->topology, .alpha = o->alpha, .factor = o->factor});
    if (o->json) {
      fmt::print("{}\n", json_text(r.json));
    } else {
      print_analysis(r.analysis);
      print_predictions(r.analysis, r.schemes, r.distinct_eigenvalues);
    }
    return 0;
  };
}

}  // namespace dlbkit::cli
