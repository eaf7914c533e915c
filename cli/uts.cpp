// dlbkit uts: count a UTS tree sequentially (docs/apps/uts.md).

#include "commands.hpp"

#include <dlbkit/apps/uts.hpp>
#include <dlbkit/error.hpp>

#include <chrono>
#include <ctime>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

Run add_uts(CLI::App& app) {
  auto* cmd = app.add_subcommand("uts", "Count a UTS (Unbalanced Tree Search) tree sequentially: nodes, leaves, depth, nodes/s");
  struct Options {
    std::string tree;
    bool json = false, list = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--tree", o->tree,
                  "a standard tree (T1, T2, T3, T4, T5, T1L, T2L, T3L, ...), optionally followed by key=value changes, "
                  "or key=value pairs: type, shape, b0, depth, q, m, seed, shift (docs/apps/uts.md)");
  cmd->add_flag("--list", o->list, "list the standard trees with their parameters and published counts");
  cmd->add_flag("--json", o->json, "print one JSON document");
  return [o] {
    if (o->list) {
      nlohmann::json trees = nlohmann::json::array();
      for (const uts::PublishedTree& t : uts::published_trees())
        trees.push_back({{"name", t.name}, {"description", t.description}, {"params", uts::to_string(t.params)},
                         {"nodes", t.nodes}, {"leaves", t.leaves}, {"max_depth", t.max_depth}});
      if (o->json) {
        fmt::print("{}\n", json_text(trees));
        return 0;
      }
      fmt::print("{:<6} {:<24} {:>13} {:>13} {:>8}  {}\n", "name", "kind", "nodes", "leaves", "depth", "parameters");
      for (const uts::PublishedTree& t : uts::published_trees())
        fmt::print("{:<6} {:<24} {:>13} {:>13} {:>8}  {}\n", t.name, t.description, t.nodes,
                   t.leaves ? std::to_string(t.leaves) : "-", t.max_depth ? std::to_string(t.max_depth) : "-",
                   uts::to_string(t.params));
      return 0;
    }
    if (o->tree.empty()) throw InputError("uts: give --tree NAME|SPEC, or --list");
    const uts::TreeParams params = uts::parse_tree(o->tree);
    // Wall-clock and CPU time: on a loaded machine the CPU time is the fairer measure of
    // a sequential count.
    const auto start = std::chrono::steady_clock::now();
    const std::clock_t cpu_start = std::clock();
    const uts::TreeCounts counts = uts::count_sequential(params);
    const double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const auto rate = [&](double s) { return s > 0 ? static_cast<double>(counts.nodes) / s : 0.0; };
    if (o->json) {
      const nlohmann::json out = {{"tree", o->tree},
                                  {"params", uts::to_string(params)},
                                  {"nodes", counts.nodes},
                                  {"leaves", counts.leaves},
                                  {"max_depth", counts.max_depth},
                                  {"seconds", seconds},
                                  {"cpu_seconds", cpu},
                                  {"nodes_per_second", rate(seconds)},
                                  {"nodes_per_cpu_second", rate(cpu)}};
      fmt::print("{}\n", json_text(out));
      return 0;
    }
    fmt::print("UTS tree {} ({})\n\n", o->tree, uts::to_string(params));
    fmt::print("  nodes        {}\n", counts.nodes);
    fmt::print("  leaves       {} ({:.2f}%)\n", counts.leaves,
               100.0 * static_cast<double>(counts.leaves) / static_cast<double>(counts.nodes));
    fmt::print("  max depth    {}\n", counts.max_depth);
    fmt::print("  time         {:.3f} s wall, {:.3f} s CPU (sequential)\n", seconds, cpu);
    fmt::print("  rate         {:.2f} M nodes/s wall, {:.2f} M nodes/s CPU\n", rate(seconds) / 1e6, rate(cpu) / 1e6);
    return 0;
  };
}

}  // namespace dlbkit::cli
