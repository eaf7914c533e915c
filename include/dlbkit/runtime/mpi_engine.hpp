#pragma once
/// \file
/// The MPI engine: one worker per rank of a communicator (MPI_COMM_WORLD unless the caller
/// gives another), in the library `dlbkit_mpi` (target dlbkit::mpi; the core library needs
/// no MPI). Start it with mpirun:
///
/// ```
/// dlbkit::MpiSession mpi(&argc, &argv);                       // MPI_Init unless already done
/// auto topology = dlbkit::parse_topology("ring:4");             // size = the rank count
/// dlbkit::RuntimeResult r = dlbkit::run_mpi(app, {.topology = &topology, .strategy = ws});
/// // r: every worker's figures and the combined result, the same on every rank
/// ```
///
/// A guest in the caller's program: the engine duplicates the communicator it is given
/// (MPI_Comm_dup, collective), talks only on the duplicate and frees it before it returns,
/// so a receive the caller has posted (even MPI_ANY_SOURCE, MPI_ANY_TAG) never matches one
/// of its messages. An exception thrown by a task stops the run on every rank and
/// comes out of run_mpi on every rank as a TaskFailure naming the rank where it was thrown
/// (engine.hpp), or as the InputError it was; so does a strategy's exception.
///
/// Envelopes travel with MPI_Isend as bytes (a header, then the 40-byte strategy message or
/// the task records); MPI's non-overtaking rule keeps them in order per pair of ranks. The
/// end of the run is detected with Safra's algorithm (Dijkstra, EWD 998): a token with a
/// colour and a message count circles the ring of ranks; only task transfers count as
/// messages, since a rank without tasks can send strategy messages but never create work.
///
/// When a rank writes a timeline, each rank first measures its clock's offset to rank 0's
/// (16 round trips per rank, one rank after another, before the run's clock starts), so that
/// every rank's times are in rank 0's: the files merge into one trace (docs/timeline.md).
/// Without a timeline the run starts as soon as every rank is there.

#include <dlbkit/runtime/engine.hpp>

#include <mpi.h>

namespace dlbkit {

/// MPI_Init on construction unless MPI is already initialised; MPI_Finalize on destruction
/// only when it was this session that initialised MPI (a program that initialised MPI
/// itself finalises it). One per process.
class MpiSession {
public:
  MpiSession(int* argc, char*** argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  /// The topology for `spec`, "auto" giving complete:P for P ranks; throws InputError when
  /// its size differs from the rank count (on every rank alike).
  Topology topology(const std::string& spec) const;
  /// A barrier on MPI_COMM_WORLD that sleeps while it waits.
  void barrier() const;

private:
  int rank_ = 0, size_ = 1;
  bool finalize_ = false;
};

/// Collective over `comm`: every rank of it calls it with the same application and
/// configuration (config.topology has one node per rank). Returns the complete result
/// (every worker's figures, the combined result) on every rank. Throws InputError (on every
/// rank alike) for a configuration it refuses or bad input a task or the strategy found, and
/// TaskFailure when a task threw anything else.
RuntimeResult run_mpi(detail::ByteApplication& app, const RuntimeConfig& config, MPI_Comm comm = MPI_COMM_WORLD);

/// The same on MPI_COMM_WORLD (the session only says MPI is initialised).
RuntimeResult run_mpi(detail::ByteApplication& app, const RuntimeConfig& config, const MpiSession& session);

namespace detail {
/// A barrier on `comm` that sleeps while it waits.
void sleepy_barrier(MPI_Comm comm);
}  // namespace detail

}  // namespace dlbkit
