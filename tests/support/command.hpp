#pragma once
// Test support: runs a shell command, or the dlbkit binary (DLBKIT_CLI), with its stdout and
// stderr apart and its exit status.

#include "temp_path.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace dlbkit::test {

struct Outcome {
  int status = -1;  ///< exit status, or -1 when the process did not exit normally
  std::string out, err;
};

/// `args` followed by `more`: a command line and its variations.
inline std::vector<std::string> with(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

inline std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline Outcome run_shell(const std::string& command) {
  static int calls = 0;  // one stderr file per call
  const auto err_file = temp_path("stderr-" + std::to_string(++calls));
  Outcome o;
  FILE* pipe = popen((command + " 2>" + shell_quote(err_file.string()) + " </dev/null").c_str(), "r");
  if (pipe == nullptr) {
    ADD_FAILURE() << "popen failed: " << command;
    return o;
  }
  std::array<char, 4096> buf;
  while (std::size_t n = std::fread(buf.data(), 1, buf.size(), pipe)) o.out.append(buf.data(), n);
  const int raw = pclose(pipe);
  o.status = raw != -1 && WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream in(err_file);
  std::stringstream ss;
  ss << in.rdbuf();
  o.err = ss.str();
  std::filesystem::remove(err_file);
  return o;
}

/// Runs `dlbkit args...`, each argument one shell word.
inline Outcome run_cli(const std::vector<std::string>& args) {
  std::string command = shell_quote(DLBKIT_CLI);
  for (const std::string& a : args) command += " " + shell_quote(a);
  return run_shell(command);
}

/// Runs `dlbkit ARGS`, ARGS split by the shell; stdout and stderr together in `out`.
inline Outcome run_cli_combined(const std::string& args) {
  Outcome o = run_shell(std::string(DLBKIT_CLI) + " " + args);
  o.out += o.err;
  return o;
}

}  // namespace dlbkit::test
