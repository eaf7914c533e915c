#pragma once
// Test support: runs a command under mpirun (DLBKIT_MPIEXEC, the runtime tests' launcher).

#include "command.hpp"

#include <string>

#ifdef DLBKIT_MPIEXEC  // where the tests found MPI
namespace dlbkit::test {

/// Runs `command` on `ranks` processes under mpirun: as root (CI runs as root), on more ranks
/// than cores, stopped after 120 s. `environment`: more VAR=value words for the ranks.
inline Outcome run_mpirun(int ranks, const std::string& command, const std::string& environment = "") {
  return run_shell("OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 " + environment +
                   " timeout 120 " DLBKIT_MPIEXEC " --oversubscribe -np " + std::to_string(ranks) + " " + command);
}

}  // namespace dlbkit::test
#endif
