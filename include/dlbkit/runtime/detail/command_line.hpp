#pragma once
/// \file
/// The command-line reader that RuntimeOptions::parse and ObjectRuntimeOptions::parse share:
/// dlbkit's long options beside the program's own (runtime_options.hpp).

#include <dlbkit/runtime/runtime_options.hpp>

#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlbkit::detail {

/// Reads argv[1..argc-1]: each argument is one of `program` (which wins over one of ours of the
/// same name) or one of `ours`, `--name value` or `--name=value`; `flags` of ours take no
/// value. `read_ours(name, value)` stores one of ours (value "" for a flag). Throws InputError
/// naming an unknown option, a missing or empty value, a value given to a flag.
void parse_command_line(int argc, const char* const* argv, const std::vector<ProgramOption>& program,
                        std::span<const std::string_view> ours, std::span<const std::string_view> flags,
                        const std::function<void(std::string_view, const std::string&)>& read_ours);

}  // namespace dlbkit::detail
