// Adaptive mesh refinement on dlbkit::ObjectRuntime: a 1-D domain of coarse cells, each a
// persistent object, refined where a front passes (a cell near it splits into 4 children, up
// to --levels times) and coarsened behind it (the 4 children merge back into their parent),
// so that objects are created and destroyed between phases. A cell of level L does L + 1
// times a coarse cell's work, so the front's region holds most of the work; the cells start
// in strips, a strip per worker, and children start on their parent's worker. The program
// runs the same phases twice, never balancing (`none`) and with the chosen strategy, and
// prints each run's mean phase time and the cells' checksum, which must be the same bits:
// where a cell runs does not change what it computes, nor how the mesh changes.
//
//   amr --workers 2 --phases 40                       threads
//   mpirun -np 2 amr --engine mpi --json              one worker per rank (link dlbkit::mpi)

#include "amr.hpp"

#include <dlbkit/error.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string>

using namespace amr;

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
  dlbkit::ObjectRuntimeOptions options = dlbkit::ObjectRuntimeOptions::parse(
      argc, argv,
      {{"--cells", s.cells, 1, 1 << 20, "coarse cells"},
       {"--levels", s.levels, 0, 8, "refinements of a coarse cell near the front, at most"},
       {"--phases", s.phases, 1, 1000000, "time steps of each run"},
       {"--work", s.work, 1, 100000000, "integer steps of a coarse cell a phase (level L: L + 1 times as many)"},
       {"--width", s.width, 0.0, 1.0, "a cell of level L is refined within width / 2^L of the front"},
       {"--set-loads", s.set_loads,
        "each cell's load is its work, L + 1 (in coarse cells), not its time: the balance without the machine's noise"},
       {"--json", s.json, "print one JSON document"}});
  dlbkit::ObjectRuntimeOptions unbalanced = options;
  unbalanced.strategy = "none";
  unbalanced.params.clear();
  unbalanced.record.clear();
  unbalanced.timeline.clear();
  const RunFigures off = run(unbalanced, s);
  const RunFigures on = run(options, s);
  // The mesh changes as the runtime counted, and the same way in both runs.
  const bool counted = on.report.objects_created == on.created && on.report.objects_destroyed == on.destroyed &&
                       off.report.objects_created == on.created && off.report.objects_destroyed == on.destroyed;
  const bool same = on.checksum == off.checksum && counted;
  // The work of a phase over the workers: what a perfect balance would take.
  // The busiest worker's load over the mean, phases together: the balance reached, whatever
  // the runtime's own time and other programs' on the machine.
  double ideal = 0, busiest = 0;
  for (const auto& phase : on.report.phases) {
    ideal += phase.mean_load;
    busiest += phase.max_load;
  }
  const double max_over_mean = ideal > 0 ? busiest / ideal : 1;
  ideal /= static_cast<double>(on.report.phases.size());
  if (on.rank != 0) return same ? 0 : 1;
  if (s.json) {
    fmt::print("{{\"engine\": \"{}\", \"workers\": {}, \"strategy\": \"{}\", \"cells_at_end\": {}, \"phases\": {}, "
               "\"mean_phase_seconds_unbalanced\": {:.6g}, \"mean_phase_seconds_balanced\": {:.6g}, "
               "\"ideal_phase_seconds\": {:.6g}, \"max_over_mean_load\": {:.4f}, \"balancing_seconds\": {:.6g}, "
               "\"balancing_steps\": {}, "
               "\"objects_migrated\": {}, \"objects_created\": {}, \"objects_destroyed\": {}, "
               "\"checksum_unbalanced\": {}, \"checksum_balanced\": {}{}}}\n",
               on.engine, on.workers, options.strategy, on.cells, s.phases, mean_seconds(off.report, false),
               mean_seconds(on.report, true), ideal, max_over_mean, on.report.balancing_seconds,
               on.report.balances.size(), on.report.objects_migrated, on.report.objects_created,
               on.report.objects_destroyed, off.checksum, on.checksum,
               speeds_field(on.report));
  } else {
    fmt::print("{} coarse cells, up to {} levels, {} phases, {} engine, {} workers: {} cells created, {} destroyed\n",
               s.cells, s.levels, s.phases, on.engine, on.workers, on.report.objects_created,
               on.report.objects_destroyed);
    fmt::print("  none (unbalanced)  {:.4f} s per phase\n", mean_seconds(off.report, false));
    fmt::print("  {:<18} {:.4f} s per phase, balancing included ({} steps, {} objects migrated)\n", options.strategy,
               mean_seconds(on.report, true), on.report.balances.size(), on.report.objects_migrated);
    fmt::print("  total work / P     {:.4f} s per phase\n", ideal);
    if (!counted)
      fmt::print("the runtime counted {} created and {} destroyed, the mesh {} and {}\n", on.report.objects_created,
                 on.report.objects_destroyed, on.created, on.destroyed);
    if (on.checksum == off.checksum) fmt::print("checksum {}, the same balanced or not\n", on.checksum);
    else fmt::print("checksums differ: unbalanced {}, balanced {}\n", off.checksum, on.checksum);
  }
  return same ? 0 : 1;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
