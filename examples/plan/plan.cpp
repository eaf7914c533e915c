// An MPI program of the usual kind, balanced through dlbkit's plan API. Each rank keeps its
// own cells in a std::vector and steps them; the particles that cross into a cell of another
// rank go there in the program's own MPI_Alltoallv, the cell's rank read from a table that
// every rank holds. dlbkit comes in only between phases: each rank lists its cells with the
// time each took (a dlbkit::LocalPhase), dlbkit::Balancer::plan says which cells go where,
// Balancer::migrate moves them, and the program updates its table with one MPI_Allreduce.
//
// The physics is examples/particles': particles drift around a periodic 1-D domain of cells,
// half of them in a dense cloud, and each costs `--work` steps of its cell's time, so the load
// follows the cloud. The cells start in strips, a strip per rank. The program runs the same
// phases twice, never balancing and with the chosen strategy, and prints each run's mean phase
// time and the particles' checksum, which must be the same bits balanced or not.
//
//   mpirun -np 2 plan --strategy refine --json
//   plan --phases 10                                    one process: one rank, nothing moves

#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <iterator>
#include <string>
#include <vector>

namespace {

struct Settings {
  std::uint32_t cells = 32;         // cells of the domain
  std::uint32_t particles = 40000;  // particles in all, half of them in the cloud
  std::uint32_t phases = 40;        // time steps of each run
  std::uint32_t work = 40;          // steps of a particle's work per phase
  std::uint32_t every = 1;          // balance after every `every`-th phase (0: never)
  bool json = false;
};

struct Particle {
  double x = 0, v = 0, w = 0;  // position in [0, 1), velocity per phase, the work's state
  template <class Archive>
  void serialize(Archive& ar) {
    ar(x, v, w);
  }
};

struct Cell {
  std::uint32_t id = 0;
  std::vector<Particle> particles;
  double seconds = 0;  // the last phase's time: the cell's load
  template <class Archive>
  void serialize(Archive& ar) {
    ar(id, particles);
  }
};

// A particle on its way to the cell `to`, sent by the cell `from`: the bytes of the exchange.
struct Crossing {
  std::uint32_t to, from;
  Particle p;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

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

// This rank's cell `id` (the cells are kept in id order).
std::vector<Cell>::iterator find_cell(std::vector<Cell>& cells, std::uint64_t id) {
  return std::lower_bound(cells.begin(), cells.end(), id, [](const Cell& c, std::uint64_t v) { return c.id < v; });
}

// One phase of a cell: each particle works and moves; those that leave the cell are put in
// `out` for the rank of their new cell.
void step(Cell& c, const std::vector<int>& owner, std::vector<std::vector<Crossing>>& out, const Settings& s) {
  std::vector<Particle> stay;
  for (Particle p : c.particles) {
    for (std::uint32_t r = 0; r < s.work; ++r) p.w = 0.5 * p.w + std::sin(p.w + p.x);
    p.x += p.v;
    if (p.x >= 1) p.x -= 1;
    const std::uint32_t to = cell_of(p.x, s);
    if (to == c.id) stay.push_back(p);
    else out[owner[to]].push_back({to, c.id, p});
  }
  c.particles.swap(stay);
}

// Sends out[r] to rank r, and returns what every rank sent this one.
std::vector<Crossing> exchange(const std::vector<std::vector<Crossing>>& out) {
  const std::size_t size = out.size();
  std::vector<int> send_bytes(size), send_at(size), receive_bytes(size), receive_at(size);
  std::vector<Crossing> send;
  for (std::size_t r = 0; r < size; ++r) {
    send_at[r] = static_cast<int>(send.size() * sizeof(Crossing));
    send_bytes[r] = static_cast<int>(out[r].size() * sizeof(Crossing));
    send.insert(send.end(), out[r].begin(), out[r].end());
  }
  MPI_Alltoall(send_bytes.data(), 1, MPI_INT, receive_bytes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (std::size_t r = 0; r < size; ++r) {
    receive_at[r] = total;
    total += receive_bytes[r];
  }
  std::vector<Crossing> received(static_cast<std::size_t>(total) / sizeof(Crossing));
  MPI_Alltoallv(send.data(), send_bytes.data(), send_at.data(), MPI_BYTE, received.data(), receive_bytes.data(),
                receive_at.data(), MPI_BYTE, MPI_COMM_WORLD);
  return received;
}

// Between two phases: this rank's cells and their times to dlbkit, the cells it says to move
// moved, and the owner table brought up to date. Returns the cells moved over all ranks.
std::size_t balance(dlbkit::Balancer& balancer, std::vector<Cell>& cells, std::vector<int>& owner, int rank) {
  dlbkit::LocalPhase mine;
  for (const Cell& c : cells) {
    dlbkit::PhaseObject& object = mine.objects.emplace_back();
    object.id = c.id;
    object.load = c.seconds;
  }
  dlbkit::MigrationPlan plan = balancer.plan(mine);
  std::vector<Cell> arrived;
  balancer.migrate(
      plan,
      [&](std::uint64_t id) {
        const auto it = find_cell(cells, id);
        Cell leaving = std::move(*it);
        cells.erase(it);
        return leaving;
      },
      [&](std::uint64_t, Cell c) { arrived.push_back(std::move(c)); });
  cells.insert(cells.end(), std::make_move_iterator(arrived.begin()), std::make_move_iterator(arrived.end()));
  std::sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) { return a.id < b.id; });
  // Each rank marks its cells; the maximum over ranks is every cell's rank.
  std::fill(owner.begin(), owner.end(), -1);
  for (const Cell& c : cells) owner[c.id] = rank;
  MPI_Allreduce(MPI_IN_PLACE, owner.data(), static_cast<int>(owner.size()), MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return plan.objects_migrated;
}

struct RunFigures {
  double phase_seconds = 0;      // the mean wall time of a phase, balancing included
  double ideal_seconds = 0;      // the cells' time of a phase over the ranks: a perfect balance
  double max_load_seconds = 0;   // the busiest rank's cells' time, a phase's mean
  double balancing_seconds = 0;  // plans, migrations and table updates, in all
  std::size_t balancing_steps = 0, objects_migrated = 0;
  double checksum = 0;
};

// The phases, balanced through `balancer` after every s.every-th one, or never (nullptr).
RunFigures run(dlbkit::Balancer* balancer, const Settings& s) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<int> owner(s.cells);
  std::vector<Cell> cells;
  for (std::uint32_t c = 0; c < s.cells; ++c) {
    owner[c] = static_cast<int>(std::uint64_t{c} * size / s.cells);  // strips
    if (owner[c] == rank) cells.emplace_back().id = c;
  }
  for (std::uint64_t k = 0; k < s.particles; ++k) {  // every rank draws them all, keeps its own
    const Particle q = particle(k, s);
    const std::uint32_t c = cell_of(q.x, s);
    if (owner[c] == rank) find_cell(cells, c)->particles.push_back(q);
  }

  RunFigures out;
  std::vector<double> load(s.phases, 0.0);  // this rank's cells' time in each phase
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = std::chrono::steady_clock::now();
  for (std::uint32_t phase = 0; phase < s.phases; ++phase) {
    std::vector<std::vector<Crossing>> leaving(size);
    for (Cell& c : cells) {
      const auto cell_start = std::chrono::steady_clock::now();
      step(c, owner, leaving, s);
      c.seconds = seconds_since(cell_start);
      load[phase] += c.seconds;
    }
    // A cell takes its arrivals in the order of their senders' ids, each sender's in its
    // order: the same particles in the same order wherever the cells are.
    std::vector<Crossing> arriving = exchange(leaving);
    std::stable_sort(arriving.begin(), arriving.end(), [](const Crossing& a, const Crossing& b) {
      return a.to != b.to ? a.to < b.to : a.from < b.from;
    });
    for (const Crossing& a : arriving) find_cell(cells, a.to)->particles.push_back(a.p);
    if (balancer && s.every > 0 && (phase + 1) % s.every == 0 && phase + 1 < s.phases) {
      MPI_Barrier(MPI_COMM_WORLD);  // the ranks' wait for the slowest is the phase's, not the balancing's
      const auto balance_start = std::chrono::steady_clock::now();
      out.objects_migrated += balance(*balancer, cells, owner, rank);
      out.balancing_seconds += seconds_since(balance_start);
      ++out.balancing_steps;
    }
  }
  double elapsed = seconds_since(start);
  MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);  // the slowest rank's
  std::vector<double> total(s.phases), max(s.phases);
  MPI_Allreduce(load.data(), total.data(), static_cast<int>(s.phases), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Allreduce(load.data(), max.data(), static_cast<int>(s.phases), MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  out.phase_seconds = elapsed / s.phases;
  for (std::uint32_t phase = 0; phase < s.phases; ++phase) {
    out.ideal_seconds += total[phase] / size / s.phases;
    out.max_load_seconds += max[phase] / s.phases;
  }

  // Each cell's sum, added in id order on every rank: the same additions wherever the cells are.
  std::vector<double> sums(s.cells, 0.0);
  for (const Cell& c : cells)
    for (const Particle& q : c.particles) sums[c.id] += q.x + q.w;
  MPI_Allreduce(MPI_IN_PLACE, sums.data(), static_cast<int>(sums.size()), MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  for (double sum : sums) out.checksum += sum;
  return out;
}

int balanced_particles(int argc, char** argv) try {
  Settings s;
  dlbkit::Balancer balancer(dlbkit::BalancerOptions::parse(
      argc, argv,
      {{"--cells", s.cells, 2, 65536, "cells of the domain"},
       {"--particles", s.particles, 1, 10000000, "particles in all"},  // MPI counts: below 2^31 bytes
       {"--phases", s.phases, 1, 1000000, "time steps of each run"},
       {"--work", s.work, 0, 100000, "steps of a particle's work per phase"},
       {"--every", s.every, 0, 1000000, "balance after every N-th phase; 0: never"},
       {"--json", s.json, "print one JSON document"}}));
  const RunFigures off = run(nullptr, s);
  const RunFigures on = run(&balancer, s);
  const bool same = on.checksum == off.checksum;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank != 0) return same ? 0 : 1;
  const std::string& strategy = balancer.options().strategy;
  if (s.json) {
    fmt::print("{{\"engine\": \"{}\", \"ranks\": {}, \"strategy\": \"{}\", \"objects\": {}, \"phases\": {}, "
               "\"mean_phase_seconds_unbalanced\": {:.6g}, \"mean_phase_seconds_balanced\": {:.6g}, "
               "\"ideal_phase_seconds\": {:.6g}, \"max_load_phase_seconds\": {:.6g}, \"balancing_seconds\": {:.6g}, "
               "\"balancing_steps\": {}, \"objects_migrated\": {}, \"checksum_unbalanced\": {:.17g}, "
               "\"checksum_balanced\": {:.17g}}}\n",
               balancer.engine(), size, strategy, s.cells, s.phases, off.phase_seconds, on.phase_seconds,
               on.ideal_seconds, on.max_load_seconds, on.balancing_seconds, on.balancing_steps, on.objects_migrated,
               off.checksum, on.checksum);
  } else {
    fmt::print("{} cells, {} particles, {} phases, {} engine, {} ranks\n", s.cells, s.particles, s.phases,
               balancer.engine(), size);
    fmt::print("  none (unbalanced)  {:.4f} s per phase\n", off.phase_seconds);
    fmt::print("  {:<18} {:.4f} s per phase, balancing included ({} steps, {} objects migrated)\n", strategy,
               on.phase_seconds, on.balancing_steps, on.objects_migrated);
    fmt::print("  total work / P     {:.4f} s per phase; the busiest rank's {:.4f}\n", on.ideal_seconds,
               on.max_load_seconds);
    if (same) fmt::print("checksum {:.17g}, the same balanced or not\n", on.checksum);
    else fmt::print("checksums differ: unbalanced {:.17g}, balanced {:.17g}\n", off.checksum, on.checksum);
  }
  return same ? 0 : 1;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);  // the program's MPI, as it was before dlbkit came in
  const int status = balanced_particles(argc, argv);
  MPI_Finalize();
  return status;
}
