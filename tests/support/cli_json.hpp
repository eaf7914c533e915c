#pragma once
// Test support: the JSON document a successful `dlbkit ... --json` prints, and the -p
// arguments that give a run the parameters such a document lists.

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

/// -p name=value for every parameter of a JSON object (a ranking row's `params`), as the
/// commands read them: strings as they are, numbers as JSON writes them.
inline std::vector<std::string> param_args(const nlohmann::json& params) {
  std::vector<std::string> args;
  for (const auto& [name, value] : params.items())
    args.insert(args.end(), {"-p", name + "=" + (value.is_string() ? value.get<std::string>() : value.dump())});
  return args;
}

}  // namespace dlbkit::test
