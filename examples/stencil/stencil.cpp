// A 2-D reaction-diffusion stencil whose costly region moves: the grid is cut into blocks,
// each a persistent object of dlbkit::ObjectRuntime, and a hot spot crosses the domain from
// one corner to the other, where each cell's reaction takes `--hot-work` sub-steps. The
// blocks start in strips, a strip per worker, so the hot spot loads one worker at a time.
// The program runs the same phases twice, never balancing (`none`) and with the chosen
// strategy, and prints each run's mean phase time and the field's checksum, which must be
// the same bits: where a block runs does not change what it computes.
//
//   stencil --workers 2 --phases 40                     threads
//   mpirun -np 2 stencil --engine mpi --json            one worker per rank (link dlbkit::mpi)

#include "stencil.hpp"

#include <dlbkit/error.hpp>

#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string>

using namespace stencil;

namespace {

// The speeds weighed after the last phase (--speeds, declared or measured) as a JSON field;
// none when the workers are taken as equally fast.
std::string speeds_field(const dlbkit::ObjectRunResult& r) {
  if (r.phases.empty() || r.phases.back().speeds.empty()) return "";
  return fmt::format(", \"speeds\": [{:.4g}]", fmt::join(r.phases.back().speeds, ", "));
}

}  // namespace

int main(int argc, char** argv) try {
  Settings s;
  dlbkit::ObjectRuntimeOptions options =
      dlbkit::ObjectRuntimeOptions::parse(argc, argv,
                                          {{"--blocks", s.blocks, 1, 1024, "blocks per side of the grid"},
                                           {"--cells", s.cells, 1, 4096, "cells per side of a block"},
                                           {"--phases", s.phases, 1, 1000000, "time steps of each run"},
                                           {"--hot-work", s.hot_work, 1, 100000,
                                            "reaction sub-steps of a cell in the hot spot (1 elsewhere)"},
                                           {"--json", s.json, "print one JSON document"}});
  dlbkit::ObjectRuntimeOptions unbalanced = options;
  unbalanced.strategy = "none";
  unbalanced.params.clear();
  unbalanced.record.clear();
  unbalanced.timeline.clear();
  const RunFigures off = run(unbalanced, s);
  const RunFigures on = run(options, s);
  // The work of a phase over the workers: what a perfect balance would take.
  // The runtime's own share of a phase: its wall time beyond the busiest worker's load.
  // The bytes a phase's messages put between processes (0 on threads).
  double ideal = 0, overhead = 0, crossing = 0;
  for (const auto& phase : on.report.phases) {
    ideal += phase.mean_load;
    overhead += phase.seconds - phase.max_load;
    crossing += phase.message_bytes;
  }
  ideal /= static_cast<double>(on.report.phases.size());
  overhead /= static_cast<double>(on.report.phases.size());
  crossing /= static_cast<double>(on.report.phases.size());
  if (on.rank != 0) return on.checksum == off.checksum ? 0 : 1;
  if (s.json) {
    fmt::print("{{\"engine\": \"{}\", \"workers\": {}, \"strategy\": \"{}\", \"objects\": {}, \"phases\": {}, "
               "\"mean_phase_seconds_unbalanced\": {:.6g}, \"mean_phase_seconds_balanced\": {:.6g}, "
               "\"ideal_phase_seconds\": {:.6g}, \"overhead_phase_seconds\": {:.6g}, \"crossing_phase_bytes\": {:.6g}, "
               "\"balancing_seconds\": {:.6g}, "
               "\"decide_seconds\": {:.6g}, \"migrate_seconds\": {:.6g}, \"balancing_steps\": {}, "
               "\"objects_migrated\": {}, \"checksum_unbalanced\": {:.17g}, \"checksum_balanced\": {:.17g}{}}}\n",
               on.engine, on.workers, options.strategy, s.blocks * s.blocks, s.phases,
               mean_seconds(off.report, false), mean_seconds(on.report, true), ideal, overhead, crossing,
               on.report.balancing_seconds,
               on.report.decide_seconds, on.report.migrate_seconds, on.report.balances.size(), on.report.objects_migrated, off.checksum, on.checksum,
               speeds_field(on.report));
  } else {
    fmt::print("{} blocks of {}x{} cells, {} phases, {} engine, {} workers\n", s.blocks * s.blocks, s.cells, s.cells,
               s.phases, on.engine, on.workers);
    fmt::print("  none (unbalanced)  {:.4f} s per phase\n", mean_seconds(off.report, false));
    fmt::print("  {:<18} {:.4f} s per phase, balancing included ({} steps, {} objects migrated)\n", options.strategy,
               mean_seconds(on.report, true), on.report.balances.size(), on.report.objects_migrated);
    fmt::print("  total work / P     {:.4f} s per phase\n", ideal);
    if (on.checksum == off.checksum) fmt::print("checksum {:.17g}, the same balanced or not\n", on.checksum);
    else fmt::print("checksums differ: unbalanced {:.17g}, balanced {:.17g}\n", off.checksum, on.checksum);
  }
  return on.checksum == off.checksum ? 0 : 1;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
