// predict-runtime in its tiny form: the table has a measured and a predicted column for
// every strategy that runs on two workers, every figure finite, and the files are
// written. How close prediction and measurement are is for people (docs/predict.md), not
// for a test: the measured times depend on the machine's load.

#include "../support/temp_path.hpp"

#include <dlbkit/reproduce/reproduction.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>

using namespace dlbkit;

TEST(PredictRuntime, TinyRunHasMeasuredAndPredictedColumns) {
  const ReproductionReport report = builtin_reproductions().find("predict-runtime").run(
      {.out_dir = test::temp_dir("predict"), .runs = 1, .jobs = 2, .tiny = true});
  for (const auto& file : report.files) EXPECT_TRUE(std::filesystem::exists(file)) << file;
  EXPECT_NE(report.text.find("T real"), std::string::npos);
  EXPECT_NE(report.text.find("T pred"), std::string::npos);
  EXPECT_NE(report.text.find("predicted within 10%"), std::string::npos);
  const auto& rows = report.data.at("rows");
  ASSERT_GE(rows.size(), 10u);  // most strategies run on two workers
  std::size_t ran = 0;
  for (const auto& row : rows) {
    if (!row.at("error").get<std::string>().empty()) continue;
    ++ran;
    EXPECT_TRUE(row.at("same_result").get<bool>()) << row.at("strategy");
    for (const char* side : {"measured", "predicted"})
      for (const char* figure : {"makespan", "efficiency", "tasks_moved"}) {
        const double x = row.at(side).at(figure).get<double>();
        EXPECT_TRUE(std::isfinite(x)) << row.at("strategy") << " " << side << " " << figure;
        EXPECT_GE(x, 0);
      }
    EXPECT_GT(row.at("measured").at("makespan").get<double>(), 0);
    EXPECT_GT(row.at("predicted").at("makespan").get<double>(), 0);
  }
  EXPECT_EQ(ran, rows.size());
  const auto& scale = report.data.at("scale");
  ASSERT_EQ(scale.size(), ran);
  for (const auto& s : scale)
    for (const auto& point : s.at("points"))
      if (!point.at("makespan").is_null()) {
        EXPECT_GT(point.at("makespan").get<double>(), 0);
      }
  EXPECT_TRUE(report.data.at("calibration").at("check_ns").get<double>() > 0);
}
