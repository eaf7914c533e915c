#include <dlbkit/objects/balancer.hpp>
#include <cstdio>

int main(int argc, char** argv) try {
  dlbkit::Balancer balancer(dlbkit::BalancerOptions::parse(argc, argv));  // --strategy --param ...
  const std::uint64_t rank = balancer.rank();             // under mpirun, a rank per process
  dlbkit::LocalPhase mine;                                // this rank's objects, ids unique over ranks
  for (std::uint64_t k = 0; k < 8; ++k) {                 // their loads: rank 0 is the busy one
    dlbkit::PhaseObject& object = mine.objects.emplace_back();
    object.id = 8 * rank + k;
    object.load = rank == 0 ? 1.0 : 0.1;
  }
  const dlbkit::MigrationPlan plan = balancer.plan(mine);  // collective: each rank gets its part
  for (const dlbkit::ObjectMove& d : plan.departures)     // the program then moves its data itself
    std::printf("rank %llu: object %llu goes to rank %u\n", (unsigned long long)rank, (unsigned long long)d.id, d.rank);
  if (rank == 0) std::printf("imbalance %.2f -> %.2f\n", plan.imbalance_before, plan.imbalance_after);
} catch (const std::exception& e) { return dlbkit::print_error(e); }
