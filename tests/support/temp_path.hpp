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

/// temp_path(name) as a directory path that does not exist yet (removed if it does).
inline std::string temp_dir(const std::string& name) {
  const auto dir = temp_path(name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

}  // namespace dlbkit::test
