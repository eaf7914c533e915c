// AG91 reproductions at tiny sizes, and `dlbkit spheres` run as a user would.
#include "../support/command.hpp"

#include "reproduce/ahmad.hpp"

#include <algorithm>
#include <filesystem>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>

using namespace dlbkit;

namespace {

using dlbkit::test::Outcome;

Outcome run_cli(const std::string& args) { return dlbkit::test::run_cli_combined(args); }

}  // namespace

TEST(AhmadReproductions, Table2PrintsThePapersRowsBesideOurs) {
  const auto dir = dlbkit::test::temp_path("ahmad-table2").string();
  const ReproductionReport r = builtin_reproductions().find("ahmad-table2").run({.out_dir = dir, .runs = 1, .jobs = 1});
  const auto& rows = r.data.at("rows");
  ASSERT_EQ(rows.size(), 9u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("paper")[0], row.at("ours")[0]) << row.at("network");  // N
    EXPECT_EQ(row.at("paper")[1], row.at("ours")[1]) << row.at("network");  // n
  }
  EXPECT_EQ(rows[1].at("network"), "Q8");
  EXPECT_EQ(rows[1].at("paper"), rows[1].at("ours"));  // Q8 agrees in every column
  EXPECT_NE(r.text.find("Q10"), std::string::npos);
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
}

TEST(AhmadReproductions, Table3AgreesWithThePaperWhoseDistance0RowLeavesOutTheOwnSphere) {
  const auto dir = dlbkit::test::temp_path("ahmad-table3").string();
  const ReproductionReport r = builtin_reproductions().find("ahmad-table3").run({.out_dir = dir, .runs = 1, .jobs = 1});
  const auto& rows = r.data.at("rows");
  ASSERT_EQ(rows.size(), 3u);
  const std::size_t nodes[] = {16, 128, 112};  // the schedulers, their 16 x 8 neighbours, the rest
  for (std::size_t d = 0; d < 3; ++d) {
    const auto& row = rows[d];
    EXPECT_EQ(row.at("nodes"), nodes[d]);
    ASSERT_EQ(row.at("ours").size(), 7u);
    for (std::size_t i = 0; i < 7; ++i) {
      // Every node at distance d lies in the same number of spheres: the paper's (+1 at distance 0).
      const int k = row.at("paper")[i].get<int>() + (d == 0 ? 1 : 0);
      EXPECT_EQ(row.at("ours")[i], (nlohmann::json{{std::to_string(k), nodes[d]}})) << "d = " << d << ", f = " << i + 2;
    }
  }
  EXPECT_FALSE(rows[0].at("equal"));
  EXPECT_TRUE(rows[0].at("equal_without_own_sphere"));
  EXPECT_TRUE(rows[1].at("equal"));
  EXPECT_TRUE(rows[2].at("equal"));
  EXPECT_NE(r.text.find("distance 0: the paper's row = ours less the scheduler's own sphere"), std::string::npos) << r.text;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(r.files[0])) << r.files[0];
}

TEST(AhmadReproductions, Fig1OurHadamardMatrixIsThePapersRowByRow) {
  const auto dir = dlbkit::test::temp_path("ahmad-fig1").string();
  const ReproductionReport r = builtin_reproductions().find("ahmad-fig1").run({.out_dir = dir, .runs = 1, .jobs = 1});
  const auto& rows = r.data.at("rows");
  ASSERT_EQ(rows.size(), 8u);
  for (const auto& row : rows) {
    EXPECT_EQ(row.at("m"), row.at("paper_m")) << row.dump();
    EXPECT_EQ(row.at("mc"), row.at("paper_mc")) << row.dump();
    EXPECT_TRUE(row.at("match"));
  }
  EXPECT_EQ(rows[1].at("m"), "00010111");  // Table 1's generator 0010111 behind the 0 column
  EXPECT_TRUE(r.data.at("scheduler_set"));  // M and M^C are Q8's 16 schedulers (Sec. 4.3)
  EXPECT_NE(r.text.find("8 of 8 rows match"), std::string::npos) << r.text;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(r.files[0])) << r.files[0];
}

TEST(AhmadReproductions, Fig2ListsTheSphereOfScheduler00000000) {
  const auto dir = dlbkit::test::temp_path("ahmad-fig2").string();
  const ReproductionReport r = builtin_reproductions().find("ahmad-fig2").run({.out_dir = dir, .runs = 1, .jobs = 1});
  EXPECT_EQ(r.data.at("scheduler"), "00000000");
  EXPECT_EQ(r.data.at("covering_radius"), r.data.at("paper_covering_radius"));
  EXPECT_EQ(r.data.at("sphere_size"), 37);
  EXPECT_EQ(r.data.at("sphere_size"), r.data.at("paper_sphere_size"));
  const auto& distances = r.data.at("distances");
  ASSERT_EQ(distances.size(), 3u);
  std::set<std::string> all;
  for (std::size_t d = 0; d < 3; ++d) {
    const auto& nodes = distances[d].at("nodes");
    EXPECT_EQ(nodes.size(), distances[d].at("paper_valency").get<std::size_t>()) << "d = " << d;  // 1, 8, 28
    for (const auto& a : nodes) {
      const std::string address = a.get<std::string>();
      EXPECT_EQ(address.size(), 8u);
      EXPECT_EQ(std::count(address.begin(), address.end(), '1'), static_cast<long>(d)) << address;  // weight = distance
      all.insert(address);
    }
  }
  EXPECT_EQ(all.size(), 37u);
  EXPECT_NE(r.text.find("00000011"), std::string::npos) << r.text;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(r.files[0])) << r.files[0];
}

TEST(AhmadReproductions, QueueingReplicationsGiveIntervalsAndObeyLittlesLaw) {
  const std::vector<QueueingSetup> setups = {
      {"hypercube:4", "none", {}, 0.6, 20, 3000},
      {"hypercube:4", "semi_distributed", {}, 0.6, 20, 3000},
      {"hypercube:4", "fully_distributed", {}, 0.6, 20, 3000},
  };
  const auto a = run_queueing(setups, 3, 2);
  const auto b = run_queueing(setups, 3, 1);
  ASSERT_EQ(a.size(), 3u);
  for (std::size_t i = 0; i < a.size(); ++i) {
    EXPECT_EQ(a[i].responses, b[i].responses) << "replications depend on the number of jobs";
    EXPECT_EQ(a[i].responses.size(), 3u);
    EXPECT_GT(a[i].response.half_width, 0);
    EXPECT_LE(std::abs(a[i].mean_in_system.mean - a[i].little.mean), a[i].mean_in_system.half_width + 0.05);
  }
  EXPECT_LT(a[1].response.mean, a[0].response.mean);
  EXPECT_EQ(a[0].control_messages.mean, 0);
  EXPECT_GT(a[2].control_messages.mean, 0);
}

TEST(AhmadReproductions, Fig11SweepsTheTransferRateAtBothLoads) {
  const auto dir = dlbkit::test::temp_path("ahmad-fig11").string();
  const ReproductionReport r = builtin_reproductions().find("ahmad-fig11").run({.out_dir = dir, .runs = 2, .jobs = 2});
  EXPECT_NE(r.text.find("Fig 11(a)"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("Fig 11(b)"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("paper: "), std::string::npos);
  ASSERT_EQ(r.files.size(), 4u);
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  for (const char* panel : {"fig11a", "fig11b"}) {
    const auto& points = r.data.at(panel).at("points");
    ASSERT_EQ(points.size(), 14u) << panel;  // 7 rates x semi and fully, on O6
    for (const auto& p : points) {
      EXPECT_EQ(p.at("network"), "O6");
      EXPECT_GT(p.at("value").get<double>(), 0) << panel << " " << p.dump();  // balancing beats none
      EXPECT_LT(p.at("value").get<double>(), 100) << panel << " " << p.dump();
    }
  }
}

TEST(SpheresCli, PrintsTheTable2RowAndTable3) {
  const Outcome o = run_cli("spheres --topology hypercube:8 --range 2");
  EXPECT_EQ(o.status, 0) << o.out;
  EXPECT_NE(o.out.find("256   8     4   16   2  8 28"), std::string::npos) << o.out;
  EXPECT_NE(o.out.find("distance 2: 112 nodes: 4 x 112"), std::string::npos) << o.out;
  const Outcome j = run_cli("spheres --topology odd:6 --json");
  ASSERT_EQ(j.status, 0) << j.out;
  const auto doc = nlohmann::json::parse(j.out);
  EXPECT_EQ(doc["C"], 11);
  EXPECT_EQ(doc["r"], 3);
  EXPECT_EQ(doc["sphere_size"], 112);
}

TEST(SpheresCli, SizesWithoutASchedulerSetAreOneLineErrors) {
  for (const char* args : {"spheres --topology odd:7", "spheres --topology torus:4x4", "spheres --topology hypercube:8 --range -3"}) {
    const Outcome o = run_cli(args);
    EXPECT_EQ(o.status, 2) << args << "\n" << o.out;
    EXPECT_EQ(o.out.rfind("dlbkit: error: ", 0), 0u) << o.out;
    EXPECT_EQ(o.out.find('\n'), o.out.size() - 1) << o.out;
  }
  EXPECT_NE(run_cli("spheres --topology odd:7").out.find("odd:{2, 4, 6, 8, 10, 12}"), std::string::npos);
}
