// dlbkit spheres: the semi-distributed structure of a network (AG91 Tables II and III).

#include "commands.hpp"

#include <dlbkit/analysis/hadamard.hpp>
#include <dlbkit/analysis/spheres.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

Run add_spheres(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "spheres", "Schedulers (a Hadamard code), covering radius and spheres of hypercube, bisectional and odd networks "
                 "(AG91 Tables II and III)");
  struct Options {
    std::string spec;
    int range = -1;
    bool json = false;
    CLI::Option* range_option = nullptr;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("--topology", o->spec, "hypercube:n, bisectional:n or odd:n")->required();
  o->range_option = cmd->add_option("--range", o->range, "also print Table III: how many spheres of this radius f share each node");
  cmd->add_flag("--json", o->json, "print one JSON document");
  return [o] {
    if (o->range_option->count() == 0) o->range = -1;
    else if (o->range < 0 || o->range > 64)
      throw InputError(fmt::format("--range {}: accepted: a radius from 0 to 64", o->range));
    const Topology t = parse_topology(o->spec);
    const SchedulerSet c = scheduler_set(t);
    const SphereStructure s = analyze_spheres(t, c);
    std::vector<SharingRow> sharing;
    if (o->range >= 0) sharing = sharing_distribution(t, c, o->range);
    if (o->json) {
      nlohmann::json j;
      j["topology"] = t.spec();
      j["family"] = c.family;
      j["rule"] = c.rule;
      j["hadamard"] = {{"order", c.hadamard_order}, {"construction", c.hadamard_construction}};
      j["N"] = s.nodes;
      j["n"] = s.degree;
      j["delta"] = s.min_distance;
      j["C"] = c.schedulers.size();
      j["r"] = s.covering_radius;
      j["valencies"] = s.valencies;
      j["sphere_size"] = s.sphere_size;
      nlohmann::json pairs = nlohmann::json::object();
      for (auto [d, count] : s.pair_distances) pairs[std::to_string(d)] = count;
      j["scheduler_pair_distances"] = pairs;
      j["schedulers"] = nlohmann::json::array();
      for (std::size_t k = 0; k < c.schedulers.size(); ++k)
        j["schedulers"].push_back({{"node", c.schedulers[k]}, {"word", word_string(c.codewords[k], c.word_length)}});
      if (o->range >= 0) {
        j["range"] = o->range;
        j["sharing"] = nlohmann::json::array();
        for (const SharingRow& row : sharing) {
          nlohmann::json spheres = nlohmann::json::object();
          for (auto [k, nodes] : row.spheres) spheres[std::to_string(k)] = nodes;
          j["sharing"].push_back({{"distance", row.distance}, {"nodes", row.nodes}, {"spheres", spheres}});
        }
      }
      fmt::print("{}\n", json_text(j));
      return 0;
    }
    fmt::print("{} ({}): {} schedulers from a Hadamard matrix of order {} ({})\n  {}\n", c.family, t.spec(),
               c.schedulers.size(), c.hadamard_order, c.hadamard_construction, c.rule);
    fmt::print("  {:>8} {:>3} {:>5} {:>4} {:>3}  {:<24} {:>8}\n", "N", "n", "delta", "|C|", "r", "v_1 .. v_r",
               "|S_r(x)|");
    std::vector<std::size_t> v(s.valencies.begin() + 1, s.valencies.end());
    fmt::print("  {:>8} {:>3} {:>5} {:>4} {:>3}  {:<24} {:>8}\n", s.nodes, s.degree, s.min_distance,
               c.schedulers.size(), s.covering_radius, fmt::format("{}", fmt::join(v, " ")), s.sphere_size);
    std::string pairs;
    for (auto [d, count] : s.pair_distances) pairs += fmt::format("{}{} at distance {}", pairs.empty() ? "" : ", ", count, d);
    fmt::print("  scheduler pairs: {}\n", pairs);
    fmt::print("  schedulers (node: word):");
    for (std::size_t k = 0; k < c.schedulers.size(); ++k)
      fmt::print("{}{}: {}", k % 4 == 0 ? "\n    " : "   ", c.schedulers[k], word_string(c.codewords[k], c.word_length));
    fmt::print("\n");
    if (o->range >= 0) {
      fmt::print("sharing with range f = {} (Table III): nodes by distance from C, 'k x m' = m nodes lie in k spheres\n",
                 o->range);
      for (const SharingRow& row : sharing) {
        std::string cells;
        for (auto [k, nodes] : row.spheres) cells += fmt::format("{}{} x {}", cells.empty() ? "" : ", ", k, nodes);
        fmt::print("  distance {}: {} nodes: {}\n", row.distance, row.nodes, cells);
      }
    }
    return 0;
  };
}

}  // namespace dlbkit::cli
