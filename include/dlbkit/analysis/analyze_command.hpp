#pragma once
/// \file
/// `dlbkit analyze diffusion` from its inputs as a user writes them: Cybenko's analysis of one
/// diffusion matrix and the steps the polynomial schemes need. The CLI and the Python module
/// both call analyze_diffusion_command(), so that they accept and refuse the same values with
/// the same messages.
///
/// ```
/// dlbkit::AnalyzeDiffusionResult r = dlbkit::analyze_diffusion_command({.topology = "hypercube:10"});
/// // r.analysis.gamma, r.json["schemes"]["sos"] ...
/// ```

#include <dlbkit/analysis/diffusion_analysis.hpp>
#include <dlbkit/analysis/polynomial_schemes.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace dlbkit {

struct AnalyzeDiffusionInputs {
  std::string topology;
  std::string alpha = "optimal";  ///< a number, 'optimal', 'degree' or file:PATH (errors name it --alpha)
  double factor = 1000;           ///< the error reduction of eq. 11's step count (> 1)
};

struct AnalyzeDiffusionResult {
  DiffusionAnalysis analysis;
  SchemePrediction schemes;
  std::optional<std::size_t> distinct_eigenvalues;  ///< of L = I - M, where known without a second solve
  nlohmann::json json;                              ///< the document of `dlbkit analyze diffusion --json`
};

/// Throws InputError naming the first value refused, in the CLI's order (factor, topology, alpha).
AnalyzeDiffusionResult analyze_diffusion_command(const AnalyzeDiffusionInputs& in);

}  // namespace dlbkit
