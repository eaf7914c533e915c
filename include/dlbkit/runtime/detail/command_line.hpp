#pragma once
/// \file
/// The command-line reader that RuntimeOptions::parse and ObjectRuntimeOptions::parse share:
/// dlbkit's long options beside the program's own (runtime_options.hpp).

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/runtime_options.hpp>

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <limits>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlbkit::detail {

/// One of dlbkit's options: its spelling, its value's name in --help ("" for a flag) and
/// its line there.
struct OurOption {
  std::string_view name, value;
  std::string help;
};

/// Reads argv[1..argc-1]: each argument is one of `program`'s options (which wins over one of
/// ours of the same name), one of `ours`, `--name value` or `--name=value`, or fills the
/// program's next positional slot. `read_ours(name, value)` stores one of ours (value "" for
/// a flag). Throws InputError naming an unknown option, a missing or empty value, a value
/// given to a flag, an argument beyond the last slot; HelpRequested for --help, and -h
/// unless the program has a -h.
void parse_command_line(int argc, const char* const* argv, const std::vector<ProgramOption>& program,
                        std::span<const OurOption> ours,
                        const std::function<void(std::string_view, const std::string&)>& read_ours);

/// Stores `value` of one of the options both runtimes take (--engine --strategy --param
/// --topology --workers --seed; --workers where `o` has workers) in the like-named field of
/// `o`; false for another option.
template <class Options>
bool read_runtime_option(std::string_view name, const std::string& value, Options& o) {
  if (name == "--engine") {
    if (value != "auto" && value != "threads" && value != "mpi" && value != "sequential")
      throw InputError(fmt::format("--engine '{}'; accepted: auto, threads, mpi, sequential", value));
    o.engine = value;
  } else if (name == "--strategy") {
    o.strategy = value;
  } else if (name == "--param") {
    split_assignment(value, "--param");  // checked here, where the command line is at hand
    o.params.push_back(value);
  } else if (name == "--topology") {
    o.topology = value;
  } else if (name == "--workers") {
    if constexpr (requires { o.workers; }) o.workers = parse_workers(value);
    else return false;
  } else if (name == "--seed") {
    o.seed = parse_unsigned(value, "--seed", std::numeric_limits<std::uint64_t>::max());
  } else {
    return false;
  }
  return true;
}

}  // namespace dlbkit::detail
