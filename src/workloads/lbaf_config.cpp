// LBAF's YAML configuration as the inputs of `dlbkit phases`. The keys and their meaning are
// LBAF's (commit 9615e7a): src/lbaf/IO/lbsConfigurationValidator.py for the schema,
// src/lbaf/Applications/LBAF_app.py for how the data stem, the phases and ranks_per_node are
// read, src/lbaf/Model/lbsAffineCombinationWorkModel.py for the work model. yaml-cpp parses
// the file: LBAF's files are plain maps of scalars and lists, but YAML's scalars (8.0e+9,
// True, quoting, flow maps such as permute.yaml's) are not a subset worth a parser of ours.

#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/workloads/lbaf_config.hpp>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

namespace dlbkit {

namespace {

// The top-level keys that shape only LBAF's own output, and why they change nothing here.
const std::map<std::string, std::string>& output_keys() {
  static const std::map<std::string, std::string> keys{
      {"check_schema", "LBAF's check of the data against vt's schema; dlbkit's reader checks every file"},
      {"overwrite_validator", "LBAF's copy of vt's schema validator"},
      {"logging_level", "LBAF's log"},
      {"log_to_file", "LBAF's log"},
      {"log_to_console", "LBAF's log"},
      {"terminal_background", "LBAF's log colours"},
      {"generate_multimedia", "LBAF's pictures"},
      {"visualization", "LBAF's pictures, by vt-tv"},
      {"output_dir", "LBAF's output files; dlbkit writes the balanced phase with --write STEM"},
      {"output_file_stem", "LBAF's output files; dlbkit writes the balanced phase with --write STEM"},
      {"write_JSON", "LBAF's output files; dlbkit writes the balanced phase with --write STEM"}};
  return keys;
}

// InformAndTransfer's parameters that tempered has under the same names (docs/phases.md).
constexpr const char* kTemperedParams[] = {"n_iterations",
                                           "n_rounds",
                                           "fanout",
                                           "order_strategy",
                                           "transfer_strategy",
                                           "deterministic_transfer",
                                           "cluster_swap_rtol",
                                           "max_subclusters",
                                           "max_objects_per_transfer",
                                           "subclustering_threshold",
                                           "subclustering_minimum_improvement",
                                           "separate_subclustering"};

/// What the file says, before the caller's inputs are laid over it.
struct Problem {
  std::optional<std::string> data_stem;
  std::optional<std::vector<std::pair<long long, long long>>> phase_ids;  // ranges of ids, first to last
  long long ranks_per_node = 1;
  std::optional<std::string> memory_bound;
  WorkModel work_model;
  std::optional<std::string> algorithm;
  long long phase_id = 0;  // LBAF's default
  std::map<std::string, std::string> params;
};

class Reader {
public:
  explicit Reader(const std::string& path) : path_(path), where_(fmt::format("--lbaf-config {}", excerpt(path))) {}

  LbafConfig read(const PhasesInputs& given) {
    const YAML::Node root = load();
    for (const auto& [key, node] : entries(root, "the file")) {
      if (key == "from_data") {
        from_data(node);
      } else if (key == "work_model") {
        work_model(node);
      } else if (key == "algorithm") {
        algorithm(node, given.strategy);
      } else if (const auto output = output_keys().find(key); output != output_keys().end()) {
        ignore(key, output->second);
      } else if (key == "from_samplers") {
        refuse(key, "(LBAF's sampled loads) is not supported; accepted: from_data, vt's LB data files");
      } else {
        std::vector<std::string> accepted{"from_data", "work_model", "algorithm"};
        for (const auto& [name, why] : output_keys()) accepted.push_back(name);
        refuse(fmt::format("'{}'", excerpt(key)), fmt::format("is not a key of LBAF's configuration; accepted: {}",
                                                             fmt::join(accepted, ", ")));
      }
    }
    return complete(given);
  }

private:
  std::string path_, where_;
  Problem p_;
  std::vector<std::string> ignored_;

  [[noreturn]] void refuse(const std::string& key, const std::string& what) const {
    throw InputError(fmt::format("{}: {} {}", where_, key, what));
  }
  void ignore(const std::string& key, const std::string& why) { ignored_.push_back(fmt::format("{} ({})", key, why)); }

  YAML::Node load() const {
    const std::string text = read_input_file(path_, where_, 1 << 20, "LBAF's YAML configuration");
    try {
      return YAML::Load(text);
    } catch (const YAML::Exception& e) {
      throw InputError(fmt::format("{}: line {}, column {}: {}; accepted: LBAF's YAML configuration", where_,
                                   e.mark.line + 1, e.mark.column + 1, e.msg));
    }
  }

  /// A map's entries in the file's order, each key as text.
  std::vector<std::pair<std::string, YAML::Node>> entries(const YAML::Node& map, const std::string& key) const {
    if (!map.IsMap()) refuse(key, "is not a map of keys; accepted: LBAF's YAML configuration");
    std::vector<std::pair<std::string, YAML::Node>> out;
    for (const auto& entry : map) out.emplace_back(text(entry.first, key), entry.second);
    return out;
  }

  std::string text(const YAML::Node& node, const std::string& key) const {
    if (!node.IsScalar()) refuse(key, "is not a single value; accepted: a number, a word or true/false");
    return node.Scalar();
  }

  long long integer(const YAML::Node& node, const std::string& key) const {
    try {
      return node.as<long long>();
    } catch (const YAML::Exception&) {
      refuse(key, fmt::format("'{}' is not accepted; accepted: an integer", excerpt(text(node, key))));
    }
  }

  bool boolean(const YAML::Node& node, const std::string& key) const {
    try {
      return node.as<bool>();
    } catch (const YAML::Exception&) {
      refuse(key, fmt::format("'{}' is not accepted; accepted: true or false", excerpt(text(node, key))));
    }
  }

  double real(const YAML::Node& node, const std::string& key) const {
    try {
      return node.as<double>();
    } catch (const YAML::Exception&) {
      refuse(key, fmt::format("'{}' is not accepted; accepted: a number", excerpt(text(node, key))));
    }
  }

  void from_data(const YAML::Node& node) {
    for (const auto& [key, value] : entries(node, "from_data")) {
      const std::string name = "from_data." + key;
      if (key == "data_stem") {
        p_.data_stem = text(value, name);
      } else if (key == "phase_ids") {
        p_.phase_ids = phase_ids(value, name);
      } else if (key == "ranks_per_node") {
        p_.ranks_per_node = integer(value, name);
        if (p_.ranks_per_node < 1)
          refuse(name, fmt::format("{} is not accepted; accepted: an integer >= 1", p_.ranks_per_node));
      } else if (key == "expected_ranks") {
        ignore(name, "LBAF only warns when the data has another number of ranks");
      } else {
        refuse(fmt::format("'{}'", excerpt(name)), "is not a key of LBAF's from_data; accepted: data_stem, "
                                                   "phase_ids, ranks_per_node, expected_ranks");
      }
    }
  }

  /// A list of phase ids, or a range "first-last" (LBAF's two forms), as ranges.
  std::vector<std::pair<long long, long long>> phase_ids(const YAML::Node& node, const std::string& key) const {
    if (node.IsSequence()) {
      std::vector<std::pair<long long, long long>> ids;
      for (const YAML::Node& id : node) ids.emplace_back(integer(id, key), integer(id, key));
      return ids;
    }
    const std::string range = text(node, key);
    long long first = 0, last = -1;
    const std::size_t dash = range.find('-');
    if (dash == std::string::npos || !parse_number(std::string_view(range).substr(0, dash), first) ||
        !parse_number(std::string_view(range).substr(dash + 1), last) || last < first)
      refuse(key, fmt::format("'{}' is not accepted; accepted: a list of phase ids, or a range such as '0-100'",
                              excerpt(range)));
    return {{first, last}};
  }

  void work_model(const YAML::Node& node) {
    for (const auto& [key, value] : entries(node, "work_model")) {
      const std::string name = "work_model." + key;
      if (key == "name") {
        const std::string model = text(value, name);
        if (model != "AffineCombination" && model != "LoadOnly")
          refuse(name, fmt::format("'{}' is not accepted; accepted: AffineCombination or LoadOnly", excerpt(model)));
      } else if (key == "parameters") {
        work_model_parameters(value);
      } else {
        refuse(fmt::format("'{}'", excerpt(name)), "is not a key of LBAF's work_model; accepted: name, parameters");
      }
    }
  }

  // LBAF's work: alpha x load + beta x max(sent, received) + gamma + delta x homing, infinite
  // above an upper bound (phases/work_model.hpp; alpha is the data's).
  void work_model_parameters(const YAML::Node& node) {
    for (const auto& [key, value] : entries(node, "work_model.parameters")) {
      const std::string name = "work_model.parameters." + key;
      if (key == "beta" || key == "gamma" || key == "delta") {
        const double x = real(value, name);
        if (x < 0) refuse(name, fmt::format("{} is not accepted; accepted: a number >= 0", x));
        (key == "beta" ? p_.work_model.beta : key == "gamma" ? p_.work_model.gamma : p_.work_model.delta) = x;
      } else if (key == "upper_bounds") {
        for (const auto& [bound, limit] : entries(value, name)) {
          if (bound != "max_memory_usage")
            refuse(fmt::format("'{}.{}'", name, excerpt(bound)), "is not supported; accepted: max_memory_usage");
          p_.memory_bound = text(limit, name + "." + bound);
          non_negative_or_inf(*p_.memory_bound, fmt::format("{}: {}.{}", where_, name, bound));
        }
      } else {
        refuse(fmt::format("'{}'", excerpt(name)),
               "is not a parameter of LBAF's work models; accepted: beta, gamma, delta, upper_bounds");
      }
    }
  }

  void algorithm(const YAML::Node& node, const std::string& strategy_given) {
    const std::vector<std::pair<std::string, YAML::Node>> keys = entries(node, "algorithm");
    for (const auto& [key, value] : keys) {
      if (key == "name") p_.algorithm = text(value, "algorithm.name");
      if (key == "phase_id") p_.phase_id = integer(value, "algorithm.phase_id");
    }
    if (!strategy_given.empty() && strategy_given != "tempered") {
      ignore("algorithm", fmt::format("{}; -s {} runs instead", p_.algorithm.value_or("none named"), strategy_given));
      return;
    }
    if (p_.algorithm != "InformAndTransfer")
      refuse("algorithm.name", fmt::format("'{}' is not supported; accepted: InformAndTransfer (dlbkit's tempered), "
                                           "or -s STRATEGY for another of dlbkit's",
                                           excerpt(p_.algorithm.value_or(""))));
    for (const auto& [key, value] : keys) {
      if (key == "parameters") {
        algorithm_parameters(value);
      } else if (key != "name" && key != "phase_id") {
        refuse(fmt::format("'algorithm.{}'", excerpt(key)),
               "is not a key of LBAF's algorithm; accepted: name, phase_id, parameters");
      }
    }
    p_.params.emplace("peers", "LBAF");  // every rank informs and transfers, as in LBAF
  }

  void algorithm_parameters(const YAML::Node& node) {
    for (const auto& [key, value] : entries(node, "algorithm.parameters")) {
      const std::string name = "algorithm.parameters." + key;
      if (std::ranges::find(kTemperedParams, key) != std::end(kTemperedParams)) {
        const bool flag = key == "deterministic_transfer" || key == "separate_subclustering";
        std::string v = flag ? (boolean(value, name) ? "true" : "false") : text(value, name);
        if (key == "order_strategy")  // LBAF lower-cases it
          std::ranges::transform(v, v.begin(), [](unsigned char c) { return std::tolower(c); });
        p_.params[key] = v;
      } else if (key == "criterion") {
        if (const std::string c = text(value, name); c != "Tempered")
          refuse(name, fmt::format("'{}' is not supported; accepted: Tempered", excerpt(c)));
      } else if (key == "target_imbalance") {
        if (const double x = real(value, name); x != 0)
          refuse(name, fmt::format("{} is not supported: tempered runs every iteration; accepted: 0", x));
      } else {
        refuse(fmt::format("'{}'", excerpt(name)),
               fmt::format("is not a parameter of LBAF's InformAndTransfer; accepted: {}, criterion, target_imbalance",
                           fmt::join(kTemperedParams, ", ")));
      }
    }
    // The file's own parameters checked here, so that their errors name the file.
    try {
      builtin_phase_strategies().configure("tempered", p_.params);
    } catch (const InputError& e) {
      throw InputError(fmt::format("{}: algorithm.parameters: {}", where_, e.what()));
    }
  }

  /// The caller's inputs over the file's.
  LbafConfig complete(const PhasesInputs& given) {
    const auto holds = [id = p_.phase_id](const auto& range) { return range.first <= id && id <= range.second; };
    if (p_.phase_ids && std::ranges::none_of(*p_.phase_ids, holds))
      refuse("algorithm.phase_id", fmt::format("{} is not among from_data.phase_ids; accepted: one of them",
                                               p_.phase_id));
    // LBAF bounds each node's memory (LBAF_app.py: node_bounds), its ranks' together: the memory
    // group. Where nothing is bounded its nodes only group ranks in its statistics.
    if (p_.ranks_per_node > 1 && !p_.memory_bound)
      ignore("from_data.ranks_per_node", "LBAF's nodes only group ranks in its statistics where nothing is bounded");
    if (given.strategy.empty() && !p_.algorithm)
      refuse("algorithm", "is not given; accepted: an algorithm InformAndTransfer, or -s STRATEGY");
    LbafConfig out{given, std::move(ignored_)};
    PhasesInputs& in = out.inputs;
    if (!in.data && !in.workload) {
      if (!p_.data_stem)
        refuse("from_data.data_stem", "is not given; accepted: from_data with data_stem, or --data STEM");
      const std::filesystem::path stem(*p_.data_stem), folder = std::filesystem::path(path_).parent_path();
      in.data = (stem.is_absolute() ? stem : folder / stem).lexically_normal().string();
    }
    if (in.data && !in.phase && !in.replay) in.phase = p_.phase_id;
    if (!in.rebalance.memory_bound) in.rebalance.memory_bound = p_.memory_bound;
    if (!in.rebalance.memory_group && p_.memory_bound && p_.ranks_per_node > 1)
      in.rebalance.memory_group = p_.ranks_per_node;
    if (!in.rebalance.work_model) in.rebalance.work_model = to_string(p_.work_model);
    if (in.strategy.empty() || in.strategy == "tempered") {
      in.strategy = "tempered";
      for (const auto& [name, value] : p_.params) in.params.emplace(name, value);  // the caller's win
    }
    return out;
  }
};

}  // namespace

LbafConfig with_lbaf_config(const PhasesInputs& given) { return Reader(given.lbaf_config.value()).read(given); }

}  // namespace dlbkit
