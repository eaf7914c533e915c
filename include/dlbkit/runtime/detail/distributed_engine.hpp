#pragma once
/// \file
/// The MPI engine as dlbkit::Runtime sees it: dlbkit::mpi provides it, so that the core
/// library needs no MPI.

#include <dlbkit/runtime/communicator.hpp>
#include <dlbkit/runtime/engine.hpp>

#include <cstddef>
#include <exception>
#include <memory>
#include <span>
#include <vector>

namespace dlbkit::runtime_detail {

class DistributedEngine {
public:
  virtual ~DistributedEngine() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  virtual RuntimeResult run(ByteApplication& app, const RuntimeConfig& config) = 0;
  /// Collective: every rank's bytes, in rank order, on every rank (serialised results).
  virtual std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const = 0;
  /// Collective: `to[r]` goes to rank r; returns what each rank sent this one, by rank.
  virtual std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to) const = 0;
  /// Collective: when `error` is set on some rank, every rank throws the error of the
  /// lowest such rank (that rank its own exception, the others an InputError, or a
  /// std::runtime_error, with its message), so that no rank waits for one that failed.
  virtual void agree(std::exception_ptr error) const = 0;
  /// Collective: waits for every rank, sleeping.
  virtual void barrier() const = 0;
};
using DistributedEngineFactory = std::unique_ptr<DistributedEngine> (*)(const Communicator&);

void set_mpi_engine(DistributedEngineFactory factory);
/// The factory set by dlbkit::mpi, or nullptr in a program that does not link it.
DistributedEngineFactory mpi_engine_factory();
/// How many processes an MPI launcher started, from its environment; 0 outside a launcher.
int launcher_size();

}  // namespace dlbkit::runtime_detail
