#pragma once
/// \file
/// The files a process has on disk that are not results yet: an atomic output's temporary
/// (io/atomic_file.hpp), a recording's section files. Each is registered while it exists,
/// so that a program stopped by a signal can remove them all: remove_temporary_files() is
/// async-signal-safe. The library only keeps the list; it installs no signal handler (a
/// program that uses it decides what its signals do). The dlbkit command installs one for
/// SIGINT, SIGTERM and SIGHUP that calls remove_temporary_files() and then dies of the signal.

#include <string>

namespace dlbkit {

/// A registered file name: the file is removed when this object is destroyed, unless
/// keep() was called (it was renamed into place).
class TemporaryFile {
public:
  explicit TemporaryFile(std::string path);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const std::string& path() const { return path_; }
  /// Leaves the file on disk and unregisters it.
  void keep();

private:
  std::string path_;  // never changed: the registry holds its characters
  int slot_ = -1;     // in the registry; -1 when not registered
  bool kept_ = false;
};

/// Removes every registered file. Async-signal-safe: unlink() alone.
void remove_temporary_files() noexcept;

}  // namespace dlbkit
