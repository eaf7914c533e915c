// Particles that drift around a periodic 1-D domain cut into cells, each cell a persistent
// object of dlbkit::ObjectRuntime: a dense cloud crosses the domain, and each particle costs
// `--work` steps of a cell's time, so the load follows the cloud. A particle that leaves its
// cell is sent to the next cell in a message, as a particle-in-cell code sends them: a
// mapping that puts neighbouring cells on different workers puts those bytes between them.
// The cells start in strips, a strip per worker. The program runs the same phases twice,
// never balancing (`none`) and with the chosen strategy, and prints each run's mean phase
// time and the particles' checksum, which must be the same bits balanced or not.
//
//   particles --workers 2 --phases 40                   threads
//   mpirun -np 2 particles --engine mpi --json          one worker per rank (link dlbkit::mpi)

#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <string>
#include <vector>

namespace {

struct Settings {
  std::uint32_t cells = 32;         // cells of the domain
  std::uint32_t particles = 40000;  // particles in all, half of them in the cloud
  std::uint32_t phases = 40;        // time steps of each run
  std::uint32_t work = 40;          // steps of a particle's work per phase
  bool json = false;
};

struct Particle {
  double x = 0, v = 0, w = 0;  // position in [0, 1), velocity per phase, the work's state
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x, v, w);
  }
};
using Particles = std::vector<Particle>;

struct Cell {
  Particles particles;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(particles);
  }
};

// A number in [0, 1) from an integer (splitmix64), so that every process draws the same cloud.
double uniform(std::uint64_t k) {
  k += 0x9e3779b97f4a7c15ull;
  k = (k ^ (k >> 30)) * 0xbf58476d1ce4e5b9ull;
  k = (k ^ (k >> 27)) * 0x94d049bb133111ebull;
  return static_cast<double>((k ^ (k >> 31)) >> 11) * 0x1p-53;
}

// Particle k: the first half uniform over the domain, the second half a cloud around 0.1 of
// width 0.05; all drift by 0.4 of a cell per phase (the cloud a little faster).
Particle particle(std::uint64_t k, const Settings& s) {
  const bool cloud = k >= s.particles / 2;
  double x = cloud ? 0.1 + 0.05 * (uniform(2 * k) + uniform(2 * k + 1) - 1) : uniform(2 * k);
  x -= std::floor(x);
  const double v = (cloud ? 0.5 : 0.4) / s.cells;
  return {x, v, 0};
}

std::uint32_t cell_of(double x, const Settings& s) {
  return std::min(s.cells - 1, static_cast<std::uint32_t>(x * s.cells));
}

// One phase of a cell: the particles received join it, each moves and works, and those that
// left go to their new cell in one message per cell.
void step(Cell& c, dlbkit::ObjectContext<Particles>& ctx, const Settings& s) {
  for (const auto& [from, arrived] : ctx.received()) c.particles.insert(c.particles.end(), arrived.begin(), arrived.end());
  Particles stay;
  std::vector<std::pair<std::uint32_t, Particles>> leave;
  for (Particle p : c.particles) {
    for (std::uint32_t r = 0; r < s.work; ++r) p.w = 0.5 * p.w + std::sin(p.w + p.x);
    p.x += p.v;
    if (p.x >= 1) p.x -= 1;
    const std::uint32_t to = cell_of(p.x, s);
    if (to == ctx.id()) {
      stay.push_back(p);
      continue;
    }
    auto it = std::find_if(leave.begin(), leave.end(), [&](const auto& l) { return l.first == to; });
    if (it == leave.end()) it = leave.insert(leave.end(), {to, {}});
    it->second.push_back(p);
  }
  c.particles.swap(stay);
  for (auto& [to, moving] : leave) ctx.send(to, std::move(moving));
}

struct RunFigures {
  dlbkit::ObjectRunResult report;
  double checksum = 0;
  std::string engine;
  std::size_t workers = 0;
  int rank = 0;
};

RunFigures run(const dlbkit::ObjectRuntimeOptions& options, const Settings& s) {
  dlbkit::ObjectRuntime<Cell, Particles> rt(options);
  const std::size_t p = rt.workers();
  std::vector<Cell> cells(s.cells);
  for (std::uint64_t k = 0; k < s.particles; ++k) {
    const Particle q = particle(k, s);
    cells[cell_of(q.x, s)].particles.push_back(q);
  }
  for (std::uint32_t c = 0; c < s.cells; ++c) {
    const auto worker = static_cast<dlbkit::NodeId>(std::size_t{c} * p / s.cells);  // strips
    if (rt.is_local(worker)) rt.add(c, std::move(cells[c]), worker);
  }
  for (std::uint32_t phase = 0; phase < s.phases; ++phase)
    rt.run_phase([&](Cell& c, dlbkit::ObjectContext<Particles>& ctx) { step(c, ctx, s); });
  RunFigures out{.engine = rt.engine(), .workers = p, .rank = rt.rank()};
  // Each cell's sum in id order, its particles in the order they reached it: the same
  // additions whatever the mapping.
  for (double sum : rt.collect([](std::uint64_t, const Cell& c) {
         double total = 0;
         for (const Particle& q : c.particles) total += q.x + q.w;
         return total;
       }))
    out.checksum += sum;
  out.report = rt.finish();
  return out;
}

double mean_seconds(const dlbkit::ObjectRunResult& r, bool with_balancing) {
  const double total = r.phase_seconds + (with_balancing ? r.balancing_seconds : 0);
  return r.phases.empty() ? 0 : total / static_cast<double>(r.phases.size());
}

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
                                          {{"--cells", s.cells, 2, 65536, "cells of the domain"},
                                           {"--particles", s.particles, 1, 100000000, "particles in all"},
                                           {"--phases", s.phases, 1, 1000000, "time steps of each run"},
                                           {"--work", s.work, 0, 100000, "steps of a particle's work per phase"},
                                           {"--json", s.json, "print one JSON document"}});
  dlbkit::ObjectRuntimeOptions unbalanced = options;
  unbalanced.strategy = "none";
  unbalanced.params.clear();
  unbalanced.record.clear();
  unbalanced.timeline.clear();
  const RunFigures off = run(unbalanced, s);
  const RunFigures on = run(options, s);
  // The work of a phase over the workers: what a perfect balance would take.
  // The runtime's own share of a phase, its messages' delivery included: its wall time beyond
  // the busiest worker's load. The bytes a phase's messages put between processes (0 on threads).
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
               on.engine, on.workers, options.strategy, s.cells, s.phases, mean_seconds(off.report, false),
               mean_seconds(on.report, true), ideal, overhead, crossing, on.report.balancing_seconds,
               on.report.decide_seconds, on.report.migrate_seconds, on.report.balances.size(),
               on.report.objects_migrated, off.checksum, on.checksum,
               speeds_field(on.report));
  } else {
    fmt::print("{} cells, {} particles, {} phases, {} engine, {} workers\n", s.cells, s.particles, s.phases, on.engine,
               on.workers);
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
