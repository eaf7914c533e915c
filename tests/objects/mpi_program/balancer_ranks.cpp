// dlbkit::Balancer on MPI, run by ctest under mpirun (tests/CMakeLists.txt):
//   balancer_ranks plan   each rank lists its objects; the plan of every strategy moves each
//                         object once (checked over every rank), migrate() carries the objects'
//                         values there, and the plan is the threads form's for the same objects,
//                         and the same through group leaders
//   balancer_ranks bad    each bad input on one rank is the same InputError on every rank, and
//                         the balancer goes on working after it
// Exits 0 when every check holds, 1 otherwise (a line on stderr says which).
#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>

#include <mpi.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

// Rank r of `size` holds objects r * 100 + k, k < 4 + 4r, heavier on the last ranks.
dlbkit::LocalPhase objects_of(int r) {
  dlbkit::LocalPhase mine;
  for (std::uint64_t k = 0; k < 4 + 4 * static_cast<std::uint64_t>(r); ++k)
    mine.objects.push_back({.id = static_cast<std::uint64_t>(r) * 100 + k, .load = 0.5 + static_cast<double>(k % 3) * (1 + r)});
  return mine;
}

int fail(int rank, const std::string& what) {
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  return 1;
}

// The error `f` throws, "" for none.
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}

// Whether every rank has the same `text`.
bool same_everywhere(const std::string& text) {
  const unsigned long length = text.size();
  unsigned long min = 0, max = 0;
  MPI_Allreduce(&length, &min, 1, MPI_UNSIGNED_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&length, &max, 1, MPI_UNSIGNED_LONG, MPI_MAX, MPI_COMM_WORLD);
  if (min != max) return false;
  std::string first = text;
  MPI_Bcast(first.data(), static_cast<int>(length), MPI_CHAR, 0, MPI_COMM_WORLD);
  int same = first == text, all = 0;
  MPI_Allreduce(&same, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  return all != 0;
}

int plan(int rank, int size) {
  for (const std::string name : {"greedy", "refine", "tempered", "diffusion"}) {
    dlbkit::Balancer balancer({.engine = "mpi", .strategy = name});
    const dlbkit::LocalPhase mine = objects_of(rank);
    std::map<std::uint64_t, std::uint64_t> values;  // the program's own data: id -> value
    for (const auto& o : mine.objects) values[o.id] = o.id * 3 + 1;
    dlbkit::MigrationPlan plan = balancer.plan(mine);
    balancer.migrate(
        plan,
        [&](std::uint64_t id) {
          const std::uint64_t v = values.at(id);
          values.erase(id);
          return v;
        },
        [&](std::uint64_t id, std::uint64_t v) { values[id] = v; });
    for (const auto& a : plan.arrivals)
      if (!values.count(a.id)) return fail(rank, name + ": an arrival did not arrive");
    // Every object once over the ranks, with its value.
    unsigned long here = values.size(), total = 0, expected = 0;
    for (int r = 0; r < size; ++r) expected += objects_of(r).objects.size();
    MPI_Allreduce(&here, &total, 1, MPI_UNSIGNED_LONG, MPI_SUM, MPI_COMM_WORLD);
    if (total != expected) return fail(rank, name + ": objects lost or duplicated");
    for (const auto& [id, v] : values)
      if (v != id * 3 + 1) return fail(rank, name + ": a value changed on its way");
    // The threads form on the same objects decides the same.
    std::vector<dlbkit::LocalPhase> all;
    for (int r = 0; r < size; ++r) all.push_back(objects_of(r));
    dlbkit::Balancer threads({.engine = "threads", .strategy = name});
    const auto reference = threads.plan(all)[rank];
    if (reference.departures.size() != plan.departures.size() || reference.imbalance_after != plan.imbalance_after)
      return fail(rank, name + ": the plan differs from the threads form's");
    for (std::size_t k = 0; k < plan.departures.size(); ++k)
      if (reference.departures[k].id != plan.departures[k].id || reference.departures[k].rank != plan.departures[k].rank)
        return fail(rank, name + ": a departure differs from the threads form's");
    // Through group leaders (ranks 0 and 1, then rank 2), a central strategy's same plan in 4 rounds.
    dlbkit::Balancer tree({.engine = "mpi", .strategy = name, .flat_gather_up_to = 1});
    const auto through_leaders = tree.plan(mine);
    const bool central = name == "greedy" || name == "refine";  // the others run their protocols
    if (central && (through_leaders.protocol_rounds != 4 || plan.protocol_rounds != 2))
      return fail(rank, name + ": not 2 rounds flat and 4 through the leaders");
    if (!central && plan.protocol_rounds <= 2) return fail(rank, name + ": no protocol ran");
    if (through_leaders.departures.size() != plan.departures.size() ||
        through_leaders.arrivals.size() != plan.arrivals.size() || through_leaders.imbalance_after != plan.imbalance_after)
      return fail(rank, name + ": the plan through group leaders differs");
    if (name != "diffusion" && plan.imbalance_after >= plan.imbalance_before)
      return fail(rank, name + ": the imbalance did not fall");
  }
  if (rank == 0) std::puts("plan: ok");
  return 0;
}

int bad(int rank) {
  // Each case: what rank 1 gets wrong, as the error every rank must show names it.
  struct Case {
    std::string what;
    std::function<std::string()> run;
  };
  const std::vector<Case> cases = {
      {"unknown phase strategy 'nope'",
       [&] { return error_of([&] { dlbkit::Balancer({.engine = "mpi", .strategy = rank == 1 ? "nope" : "greedy"}); }); }},
      {"rank 1 has strategy refine",
       [&] { return error_of([&] { dlbkit::Balancer({.engine = "mpi", .strategy = rank == 1 ? "refine" : "greedy"}); }); }},
      {"object 0 is on ranks 0 and 1", [&] {
         dlbkit::Balancer b({.engine = "mpi"});
         auto mine = objects_of(rank);
         if (rank == 1) mine.objects.push_back({.id = 0, .load = 1});
         return error_of([&] { b.plan(mine); });
       }},
      {"object 0 is on ranks 0 and 1", [&] {  // the same through tempered's protocol
         dlbkit::Balancer b({.engine = "mpi", .strategy = "tempered"});
         auto mine = objects_of(rank);
         if (rank == 1) mine.objects.push_back({.id = 0, .load = 1});
         return error_of([&] { b.plan(mine); });
       }},
      {"to object 999, which no rank lists", [&] {
         dlbkit::Balancer b({.engine = "mpi"});
         auto mine = objects_of(rank);
         if (rank == 1) mine.edges.push_back({.from = 100, .to = 999});
         return error_of([&] { b.plan(mine); });
       }},
      {"to object 999, which no rank lists", [&] {
         dlbkit::Balancer b({.engine = "mpi", .strategy = "diffusion"});
         auto mine = objects_of(rank);
         if (rank == 1) mine.edges.push_back({.from = 100, .to = 999});
         return error_of([&] { b.plan(mine); });
       }},
      {"rank 1: the load of object 101 is nan", [&] {
         dlbkit::Balancer b({.engine = "mpi"});
         auto mine = objects_of(rank);
         if (rank == 1) mine.objects[1].load = std::nan("");
         return error_of([&] { b.plan(mine); });
       }},
      {"rank 1: the rank's speed is 0", [&] {
         dlbkit::Balancer b({.engine = "mpi"});
         auto mine = objects_of(rank);
         if (rank == 1) mine.speed = 0;
         return error_of([&] { b.plan(mine); });
       }},
  };
  for (const Case& c : cases) {
    const std::string error = c.run();
    if (error.find(c.what) == std::string::npos)
      return fail(rank, "expected an error with '" + c.what + "', got '" + error + "'");
    if (!same_everywhere(error)) return fail(rank, "not the same error on every rank: " + error);
  }
  {  // a plan carried out twice on one rank only: every rank gets the error
    dlbkit::Balancer b({.engine = "mpi"});
    auto plan = b.plan(objects_of(rank));
    const auto take = [](std::uint64_t id) { return id; };
    const auto put = [](std::uint64_t, std::uint64_t) {};
    b.migrate(plan, take, put);
    auto again = b.plan(objects_of(rank));
    const std::string error = error_of([&] { b.migrate(rank == 1 ? plan : again, take, put); });
    if (error.find("plan 1") == std::string::npos) return fail(rank, "a plan carried out twice: '" + error + "'");
    if (!same_everywhere(error)) return fail(rank, "not the same error on every rank: " + error);
    // and the balancer still works
    auto last = b.plan(objects_of(rank));
    b.migrate(last, take, put);
  }
  if (rank == 0) std::puts("bad: ok");
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const std::string mode = argc > 1 ? argv[1] : "";
  int status = 1;
  try {
    status = mode == "plan" ? plan(rank, size) : mode == "bad" ? bad(rank) : fail(rank, "mode: plan or bad");
  } catch (const std::exception& e) {
    status = fail(rank, std::string("unexpected: ") + e.what());
  }
  MPI_Finalize();
  return status;
}
