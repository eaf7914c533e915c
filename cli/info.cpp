// dlbkit list, dlbkit topology.

#include "commands.hpp"

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/sim/cost_model.hpp>
#include <dlbkit/sim/workload.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>
#include <dlbkit/topology/describe.hpp>
#include <dlbkit/topology/topology.hpp>

#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

namespace {

template <class Info>
void print_components(const char* title, const std::vector<Info>& items) {
  fmt::print("{}\n", title);
  for (const Info& item : items) {
    fmt::print("  {:<18} {}\n", item.name, item.description);
    if (!item.source.empty()) fmt::print("  {:<18} source: {}\n", "", item.source);
    for (const ParamSpec& p : item.params)
      fmt::print("  {:<18}   {:<22} {} ({}{})\n", "", p.name + "=" + p.default_value, p.description, p.accepted(),
                 p.search.empty() ? "" : fmt::format("; dlbkit advise also tries {}", fmt::join(p.search, ", ")));
  }
}

}  // namespace

Run add_list(CLI::App& app) {
  auto* cmd = app.add_subcommand("list", "List strategies, workloads, cost models and topology specs");
  auto what = std::make_shared<std::string>("all");
  cmd->add_option("what", *what,
                  "strategies, workloads, apps, phase-strategies, phase-workloads, cost-models, topologies or all")
      ->check(one_of({"strategies", "workloads", "apps", "phase-strategies", "phase-workloads", "cost-models",
                      "topologies", "all"}));
  return [what] {
    const bool all = *what == "all";
    if (all || *what == "strategies") print_components("strategies (-p/--param name=value):", builtin_strategies().all());
    if (all || *what == "workloads") print_components("workloads (--workload-param name=value):", builtin_workloads().all());
    if (all || *what == "apps") print_components("apps for dlbkit run (--app-param name=value):", builtin_apps().all());
    if (all || *what == "phase-strategies")
      print_components("phase strategies for dlbkit phases (-p/--param name=value):", builtin_phase_strategies().all());
    if (all || *what == "phase-workloads")
      print_components("phase workloads for dlbkit phases (--workload-param name=value):",
                       builtin_phase_workloads().all());
    if (all || *what == "cost-models") {
      fmt::print("cost models (--cost-param name=value overrides a field):\n");
      for (const auto& p : cost_model_presets()) {
        fmt::print("  {:<18} {}\n", p.name, p.description);
        fmt::print("  {:<18}   {}\n", "", json_text(make_cost_model(p.name).to_json(), -1));
      }
      fmt::print("  fields: ");
      for (const ParamSpec& f : cost_model_params()) fmt::print("{} ", f.name);
      fmt::print("\n");
    }
    if (all || *what == "topologies") {
      fmt::print("topologies:\n");
      for (const std::string& form : topology_spec_forms()) fmt::print("  {}\n", form);
    }
    return 0;
  };
}

Run add_topology(CLI::App& app) {
  auto* cmd = app.add_subcommand("topology", "Print the properties of a topology");
  struct Options {
    std::string spec;
    bool json = false;
    bool neighbors = false;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("spec", o->spec, "e.g. hypercube:5, torus:8x8, file:net.txt (see 'dlbkit list topologies')")->required();
  cmd->add_flag("--json", o->json, "print one JSON document");
  cmd->add_flag("--neighbors", o->neighbors, "also list every node's neighbours in their stable order");
  return [o] {
    const Topology t = parse_topology(o->spec);
    if (o->json) {
      nlohmann::json j = describe(t);
      if (o->neighbors) {
        j["neighbors"] = nlohmann::json::array();
        for (NodeId v = 0; v < t.size(); ++v) {
          const auto nb = t.neighbors(v);
          j["neighbors"].push_back(std::vector<NodeId>(nb.begin(), nb.end()));
        }
      }
      fmt::print("{}\n", json_text(j));
    } else {
      fmt::print("{}", describe_text(t));
      if (o->neighbors)
        for (NodeId v = 0; v < t.size(); ++v) fmt::print("  {}: {}\n", v, fmt::join(t.neighbors(v), " "));
    }
    return 0;
  };
}

}  // namespace dlbkit::cli
