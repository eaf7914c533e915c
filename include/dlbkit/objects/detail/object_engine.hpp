#pragma once
/// \file
/// The part of ObjectRuntime that does not depend on the program's types: the engine and its
/// workers, the table of objects and their owners, the phases' figures, the balancing
/// decision, the records. object_store.hpp holds the objects and their messages.

#include <dlbkit/objects/object_run_result.hpp>
#include <dlbkit/objects/object_runtime_options.hpp>
#include <dlbkit/phases/phase.hpp>
#include <dlbkit/phases/phase_strategy.hpp>
#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/phases/work_model.hpp>
#include <dlbkit/runtime/communicator.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace dlbkit {
class SpeedEstimate;
class VtPhasesWriter;
}

namespace dlbkit::detail {

/// Seconds on the steady clock since an origin of the engine's.
using Clock = std::chrono::steady_clock;

/// A cheap count of time for each object's load: the x86-64 time-stamp counter (a few ns to
/// read, where the steady clock takes 20 to 60 here, more than a small object's work), else
/// the steady clock's ticks. A worker converts its objects' counts to seconds by its own span
/// on the steady clock.
inline std::uint64_t ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return static_cast<std::uint64_t>(Clock::now().time_since_epoch().count());
#endif
}

/// What one process changed in the table of objects since the last phase (ObjectRuntime's
/// add, remove, split, merge and move after the first phase), for ObjectEngine::recommit().
struct TableChanges {
  enum Kind : std::uint64_t { added, split_off, merged };
  /// A new object. Its load until measured: `load` (NaN: the mean of every object's last
  /// load), made of `parts` of the last phase's objects (index, share) where it has a parent.
  struct Birth {
    std::uint64_t id = 0;
    NodeId worker = 0;
    Kind kind = added;
    std::uint64_t parent = 0;  // the object split, or the first merged (error messages)
    double load = 0;
    std::vector<std::pair<ObjectIndex, double>> parts;
  };
  std::vector<Birth> births;
  std::vector<ObjectIndex> deaths;                       // removed, split or merged
  std::vector<std::pair<std::uint64_t, NodeId>> moves;   // ObjectRuntime::move's (id, worker)
  std::string error;  // the first bad call's: it comes out of recommit() on every rank
  bool empty() const { return births.empty() && deaths.empty() && moves.empty() && error.empty(); }
};

/// recommit()'s new table against the old: each new index's old one (none for a birth), each
/// old index's new one (none for a death), and each birth's load (by new index).
struct Renumbering {
  static constexpr ObjectIndex none = std::numeric_limits<ObjectIndex>::max();
  std::vector<ObjectIndex> old_of, new_of;
  std::vector<double> load;
};

class ObjectEngine {
public:
  /// `own`: a program's own strategy in place of options.strategy.
  ObjectEngine(ObjectRuntimeOptions options, std::optional<PhaseStrategyInfo> own, Communicator communicator);
  ~ObjectEngine();
  ObjectEngine(const ObjectEngine&) = delete;
  ObjectEngine& operator=(const ObjectEngine&) = delete;

  const ObjectRuntimeOptions& options() const { return options_; }
  const std::string& engine() const { return engine_; }
  const Topology& topology() const { return *topology_; }
  const PhaseStrategyChoice& strategy() const { return strategy_; }
  std::size_t workers() const { return workers_; }
  int rank() const;
  /// The workers this process runs: [first_local, first_local + local_workers).
  NodeId first_local() const { return first_local_; }
  std::size_t local_workers() const { return local_workers_; }
  bool is_local(NodeId worker) const { return worker >= first_local_ && worker - first_local_ < local_workers_; }
  bool distributed() const;
  /// Whether the phases' communications are wanted: a communication-aware strategy, a work
  /// model that weighs them, a record.
  bool tracks_communications() const;

  /// Collective: each process's objects (id, worker) become the table below; an InputError on
  /// every rank for an id given twice (ObjectRuntime::add checks the workers).
  void commit(const std::vector<std::pair<std::uint64_t, NodeId>>& mine);
  bool committed() const { return committed_; }
  /// Collective, after commit(): every process's changes applied to the table, the same on
  /// every process, or an InputError on every rank (the first process's bad call, else an id
  /// taken twice). nullopt when nothing changed anywhere (then no more than one exchange of
  /// empty lists under MPI, nothing with threads). The moves wait for take_moves().
  std::optional<Renumbering> recommit(const TableChanges& mine);
  /// Whether the program's moves wait (the same on every process).
  bool moves_pending() const { return !moves_.empty(); }
  /// The owners with the program's moves applied, after a balancing step where one was due.
  const std::vector<NodeId>& take_moves();
  /// Every object's id in increasing order (an object's index), and its worker.
  const std::vector<std::uint64_t>& ids() const { return ids_; }
  const std::vector<NodeId>& owners() const { return owners_; }
  /// The index of the object `id`; InputError when there is none. Ids 0 to n - 1, a
  /// program's usual, are their own indices: no search for each message.
  ObjectIndex index_of(std::uint64_t id) const {
    if (dense_ && id < ids_.size()) return static_cast<ObjectIndex>(id);
    return search(id);
  }

  /// Runs f(w) for every local worker w, each on its own thread, and waits. The exception of
  /// the lowest worker that threw comes out, on every rank (collective under MPI).
  void for_each_worker(const std::function<void(NodeId)>& f);
  /// Collective under MPI: `to[r]` goes to rank r; `from[r]` becomes what rank r sent this
  /// one, in buffers that keep their room from one call to the next.
  void all_to_all(const std::vector<std::vector<std::byte>>& to, std::vector<std::vector<std::byte>>& from) const;
  /// Collective under MPI: every rank's bytes, by rank.
  std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const;
  /// Collective: `error` set on some rank becomes an exception on every rank.
  void agree(std::exception_ptr error) const;

  /// How a record learns the objects' sizes: `f(bytes, pack, unpack)` sets bytes[index] to the
  /// serialized size of each of this process's objects, pack[index] and unpack[index] to the
  /// times its serialization and deserialization took. Called once per recorded phase, after
  /// its time is taken.
  using MeasureSizes = std::function<void(std::vector<double>&, std::vector<double>&, std::vector<double>&)>;
  void measure_sizes_with(MeasureSizes f) {
    measure_sizes_ = std::move(f);
  }

  /// Whether the phases go to a record (whose measurements are then wanted).
  bool records() const { return !options_.record.empty(); }
  /// A record's price of the messages between processes, for the phase under way: the seconds
  /// this process took to pack its messages of the phase as a delivery between processes does,
  /// and to unpack them, and their bytes. Before end_phase; the recorded phase gets the costs
  /// per byte over every process (Phase::message_serialize_seconds_per_byte).
  void measured_packing(double pack_seconds, double unpack_seconds, double bytes) {
    packing_ = {pack_seconds, unpack_seconds, bytes};
  }

  /// Marks the start of a phase (its time, the timeline's spans).
  void begin_phase();
  /// After the work of a phase, before its messages are delivered: when each local worker's
  /// work ended (`work_end[w - first_local]`), and its objects' loads summed.
  void end_work(const std::vector<Clock::time_point>& work_end, const std::vector<double>& worker_loads);
  /// Collective, after the messages are delivered: the phase's figures from the objects'
  /// loads (indexed like ids(); this process's entries are read), the communications of its
  /// objects, and the messages this process sent and the bytes of those to other processes.
  void end_phase(const std::vector<double>& loads, std::span<const ObjectCommunication> communications,
                 std::size_t messages, double message_bytes);
  /// Whether a balancing step is due after the last phase (`every`, `threshold`; never with
  /// `none`). It runs when the next phase starts, so that no step follows the last phase.
  bool step_due() const { return step_due_; }
  /// Collective: the new owner of every object, from the last phase's loads and
  /// communications (as end_phase's) and the strategy; then the objects move, and
  /// end_migration says so. The step due, if any, is done.
  const std::vector<NodeId>& decide(const std::vector<double>& loads, std::span<const ObjectCommunication> communications);
  /// Collective: the objects have moved; `bytes` this process sent.
  void end_migration(const std::vector<NodeId>& old_owners, double bytes);

  /// Collective: writes the record and the timeline where asked, and returns the figures. A
  /// step due after the last phase is not taken.
  ObjectRunResult finish();
  const ObjectRunResult& report() const { return report_; }

private:
  struct Team;
  ObjectIndex search(std::uint64_t id) const;
  void warn(const std::string& warning) const;
  std::int64_t now_ns() const;
  /// Every object's time in the last phase (measured, or as the program set it), and its
  /// communications, on every process; with a record, its serialized size too.
  Phase gather_phase(const std::vector<double>& loads, std::span<const ObjectCommunication> communications);
  /// The last phase with each object's load as the load model predicts it for the next.
  Phase predicted_phase() const;
  /// decide() by the strategy's rank protocol: each worker an agent with its own objects.
  std::vector<NodeId> decide_by_protocol(const std::vector<double>& loads, ObjectBalanceFigures& step);
  /// Rank 0 writes last_phase_ to the record's files (collective: an error comes out on every rank).
  void record_last_phase();
  /// last_phase_ = gather_phase(...), once per phase, the speeds estimated from it where
  /// measured, its loads the times x the speeds of their workers.
  void gather_last_phase(const std::vector<double>& loads, std::span<const ObjectCommunication> communications);

  ObjectRuntimeOptions options_;
  MeasureSizes measure_sizes_;
  std::array<double, 3> packing_{};  // measured_packing's: pack and unpack seconds, bytes
  std::string engine_;
  struct Mpi;
  std::unique_ptr<Mpi> mpi_;
  std::optional<Topology> topology_;
  std::optional<PhaseStrategyInfo> own_strategy_;  // strategy_ points into it
  PhaseStrategyChoice strategy_;
  WorkModel work_model_;
  /// Each worker's speed, declared or estimated (speed_estimate_); empty: all equally fast.
  std::vector<double> speeds_;
  std::unique_ptr<SpeedEstimate> speed_estimate_;  // --speeds measured
  std::size_t estimated_phases_ = 0;               // the phases speed_estimate_ has seen
  /// The strategy's rank protocol where the step runs it (rank_protocol.hpp): no gather of
  /// the loads; empty: rank 0 decides on every object's loads.
  RankProtocolFactory protocol_;
  std::size_t workers_ = 1, local_workers_ = 1;
  NodeId first_local_ = 0;
  std::unique_ptr<Team> team_;

  bool committed_ = false;
  bool step_due_ = false;
  std::vector<std::uint64_t> ids_;
  bool dense_ = false;  // ids_ is 0, 1, ..., n - 1
  std::vector<NodeId> owners_;

  Clock::time_point origin_;
  std::int64_t phase_start_ns_ = 0, balance_start_ns_ = 0;
  std::vector<std::int64_t> work_end_ns_;  // the last phase's, by local worker
  std::vector<double> local_loads_;        // the last phase's, by local worker
  Phase last_phase_;  // the last phase's loads, gathered for a step or the record
  std::size_t gathered_phases_ = 0;  // the phases done when last_phase_ was gathered (0: never; max: stale)
  std::deque<std::vector<double>> history_;  // linear load model: the last phases' loads by index
  std::vector<std::pair<std::uint64_t, NodeId>> moves_;  // the program's, every process's
  std::unique_ptr<VtPhasesWriter> record_;  // rank 0's, from the first phase recorded
  struct Timeline;
  std::unique_ptr<Timeline> timeline_;
  ObjectRunResult report_;
};

}  // namespace dlbkit::detail
