#include "../support/temp_path.hpp"

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
const ReproductionReport& table1() {
  static const ReproductionReport r =
      find("cybenko-table1").run({.out_dir = test::temp_dir("cybenko-table1"), .runs = 1, .jobs = 2});
  return r;
}

const ReproductionReport& hypercube() {
  static const ReproductionReport r =
      find("cybenko-hypercube").run({.out_dir = test::temp_dir("cybenko-hypercube"), .runs = 1, .jobs = 2});
  return r;
}

}  // namespace

TEST(CybenkoTable1, DiffusionContractsByTheSecondEigenvaluePerIteration) {
  const auto& rows = table1().data.at("rows");
  ASSERT_EQ(rows.size(), 15u);  // d = 2..16
  for (const auto& row : rows) {
    const int d = row.at("d");
    const double gamma = 1.0 - 2.0 / (d + 1);  // Sec. 3: lambda_2 = -lambda_n of alpha = 1/(d+1)
    EXPECT_NEAR(row.at("gamma").get<double>(), gamma, 1e-9) << d;
    // Model A: the worst reduction of one iteration is gamma, attained by the half-cube load.
    EXPECT_NEAR(row.at("model_a").at("dlbkit").get<double>(), gamma, 1e-7) << d;
    EXPECT_EQ(row.at("model_a").at("paper").get<double>(), gamma);
    // Model B: d iterations, (15) with equality; the paper's entry is its limit e^-2.
    EXPECT_NEAR(row.at("model_b").at("dlbkit").get<double>(), std::pow(gamma, d), 1e-7) << d;
    EXPECT_NEAR(row.at("model_b").at("paper").get<double>(), std::exp(-2.0), 1e-15);
    for (const auto& run : row.at("diffusion_runs")) {
      // Every load converges at gamma per iteration once the faster components have died out,
      // and no iteration shrinks the error by less than gamma.
      EXPECT_NEAR(run.at("asymptotic_rate").get<double>(), gamma, 1e-4) << d << " " << run.at("start");
      EXPECT_LE(run.at("worst_step").get<double>(), gamma + 1e-7) << d << " " << run.at("start");
    }
  }
}

TEST(CybenkoTable1, DimensionExchangeIsExactAfterOneSweep) {
  for (const auto& row : table1().data.at("rows")) {
    EXPECT_EQ(row.at("dimension_exchange").at("paper").get<double>(), 0.0);
    EXPECT_LT(row.at("dimension_exchange").at("dlbkit").get<double>(), 1e-12) << row.at("d");  // Theorem 4
    // A single dimension is not a contraction: only the whole sweep is.
    EXPECT_GT(row.at("dimension_exchange").at("worst_step").get<double>(), 0.5) << row.at("d");
  }
}

TEST(CybenkoTable1, PrintsThePapersColumnsAndWritesItsFiles) {
  const ReproductionReport& r = table1();
  EXPECT_NE(r.text.find("Model A diffusion"), std::string::npos);
  EXPECT_NE(r.text.find("0.1353"), std::string::npos);    // e^-2, model B
  EXPECT_NE(r.text.find("0.882353"), std::string::npos);  // 1 - 2/17, model A at d = 16
  ASSERT_EQ(r.files.size(), 2u);
  for (const std::string& f : r.files) EXPECT_GT(std::filesystem::file_size(f), 0u) << f;
}

// One test: ctest runs each test in a process of its own, and the reproduction (d up to 20,
// eigen-solves on 2^20 nodes) is the cost of either half.
TEST(CybenkoHypercube, FactorRisesTowardsEMinus2AndIsPrintedWithItsFiles) {
  const ReproductionReport& r = hypercube();
  const auto& rows = r.data.at("rows");
  ASSERT_EQ(rows.size(), 19u);  // d = 2..20
  const double limit = std::exp(-2.0);
  double previous = 0;
  for (const auto& row : rows) {
    const int d = row.at("d");
    const double closed = row.at("paper").at("closed_form");
    EXPECT_DOUBLE_EQ(closed, std::pow(1.0 - 2.0 / (d + 1), d));
    // (1 - 2/(d+1))^d increases monotonically to its limit, from below.
    EXPECT_GT(closed, previous) << d;
    EXPECT_LT(closed, limit) << d;
    previous = closed;
    // The analysis layer's gamma and the measured worst case agree with the closed form;
    // the spike is far from the worst case.
    EXPECT_NEAR(row.at("gamma_d").get<double>(), closed, 1e-9 * closed) << d;
    EXPECT_NEAR(row.at("half_cube").get<double>(), closed, 1e-9 * closed) << d;
    EXPECT_LT(row.at("spike").get<double>(), closed) << d;
  }
  EXPECT_NEAR(previous, limit, 0.01 * limit);  // d = 20
  EXPECT_EQ(rows.back().at("paper").at("limit").get<double>(), limit);

  EXPECT_NE(r.text.find("(1-2/(d+1))^d"), std::string::npos);
  EXPECT_NE(r.text.find("0.1353"), std::string::npos);
  ASSERT_EQ(r.files.size(), 2u);
  for (const std::string& f : r.files) EXPECT_GT(std::filesystem::file_size(f), 0u) << f;
}
