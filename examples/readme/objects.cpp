#include <dlbkit/objects/object_runtime.hpp>
#include <cstdio>

struct Cell { double u, busy; };  // an object: it travels between workers as its bytes

int main(int argc, char** argv) try {
  dlbkit::ObjectRuntime<Cell, double> rt(argc, argv);  // --engine --strategy --every --workers ...
  constexpr std::uint64_t n = 64;                       // a ring of 64 cells, all on worker 0
  if (rt.is_local(0)) for (std::uint64_t id = 0; id < n; ++id) rt.add(id, Cell{id == 0 ? 64.0 : 0.0, 0}, 0);
  for (int phase = 0; phase < 100; ++phase)
    rt.run_phase([](Cell& c, dlbkit::ObjectContext<double>& ctx) {  // each cell, on its worker
      for (const auto& [from, u] : ctx.received()) c.u += u;        // what its neighbours sent
      for (int k = 0; k < 4000 * int(ctx.id() % 8); ++k) c.busy = c.busy * 0.5 + 1; // uneven work
      ctx.send((ctx.id() + 1) % n, c.u / 4);                         // a quarter to each side
      ctx.send((ctx.id() + n - 1) % n, c.u / 4);
      c.u /= 2;
    });
  const std::vector<double> u = rt.collect([](std::uint64_t, const Cell& c) { return c.u; });
  const dlbkit::ObjectRunResult report = rt.finish();
  if (rt.rank() == 0) std::printf("u[0] = %.6f, u[32] = %.6f; %zu objects migrated\n", u[0], u[32], report.objects_migrated);
} catch (const std::exception& e) { return dlbkit::print_error(e); }
