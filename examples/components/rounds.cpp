// dlbkit::rounds alone: Cybenko's diffusion with the optimal alpha = 1/(d+1) on hypercube:10.

#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/round_loop.hpp>
#include <dlbkit/topology/generators.hpp>

#include <cstdio>

int main() {
  const dlbkit::Topology cube = dlbkit::parse_topology("hypercube:10");
  const dlbkit::DiffusionKernel kernel(dlbkit::DiffusionMatrix::uniform(cube, 1.0 / 11));
  std::vector<double> load = dlbkit::continuous_initial_load("spike", cube.size(), 1);
  const dlbkit::RoundLoopResult r = dlbkit::run_rounds(kernel, load, {.until = dlbkit::StopRule::parse("eps:1e-6")});
  std::printf("diffusion on hypercube:10: error down by 1e-6 in %llu steps\n", static_cast<unsigned long long>(r.steps));
  return r.stop_rule_met ? 0 : 1;
}
