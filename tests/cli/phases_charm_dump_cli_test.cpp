// dlbkit phases --charm-dump: one step of a Charm++ run (a +LBDump file) balanced, written as
// vt's LB data with --write; bad input as one line with status 2.

#include "../support/cli_json.hpp"
#include "../support/temp_path.hpp"
#include "../support/usage_error.hpp"

#include <dlbkit/phases/charm_dump.hpp>
#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

namespace {

namespace fs = std::filesystem;
using dlbkit::test::cli_json;
using dlbkit::test::expect_usage_error;

// Written by Charm++'s stencil3d example (tests/data/charm/README.md): 4 PEs, 16 chares.
const std::string kDump = std::string(DLBKIT_TEST_DATA) + "/charm/lbdump.0";
const std::string kBlocksData = std::string(DLBKIT_TEST_DATA) + "/vt/synthetic-dataset-blocks";

TEST(CliPhasesCharmDump, BalancesTheDumpAndWritesItAsVtData) {
  const std::string dir = dlbkit::test::temp_dir("cli-charm-write");
  fs::create_directories(dir);
  const auto j = cli_json({"phases", "-s", "refine", "--charm-dump", kDump, "--write", dir + "/out", "--json"});
  ASSERT_TRUE(j.is_object());
  const nlohmann::json& in = j["inputs"];
  EXPECT_EQ(in["charm_dump"], kDump);
  EXPECT_EQ(in["format_version"], 3);
  EXPECT_EQ(in["layout"], "Charm++ 7.0 and later");
  EXPECT_EQ(in["ranks"], 4);
  EXPECT_EQ(in["objects"], 16);
  EXPECT_EQ(in["communications"], 64);
  EXPECT_EQ(in["topology"], "complete:4");
  const dlbkit::CharmDump dump = dlbkit::read_charm_dump(kDump);
  EXPECT_DOUBLE_EQ(j["imbalance_before"].get<double>(),
                   dlbkit::phase_figures(dump.phase, dump.phase.node_of).imbalance);
  EXPECT_LT(j["imbalance_after"].get<double>(), j["imbalance_before"].get<double>());
  // The files written hold the balanced mapping.
  const dlbkit::VtDataSet written = dlbkit::read_vt_data(dir + "/out");
  EXPECT_EQ(written.ranks, 4u);
  const dlbkit::Phase& phase = dlbkit::vt_phase(written, 0).phase;
  EXPECT_EQ(phase.objects.size(), 16u);
  EXPECT_EQ(phase.communications.size(), 64u);
  EXPECT_DOUBLE_EQ(dlbkit::phase_figures(phase, phase.node_of).imbalance, j["imbalance_after"].get<double>());
  fs::remove_all(dir);
}

TEST(CliPhasesCharmDump, BadInputIsOneLine) {
  const std::string dir = dlbkit::test::temp_dir("cli-charm-bad");
  fs::create_directories(dir);
  const std::string cut = dir + "/lbdump.0";
  {
    std::ifstream in(kDump, std::ios::binary);
    std::string bytes(100, '\0');
    in.read(bytes.data(), 100);
    std::ofstream(cut, std::ios::binary) << bytes;
  }
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", cut}, {cut, "byte 28", "truncated"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", kBlocksData + ".0.json"},
                     {kBlocksData + ".0.json", "byte 0", "no PUP machine info"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", dir + "/none"}, {dir + "/none"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", kDump, "--data", kBlocksData},
                     {"both --data and --charm-dump are given"});
  expect_usage_error({"phases", "-s", "greedy"}, {"neither -w/--workload nor --data nor --charm-dump"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", kDump, "--replay"},
                     {"--replay is given with --charm-dump", "--data STEM only"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", kDump, "--phase", "1"},
                     {"--phase is given with --charm-dump"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", kDump, "--phases", "2"},
                     {"--phases is given with --charm-dump"});
  expect_usage_error({"phases", "-s", "greedy", "--charm-dump", kDump, "-t", "ring:5"}, {"ring:5", "4 PEs"});
  expect_usage_error({"phases", "-s", "greedy", "-w", "hotspot", "-t", "ring:4", "--write", dir + "/out"},
                     {"--write is given without --data", "--charm-dump FILE"});
  EXPECT_FALSE(fs::exists(dir + "/out.0.json"));
  fs::remove_all(dir);
}

}  // namespace
