#pragma once
/// \file
/// Gives a program that links dlbkit::mpi the MPI engine: the target defines DLBKIT_MPI_ENGINE,
/// and this variable's initialiser registers the engine before main (runtime.hpp,
/// objects/object_runtime.hpp).

namespace dlbkit::detail {

/// Defined in dlbkit::mpi (detail/distributed_engine.hpp).
bool register_mpi_engine();
#ifdef DLBKIT_MPI_ENGINE  // set by the target dlbkit::mpi
inline const bool mpi_engine_registered = register_mpi_engine();
#endif

}  // namespace dlbkit::detail
