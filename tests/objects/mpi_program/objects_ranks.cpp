// dlbkit::ObjectRuntime on the MPI engine, run by ctest under mpirun (tests/CMakeLists.txt):
//   objects_ranks balance   objects all start on rank 0; phases with balancing steps, two in a
//                           row each time: every object once, and the values of a sequential run
//   objects_ranks throw     an object's work throws on one rank: the exception comes out on
//                           every rank, and the runtime refuses the next call; one not derived
//                           from std::exception too
//   objects_ranks change    objects split, moved together, merged, removed and added by the
//                           ranks that hold them, between balanced phases: the values of a
//                           sequential run; a child id in use on another rank, a merge across
//                           ranks, an add on another rank's worker before the first phase: each
//                           one error on every rank
//   objects_ranks speeds    --speeds measured on ranks emulated at speeds 1 and 2 (through
//                           set_load): every rank estimates the same speeds, near 1:2
// Exits 0 when every check holds, 1 otherwise (a line on stderr says which).
#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime.hpp>

#include <cmath>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Cell {
  std::uint64_t value = 0;
  std::vector<std::uint64_t> seen;
  template <class A>
  void serialize(A& a) {
    a(value, seen);
  }
};

constexpr std::uint64_t kObjects = 30;

void ring(Cell& c, dlbkit::ObjectContext<std::uint64_t>& ctx) {
  for (const auto& [from, value] : ctx.received()) {
    c.value += value ^ from;
    c.seen.push_back(from);
  }
  c.value = c.value * 6364136223846793005ULL + ctx.id();
  ctx.send((ctx.id() + 1) % kObjects, c.value);
  ctx.send((ctx.id() + 7) % kObjects, c.value >> 3);
  ctx.set_load(ctx.id() < 8 ? 1.0 + static_cast<double>(ctx.phase() % 3) : 0.25);
}

// A trivially copyable struct, collected as its bytes between ranks.
struct Value {
  std::uint64_t value, seen;
  bool operator==(const Value&) const = default;
};

std::vector<Value> values(dlbkit::ObjectRuntime<Cell, std::uint64_t>& rt) {
  return rt.collect([](std::uint64_t, const Cell& c) { return Value{c.value, c.seen.size()}; });
}

// A phase without messages (objects come and go), its loads given.
void alone(Cell& c, dlbkit::ObjectContext<std::uint64_t>& ctx) {
  c.value = c.value * 6364136223846793005ULL + ctx.id();
  ctx.set_load(ctx.id() % 3 == 0 ? 2.0 : 0.5);
}

// The changes after phase k, by the process that holds each object: objects 5i split in two
// (1000 + 2 * 5i and the next), objects 5i + 1 and 5i + 2 go to 5i + 1's worker (both: a step
// may have moved 5i + 1) and merge a phase later into 5000 + 5i + 1, objects 5i + 3 are
// removed, objects 9000 + 5i + 4 added beside 5i + 4.
void change(dlbkit::ObjectRuntime<Cell, std::uint64_t>& rt, int k) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> mine;  // id, value
  rt.for_each_object([&](std::uint64_t id, const Cell& c) { mine.emplace_back(id, c.value); });
  std::uint64_t pair_value = 0;
  for (const auto& [id, value] : mine) {
    if (id >= kObjects) continue;
    if (k == 0 && id % 5 == 0) rt.split(id, {1000 + 2 * id, 1001 + 2 * id}, {Cell{value + 1, {}}, Cell{value + 2, {}}});
    if (k == 0 && (id % 5 == 1 || id % 5 == 2)) rt.move(id, rt.worker_of(id - id % 5 + 1));
    if (k == 1 && id % 5 == 1) {
      for (const auto& [other, v] : mine) pair_value = other == id + 1 ? v : pair_value;
      rt.merge({id, id + 1}, 5000 + id, Cell{value ^ pair_value, {}});
    }
    if (k == 2 && id % 5 == 3) rt.remove(id);
    if (k == 3 && id % 5 == 4) rt.add(9000 + id, Cell{id, {}}, rt.worker_of(id), 1.0);
  }
}

int fail(int rank, const std::string& what) {
  std::fprintf(stderr, "rank %d: %s\n", rank, what.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) try {
  const std::string mode = argc > 1 ? argv[1] : "";
  dlbkit::ObjectRuntimeOptions o;
  o.engine = "mpi";
  o.strategy = "greedy";
  o.every = 0;
  o.quiet = true;
  dlbkit::ObjectRuntime<Cell, std::uint64_t> rt(o);
  const int rank = rt.rank();
  if (rt.is_local(0))
    for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{id, {}}, 0);
  if (mode == "balance") {
    dlbkit::ObjectRuntimeOptions one = o;
    one.engine = "sequential";
    dlbkit::ObjectRuntime<Cell, std::uint64_t> reference(one);
    for (std::uint64_t id = 0; id < kObjects; ++id) reference.add(id, Cell{id, {}}, 0);
    for (int k = 0; k < 6; ++k) {
      rt.run_phase(ring);
      reference.run_phase(ring);
      rt.balance();
      rt.balance();  // on the same loads: the objects that just moved keep them
    }
    std::size_t here = 0;
    rt.for_each_object([&](std::uint64_t id, const Cell&) { here += rt.worker_of(id) == static_cast<dlbkit::NodeId>(rank); });
    std::size_t everywhere = 0;
    for (dlbkit::NodeId w = 0; w < rt.workers(); ++w)
      for (std::uint64_t id = 0; id < kObjects; ++id) everywhere += rt.worker_of(id) == w;
    if (everywhere != kObjects) return fail(rank, "an object on no worker or two");
    if (values(rt) != values(reference)) return fail(rank, "values differ from the sequential run");
    const auto report = rt.finish();
    if (report.objects_migrated == 0) return fail(rank, "no object moved");
    if (report.balances.size() != 12) return fail(rank, "not 12 balancing steps");
    if (report.phases[0].messages != 2 * kObjects) return fail(rank, "not two messages an object");
    if (report.phases[0].message_bytes != 0 || !(report.phases[1].message_bytes > 0))  // all on rank 0, then spread
      return fail(rank, "message bytes between ranks not counted");
    for (std::size_t k = 1; k < report.balances.size(); k += 2)  // the second of each pair
      if (report.balances[k].imbalance_before > report.balances[k - 1].imbalance_after + 1e-12)
        return fail(rank, "a second step in a row saw other loads than the first left");
    if (rank == 0) std::printf("balance: ok\n%zu objects migrated\n", report.objects_migrated);
    return 0;
  }
  if (mode == "throw") {
    rt.run_phase(ring);
    rt.balance();
    try {
      rt.run_phase([](Cell& c, dlbkit::ObjectContext<std::uint64_t>& ctx) {
        if (ctx.id() == 17) throw std::runtime_error("object 17 failed");
        ring(c, ctx);
      });
      return fail(rank, "no exception");
    } catch (const std::runtime_error& e) {
      if (std::string(e.what()).find("object 17 failed") == std::string::npos)
        return fail(rank, std::string("another exception: ") + e.what());
    }
    try {
      rt.run_phase(ring);
      return fail(rank, "a call after the failure ran");
    } catch (const dlbkit::InputError& e) {
      if (std::string(e.what()).find("after one that failed") == std::string::npos)
        return fail(rank, std::string("another error: ") + e.what());
    }
    // An exception of no std::exception kind: rethrown where thrown, told to the other ranks.
    dlbkit::ObjectRuntime<Cell, std::uint64_t> odd(o);
    for (std::uint64_t id = 0; id < kObjects; ++id)
      if (odd.is_local(id % odd.workers())) odd.add(id, Cell{id, {}}, static_cast<dlbkit::NodeId>(id % odd.workers()));
    try {
      odd.run_phase([](Cell&, dlbkit::ObjectContext<std::uint64_t>& ctx) {
        if (ctx.id() == 1) throw 17;
      });
      return fail(rank, "no exception of another kind");
    } catch (int thrown) {
      if (rank != 1 || thrown != 17) return fail(rank, "the int thrown on another rank than 1");
    } catch (const std::runtime_error& e) {
      if (rank == 1 || std::string(e.what()).find("not derived from std::exception") == std::string::npos)
        return fail(rank, std::string("another error: ") + e.what());
    }
    if (rank == 0) std::printf("throw: ok\n");
    return 0;
  }
  if (mode == "change") {
    dlbkit::ObjectRuntimeOptions one = o;
    one.engine = "sequential";
    dlbkit::ObjectRuntime<Cell, std::uint64_t> reference(one);
    for (std::uint64_t id = 0; id < kObjects; ++id) reference.add(id, Cell{id, {}}, 0);
    for (int k = 0; k < 4; ++k) {
      rt.run_phase(alone);
      reference.run_phase(alone);
      change(rt, k);
      change(reference, k);
      rt.balance();  // on the changed table; then the moves
    }
    rt.run_phase(alone);
    reference.run_phase(alone);
    if (values(rt) != values(reference)) return fail(rank, "values differ from the sequential run");
    const auto report = rt.finish();
    if (report.objects_created != reference.report().objects_created || report.objects_created == 0 ||
        report.objects_destroyed != reference.report().objects_destroyed)
      return fail(rank, "not the sequential run's objects created and destroyed");
    // A child id that an object on another rank holds, a merge across ranks: the same error on
    // every rank.
    const std::vector<std::pair<std::function<void(dlbkit::ObjectRuntime<Cell, std::uint64_t>&)>, std::string>> bad{
        {[](auto& b) { b.split(1, {100, 0}, {Cell{}, Cell{}}); }, "split(1)'s child 0: id 0 is already in use"},
        {[](auto& b) { b.merge({1, 0}, 100, Cell{}); }, "object 1 on worker 1 and object 0 on worker 0; accepted"}};
    for (const auto& [change_on_rank_1, expected] : bad) {
      dlbkit::ObjectRuntime<Cell, std::uint64_t> b(o);
      for (std::uint64_t id = 0; id < kObjects; ++id)
        if (b.is_local(id % b.workers())) b.add(id, Cell{id, {}}, static_cast<dlbkit::NodeId>(id % b.workers()));
      b.run_phase(alone);
      if (b.is_local(1)) change_on_rank_1(b);
      try {
        b.run_phase(alone);
        return fail(rank, "no error");
      } catch (const dlbkit::InputError& e) {
        if (std::string(e.what()).find(expected) == std::string::npos)
          return fail(rank, std::string("another error: ") + e.what());
      }
    }
    // Before the first phase, rank 0 adds an object on another rank's worker: the first phase's
    // error on every rank, not an error on rank 0 alone while the others wait in that phase.
    dlbkit::ObjectRuntime<Cell, std::uint64_t> early(o);
    const auto last = static_cast<dlbkit::NodeId>(early.workers() - 1);
    if (rank == 0) early.add(0, Cell{}, last);
    try {
      early.run_phase(alone);
      return fail(rank, "no error for an add on another rank's worker");
    } catch (const dlbkit::InputError& e) {
      if (std::string(e.what()).find("add(0) on worker " + std::to_string(last)) == std::string::npos)
        return fail(rank, std::string("another error: ") + e.what());
    }
    if (rank == 0) std::printf("change: ok\n%zu objects created\n", report.objects_created);
    return 0;
  }
  if (mode == "speeds") {
    dlbkit::ObjectRuntimeOptions m = o;
    m.every = 1;
    m.measure_speeds = true;
    dlbkit::ObjectRuntime<Cell, std::uint64_t> s(m);
    for (std::uint64_t id = 0; id < kObjects; ++id)
      if (s.is_local(id % 2)) s.add(id, Cell{id, {}}, static_cast<dlbkit::NodeId>(id % 2));
    for (int k = 0; k < 5; ++k)
      s.run_phase([](Cell& c, dlbkit::ObjectContext<std::uint64_t>& ctx) {
        c.value += ctx.id();
        ctx.set_load((1 + static_cast<double>(ctx.id() % 5)) / (ctx.worker() == 0 ? 1 : 2));
      });
    const std::vector<double> speeds = s.report().phases.back().speeds;
    // Each rank's estimate, one value per object from the rank that holds it.
    for (const auto& seen : s.collect([&](std::uint64_t, const Cell&) { return speeds; }))
      if (seen != speeds) return fail(rank, "the ranks estimate different speeds");
    if (speeds.size() != 2 || !(std::abs(speeds[1] / speeds[0] - 2) < 0.2)) return fail(rank, "speeds not near 1:2");
    s.finish();
    if (rank == 0) std::printf("speeds: ok\n%.17g,%.17g\n", speeds[0], speeds[1]);
    return 0;
  }
  return fail(rank, "usage: objects_ranks balance|throw|change|speeds");
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
