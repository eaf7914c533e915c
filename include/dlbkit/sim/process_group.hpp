#pragma once
/// \file
/// The processes of one simulation, each simulating a partition of the nodes
/// (`mpirun -np R dlbkit simulate ...`): the collectives the simulator needs, named without
/// <mpi.h> so that the simulator needs no MPI. dlbkit::mpi's engine provides them
/// (runtime/detail/distributed_engine.hpp); SimulationConfig::processes takes them.

#include <cstddef>
#include <exception>
#include <span>
#include <vector>

namespace dlbkit {

class ProcessGroup {
public:
  virtual ~ProcessGroup() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Collective: every rank's bytes, in rank order, on every rank (serialised results).
  virtual std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const = 0;
  /// Collective: `to[r]` goes to rank r; returns what each rank sent this one, by rank.
  virtual std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to) const = 0;
  /// Collective: when `error` is set on some rank, every rank throws the error of the
  /// lowest such rank (that rank its own exception, the others an InputError, or a
  /// std::runtime_error, with its message), so that no rank waits for one that failed.
  virtual void agree(std::exception_ptr error) const = 0;
  /// The most bytes of a window's crossing events a rank sends another in one all_to_all;
  /// more go in further rounds. The start's burst crosses too (190 MB a rank at 2^22 nodes
  /// on 2 ranks), and in rounds it is never held whole as bytes sent and received.
  virtual std::size_t round_bytes() const { return kRoundBytes; }
  static constexpr std::size_t kRoundBytes = std::size_t{8} << 20;
};

}  // namespace dlbkit
