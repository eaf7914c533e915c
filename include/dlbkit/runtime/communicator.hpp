#pragma once
/// \file
/// The MPI communicator a dlbkit::Runtime runs on, named without <mpi.h> in dlbkit's core
/// headers. The default is MPI_COMM_WORLD; a program with a communicator of its own passes
/// it through dlbkit::communicator() from <dlbkit/runtime/mpi_communicator.hpp>:
///
/// ```
/// dlbkit::Runtime runtime(argc, argv, dlbkit::communicator(my_comm));
/// ```
///
/// The runtime duplicates it and talks only on its duplicate (MPI_Comm_dup), so no message
/// of the program's own is ever taken by dlbkit, nor one of dlbkit's by the program.

#include <cstdint>

namespace dlbkit {

class Communicator {
public:
  /// MPI_COMM_WORLD.
  Communicator() = default;
  /// A communicator by its Fortran handle (MPI_Comm_c2f), which an int holds portably.
  static Communicator from_fortran_handle(std::int32_t handle) { return Communicator(handle); }

  bool is_world() const { return world_; }
  std::int32_t fortran_handle() const { return handle_; }

private:
  explicit Communicator(std::int32_t handle) : world_(false), handle_(handle) {}
  bool world_ = true;
  std::int32_t handle_ = 0;
};

}  // namespace dlbkit
