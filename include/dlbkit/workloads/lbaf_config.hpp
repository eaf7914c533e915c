#pragma once
/// \file
/// LBAF's YAML configuration (Sandia's LB Analysis Framework: the files of its config/ folder,
/// the keys its lbsConfigurationValidator.py knows) read as the inputs of `dlbkit phases
/// --lbaf-config FILE`, so that an LBAF user runs the same problem with one command:
/// - from_data.data_stem: the data, relative to the file's folder as LBAF resolves it;
/// - algorithm.phase_id: the phase balanced (LBAF's default 0);
/// - algorithm InformAndTransfer: the `tempered` phase strategy with the parameters of the same
///   names and `peers=LBAF` (every rank informs and transfers, as in LBAF);
/// - work_model.parameters beta, gamma, delta: the work model (phases/work_model.hpp);
/// - work_model.parameters.upper_bounds.max_memory_usage: the memory bound;
/// - from_data.ranks_per_node, with that bound: the memory group (LBAF bounds each node's ranks
///   together).
///
/// What the caller gave wins: a strategy, data, phase, memory bound or group given, and each strategy
/// parameter given; a strategy other than tempered leaves the file's algorithm out. A key that
/// does not change the result (outputs, visualization, schema checks) is listed in `ignored`;
/// one that would (another algorithm or criterion, samplers instead of data, an unknown key) is
/// an InputError naming the key and what is accepted.
///
/// ```
/// dlbkit::LbafConfig c = dlbkit::with_lbaf_config({.lbaf_config = "config/conf.yaml"});
/// // c.inputs.strategy == "tempered", c.inputs.params["n_iterations"] == "8", c.inputs.data ...
/// ```

#include <dlbkit/workloads/phases_command.hpp>

#include <string>
#include <vector>

namespace dlbkit {

struct LbafConfig {
  PhasesInputs inputs;               ///< the caller's, completed from the file (lbaf_config kept)
  std::vector<std::string> ignored;  ///< "KEY (why)" for each key left out
};

/// `given` completed from the file `given.lbaf_config` names, which must be given. The data is
/// not read here. Throws InputError "--lbaf-config FILE: KEY ...; accepted: ..." for a file
/// that is not LBAF's YAML or names what dlbkit does not run.
LbafConfig with_lbaf_config(const PhasesInputs& given);

}  // namespace dlbkit
