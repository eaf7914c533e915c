// dlbkit rounds and dlbkit analyze diffusion, run as a user would: JSON output and one-line
// errors with exit status 2.

#include "../support/command.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

namespace {

using dlbkit::test::Outcome;

Outcome run(const std::string& args) { return dlbkit::test::run_cli_combined(args); }

nlohmann::json json_of(const std::string& args) {
  const Outcome o = run(args + " --json");
  EXPECT_EQ(o.status, 0) << args << "\n" << o.out;
  return nlohmann::json::parse(o.out, nullptr, false);
}

void expect_one_line_error(const std::string& args, const std::string& needle) {
  const Outcome o = run(args);
  EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
  EXPECT_NE(o.out.find(needle), std::string::npos) << args << "\n" << o.out;
  EXPECT_EQ(o.out.find('\n'), o.out.size() - 1) << args << "\n" << o.out;
}

TEST(AnalyzeCli, ReportsRingOfEightAsNonConvergent) {
  const nlohmann::json j = json_of("analyze diffusion --topology ring:8 --alpha 0.5");
  EXPECT_EQ(j["converges"], false);
  EXPECT_EQ(j["gamma"], 1.0);
  EXPECT_EQ(j["theorem1"]["induced_bipartite"], true);
  EXPECT_EQ(j["theorem1"]["positive_diagonal"], false);
  EXPECT_TRUE(j["steps"].is_null());
}

TEST(AnalyzeCli, OptimalAlphaOnTheHypercube) {
  const nlohmann::json j = json_of("analyze diffusion --topology hypercube:7 --alpha optimal --factor 100");
  EXPECT_NEAR(j["optimal_alpha"]["alpha"].get<double>(), 1.0 / 8, 1e-12);
  EXPECT_NEAR(j["gamma"].get<double>(), 1.0 - 2.0 / 8, 1e-12);
  EXPECT_EQ(j["converges"], true);
  EXPECT_EQ(j["steps"], 17);  // 0.75^16 > 0.01 >= 0.75^17
}

TEST(AnalyzeCli, BadInputIsOneLine) {
  expect_one_line_error("analyze diffusion --topology ring:8 --alpha 0", "alpha 0");
  expect_one_line_error("analyze diffusion --topology ring:8 --alpha -1", "alpha -1");
  expect_one_line_error("analyze diffusion --topology hypercube:4 --alpha 0.3", "negative");
  expect_one_line_error("analyze diffusion --topology ring:8 --alpha fast", "'fast'");
  expect_one_line_error("analyze diffusion --topology ring:8 --factor 1", "--factor 1");
  expect_one_line_error("analyze diffusion --topology ring:8 --alpha file:/nonexistent/a.txt", "/nonexistent/a.txt");
}

TEST(RoundsCli, DiffusionOnRingOfEightOscillates) {
  const nlohmann::json j = json_of(
      "rounds --algorithm diffusion --topology ring:8 --alpha 0.5 --init spike --until eps:1e-3 --max-steps 200 "
      "--trace");
  EXPECT_EQ(j["stop_rule_met"], false);
  EXPECT_EQ(j["steps"], 200);
  ASSERT_EQ(j["trace"].size(), 201u);
  EXPECT_NEAR(j["trace"][200].get<double>(), std::sqrt(8.0), 1e-9);
  EXPECT_NEAR(j["max_min_difference"].get<double>(), 2.0, 1e-9);
}

TEST(RoundsCli, DimensionExchangeBalancesInOneSweepOnEitherThreadCount) {
  const std::string args =
      "rounds --algorithm dimension-exchange --topology hypercube:12 --init uniform:100 --until balanced:12 "
      "--integer --seed 3 --trace";
  const nlohmann::json one = json_of(args + " --threads 1");
  const nlohmann::json two = json_of(args + " --threads 2");
  EXPECT_EQ(one["stop_rule_met"], true);
  EXPECT_LE(one["steps"].get<int>(), 12);
  EXPECT_EQ(one["total_final"], one["total_initial"]);
  EXPECT_EQ(one["trace"], two["trace"]);
  EXPECT_EQ(one["steps"], two["steps"]);
}

TEST(RoundsCli, BadInputIsOneLine) {
  const std::string base = "rounds --topology ring:8 --init spike --until steps:3 ";
  expect_one_line_error(base + "--algorithm magic", "magic");
  expect_one_line_error("rounds --algorithm dimension-exchange --topology torus:4x4 --init spike --until steps:3",
                        "gde");
  expect_one_line_error(base.substr(0, base.find("--until")) + "--until forever --algorithm diffusion", "forever");
  expect_one_line_error(base + "--algorithm diffusion --alpha 0.7", "alpha 0.7");
  expect_one_line_error(base + "--algorithm gde --alpha 0.3", "--alpha applies to diffusion, sos, chebyshev and ops only");
  expect_one_line_error(base + "--algorithm gde --lambda 1.5", "lambda 1.5");
  expect_one_line_error(base + "--algorithm diffusion --threads 3", "threads 3");
  expect_one_line_error("rounds --algorithm diffusion --topology ring:8 --init gauss --until steps:3", "gauss");
}

}  // namespace

namespace {

TEST(RoundsCli, OpsBalancesHypercubeTenInTenSteps) {
  const nlohmann::json j = json_of("rounds --algorithm ops --topology hypercube:10 --init spike --until eps:1e-9");
  EXPECT_EQ(j["steps"], 10);
  EXPECT_EQ(j["stop_rule_met"], true);
}

TEST(RoundsCli, IntegerRoundingsConserveTheLoad) {
  for (const char* algorithm : {"diffusion", "sos", "chebyshev", "ops"})
    for (const char* rounding : {"deterministic", "randomized", "flow-imitation"}) {
      const nlohmann::json j = json_of(std::string("rounds --algorithm ") + algorithm +
                                       " --topology torus:8x8 --init spike:64000 --until steps:100 --integer "
                                       "--rounding " + rounding);
      EXPECT_EQ(j["total_final"], 64000) << algorithm << " " << rounding;
      EXPECT_EQ(j["inputs"]["rounding"], rounding);
    }
}

TEST(AnalyzeCli, PredictsTheStepsOfEachScheme) {
  const nlohmann::json j = json_of("analyze diffusion --topology hypercube:6 --factor 1e6");
  EXPECT_EQ(j["schemes"]["ops"], 6);
  EXPECT_EQ(j["schemes"]["distinct_eigenvalues"], 7);
  EXPECT_EQ(j["schemes"]["fos"], j["steps"]);
  EXPECT_LT(j["schemes"]["sos"].get<int>(), j["schemes"]["fos"].get<int>());
}

TEST(RoundsCli, SuccessorSchemesRefuseBadInputInOneLine) {
  expect_one_line_error("rounds --algorithm sos --topology torus:8x8 --init spike --until steps:3 --rounding randomized",
                        "add --integer");
  expect_one_line_error("rounds --algorithm gde --topology torus:8x8 --init spike --until steps:3 --integer --rounding "
                        "randomized",
                        "not to gde");
  expect_one_line_error("rounds --algorithm sos --topology torus:8x8 --init spike --until steps:3 --integer --rounding "
                        "nearest",
                        "rounding 'nearest'");
  expect_one_line_error("rounds --algorithm sos --topology torus:8x8 --init spike --until steps:3 --integer --rounding=",
                        "--rounding");
  expect_one_line_error("rounds --algorithm sos --topology hypercube:4 --alpha 0.25 --init spike --until steps:3",
                        "gamma(M)");
  expect_one_line_error("rounds --algorithm ops --topology torus:1024x1024 --init spike --until steps:3",
                        "at most 20000");
  expect_one_line_error("rounds --algorithm chebyshev --topology hypercube:4 --init spike --until steps:3 --arrivals "
                        "normal:1:1",
                        "--arrivals is not accepted");
}

}  // namespace
