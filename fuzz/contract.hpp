#pragma once
// The contract every fuzz target checks: a parser of user input either returns a valid
// object or throws dlbkit::InputError with a message. Any other exception escapes to
// libFuzzer, which reports it as a crash; so does a failed CHECK, a sanitizer report, a
// time-out or memory past -rss_limit_mb.

#include <dlbkit/error.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

namespace dlbkit::fuzz {

// A broken contract: abort, which libFuzzer reports with the input.
#define DLBKIT_FUZZ_CHECK(condition)                                                            \
  do {                                                                                          \
    if (!(condition)) {                                                                         \
      std::fprintf(stderr, "%s:%d: contract broken: %s\n", __FILE__, __LINE__, #condition);     \
      std::abort();                                                                             \
    }                                                                                           \
  } while (0)

// Runs `parse`; an InputError with a message is a rejection within the contract.
template <class F>
void within_contract(F&& parse) {
  try {
    parse();
  } catch (const InputError& e) {
    DLBKIT_FUZZ_CHECK(!std::string_view(e.what()).empty());
  }
}

inline std::string_view text_of(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Text from the command line: argv cannot hold a NUL, so an input with one is skipped.
inline bool command_line_text(std::string_view text) { return text.find('\0') == std::string_view::npos; }

// The input's lines, split at '\n' (a trailing newline ends the last line).
inline std::vector<std::string> lines_of(std::string_view text) {
  std::vector<std::string> lines;
  while (!text.empty()) {
    const std::size_t end = std::min(text.find('\n'), text.size());
    lines.emplace_back(text.substr(0, end));
    text.remove_prefix(std::min(end + 1, text.size()));
  }
  return lines;
}

// For the parsers that read a file by name: one scratch file per fuzzing process, rewritten
// for every input and removed at exit; in memory (/dev/shm) where the system has it.
class ScratchFile {
public:
  ScratchFile()
      : path_(std::string(::access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp") + "/dlbkit-fuzz-" +
              std::to_string(::getpid())) {}
  ~ScratchFile() { std::remove(path_.c_str()); }
  const std::string& write(std::string_view contents) {
    std::ofstream(path_, std::ios::binary | std::ios::trunc).write(contents.data(), static_cast<std::streamsize>(contents.size()));
    return path_;
  }

private:
  std::string path_;
};

// For the readers and writers of a folder's files: a folder of this fuzzing process's own,
// removed with what it holds at exit.
class ScratchDir {
public:
  explicit ScratchDir(std::string_view name)
      : path_("/tmp/dlbkit-fuzz-" + std::string(name) + "-" + std::to_string(::getpid())) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  const std::string& path() const { return path_; }

private:
  std::string path_;
};

}  // namespace dlbkit::fuzz
