// docs/architecture.md's recipe for a reproduction, followed step by step: a function that
// computes Results (a table, a figure, a published number beside ours) and a ReproductionInfo
// whose run renders them; the renderer writes the text, the CSV and the comparison.

#include "../support/temp_path.hpp"

#include "reproduce/render.hpp"
#include "reproduce/reproduction.hpp"

#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <filesystem>

using namespace dlbkit;

namespace {

// Step 1: compute the data. Hypercube diameters beside the closed form d (a "paper" value).
Results hypercube_diameters(const ReproductionOptions&) {
  Results r;
  Table t{.name = "diameters", .title = "Hypercube diameters",
          .columns = {{.name = "d"}, {.name = "diameter"}}};
  for (std::int64_t d = 1; d <= 4; ++d)
    t.rows.push_back({d, std::int64_t{parse_topology("hypercube:" + std::to_string(d)).diameter()}});
  r.tables.push_back(t);
  r.figures.push_back({.name = "diameters", .table = "diameters", .xlabel = "d", .ylabel = "diameter", .x = "d",
                       .panels = {{.series = {{.y = "diameter", .title = "dlbkit"}}}}});
  r.comparisons.push_back({.paper = {.figure = "Sec. 3", .quantity = "diameter of hypercube:4", .value = 4,
                                     .reading = Reading::formula,
                                     .tolerance = Tolerance::absolute(0, "exact closed form")},
                           .ours = static_cast<double>(parse_topology("hypercube:4").diameter())});
  return r;
}

// Step 2: the registry entry; its run renders the Results (one line in reproduction.cpp adds
// it to builtin_reproductions()).
ReproductionInfo hypercube_diameters_reproduction() {
  return {.name = "hypercube-diameters",
          .description = "the diameter of hypercube:d beside d",
          .source = "C89 Sec. 3",
          .run = [](const ReproductionOptions& o) { return render(hypercube_diameters(o), o); }};
}

}  // namespace

TEST(Recipe, AReproductionIsResultsAndOneRegistryEntry) {
  const std::string dir = test::temp_dir("recipe");
  ReproductionRegistry registry;
  registry.add(hypercube_diameters_reproduction());
  const ReproductionResult report = registry.find("hypercube-diameters").run({.out_dir = dir});
  EXPECT_NE(report.text.find("Hypercube diameters"), std::string::npos) << report.text;
  EXPECT_TRUE(std::filesystem::exists(dir + "/diameters.csv"));
  ASSERT_EQ(report.comparisons.size(), 1u);
  EXPECT_TRUE(report.comparisons[0].agrees());
  EXPECT_EQ(report.data["tables"][0]["rows"][3][1], 4);
  std::filesystem::remove_all(dir);
}
