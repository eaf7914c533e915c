#pragma once
// The dlbkit subcommands. Each registers its options on the CLI11 app and returns the
// function that runs it (after parsing) and yields the exit status.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace dlbkit::cli {

using Run = std::function<int()>;

/// An unsigned option read as text and checked here: CLI11 wraps "-1" round to 2^64 - 1.
/// Throws InputError naming the option, the text and the range.
std::uint64_t parse_unsigned(const std::string& text, const std::string& option, std::uint64_t max);

/// The JSON text printed for --json (indent < 0: one line). Strings from the user (a file
/// path, a tree spec) may hold bytes that are not UTF-8; they print as U+FFFD instead of
/// failing the output.
std::string json_text(const nlohmann::json& j, int indent = 2);

Run add_list(CLI::App& app);
Run add_topology(CLI::App& app);
Run add_simulate(CLI::App& app);
Run add_demo(CLI::App& app);
Run add_reproduce(CLI::App& app);
Run add_tardiness(CLI::App& app);
Run add_analyze(CLI::App& app);
Run add_rounds(CLI::App& app);
Run add_spheres(CLI::App& app);
Run add_uts(CLI::App& app);
Run add_run(CLI::App& app);

}  // namespace dlbkit::cli
