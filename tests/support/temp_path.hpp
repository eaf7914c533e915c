#pragma once
// A path under the system's temporary directory that no other test process uses: the name
// carries the process id, so test runs of several build trees can share a machine.

#include <filesystem>
#include <string>

#include <unistd.h>

namespace dlbkit::test {

inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("dlbkit-test-" + std::to_string(::getpid()) + "-" + name);
}

}  // namespace dlbkit::test
