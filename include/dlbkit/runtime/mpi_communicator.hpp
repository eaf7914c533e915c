#pragma once
/// \file
/// dlbkit::communicator(MPI_Comm): a program's communicator for dlbkit::Runtime. Part of
/// dlbkit::mpi (it includes <mpi.h>).

#include <dlbkit/runtime/communicator.hpp>

#include <mpi.h>

namespace dlbkit {

inline Communicator communicator(MPI_Comm comm) {
  return Communicator::from_fortran_handle(static_cast<std::int32_t>(MPI_Comm_c2f(comm)));
}

}  // namespace dlbkit
