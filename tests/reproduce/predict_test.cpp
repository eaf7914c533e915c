// predict-runtime in its tiny form: the table has a measured and a predicted column for
// every strategy that runs on two workers, every figure finite, and the files are
// written; with at_65536 the best four of each case are predicted at the largest size (256
// processors standing in for 65536) on the scaled-up instance. How close prediction and measurement are is for people (docs/predict.md), not
// for a test: the measured times depend on the machine's load.

#include "../support/temp_path.hpp"

#include "reproduce/reproduction.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <map>

using namespace dlbkit;

TEST(PredictRuntime, TinyRunHasMeasuredAndPredictedColumns) {
  const ReproductionReport report = builtin_reproductions().find("predict-runtime").run(
      {.out_dir = test::temp_dir("predict"), .runs = 1, .jobs = 2, .tiny = true, .params = {{"at_65536", "true"}}});
  for (const auto& file : report.files) EXPECT_TRUE(std::filesystem::exists(file)) << file;
  EXPECT_NE(report.text.find("T real"), std::string::npos);
  EXPECT_NE(report.text.find("T pred"), std::string::npos);
  EXPECT_NE(report.text.find("predicted within 10%"), std::string::npos);
  const auto& rows = report.data.at("rows");
  ASSERT_GE(rows.size(), 10u);  // most strategies run on two workers
  std::size_t ran = 0;
  for (const auto& row : rows) {
    const auto error = row.at("error").get<std::string>();
    EXPECT_EQ(error, "") << row.at("app") << " " << row.at("strategy");
    if (!error.empty()) continue;
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
  std::map<std::string, int> large;  // rows at the largest size per case
  for (const auto& s : scale)
    for (const auto& point : s.at("points")) {
      const auto processors = point.at("processors").get<double>();
      if (processors == 256) ++large[s.at("app").get<std::string>()];
      if (point.at("makespan").is_null()) continue;  // the strategy refuses the size
      const double makespan = point.at("makespan").get<double>(), efficiency = point.at("efficiency").get<double>();
      const double work = point.at("total_work").get<double>();
      EXPECT_TRUE(std::isfinite(makespan) && std::isfinite(efficiency) && std::isfinite(work)) << s.at("strategy");
      EXPECT_GT(efficiency, 0) << s.at("strategy") << " P = " << processors;
      EXPECT_LE(efficiency, 1 + 1e-12) << s.at("strategy") << " P = " << processors;
      EXPECT_GE(makespan * (1 + 1e-12), work / processors) << s.at("strategy") << " P = " << processors;
    }
  const auto& cases = report.data.at("cases");
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& c : cases) {
    EXPECT_EQ(large[c.at("label").get<std::string>()], 4) << c.at("label");  // the best four
    EXPECT_EQ(c.at("large").at("processors").get<int>(), 256);
  }
  // The scaled instances have more work than the two-worker ones, the same time per unit.
  EXPECT_EQ(cases[1].at("large").at("workload_params").at("node_time"), cases[1].at("workload_params").at("node_time"));
  EXPECT_NE(report.text.find("predicted on 256 processors"), std::string::npos);
  EXPECT_TRUE(report.data.at("calibration").at("check_ns").get<double>() > 0);
}
