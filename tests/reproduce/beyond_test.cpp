// The beyond-* reproductions in their tiny form: the figures they print come from the
// schemes, and the ones with exact answers have them.

#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include "reproduce/reproduction.hpp"

#include <gtest/gtest.h>

#include <filesystem>

using namespace dlbkit;

namespace {

ReproductionResult tiny(const std::string& name) {
  return builtin_reproductions().find(name).run(
      {.out_dir = test::temp_dir(name), .runs = 2, .jobs = 2, .tiny = true});
}

TEST(Beyond, StepsMatchTheClosedFormsWhereThereAreSome) {
  const ReproductionResult r = tiny("beyond-steps");
  const auto column = [&](const char* name) { return test::column_of(r.data, "beyond-steps", name); };
  const auto topology = column("topology");
  ASSERT_EQ(topology.size(), 3u);  // hypercube:6, hypercube:7, torus:16x16
  EXPECT_EQ(topology[0], "hypercube:6");
  EXPECT_EQ(column("ops_measured")[0], 6);  // exact in d steps
  EXPECT_EQ(column("ops_measured")[1], 7);
  for (std::size_t i = 0; i < topology.size(); ++i) {
    // SOS is the faster; FOS stays within eq. 11's bound.
    EXPECT_LT(column("sos_measured")[i].get<int>(), column("fos_measured")[i].get<int>());
    EXPECT_LE(column("fos_measured")[i].get<int>(), column("fos_predicted")[i].get<int>());
  }
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
}

TEST(Beyond, FlowImitationStaysWithinTwiceTheDegree) {
  const ReproductionResult r = tiny("beyond-discrepancy");
  const auto column = [&](const char* name) { return test::column_of(r.data, "beyond-discrepancy", name); };
  const auto d = column("d");
  ASSERT_FALSE(d.empty());
  for (std::size_t i = 0; i < d.size(); ++i) {
    EXPECT_EQ(column("continuous_converged")[i], 1);
    EXPECT_LE(column("flow_imitation_worst")[i].get<double>(),
              2 * d[i].get<double>() + column("continuous_max_min")[i].get<double>());
    EXPECT_GE(column("deterministic_worst")[i].get<double>(), 0);
  }
  EXPECT_NE(r.text.find("sqrt(d ln n)"), std::string::npos);
}

TEST(Beyond, AgentsRunOnTheWlr93Workload) {
  const ReproductionResult r = tiny("beyond-agents");
  const auto labels = test::column_of(r.data, "beyond-agents", "strategy");
  const auto speedup = test::column_of(r.data, "beyond-agents", "speedup");
  ASSERT_EQ(labels.size(), 6u);
  for (std::size_t i = 0; i < labels.size(); ++i) EXPECT_GT(speedup[i].get<double>(), 0.5) << labels[i];
}

}  // namespace
