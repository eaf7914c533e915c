#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/runtime_options.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string_view>
#include <thread>

namespace dlbkit {

namespace {

// The long name of an option of ours, for its long or short spelling; nullopt otherwise.
std::optional<std::string_view> option_name(std::string_view arg) {
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"--engine", "--engine"},     {"-e", "--engine"},     {"--strategy", "--strategy"}, {"-s", "--strategy"},
      {"--param", "--param"},       {"-p", "--param"},      {"--topology", "--topology"}, {"-t", "--topology"},
      {"--workers", "--workers"},   {"-n", "--workers"},    {"--seed", "--seed"}};
  for (const auto& [spelling, name] : kNames)
    if (arg == spelling) return name;
  return std::nullopt;
}

}  // namespace

RuntimeOptions RuntimeOptions::parse(int argc, const char* const* argv, std::vector<std::string>* rest) {
  RuntimeOptions o;
  std::vector<std::string> params;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::optional<std::string> inline_value;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      inline_value = std::string(arg.substr(eq + 1));
      arg = arg.substr(0, eq);
    }
    const auto name = option_name(arg);
    if (!name) {
      if (rest == nullptr)
        throw InputError(fmt::format("unknown option '{}'; accepted: --engine, --strategy, -p/--param, --topology, "
                                     "--workers, --seed",
                                     argv[i]));
      rest->emplace_back(argv[i]);
      if (!inline_value && arg.starts_with("--") && i + 1 < argc && argv[i + 1][0] != '-') rest->emplace_back(argv[++i]);
      continue;
    }
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else {
      if (i + 1 >= argc) throw InputError(fmt::format("{}: a value is missing", *name));
      value = argv[++i];
    }
    if (value.empty()) throw InputError(fmt::format("{}: an empty value is not accepted", *name));
    if (*name == "--engine") {
      if (value != "threads" && value != "mpi" && value != "sequential")
        throw InputError(fmt::format("--engine '{}'; accepted: threads, mpi, sequential", value));
      o.engine = value;
    } else if (*name == "--strategy") {
      o.strategy = value;
    } else if (*name == "--param") {
      split_assignment(value, "--param");  // checked here, where the command line is at hand
      o.params.push_back(value);
    } else if (*name == "--topology") {
      o.topology = value;
    } else if (*name == "--workers") {
      o.workers = parse_workers(value);
    } else {
      o.seed = parse_unsigned(value, "--seed", std::numeric_limits<std::uint64_t>::max());
    }
  }
  return o;
}

std::uint64_t parse_workers(const std::string& text) {
  const std::uint64_t n = parse_unsigned(text, "--workers", 4096);
  if (n == 0) throw InputError("--workers: '0' is not accepted; accepted: an integer from 1 to 4096");
  return n;
}

Topology resolve_topology(const std::string& spec, const StrategyInfo& strategy, std::uint64_t workers,
                          std::size_t ranks) {
  if (ranks > 0 && workers != 0)
    throw InputError(fmt::format("--workers with --engine mpi: '{}'; accepted: none, the rank count is given to "
                                 "mpirun -np",
                                 workers));
  if (spec == "auto")
    return auto_topology(strategy, ranks > 0     ? ranks
                                   : workers > 0 ? workers
                                                 : std::max(1u, std::thread::hardware_concurrency()));
  Topology t = parse_topology(spec);
  if (ranks > 0 && t.size() != ranks)
    throw InputError(fmt::format("topology {} has {} nodes but {} MPI ranks run; accepted: a topology of {} nodes "
                                 "(mpirun -np {} for this one), or --topology auto",
                                 t.spec(), t.size(), ranks, ranks, t.size()));
  if (ranks == 0 && workers != 0 && workers != t.size())
    throw InputError(fmt::format("--workers {} but topology {} has {} nodes; accepted: the same number, or "
                                 "--topology auto",
                                 workers, t.spec(), t.size()));
  return t;
}

}  // namespace dlbkit
