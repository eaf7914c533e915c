#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/detail/command_line.hpp>
#include <dlbkit/runtime/runtime_options.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <limits>
#include <optional>
#include <string_view>
#include <thread>

namespace dlbkit {

namespace {

constexpr std::string_view kOurs[] = {"--engine",   "--strategy",       "--param",         "--topology", "--workers",
                                      "--seed",     "--check-tasks",    "--poll-interval", "--record",   "--timeline",
                                      "--timeline-nodes", "--quiet"};

// Stores `value` of dlbkit's option `name` in `o`.
void read_ours(std::string_view name, const std::string& value, RuntimeOptions& o) {
  if (detail::read_runtime_option(name, value, o)) return;
  if (name == "--check-tasks") o.check_tasks = parse_check_tasks(value);
  else if (name == "--poll-interval") o.poll_interval = parse_duration(value, "--poll-interval");
  else if (name == "--record") o.record = value;
  else if (name == "--timeline") o.timeline = value;
  else o.timeline_nodes = value;
}

}  // namespace

std::uint64_t ProgramOption::read_unsigned(const std::string& text, const std::string& name, std::uint64_t min,
                                           std::uint64_t max) {
  std::uint64_t v = 0;
  bool in_range = true;
  try {
    v = parse_unsigned(text, name, max);
  } catch (const InputError&) {
    in_range = false;
  }
  if (!in_range || v < min) throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from {} to {}", name, text, min, max));
  return v;
}

namespace detail {

void parse_command_line(int argc, const char* const* argv, const std::vector<ProgramOption>& program,
                        std::span<const std::string_view> ours, std::span<const std::string_view> flags,
                        const std::function<void(std::string_view, const std::string&)>& read_ours) {
  const auto accepted = [&] {  // "--n, -v and dlbkit's --engine, ..."
    std::string mine, theirs;
    for (std::string_view name : ours) mine += fmt::format("{}{}", mine.empty() ? "" : ", ", name);
    for (const ProgramOption& p : program) theirs += fmt::format("{}{}", theirs.empty() ? "" : ", ", p.name());
    return theirs.empty() ? mine : theirs + " and dlbkit's " + mine;
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    std::optional<std::string> inline_value;
    if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
      inline_value = std::string(arg.substr(eq + 1));
      arg = arg.substr(0, eq);
    }
    const auto own = std::find_if(program.begin(), program.end(), [&](const ProgramOption& p) { return p.name() == arg; });
    const bool is_ours = own == program.end() && std::find(ours.begin(), ours.end(), arg) != ours.end();
    if (own == program.end() && !is_ours)
      throw InputError(fmt::format("unknown option '{}'; accepted: {}", argv[i], accepted()));
    const bool flag = is_ours ? std::find(flags.begin(), flags.end(), arg) != flags.end() : !own->takes_value();
    if (flag && inline_value) throw InputError(fmt::format("{}: takes no value; accepted: {} alone", arg, arg));
    std::string value;
    if (inline_value) {
      value = *inline_value;
    } else if (!flag) {
      if (i + 1 >= argc) throw InputError(fmt::format("{}: a value is missing", arg));
      value = argv[++i];
    }
    if (!flag && value.empty()) throw InputError(fmt::format("{}: an empty value is not accepted", arg));
    if (is_ours) read_ours(arg, value);
    else own->read(value);
  }
}

}  // namespace detail

RuntimeOptions RuntimeOptions::parse(int argc, const char* const* argv, const std::vector<ProgramOption>& program) {
  RuntimeOptions o;
  constexpr std::string_view kFlags[] = {"--quiet"};
  detail::parse_command_line(argc, argv, program, kOurs, kFlags, [&](std::string_view name, const std::string& value) {
    if (name == "--quiet") o.quiet = true;
    else read_ours(name, value, o);
  });
  return o;
}

std::uint64_t parse_workers(const std::string& text) {
  const std::uint64_t n = parse_unsigned(text, "--workers", 4096);
  if (n == 0) throw InputError("--workers: '0' is not accepted; accepted: an integer from 1 to 4096");
  return n;
}

std::uint32_t parse_check_tasks(const std::string& text) {
  const std::uint64_t n = parse_unsigned(text, "--check-tasks", std::uint64_t{1} << 30);
  if (n == 0) throw InputError("--check-tasks: '0' is not accepted; accepted: an integer from 1 to 2^30");
  return static_cast<std::uint32_t>(n);
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
