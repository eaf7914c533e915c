#pragma once
// Test support: runs a shell command, with its stdout and stderr apart and its exit status.

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace dlbkit::test {

struct Outcome {
  int status = -1;  ///< exit status, or -1 when the process did not exit normally
  std::string out, err;
};

inline Outcome run_shell(const std::string& command) {
  // One file per call: ctest runs several tests at once.
  static int calls = 0;
  const std::string err_file = ::testing::TempDir() + "dlbkit_runtime_test_err_" + std::to_string(getpid()) + "_" +
                               std::to_string(++calls) + ".txt";
  Outcome o;
  FILE* pipe = popen((command + " 2>" + err_file).c_str(), "r");
  if (pipe == nullptr) return o;
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) o.out.append(buf.data(), n);
  const int raw = pclose(pipe);
  o.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(err_file);
  std::stringstream ss;
  ss << in.rdbuf();
  o.err = ss.str();
  std::remove(err_file.c_str());
  return o;
}

}  // namespace dlbkit::test
