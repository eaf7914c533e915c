#pragma once
/// \file
/// dlbkit::Runtime: runs an application on the engine chosen at run time (threads, MPI or
/// sequential) and returns its typed result, on every rank.
///
/// ```
/// int main(int argc, char** argv) try {
///   dlbkit::Runtime runtime(argc, argv);   // --engine --strategy --param --topology --workers ...
///   const std::uint64_t solutions = runtime.run(
///       std::vector{Board{}},                                   // the roots
///       [](const Board& b, auto& ctx) {                         // one task
///         if (b.rows < 6) for (const Board& child : b.children()) ctx.spawn(child);
///         else ctx.result() += b.count_rest();
///       },
///       std::uint64_t{0}, std::plus<>{});                       // identity and reduction
///   if (runtime.rank() == 0) std::printf("%llu\n", (unsigned long long)solutions);
///   runtime.print_report();                                     // per-worker figures, once
/// } catch (const std::exception& e) {
///   return dlbkit::print_error(e);                              // one line, once (error.hpp)
/// }
/// ```
///
/// The task function runs on several workers at once: it may read shared data but writes
/// only through ctx (spawn(), result(), offer_bound()). ctx.poll() lets a long task's
/// worker answer the strategy meanwhile. The class form, an Application<Task, Result>,
/// runs the same way: `runtime.run(app)`.
///
/// Engines. `auto` (the default): `mpi` when an MPI launcher (mpirun) started this process
/// among several and the program links dlbkit::mpi, else `threads`. `threads`: one worker
/// thread per node of the topology. `mpi`: one worker per rank, under mpirun. When MPI is
/// not yet initialised the first Runtime initialises it (MPI_THREAD_FUNNELED) and it is
/// finalised when the program exits, so that several Runtimes may run in turn; a program
/// that initialised MPI itself finalises it. The engine calls MPI only from the thread
/// that calls run(): the main thread needs MPI_THREAD_SINGLE (FUNNELED when the program
/// has threads of its own), another thread MPI_THREAD_SERIALIZED; a lower level is an
/// InputError. The runtime duplicates the communicator it is given and talks only on the
/// duplicate. `sequential`: every task on the calling thread, no strategy: a baseline of
/// one worker. Every call of run() is collective under MPI.
///
/// Warnings. Settings that look wrong (the `threads` engine under mpirun, `mpi` on a single
/// process) and runs that balanced badly ("no task moved") are written to stderr, each
/// once per Runtime, by rank 0; RuntimeOptions::quiet silences them.
///
/// A Runtime is not thread-safe: one thread runs it (its workers are threads of its own).
/// Several Runtimes may exist in turn, or at once, in one process.

#include <dlbkit/core/registry.hpp>  // StrategyChoice complete: runtime.strategy().name()
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/application.hpp>
#include <dlbkit/runtime/communicator.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>
#include <dlbkit/runtime/function_application.hpp>
#include <dlbkit/runtime/run_result.hpp>
#include <dlbkit/runtime/runtime_options.hpp>
#include <dlbkit/runtime/serialization.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdio>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace dlbkit {

class AnyApplication;
class Timeline;

class Runtime {
public:
  /// Options from the command line (RuntimeOptions::parse: every argument must be one of
  /// them). Throws InputError for bad options, an unknown strategy, a topology the strategy
  /// refuses or whose size is not the rank count, an MPI thread level below the engine's
  /// need; the same on every rank.
  Runtime(int argc, char** argv, Communicator communicator = {});
  explicit Runtime(RuntimeOptions options = {}, Communicator communicator = {});
  /// Runs `strategy`, a program's own (core/registry.hpp: its name, create() for its agent,
  /// its message kinds and parameters), in place of options.strategy; options.params are
  /// its parameters.
  Runtime(RuntimeOptions options, StrategyInfo strategy, Communicator communicator = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  const RuntimeOptions& options() const;
  const Topology& topology() const;
  const StrategyChoice& strategy() const;
  /// The engine that runs: threads, mpi or sequential (`auto` resolved).
  const std::string& engine() const;
  /// The number of workers, P: the topology's size; 1 for the sequential engine.
  std::size_t workers() const;
  /// This process's rank in the communicator; 0 for threads and sequential.
  int rank() const;

  /// Runs `app` and returns the combination of every worker's partial result, on every
  /// rank. A task's exception stops the run and comes out here (under MPI on every rank, as
  /// a TaskFailure naming the rank where it was thrown, or the InputError it was); so does
  /// a strategy's exception in a worker.
  template <class Task, class Result, class Base>
  Result run(detail::TypedApplication<Task, Result, Base>& app) {
    run_engine(app);
    if constexpr (travels_as_bytes<Result>) {
      return from_bytes<Result>(last_run().result);  // the engine combined the partials
    } else {
      Result total = app.identity();
      if (distributed()) {
        std::vector<std::byte> mine;
        // The program's serialiser, on this rank's result: an error is every rank's.
        on_every_rank(*this, [&] { to_bytes(app.partial_result(static_cast<NodeId>(rank())), mine); });
        for (const auto& bytes : all_gather(mine)) app.combine(total, from_bytes<Result>(bytes));
      } else {
        for (NodeId w = 0; w < partials_in_process(); ++w) app.combine(total, app.partial_result(w));
      }
      return total;
    }
  }

  /// Runs one of dlbkit's own applications (runtime/any_application.hpp: `dlbkit run`'s) and
  /// returns the figures with the combined result as bytes, which app.report_bytes() reads.
  const RuntimeResult& run(AnyApplication& app);

  /// The lambda form: the roots (root i starts on worker i mod P), the task function
  /// `execute(const Task&, TaskContext<Task, Result>& ctx)`, the identity of the result and
  /// the reduction, associative and commutative: `reduce(Result& into, const Result& other)`
  /// as Application::combine, or `reduce(const Result&, const Result&) -> Result`
  /// (std::plus<>{}, a maximum).
  template <class Task, class Execute, class Result, class Reduce>
  Result run(std::vector<Task> roots, Execute execute, Result identity, Reduce reduce) {
    static_assert(std::is_invocable_v<Execute&, const Task&, TaskContext<Task, Result>&>,
                  "dlbkit::Runtime::run(roots, execute, identity, reduce): execute must be callable as "
                  "execute(const Task&, dlbkit::TaskContext<Task, Result>&)");
    static_assert(reduction_for<Reduce, Result>,
                  "dlbkit::Runtime::run(roots, execute, identity, reduce): reduce must be callable as "
                  "reduce(Result& into, const Result& other) or as reduce(const Result&, const Result&) -> Result");
    if constexpr (std::is_invocable_v<Execute&, const Task&, TaskContext<Task, Result>&> &&
                  reduction_for<Reduce, Result>) {
      FunctionApplication<Task, Result, Execute, Reduce> app(std::move(roots), std::move(execute), std::move(identity),
                                                             std::move(reduce));
      return run(app);
    } else {
      return identity;  // not reached: the static_asserts above stop the build
    }
  }

  /// The figures of the last run: elapsed time, per-worker busy, idle and CPU time, tasks
  /// executed and moved, messages; every worker's, on every rank.
  const RuntimeResult& last_run() const;
  /// T_seq / (P T_par) of the last run against a sequential time of the program's own.
  double efficiency(double sequential_seconds) const;
  /// Prints the last run's figures and a line per worker to `out`; under MPI on rank 0 only.
  /// (Its warnings went to stderr after the run, unless quiet: last_run().warnings.)
  void print_report(std::FILE* out = stdout) const;

  /// Collective under MPI: when `error` is set on some rank, every rank throws the error of
  /// the lowest such rank, so that none waits for a failed one at the next collective call
  /// (a setup of the program's own that may fail on one rank only). Elsewhere rethrows
  /// `error` if set.
  void agree(std::exception_ptr error) const;
  /// Collective under MPI: waits for every rank, sleeping, so that a rank that works alone
  /// meanwhile keeps its processor.
  void barrier() const;

private:
  void set_up(Communicator communicator);
  void run_engine(detail::ByteApplication& app);
  std::unique_ptr<Timeline> open_timeline() const;
  void warn(const std::string& warning) const;
  bool distributed() const;
  NodeId partials_in_process() const;
  std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const;

  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace dlbkit
