#pragma once
// The stencil of stencil.cpp, shared with bench/object_runtime_bench.cpp: a 2-D
// reaction-diffusion field cut into blocks, the persistent objects of a
// dlbkit::ObjectRuntime, with a hot spot that crosses the domain from one corner to the
// other, where each cell's reaction takes `hot_work` sub-steps instead of one.

#include <dlbkit/objects/object_runtime.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace stencil {

struct Settings {
  std::uint32_t blocks = 8;      // blocks per side
  std::uint32_t cells = 64;      // cells per block side
  std::uint32_t phases = 40;     // phases (time steps) of each run
  std::uint32_t hot_work = 40;   // reaction sub-steps of a cell in the hot spot (1 elsewhere)
  bool json = false;
};

// A block's edge, sent to the neighbour on that side.
struct Halo {
  std::uint8_t side = 0;  // the side of the receiver it fills: 0 west, 1 east, 2 south, 3 north
  std::vector<double> values;
  template <class Archive>
  void serialize(Archive& ar) {
    ar(side, values);
  }
};

struct Block {
  std::uint32_t bx = 0, by = 0, n = 0;
  std::vector<double> u;  // (n + 2)^2 with the ghost cells
  template <class Archive>
  void serialize(Archive& ar) {
    ar(bx, by, n, u);
  }
  double& at(std::uint32_t i, std::uint32_t j) { return u[static_cast<std::size_t>(j) * (n + 2) + i]; }
};

constexpr double kDiffusion = 0.2, kDt = 0.05;

// The hot spot's centre in phase `phase`, in units of the domain's side, on the diagonal.
inline double hot_centre(std::uint32_t phase, std::uint32_t phases) { return (phase + 0.5) / phases; }

// One phase of a block: ghosts from the halos, a diffusion step, the reaction, the halos out.
inline void step(Block& b, dlbkit::ObjectContext<Halo>& ctx, const Settings& s) {
  const std::uint32_t n = b.n;
  for (const auto& [from, halo] : ctx.received())
    for (std::uint32_t k = 0; k < n; ++k) {
      const std::uint32_t i = halo.side == 0 ? 0 : halo.side == 1 ? n + 1 : k + 1;
      const std::uint32_t j = halo.side == 2 ? 0 : halo.side == 3 ? n + 1 : k + 1;
      b.at(i, j) = halo.values[k];
    }
  std::vector<double> next(b.u.size(), 0.0);
  const double side = static_cast<double>(s.blocks) * n;
  const double c = hot_centre(static_cast<std::uint32_t>(ctx.phase()), s.phases);
  for (std::uint32_t j = 1; j <= n; ++j)
    for (std::uint32_t i = 1; i <= n; ++i) {
      const double x = (b.bx * n + i - 0.5) / side, y = (b.by * n + j - 0.5) / side;
      const bool hot = (x - c) * (x - c) + (y - c) * (y - c) < 0.15 * 0.15;
      double v = b.at(i, j) + kDiffusion * (b.at(i - 1, j) + b.at(i + 1, j) + b.at(i, j - 1) + b.at(i, j + 1) -
                                            4 * b.at(i, j));
      // The reaction dv/dt = source - v^3, in sub-steps: many where it is hot.
      const std::uint32_t substeps = hot ? s.hot_work : 1;
      const double source = hot ? 1.0 : 0.0, h = kDt / substeps;
      for (std::uint32_t r = 0; r < substeps; ++r) v += h * (source - v * v * v + 0.1 * std::sin(v));
      next[static_cast<std::size_t>(j) * (n + 2) + i] = v;
    }
  b.u.swap(next);
  const auto edge = [&](std::uint8_t side_of_receiver, auto cell) {
    Halo h{side_of_receiver, std::vector<double>(n)};
    for (std::uint32_t k = 0; k < n; ++k) h.values[k] = cell(k + 1);
    return h;
  };
  const std::uint64_t id = ctx.id();
  if (b.bx > 0) ctx.send(id - 1, edge(1, [&](std::uint32_t k) { return b.at(1, k); }));
  if (b.bx + 1 < s.blocks) ctx.send(id + 1, edge(0, [&](std::uint32_t k) { return b.at(n, k); }));
  if (b.by > 0) ctx.send(id - s.blocks, edge(3, [&](std::uint32_t k) { return b.at(k, 1); }));
  if (b.by + 1 < s.blocks) ctx.send(id + s.blocks, edge(2, [&](std::uint32_t k) { return b.at(k, n); }));
}

struct RunFigures {
  dlbkit::ObjectRunResult report;
  double checksum = 0;
  std::string engine;
  std::size_t workers = 0;
  int rank = 0;
};

inline RunFigures run(const dlbkit::ObjectRuntimeOptions& options, const Settings& s) {
  dlbkit::ObjectRuntime<Block, Halo> rt(options);
  const std::size_t p = rt.workers();
  for (std::uint32_t by = 0; by < s.blocks; ++by)
    for (std::uint32_t bx = 0; bx < s.blocks; ++bx) {
      const auto worker = static_cast<dlbkit::NodeId>(static_cast<std::size_t>(by) * p / s.blocks);  // strips
      if (rt.is_local(worker))
        rt.add(std::uint64_t{by} * s.blocks + bx,
               Block{bx, by, s.cells, std::vector<double>(static_cast<std::size_t>(s.cells + 2) * (s.cells + 2), 0.0)},
               worker);
    }
  for (std::uint32_t phase = 0; phase < s.phases; ++phase)
    rt.run_phase([&](Block& b, dlbkit::ObjectContext<Halo>& ctx) { step(b, ctx, s); });
  RunFigures out{.engine = rt.engine(), .workers = p, .rank = rt.rank()};
  // The field's sum, block by block in id order: the same additions whatever the mapping.
  for (double sum : rt.collect([](std::uint64_t, const Block& b) {
         double total = 0;
         for (double v : b.u) total += v;
         return total;
       }))
    out.checksum += sum;
  out.report = rt.finish();
  return out;
}

inline double mean_seconds(const dlbkit::ObjectRunResult& r, bool with_balancing) {
  const double total = r.phase_seconds + (with_balancing ? r.balancing_seconds : 0);
  return r.phases.empty() ? 0 : total / static_cast<double>(r.phases.size());
}

}  // namespace stencil
