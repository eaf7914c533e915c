// `dlbkit analyze diffusion` between reading its options and printing (moved from the CLI,
// which prints this report as text or JSON; the Python module returns it).

#include <dlbkit/analysis/analyze_command.hpp>
#include <dlbkit/analysis/spectrum.hpp>
#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <fmt/format.h>

namespace dlbkit {

namespace {

// The number of distinct eigenvalues of L = I - M where it can be had without a second
// eigen-solve of a large network.
std::optional<std::size_t> distinct_eigenvalue_count(const DiffusionMatrix& m) {
  if (m.uniform_alpha()) {
    if (const auto mu = distinct_graph_laplacian_eigenvalues(m.topology())) return mu->size();
    return std::nullopt;
  }
  if (m.size() > kDenseEigenLimit) return std::nullopt;
  return scheme_spectrum(m).laplacian_eigenvalues->size();
}

DiffusionMatrix diffusion_matrix(const Topology& t, const std::string& alpha, const LaplacianExtremes& graph) {
  if (alpha == "optimal") return DiffusionMatrix::uniform(t, optimal_uniform_alpha(t, graph).alpha);
  if (alpha.starts_with("file:")) return DiffusionMatrix::from_edge_file(t, alpha.substr(5));
  if (alpha == "degree") return DiffusionMatrix::degree_weights(t);
  double x = 0;
  if (!parse_number(alpha, x))
    throw InputError(fmt::format("--alpha '{}' is not accepted; accepted: a number in (0, 1/max degree], 'optimal', "
                                 "'degree' or file:PATH",
                                 alpha));
  return DiffusionMatrix::uniform(t, x);
}

}  // namespace

AnalyzeDiffusionResult analyze_diffusion_command(const AnalyzeDiffusionInputs& in) {
  if (!(in.factor > 1))
    throw InputError(fmt::format("--factor {} is not accepted; accepted: a number > 1", in.factor));
  const Topology t = parse_topology(in.topology);
  const LaplacianExtremes graph = graph_laplacian_extremes(t);
  const DiffusionMatrix m = diffusion_matrix(t, in.alpha, graph);
  AnalyzeDiffusionResult r{.analysis = analyze_diffusion(m, graph, in.factor)};
  r.distinct_eigenvalues = distinct_eigenvalue_count(m);
  r.schemes = predict_scheme_steps(r.analysis.gamma, r.distinct_eigenvalues, in.factor);
  const auto steps = [](const std::optional<std::uint64_t>& x) { return x ? nlohmann::json(*x) : nlohmann::json(); };
  r.json = to_json(r.analysis);
  r.json["schemes"] = {
      {"fos", steps(r.schemes.fos)},
      {"sos", steps(r.schemes.sos)},
      {"sos_beta", r.analysis.gamma < 1 ? nlohmann::json(sos_beta(r.analysis.gamma)) : nlohmann::json()},
      {"chebyshev", steps(r.schemes.chebyshev)},
      {"ops", steps(r.schemes.ops)},
      {"distinct_eigenvalues", r.distinct_eigenvalues ? nlohmann::json(*r.distinct_eigenvalues) : nlohmann::json()}};
  r.json["inputs"] = {{"topology", in.topology}, {"alpha", in.alpha}, {"factor", in.factor}};
  return r;
}

}  // namespace dlbkit
