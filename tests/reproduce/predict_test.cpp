// predict-runtime in its tiny form: the table has a measured and a predicted column for
// every strategy that runs on two workers, every figure finite, and the files are
// written; with at_65536 the best four of each case are predicted at the largest size (256
// processors standing in for 65536) on the scaled-up instance. How close prediction and measurement are is for people (docs/predict.md), not
// for a test: the measured times depend on the machine's load.

#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include "reproduce/reproduction.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <fmt/format.h>
#include <filesystem>
#include <map>

using namespace dlbkit;

TEST(PredictRuntime, TinyRunHasMeasuredAndPredictedColumns) {
  const ReproductionResult report = builtin_reproductions().find("predict-runtime").run(
      {.out_dir = test::temp_dir("predict"), .runs = 1, .jobs = 2, .tiny = true, .params = {{"at_65536", "true"}}});
  for (const auto& file : report.files) EXPECT_TRUE(std::filesystem::exists(file)) << file;
  EXPECT_NE(report.text.find("T_real"), std::string::npos);
  EXPECT_NE(report.text.find("T_pred"), std::string::npos);
  EXPECT_NE(report.text.find("predicted within 10%"), std::string::npos);
  const auto column = [&](const char* table, const char* name) { return test::column_of(report.data, table, name); };
  const auto strategies = column("predict-runtime", "strategy"), errors = column("predict-runtime", "error");
  ASSERT_GE(strategies.size(), 10u);  // most strategies run on two workers
  for (std::size_t i = 0; i < strategies.size(); ++i) {
    EXPECT_EQ(errors[i], "") << strategies[i];  // it ran, and gave the sequential run's result
    for (const char* figure : {"T_real", "T_pred", "eff_real", "eff_pred", "moved_real", "moved_pred"}) {
      const nlohmann::json x = column("predict-runtime", figure)[i];
      ASSERT_TRUE(x.is_number()) << strategies[i] << " " << figure;
      EXPECT_GE(x.get<double>(), 0) << strategies[i] << " " << figure;
    }
    EXPECT_GT(column("predict-runtime", "T_real")[i].get<double>(), 0);
    EXPECT_GT(column("predict-runtime", "T_pred")[i].get<double>(), 0);
  }
  // At scale: every strategy that ran, on 64 processors and (the best four of each case) on 256.
  const auto apps = column("predict-runtime-scale", "app");
  ASSERT_EQ(apps.size(), strategies.size());
  std::map<std::string, int> large;  // rows with a prediction or a note at the largest size, per case
  for (const std::size_t p : {64, 256}) {
    const auto makespan = column("predict-runtime-scale", fmt::format("T_{}", p).c_str());
    const auto efficiency = column("predict-runtime-scale", fmt::format("eff_{}", p).c_str());
    for (std::size_t i = 0; i < apps.size(); ++i) {
      if (p == 256 && (makespan[i].is_number() || column("predict-runtime-scale", "note_256")[i] != ""))
        ++large[apps[i].get<std::string>()];
      if (makespan[i].is_null()) continue;  // the strategy refuses the size
      EXPECT_GT(efficiency[i].get<double>(), 0) << apps[i] << " P = " << p;
      EXPECT_LE(efficiency[i].get<double>(), 1 + 1e-12) << apps[i] << " P = " << p;
      if (p == 256) {
        const double work = column("predict-runtime-scale", "work_256")[i].get<double>();
        EXPECT_GE(makespan[i].get<double>() * (1 + 1e-12), work / 256) << apps[i];
      }
    }
  }
  const auto cases = column("predict-runtime-cases", "case");
  ASSERT_EQ(cases.size(), 3u);
  for (const auto& c : cases) EXPECT_EQ(large[c.get<std::string>()], 4) << c;  // the best four
  // The scaled instances have more work than the two-worker ones, the same time per unit.
  const auto node_time = [](const nlohmann::json& params) {
    const std::string s = params.get<std::string>();
    const std::size_t at = s.find("node_time=");
    return at == std::string::npos ? std::string() : s.substr(at, s.find(' ', at) - at);
  };
  EXPECT_NE(node_time(column("predict-runtime-cases", "workload params")[1]), "");
  EXPECT_EQ(node_time(column("predict-runtime-cases", "large workload params")[1]),
            node_time(column("predict-runtime-cases", "workload params")[1]));
  EXPECT_EQ(column("predict-runtime-cases", "large instance")[1], "uts depth 6");
  EXPECT_TRUE(report.data.at("inputs").at("calibration").at("check_ns").get<double>() > 0);
}
