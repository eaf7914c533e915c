#pragma once
/// \file
/// The MPI engine as dlbkit::Runtime sees it: dlbkit::mpi provides it, so that the core
/// library needs no MPI.

#include <dlbkit/runtime/communicator.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/sim/process_group.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace dlbkit::detail {

class DistributedEngine : public ProcessGroup {
public:
  virtual RuntimeResult run(ByteApplication& app, const RuntimeConfig& config) = 0;
  /// Collective: waits for every rank, sleeping.
  virtual void barrier() const = 0;
  /// all_to_all() into `from`, whose buffers keep their room: a program's phases exchange
  /// about as many bytes each time, and fresh buffers of that size are fresh pages each time.
  virtual void all_to_all_into(const std::vector<std::vector<std::byte>>& to,
                               std::vector<std::vector<std::byte>>& from) const = 0;

  /// A message of a sparse exchange: its bytes, with the rank it goes to or came from.
  struct Parcel {
    int rank = 0;
    std::vector<std::byte> bytes;
  };
  /// Collective: one round of a sparse personalised exchange, each rank sending only to the
  /// ranks it has something for (NBX: Hoefler, Siebert, Lumsdaine 2010, "Scalable
  /// communication protocols for dynamic sparse data exchange"). Sends each parcel of `out`
  /// (each below 2^31 bytes) and returns those the ranks sent this one, in the order they
  /// came. `round` tells consecutive exchanges apart.
  virtual std::vector<Parcel> sparse_exchange(std::vector<Parcel> out, std::uint64_t round) const = 0;
};
using DistributedEngineFactory = std::unique_ptr<DistributedEngine> (*)(const Communicator&);

void set_mpi_engine(DistributedEngineFactory factory);
/// An engine's name as a runtime asked for it, resolved: `auto` becomes mpi when an MPI
/// launcher started several processes and the program links dlbkit::mpi, else threads; for
/// mpi, the engine on a duplicate of `communicator`.
struct ResolvedEngine {
  std::string name;  ///< threads, mpi or sequential
  std::unique_ptr<DistributedEngine> mpi;
};
/// InputError for a name that is none of auto, threads, mpi, sequential, or mpi in a program
/// without dlbkit::mpi.
ResolvedEngine resolve_engine(const std::string& requested, const Communicator& communicator);
/// What looks wrong with `engine` beside the launcher: copies of one program that mpirun
/// started but that do not run together, or the mpi engine on one process alone.
/// (`mpi`: the engine's, or nullptr).
std::vector<std::string> launcher_warnings(const std::string& engine, const DistributedEngine* mpi);

}  // namespace dlbkit::detail
