#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include "reproduce/cybenko.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

const ReproductionInfo& find(const std::string& name) {
  static const std::vector<ReproductionInfo> all = cybenko_reproductions();
  const auto it = std::find_if(all.begin(), all.end(), [&](const ReproductionInfo& r) { return r.name == name; });
  if (it == all.end()) throw std::runtime_error("no reproduction " + name);
  return *it;
}

// Each reproduction runs once for all the tests (one random load keeps Table I short).
const ReproductionResult& table1() {
  static const ReproductionResult r =
      find("cybenko-table1").run({.out_dir = test::temp_dir("cybenko-table1"), .runs = 1, .jobs = 2});
  return r;
}

const ReproductionResult& hypercube() {
  static const ReproductionResult r =
      find("cybenko-hypercube").run({.out_dir = test::temp_dir("cybenko-hypercube"), .runs = 1, .jobs = 2});
  return r;
}

}  // namespace

// Column `name` of table `table` of the report.
std::vector<nlohmann::json> column(const ReproductionResult& r, const std::string& table, const std::string& name) {
  return test::column_of(r.data, table, name);
}

TEST(CybenkoTable1, DiffusionContractsByTheSecondEigenvaluePerIteration) {
  const auto ds = column(table1(), "cybenko-table1", "d");
  ASSERT_EQ(ds.size(), 15u);  // d = 2..16
  const auto at = [&](const char* name, std::size_t i) { return column(table1(), "cybenko-table1", name)[i].get<double>(); };
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const int d = ds[i];
    const double gamma = 1.0 - 2.0 / (d + 1);  // Sec. 3: lambda_2 = -lambda_n of alpha = 1/(d+1)
    EXPECT_NEAR(at("gamma", i), gamma, 1e-9) << d;
    // Model A: the worst reduction of one iteration is gamma, attained by the half-cube load.
    EXPECT_NEAR(at("dlbkit_a", i), gamma, 1e-7) << d;
    EXPECT_EQ(at("paper_a", i), gamma);
    // Model B: d iterations, (15) with equality; the paper's entry is its limit e^-2.
    EXPECT_NEAR(at("dlbkit_b", i), std::pow(gamma, d), 1e-7) << d;
    EXPECT_NEAR(at("paper_b", i), std::exp(-2.0), 1e-15);
  }
  const auto run_d = column(table1(), "cybenko-table1-runs", "d"), scheme = column(table1(), "cybenko-table1-runs", "scheme");
  const auto rate = column(table1(), "cybenko-table1-runs", "asymptotic_rate");
  const auto worst = column(table1(), "cybenko-table1-runs", "worst_step");
  std::size_t diffusion_runs = 0;
  for (std::size_t i = 0; i < run_d.size(); ++i) {
    if (scheme[i] != "diffusion") continue;
    ++diffusion_runs;
    const int d = run_d[i];
    const double gamma = 1.0 - 2.0 / (d + 1);
    // Every load converges at gamma per iteration once the faster components have died out,
    // and no iteration shrinks the error by less than gamma.
    EXPECT_NEAR(rate[i].get<double>(), gamma, 1e-4) << d << " run " << i;
    EXPECT_LE(worst[i].get<double>(), gamma + 1e-7) << d << " run " << i;
  }
  EXPECT_EQ(diffusion_runs, 15u * (2 + 1));  // spike, half-cube and one random load per d
}

TEST(CybenkoTable1, DimensionExchangeIsExactAfterOneSweep) {
  const auto paper = column(table1(), "cybenko-table1-beside-paper", "DE paper");
  const auto ours = column(table1(), "cybenko-table1", "dlbkit_exchange_sweep");
  const auto worst_step = column(table1(), "cybenko-table1", "exchange_worst_step");
  ASSERT_EQ(ours.size(), 15u);
  for (std::size_t i = 0; i < ours.size(); ++i) {
    EXPECT_EQ(paper[i].get<double>(), 0.0);
    EXPECT_LT(ours[i].get<double>(), 1e-12) << i;  // Theorem 4
    // A single dimension is not a contraction: only the whole sweep is.
    EXPECT_GT(worst_step[i].get<double>(), 0.5) << i;
  }
}

TEST(CybenkoTable1, PrintsThePapersColumnsAndWritesItsFiles) {
  const ReproductionResult& r = table1();
  EXPECT_NE(r.text.find("Model A diffusion"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("0.1353"), std::string::npos);    // e^-2, model B
  EXPECT_NE(r.text.find("0.882353"), std::string::npos);  // 1 - 2/17, model A at d = 16
  ASSERT_EQ(r.files.size(), 2u);
  for (const std::string& f : r.files) EXPECT_GT(std::filesystem::file_size(f), 0u) << f;
}

// One test: ctest runs each test in a process of its own, and the reproduction (d up to 20,
// eigen-solves on 2^20 nodes) is the cost of either half.
TEST(CybenkoHypercube, FactorRisesTowardsEMinus2AndIsPrintedWithItsFiles) {
  const ReproductionResult& r = hypercube();
  const auto ds = column(r, "cybenko-hypercube", "d");
  ASSERT_EQ(ds.size(), 19u);  // d = 2..20
  const auto at = [&](const char* name, std::size_t i) { return column(r, "cybenko-hypercube", name)[i].get<double>(); };
  const double limit = std::exp(-2.0);
  double previous = 0;
  for (std::size_t i = 0; i < ds.size(); ++i) {
    const int d = ds[i];
    const double closed = at("closed_form", i);
    EXPECT_DOUBLE_EQ(closed, std::pow(1.0 - 2.0 / (d + 1), d));
    // (1 - 2/(d+1))^d increases monotonically to its limit, from below.
    EXPECT_GT(closed, previous) << d;
    EXPECT_LT(closed, limit) << d;
    previous = closed;
    // The analysis layer's gamma and the measured worst case agree with the closed form;
    // the spike is far from the worst case.
    EXPECT_NEAR(at("gamma_d", i), closed, 1e-9 * closed) << d;
    EXPECT_NEAR(at("dlbkit_half_cube", i), closed, 1e-9 * closed) << d;
    EXPECT_LT(at("dlbkit_spike", i), closed) << d;
  }
  EXPECT_NEAR(previous, limit, 0.01 * limit);  // d = 20
  EXPECT_EQ(at("limit", ds.size() - 1), limit);

  EXPECT_NE(r.text.find("(1-2/(d+1))^d"), std::string::npos);
  EXPECT_NE(r.text.find("0.1353"), std::string::npos);
  ASSERT_EQ(r.files.size(), 2u);
  for (const std::string& f : r.files) EXPECT_GT(std::filesystem::file_size(f), 0u) << f;
}
