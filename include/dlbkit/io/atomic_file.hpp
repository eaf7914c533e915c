#pragma once
/// \file
/// An output file that appears whole or not at all: the text goes to a temporary
/// `PATH.tmp-<pid>-<n>` beside PATH, which commit() renames over PATH. An object destroyed
/// without commit() (an error, an exception) removes its temporary, and an existing PATH is
/// left as it was; so does a signal in a program that calls remove_temporary_files()
/// (io/temporary_files.hpp). A PATH that exists and is not a regular file (a device such as
/// /dev/stdout, a pipe) cannot be replaced: it is written directly.
///
/// ```
/// dlbkit::AtomicFile out("table.csv");
/// out.write("a,b\n1,2\n");
/// out.commit();   // throws InputError naming table.csv if any write failed
/// ```

#include <dlbkit/io/temporary_files.hpp>

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>

namespace dlbkit {

class AtomicFile {
public:
  /// Opens the temporary (or PATH itself, see above). Throws InputError naming `path` when
  /// it cannot be written (no such directory, no permission, a directory).
  explicit AtomicFile(std::string path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  /// Appends `text`; a failure is kept and reported by close() or commit().
  void write(std::string_view text);
  /// Flushes and closes the file; throws InputError naming the path with the reason of the
  /// first failed write. A file that is closed takes no more text.
  void close();
  /// close(), then renames the temporary over the path.
  void commit();
  /// The final path.
  const std::string& path() const { return path_; }
  /// The name being written now (the temporary, or the path): for another program that
  /// writes the file itself (gnuplot's picture).
  const std::string& written() const;

private:
  [[noreturn]] void fail(int err) const;

  std::string path_;
  std::string target_;  // what the temporary replaces: the path, or the file its link names
  std::optional<TemporaryFile> temporary_;  // none: the path is written directly
  std::FILE* file_ = nullptr;
  int error_ = 0;  // errno of the first failed write
};

}  // namespace dlbkit
