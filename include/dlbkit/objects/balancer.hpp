#pragma once
/// \file
/// dlbkit::Balancer: the plan API for a program that keeps its own data. Each rank says what
/// it holds (its objects' ids, loads, and where known their memory and messages: a
/// LocalPhase, phases/local_phase.hpp); the balancer runs a phase strategy and tells each
/// rank what to send where and what it receives, as Zoltan's LB_Partition does. The program
/// then moves its data itself, or through migrate().
///
/// ```
/// dlbkit::Balancer balancer({.strategy = "greedy"});          // MPI when mpirun started several
/// dlbkit::LocalPhase mine;
/// for (const Cell& c : my_cells) mine.objects.push_back({.id = c.id, .load = c.seconds});
/// dlbkit::MigrationPlan plan = balancer.plan(mine);           // collective
/// for (const dlbkit::ObjectMove& d : plan.departures) { ... }  // my cell d.id goes to rank d.rank
/// balancer.migrate(plan, [&](std::uint64_t id) { return take_cell(id); },    // or move them yourself
///                  [&](std::uint64_t id, Cell c) { my_cells.push_back(std::move(c)); });
/// ```
///
/// Engines as ObjectRuntime's: `mpi` (a rank per process, on a duplicate of the given
/// communicator; plan and migrate are collective), `threads` (the program's ranks are threads
/// or parts of one process: plan(span) takes every rank's LocalPhase at once), `auto` (mpi when
/// an MPI launcher started several processes and the program links dlbkit::mpi). A central
/// strategy (greedy, refine, partition, ...) gathers the ranks' objects to rank 0, decides
/// there and scatters the plan. Bad input (an id on two ranks, an edge to an unknown id, a
/// negative or non-finite load, a speed that is not positive, a plan carried out twice, a
/// strategy or options that differ between ranks) is one InputError, the same on every rank.
/// docs/objects.md, "The plan API".

#include <dlbkit/phases/local_phase.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/runtime/communicator.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>
#include <dlbkit/runtime/runtime_options.hpp>
#include <dlbkit/runtime/serialization.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlbkit {

struct BalancerOptions {
  std::string engine = "auto";      ///< auto, mpi, threads
  std::string strategy = "refine";  ///< a name of `dlbkit list phase-strategies` (docs/objects.md, "Which strategy")
  std::vector<std::string> params;  ///< the strategy's parameters, "name=value"
  std::string topology = "auto";    ///< a node per rank; auto: complete:P
  std::uint64_t seed = 1;           ///< the strategy's random stream
  double memory_bound = std::numeric_limits<double>::infinity();  ///< bytes per rank
  std::string work_model = "load";  ///< what the criterion weighs (phases/work_model.hpp)
  /// A central strategy gathers to rank 0 directly up to this many ranks, through group
  /// leaders above (phases/gather_tree.hpp).
  std::size_t flat_gather_up_to = 1024;

  /// Reads the options above from argv[1..argc-1] beside the program's own (ProgramOption,
  /// runtime_options.hpp), as `--engine --strategy --param (repeatable) --topology --seed
  /// --memory-bound --work-model` (also --name=value). Bad input throws InputError naming the
  /// value and what is accepted; --help throws HelpRequested, which print_error prints.
  static BalancerOptions parse(int argc, const char* const* argv, const std::vector<ProgramOption>& program = {});
};

/// One rank's part of a balancing decision, and the decision's figures (the same on every rank
/// but decision_seconds).
struct MigrationPlan {
  std::vector<ObjectMove> departures;  ///< this rank's objects that leave, and their ranks
  std::vector<ObjectMove> arrivals;    ///< the objects this rank receives, and their ranks
  /// max / mean - 1 of the ranks' loads, before and after, as predicted from the loads given.
  double imbalance_before = 0, imbalance_after = 0;
  std::size_t objects_migrated = 0;  ///< over every rank
  double bytes_migrated = 0;         ///< the moving objects' shipped bytes, over every rank
  double decision_seconds = 0;       ///< wall, on this rank: from plan()'s call to its return
  /// The protocol's messages and rounds: a central strategy's gather and scatter, or a
  /// distributed strategy's exchanges.
  std::uint64_t protocol_messages = 0, protocol_rounds = 0;

private:
  friend class Balancer;
  std::uint64_t number_ = 0;  // the Balancer's count of plans, from 1
  bool carried_out_ = false;
};

class Balancer {
public:
  /// Throws InputError, the same on every rank, for bad options, an unknown strategy, or a
  /// strategy, parameters or topology that differ between ranks.
  explicit Balancer(BalancerOptions options = {}, Communicator communicator = {})
      : Balancer(std::move(options), std::nullopt, communicator) {}
  /// Runs `strategy`, a program's own (phases/phase_strategy.hpp), in place of options.strategy.
  Balancer(BalancerOptions options, PhaseStrategyInfo strategy, Communicator communicator = {})
      : Balancer(std::move(options), std::optional<PhaseStrategyInfo>(std::move(strategy)), communicator) {}
  ~Balancer();
  Balancer(const Balancer&) = delete;
  Balancer& operator=(const Balancer&) = delete;

  const BalancerOptions& options() const;
  /// mpi or threads (`auto` resolved).
  const std::string& engine() const;
  /// This process's rank and the rank count under MPI; 0 and 1 with threads.
  int rank() const;
  int size() const;

  /// Under MPI, collective: this rank's objects in, its plan out. With threads, a plan over
  /// one rank.
  MigrationPlan plan(const LocalPhase& mine);
  /// With threads: every rank's objects in (rank r's at r), every rank's plan out. Under MPI,
  /// an InputError.
  std::vector<MigrationPlan> plan(std::span<const LocalPhase> ranks);

  /// Under MPI, collective: carries out this rank's part of `plan` over an all-to-all.
  /// take(id) gives up a departing object (a T that serialization.hpp carries), put(id, T)
  /// receives an arriving one, in the order of their ids. A plan carried out twice, or not
  /// this balancer's latest, is an InputError on every rank.
  template <class Take, class Put>
  void migrate(MigrationPlan& plan, Take&& take, Put&& put) {
    using T = std::decay_t<std::invoke_result_t<Take&, std::uint64_t>>;
    static_assert(std::is_invocable_v<Put&, std::uint64_t, T>,
                  "dlbkit::Balancer::migrate(plan, take, put): put must be callable as put(id, T), T what take(id) "
                  "returns");
    migrate_bytes(
        plan, [&](std::uint64_t id, std::vector<std::byte>& out) { append_bytes(take(id), out); },
        [&](std::uint64_t id, std::span<const std::byte> bytes) { put(id, from_bytes<T>(bytes)); });
  }

private:
  Balancer(BalancerOptions options, std::optional<PhaseStrategyInfo> own, Communicator communicator);
  void migrate_bytes(MigrationPlan& plan, const std::function<void(std::uint64_t, std::vector<std::byte>&)>& pack,
                     const std::function<void(std::uint64_t, std::span<const std::byte>)>& unpack);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace dlbkit
