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

/// Makes every option of every command of `app` reject an empty value (never a silent
/// default) and read numbers with the shared decimal reader. Call after adding the commands.
void check_option_values(CLI::App& app);

/// CLI11 checks in the tool's error format ("'12' is not accepted; accepted: ..."), for
/// options that need more than their type; they reject an empty value like every option.
CLI::Validator integer_in(long long min, long long max);
CLI::Validator one_of(const std::vector<std::string>& choices);

/// The JSON text printed for --json (indent < 0: one line). Strings from the user (a file
/// path, a tree spec) may hold bytes that are not UTF-8; they print as U+FFFD instead of
/// failing the output.
std::string json_text(const nlohmann::json& j, int indent = 2);

/// The nodes --timeline records: timeline_nodes(list, nodes). When the default leaves nodes
/// out, says so on stderr (rank 0 alone under mpirun) and how to choose others.
std::vector<bool> timeline_selection(const std::string& list, std::size_t nodes);

Run add_list(CLI::App& app);
Run add_topology(CLI::App& app);
Run add_simulate(CLI::App& app);
Run add_phases(CLI::App& app);
Run add_advise(CLI::App& app);
Run add_demo(CLI::App& app);
Run add_reproduce(CLI::App& app);
Run add_tardiness(CLI::App& app);
Run add_analyze(CLI::App& app);
Run add_rounds(CLI::App& app);
Run add_spheres(CLI::App& app);
Run add_uts(CLI::App& app);
Run add_run(CLI::App& app);
Run add_calibrate(CLI::App& app);

}  // namespace dlbkit::cli
