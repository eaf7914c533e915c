#pragma once
// A path under the system's temporary directory that no other test process uses: the name
// carries the process id, so test runs of several build trees can share a machine. What a
// process made there goes when it exits.

#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

#include <unistd.h>

namespace dlbkit::test {

inline std::string temp_prefix() { return "dlbkit-test-" + std::to_string(::getpid()) + "-"; }

inline std::filesystem::path temp_path(const std::string& name) {
  return std::filesystem::temp_directory_path() / (temp_prefix() + name);
}

/// temp_path(name) as a directory path that does not exist yet (removed if it does).
inline std::string temp_dir(const std::string& name) {
  const auto dir = temp_path(name);
  std::filesystem::remove_all(dir);
  return dir.string();
}

namespace detail {
// Removes this process's temp_path()s as it exits (a forked child, with its own id, none of
// its parent's).
struct RemoveTempPathsAtExit {
  ~RemoveTempPathsAtExit() {
    namespace fs = std::filesystem;
    std::error_code ec;
    const std::string prefix = temp_prefix();
    const fs::path dir = fs::temp_directory_path(ec);
    if (ec) return;
    std::vector<fs::path> mine;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().filename().string().starts_with(prefix)) mine.push_back(it->path());
    for (const fs::path& path : mine) fs::remove_all(path, ec);
  }
};
inline const RemoveTempPathsAtExit remove_temp_paths_at_exit;
}  // namespace detail

}  // namespace dlbkit::test
