// dlbkit reproduce: regenerate a paper's table or figure, ours beside the paper's.

#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include "reproduce/reproduction.hpp"
#include "reproduce/scoreboard.hpp"

#include <chrono>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace dlbkit::cli {

namespace {

// A reproduction with the progress line on a terminal.
ReproductionResult run_shown(const ReproductionInfo& info, const ReproductionOptions& options) {
  ProgressLine progress(true, "dlbkit reproduce");
  progress.phase(info.name, simulation_progress(false));
  return info.run(options);
}

}  // namespace

Run add_reproduce(CLI::App& app) {
  auto* cmd = app.add_subcommand("reproduce", "Regenerate a table or figure of the papers, printed beside the paper's numbers");
  struct Options {
    std::string name;
    std::string out = "out";
    int runs = 0;  // 0: the reproduction's own default
    unsigned jobs = std::max(1u, std::thread::hardware_concurrency());
    bool json = false;
    bool list = false;
    std::vector<std::string> params;
  };
  auto o = std::make_shared<Options>();
  cmd->add_option("name", o->name,
                  "e.g. wlr93-table4; --list shows them all; 'scoreboard' runs every one under a minute and "
                  "sets each published number beside ours");
  cmd->add_flag("--list", o->list, "list the reproductions");
  cmd->add_option("--out", o->out, "directory for CSV and figures (a subdirectory per reproduction)")->capture_default_str();
  cmd->add_option("--runs", o->runs, "seeds per point (default: the reproduction's own, 10 for WLR93 Table IV)")
      ->check(integer_in(1, 10000));
  cmd->add_option("--jobs", o->jobs, "simulations at once")->check(integer_in(1, 256))->capture_default_str();
  cmd->add_flag("--json", o->json, "print one JSON document with the inputs, our figures and the paper's");
  cmd->add_option("-p,--param", o->params,
                  "the reproduction's own option name=value (repeatable; --list shows them), e.g. predict-runtime "
                  "-p at_65536=true: also predict the best four strategies on 65536 processors (minutes)");
  return [o] {
    const auto& registry = builtin_reproductions();
    if (o->list) {
      for (const auto& r : registry.all()) {
        fmt::print("  {:<16} {} ({})\n", r.name, r.description, r.source);
        for (const ParamSpec& p : r.params)
          fmt::print("  {:<16}   -p {}: {} ({})\n", "", p.name + "=" + p.default_value, p.description, p.accepted());
      }
      return 0;
    }
    if (o->name.empty()) {
      std::vector<std::string> names;
      for (const auto& r : registry.all()) names.push_back(r.name);
      throw InputError(fmt::format("reproduce: no reproduction named; accepted: one of {} (dlbkit reproduce --list)",
                                   fmt::join(names, ", ")));
    }
    if (o->name == "scoreboard") {
      if (!o->params.empty())
        throw InputError(fmt::format("--param {} is not accepted with scoreboard; accepted: none (each reproduction "
                                     "runs at its own default)", o->params.front()));
      if (o->runs > 0)
        throw InputError(fmt::format("--runs {} is not accepted with scoreboard; accepted: none (each reproduction "
                                     "runs at its own default, the case of the paper's numbers)", o->runs));
      Scoreboard board;
      {
        ProgressLine progress(true, "dlbkit reproduce");
        progress.phase("scoreboard", simulation_progress(false));
        board = run_scoreboard(registry.all(), {.out_dir = o->out, .jobs = o->jobs});
      }
      fmt::print("{}\n", o->json ? json_text(scoreboard_json(board)) : scoreboard_text(board));
      return 0;
    }
    const ReproductionInfo& info = registry.find(o->name);
    const auto start = std::chrono::steady_clock::now();
    const int runs = o->runs > 0 ? o->runs : info.default_runs;
    const auto params = assignments(o->params, "--param");
    Parameters::parse(info.params, params, "reproduction " + info.name);  // refuses unknown names and bad values
    ReproductionResult report =
        run_shown(info, {.out_dir = o->out + "/" + info.name, .runs = runs, .jobs = o->jobs, .params = params});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (o->json) {
      report.data["name"] = info.name;
      report.data["files"] = report.files;
      report.data["wall_seconds"] = seconds;
      fmt::print("{}\n", json_text(report.data));
    } else {
      fmt::print("{}\nwrote {}\n({:.1f} s)\n", report.text, fmt::join(report.files, ", "), seconds);
    }
    return 0;
  };
}

Run add_demo(CLI::App& app) {
  auto* cmd = app.add_subcommand("demo",
                                 "The main job: WLR93 Table IV, every strategy beside NOBAL and the paper's numbers on a "
                                 "32-node iPSC/2 hypercube (= reproduce wlr93-table4)");
  auto runs = std::make_shared<int>(10);
  auto out = std::make_shared<std::string>("out");
  cmd->add_option("--runs", *runs, "random load distributions (seeds 1..runs)")->check(integer_in(1, 10000))->capture_default_str();
  cmd->add_option("--out", *out, "directory for the CSV and the figure")->capture_default_str();
  return [runs, out] {
    const ReproductionInfo& table4 = builtin_reproductions().find("wlr93-table4");
    const ReproductionResult report = run_shown(
        table4, {.out_dir = *out + "/" + table4.name, .runs = *runs, .jobs = std::max(1u, std::thread::hardware_concurrency())});
    fmt::print("{}\nwrote {}\n", report.text, fmt::join(report.files, ", "));
    return 0;
  };
}

}  // namespace dlbkit::cli
