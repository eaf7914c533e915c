// AG91 reproductions at tiny sizes, and `dlbkit spheres` run as a user would.
#include "../support/command.hpp"

#include "table_json.hpp"

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
  const ReproductionResult r = builtin_reproductions().find("ahmad-table2").run({.out_dir = dir, .runs = 1, .jobs = 1});
  const auto column = [&](const char* name) { return test::column_of(r.data, "ahmad-table2", name); };
  const auto networks = column("network");
  ASSERT_EQ(networks.size(), 9u);
  EXPECT_EQ(column("N_paper"), column("N"));
  EXPECT_EQ(column("n_paper"), column("n"));
  EXPECT_EQ(networks[1], "Q8");
  EXPECT_EQ(column("differs")[1], "");  // Q8 agrees in every column
  for (const char* q : {"delta", "C", "r", "v1", "v2", "v3", "sphere"})
    EXPECT_EQ(column((std::string(q) + "_paper").c_str())[1], column(q)[1]) << q;
  EXPECT_NE(r.text.find("Q10"), std::string::npos);
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
}

TEST(AhmadReproductions, Table3AgreesWithThePaperWhoseDistance0RowLeavesOutTheOwnSphere) {
  const auto dir = dlbkit::test::temp_path("ahmad-table3").string();
  const ReproductionResult r = builtin_reproductions().find("ahmad-table3").run({.out_dir = dir, .runs = 1, .jobs = 1});
  const auto column = [&](const char* name) { return test::column_of(r.data, "ahmad-table3", name); };
  const auto distance = column("distance"), nodes = column("nodes"), paper = column("paper"), spheres = column("spheres");
  ASSERT_EQ(distance.size(), 3u * 7u);  // distances 0..2 x f = 2..8
  const std::size_t expected_nodes[] = {16, 128, 112};  // the schedulers, their 16 x 8 neighbours, the rest
  for (std::size_t i = 0; i < distance.size(); ++i) {
    const auto d = distance[i].get<std::size_t>();
    EXPECT_EQ(nodes[i], expected_nodes[d]);
    // Every node at distance d lies in the same number of spheres: the paper's (+1 at distance 0).
    EXPECT_EQ(spheres[i], std::to_string(paper[i].get<int>() + (d == 0 ? 1 : 0))) << "row " << i;
  }
  EXPECT_NE(r.text.find("distance 0: the paper's row = ours less the scheduler's own sphere"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("distance 1: ours equal the paper's at every f"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("distance 2: ours equal the paper's at every f"), std::string::npos) << r.text;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(r.files[0])) << r.files[0];
}

TEST(AhmadReproductions, Fig1OurHadamardMatrixIsThePapersRowByRow) {
  const auto dir = dlbkit::test::temp_path("ahmad-fig1").string();
  const ReproductionResult r = builtin_reproductions().find("ahmad-fig1").run({.out_dir = dir, .runs = 1, .jobs = 1});
  const auto column = [&](const char* name) { return test::column_of(r.data, "ahmad-fig1", name); };
  const auto m = column("M");
  ASSERT_EQ(m.size(), 8u);
  EXPECT_EQ(m, column("M_paper"));
  EXPECT_EQ(column("MC"), column("MC_paper"));
  for (const auto& match : column("match")) EXPECT_EQ(match, "match");
  EXPECT_EQ(m[1], "00010111");  // Table 1's generator 0010111 behind the 0 column
  // M and M^C are Q8's 16 schedulers (Sec. 4.3).
  EXPECT_NE(r.text.find("8 of 8 rows match the paper's in both matrices; the rows of M and M^C are exactly Q8's"),
            std::string::npos)
      << r.text;
  ASSERT_EQ(r.files.size(), 1u);
  EXPECT_TRUE(std::filesystem::exists(r.files[0])) << r.files[0];
}

TEST(AhmadReproductions, Fig2ListsTheSphereOfScheduler00000000) {
  const auto dir = dlbkit::test::temp_path("ahmad-fig2").string();
  const ReproductionResult r = builtin_reproductions().find("ahmad-fig2").run({.out_dir = dir, .runs = 1, .jobs = 1});
  EXPECT_EQ(r.data.at("inputs").at("scheduler"), "00000000");
  for (const Comparison& c : r.comparisons) EXPECT_TRUE(c.agrees()) << c.paper.quantity;  // r, v_0..v_2, 37 nodes
  ASSERT_EQ(r.comparisons.size(), 5u);
  const auto valency = test::column_of(r.data, "ahmad-fig2-valencies", "valency");
  EXPECT_EQ(valency, test::column_of(r.data, "ahmad-fig2-valencies", "paper"));  // 1, 8, 28
  const auto distance = test::column_of(r.data, "ahmad-fig2", "distance");
  const auto address = test::column_of(r.data, "ahmad-fig2", "address");
  std::set<std::string> all;
  for (std::size_t i = 0; i < address.size(); ++i) {
    const std::string a = address[i].get<std::string>();
    EXPECT_EQ(a.size(), 8u);
    EXPECT_EQ(std::count(a.begin(), a.end(), '1'), distance[i].get<long>()) << a;  // weight = distance
    all.insert(a);
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
  const ReproductionResult r = builtin_reproductions().find("ahmad-fig11").run({.out_dir = dir, .runs = 2, .jobs = 2});
  EXPECT_NE(r.text.find("Fig 11(a)"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("Fig 11(b)"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("paper: "), std::string::npos);
  ASSERT_EQ(r.files.size(), 4u);
  for (const std::string& f : r.files) EXPECT_TRUE(std::filesystem::exists(f)) << f;
  for (const char* panel : {"ahmad-fig11a", "ahmad-fig11b"}) {
    ASSERT_EQ(test::column_of(r.data, panel, "rate").size(), 7u) << panel;  // 7 rates, semi and fully on O6
    for (const char* strategy : {"O6 semi", "O6 fully"})
      for (const auto& value : test::column_of(r.data, panel, strategy)) {
        EXPECT_GT(value.get<double>(), 0) << panel << " " << strategy;  // balancing beats none
        EXPECT_LT(value.get<double>(), 100) << panel << " " << strategy;
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
