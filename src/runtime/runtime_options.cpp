#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/detail/command_line.hpp>
#include <dlbkit/runtime/runtime_options.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <optional>
#include <string_view>
#include <thread>
#include <utility>

namespace dlbkit {

namespace {

// dlbkit's options of a Runtime, as --help lists them.
std::vector<detail::OurOption> our_options() {
  const RuntimeOptions d;
  return {
      {"--engine", "NAME",
       "auto, threads, mpi or sequential (default auto: mpi when an MPI launcher started several processes "
       "and the program links dlbkit::mpi, else threads)"},
      {"--strategy", "NAME", fmt::format("a name of `dlbkit list strategies` (default {})", d.strategy)},
      {"--param", "NAME=VALUE", "a parameter of the strategy (repeatable)"},
      {"--topology", "SPEC", "the workers' network, one worker per node (default auto: one the strategy accepts)"},
      {"--workers", "N", "threads: the worker count, from 1 to 4096 (default one per core); mpi: not given"},
      {"--seed", "S", fmt::format("the workers' random streams (default {})", d.seed)},
      {"--check-tasks", "N",
       fmt::format("at most N tasks and poll() calls between a worker's looks at the clock, from 1 to 2^30 "
                   "(default {})",
                   d.check_tasks)},
      {"--poll-interval", "T",
       fmt::format("the least time between a busy worker's check points (default {})",
                   exact_duration(d.poll_interval))},
      {"--record", "FILE", "each run's task tree, with the time each task took, to FILE (dlbkit simulate -w trace:FILE replays it)"},
      {"--timeline", "FILE", "each run as a timeline (Chrome trace JSON, for Perfetto) to FILE"},
      {"--timeline-nodes", "LIST", "the workers the timeline records: all, or a list such as 0-7,12 (default the first 64)"},
      {"--quiet", "", "no warnings on stderr"}};
}

// "--n, -v and dlbkit's --engine, ..., --help": the options a command line may name.
std::string option_list(const std::vector<ProgramOption>& program, std::span<const detail::OurOption> ours) {
  std::string mine, theirs;
  for (const detail::OurOption& o : ours) mine += fmt::format("{}, ", o.name);
  mine += "--help";
  for (const ProgramOption& p : program)
    if (!p.is_positional()) theirs += fmt::format("{}{}", theirs.empty() ? "" : ", ", p.name());
  return theirs.empty() ? mine : theirs + " and dlbkit's " + mine;
}

// What --help prints: the usage line, the program's arguments and options, then dlbkit's.
std::string usage(std::string_view program_name, const std::vector<ProgramOption>& program,
                  std::span<const detail::OurOption> ours, bool h_is_ours) {
  std::vector<std::pair<std::string, std::optional<std::string>>> rows;  // a heading has no second half
  std::string text = fmt::format("usage: {} [options]", program_name);
  for (const ProgramOption& p : program)
    if (p.is_positional()) text += fmt::format(" [{}]", p.name());
  for (const bool positional : {true, false}) {
    const char* heading = positional ? "arguments:" : "options:";
    for (const ProgramOption& p : program) {
      if (p.is_positional() != positional) continue;
      if (heading != nullptr) rows.emplace_back(std::exchange(heading, nullptr), std::nullopt);
      rows.emplace_back(p.synopsis(), p.help());
    }
  }
  rows.emplace_back("dlbkit's options:", std::nullopt);
  for (const detail::OurOption& o : ours)
    rows.emplace_back(o.value.empty() ? std::string(o.name) : fmt::format("{} {}", o.name, o.value), o.help);
  rows.emplace_back(h_is_ours ? "-h, --help" : "--help", "this list");
  std::size_t width = 0;
  for (const auto& [left, right] : rows)
    if (right) width = std::max(width, left.size());
  text += "\n";
  for (const auto& [left, right] : rows)
    text += !right           ? left + "\n"
            : right->empty() ? fmt::format("  {}\n", left)
                             : fmt::format("  {:{}}  {}\n", left, width, *right);
  return text;
}

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

std::string ProgramOption::integers(const std::string& min, const std::string& max) {
  return fmt::format("an integer from {} to {}", min, max);
}

std::string ProgramOption::reals(const std::string& min, const std::string& max) {
  if (min.empty() && max.empty()) return "a finite number";
  if (max.empty()) return fmt::format("a number >= {}", min);
  if (min.empty()) return fmt::format("a number <= {}", max);
  return fmt::format("a number from {} to {}", min, max);
}

std::string ProgramOption::synopsis() const {
  return positional_ || !takes_value() ? name_ : fmt::format("{} {}", name_, value_name_);
}

std::string ProgramOption::help() const {
  std::string text = description_;
  if (!accepted_.empty()) text += fmt::format("{}{}", text.empty() ? "" : ": ", accepted_);
  if (!default_.empty()) text += fmt::format("{}(default {})", text.empty() ? "" : " ", default_);
  return text;
}

void ProgramOption::read(const std::string& text) const {
  if (flag_ != nullptr) *flag_ = true;
  else if (!read_(text))
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: {}", name_, excerpt(text), accepted_));
}

namespace detail {

void parse_command_line(int argc, const char* const* argv, const std::vector<ProgramOption>& program,
                        std::span<const OurOption> ours,
                        const std::function<void(std::string_view, const std::string&)>& read_ours) {
  const auto own_option = [&](std::string_view name) {
    return std::find_if(program.begin(), program.end(),
                        [&](const ProgramOption& p) { return !p.is_positional() && p.name() == name; });
  };
  std::vector<const ProgramOption*> slots;
  for (const ProgramOption& p : program)
    if (p.is_positional()) slots.push_back(&p);
  auto read_positional = [&, filled = std::size_t{0}](std::string_view arg) mutable {
    if (filled == slots.size()) {
      std::string names;
      for (const ProgramOption* slot : slots) names += fmt::format("{}{}", names.empty() ? "" : " ", slot->name());
      throw InputError(fmt::format("unexpected argument '{}'; accepted: {}", excerpt(arg),
                                   slots.empty()
                                       ? "options only: " + option_list(program, ours)
                                       : fmt::format("at most {} beside the options: {}", slots.size(), names)));
    }
    const ProgramOption& slot = *slots[filled++];
    if (arg.empty()) throw InputError(fmt::format("{}: an empty value is not accepted", slot.name()));
    slot.read(std::string(arg));
  };
  bool only_positional = false;  // after "--"
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--" && !only_positional) {
      only_positional = true;
    } else if (only_positional || !arg.starts_with('-') || arg == "-") {
      read_positional(arg);
    } else {
      std::optional<std::string> inline_value;
      if (const auto eq = arg.find('='); arg.starts_with("--") && eq != std::string_view::npos) {
        inline_value = std::string(arg.substr(eq + 1));
        arg = arg.substr(0, eq);
      }
      const auto own = own_option(arg);
      const auto our = own != program.end()
                           ? ours.end()
                           : std::find_if(ours.begin(), ours.end(), [&](const OurOption& o) { return o.name == arg; });
      const bool help = own == program.end() && our == ours.end() && (arg == "--help" || arg == "-h");
      if (own == program.end() && our == ours.end() && !help)
        throw InputError(
            fmt::format("unknown option '{}'; accepted: {}", excerpt(argv[i]), option_list(program, ours)));
      const bool flag = help || (our != ours.end() ? our->value.empty() : !own->takes_value());
      if (flag && inline_value) throw InputError(fmt::format("{}: takes no value; accepted: {} alone", arg, arg));
      if (help) {
        const std::string_view path = argc > 0 ? argv[0] : "program";
        const bool h_is_ours = own_option("-h") == program.end();
        throw HelpRequested(usage(path.substr(path.find_last_of('/') + 1), program, ours, h_is_ours));
      }
      std::string value;
      if (inline_value) {
        value = *inline_value;
      } else if (!flag) {
        if (i + 1 >= argc) throw InputError(fmt::format("{}: a value is missing", arg));
        value = argv[++i];
      }
      if (!flag && value.empty()) throw InputError(fmt::format("{}: an empty value is not accepted", arg));
      if (our != ours.end()) read_ours(arg, value);
      else own->read(value);
    }
  }
}

}  // namespace detail

RuntimeOptions RuntimeOptions::parse(int argc, const char* const* argv, const std::vector<ProgramOption>& program) {
  RuntimeOptions o;
  const std::vector<detail::OurOption> ours = our_options();
  detail::parse_command_line(argc, argv, program, ours, [&](std::string_view name, const std::string& value) {
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
