// dlbkit rounds --algorithm lm | nna, run as a user would.

#include "../support/command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

namespace {

using dlbkit::test::Outcome;

Outcome run_liquid(const std::string& args) { return dlbkit::test::run_cli_combined(args); }

void expect_liquid_error(const std::string& args, const std::string& needle) {
  const Outcome o = run_liquid(args);
  EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
  EXPECT_NE(o.out.find(needle), std::string::npos) << args << "\n" << o.out;
  EXPECT_EQ(o.out.find('\n'), o.out.size() - 1) << args << "\n" << o.out;
}

const std::string kTable3 = "rounds --topology ring:8 --init spike:16 --until balanced ";

TEST(LiquidCli, Table3InJson) {
  Outcome o = run_liquid(kTable3 + "--algorithm lm --json");
  ASSERT_EQ(o.status, 0) << o.out;
  nlohmann::json j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["shifts_to_sharing"], 7);
  EXPECT_EQ(j["shifts_to_balancing"], 18);
  EXPECT_EQ(j["total_final"], 16);
  EXPECT_EQ(j["kernel"], "lm-c5 (Liquid model, condition c5, D = 1)");
  o = run_liquid(kTable3 + "--algorithm nna --json");
  ASSERT_EQ(o.status, 0) << o.out;
  j = nlohmann::json::parse(o.out);
  EXPECT_EQ(j["shifts_to_balancing"], 24);
  EXPECT_EQ(j["steps_to_balancing"], 11);
  o = run_liquid(kTable3 + "--algorithm nna --nna-time simultaneous --json");
  EXPECT_EQ(nlohmann::json::parse(o.out)["shifts_to_balancing"], 17);
}

TEST(LiquidCli, TraceAndFixedPoint) {
  Outcome o = run_liquid(kTable3 + "--algorithm lm --trace");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("      18  2 2 2 2 2 2 2 2"), std::string::npos) << o.out;
  o = run_liquid(kTable3 + "--algorithm lm --condition c0");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("a fixed point"), std::string::npos) << o.out;
  o = run_liquid("rounds --algorithm lm --topology torus:8x8 --init uniform:20 --until steps:10 --json");
  ASSERT_EQ(o.status, 0) << o.out;
  EXPECT_EQ(nlohmann::json::parse(o.out)["shifts"], 10);
}

TEST(LiquidCli, BadInputIsOneLine) {
  expect_liquid_error(kTable3 + "--algorithm lm --condition c9", "c0, c1, c2, c3, c4, c5");
  expect_liquid_error("rounds --algorithm lm --topology mesh:4x4 --init spike --until balanced", "mesh:4x4");
  expect_liquid_error("rounds --algorithm nna --topology torus:4x4 --init spike --until balanced", "ring:N");
  expect_liquid_error(kTable3 + "--algorithm nna --nna-time both", "sequential");
  expect_liquid_error(kTable3 + "--algorithm diffusion --condition c5", "--condition");
  expect_liquid_error(kTable3 + "--algorithm lm --nna-transfer net", "--nna-transfer");
  expect_liquid_error("rounds --algorithm lm --topology ring:8 --init spike --until eps:0.1", "eps:0.1");
  expect_liquid_error(kTable3 + "--algorithm lm --threads 2", "--threads 2");
}

}  // namespace
