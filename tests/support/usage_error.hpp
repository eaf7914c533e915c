#pragma once
// Test support: the contract for bad input on the command line (status 2, nothing on
// stdout, one stderr line "dlbkit: error: ..." naming the value).

#include "command.hpp"

#include <gtest/gtest.h>

#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

namespace dlbkit::test {

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The contract for bad input: status 2, empty stdout, one stderr line "dlbkit: error: ..."
/// containing every one of `needles`. Returns the line.
inline std::string expect_usage_error(const std::vector<std::string>& args, std::initializer_list<std::string> needles) {
  std::string shown;
  for (const auto& a : args) shown += " " + a;
  SCOPED_TRACE("dlbkit" + shown);
  const Outcome o = run_cli(args);
  if (o.status != 2) {
    ADD_FAILURE() << "exit status " << o.status << ", expected 2; stderr: '" << o.err << "'; stdout starts: '"
                  << o.out.substr(0, 160) << "'";
    return "";
  }
  EXPECT_EQ(o.out, "");
  const auto lines = lines_of(o.err);
  EXPECT_EQ(lines.size(), 1u) << "stderr: " << o.err;
  EXPECT_FALSE(o.err.empty() || o.err.back() != '\n') << "stderr must be one complete line: " << o.err;
  if (lines.empty()) return "";
  EXPECT_EQ(lines[0].rfind("dlbkit: error: ", 0), 0u) << lines[0];
  for (const std::string& needle : needles) EXPECT_NE(lines[0].find(needle), std::string::npos) << "'" << needle << "' missing from: " << lines[0];
  return lines[0];
}

}  // namespace dlbkit::test
