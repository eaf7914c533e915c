#pragma once
// Test support: the JSON document a successful `dlbkit ... --json` prints.

#include "command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace dlbkit::test {

/// `dlbkit args...`'s stdout as JSON; a failed command is a test failure and gives null.
inline nlohmann::json cli_json(const std::vector<std::string>& args) {
  const Outcome o = run_cli(args);
  EXPECT_EQ(o.status, 0) << o.err;
  return o.status == 0 ? nlohmann::json::parse(o.out) : nlohmann::json();
}

}  // namespace dlbkit::test
