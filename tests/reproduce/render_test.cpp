// The one renderer of reproductions: a table as text, CSV and JSON, a figure as a gnuplot
// script, and a whole Results written to files.

#include "../support/temp_path.hpp"
#include "table_json.hpp"

#include "reproduce/render.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

using namespace dlbkit;

namespace {

Table sample() {
  return {.name = "sample",
          .title = "A sample",
          .columns = {{.name = "method", .left = true, .quoted = true},
                      {.name = "n"},
                      {.name = "T (s)", .format = "{:.1f}", .csv_format = "{:.3f}"}},
          .rows = {{std::string("lm c5"), std::int64_t{8}, 17.25},
                   {std::string("nna"), std::int64_t{1024}, std::numeric_limits<double>::quiet_NaN()},
                   {std::string("none"), Cell{}, 3.0}}};
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(Render, TextFitsFittedColumnsAndPadsFixedOnes) {
  EXPECT_EQ(table_text(sample()),
            "method     n  T (s)\n"
            "lm c5      8   17.2\n"
            "nna     1024    nan\n"
            "none            3.0\n");
  Table fixed = sample();
  fixed.columns[0].label = "";  // a column of row names, no header for people
  fixed.columns[0].width = 8;
  fixed.columns[1].width = 6;
  fixed.row_formats = {"{:.2f}", "{:.0f}", "{:.0f}"};  // rows as quantities: their own formats
  EXPECT_EQ(table_text(fixed),
            "             n  T (s)\n"
            "lm c5        8  17.25\n"
            "nna       1024    nan\n"
            "none                3\n");
}

TEST(Render, CsvQuotesLabelsWhereAskedAndLeavesEmptyCellsEmpty) {
  EXPECT_EQ(table_csv(sample()),
            "method,n,T (s)\n"
            "\"lm c5\",8,17.250\n"
            "\"nna\",1024,nan\n"
            "\"none\",,3.000\n");
}

TEST(Render, CsvWritesTheTablesMissingTextForAnEmptyCellAndLeavesOutColumnsForPeople) {
  Table t = sample();
  t.missing = "NaN";
  t.columns[0].written = false;
  EXPECT_EQ(table_csv(t), "n,T (s)\n8,17.250\n1024,nan\nNaN,3.000\n");
  t.columns[0].printed = false;
  EXPECT_EQ(table_text(t), "   n  T (s)\n   8   17.2\n1024    nan\n        3.0\n");
}

TEST(Render, JsonKeepsFullPrecisionAndNullsWhatIsMissing) {
  const nlohmann::json j = table_json(sample());
  EXPECT_EQ(j.at("title"), "A sample");
  EXPECT_EQ(j.at("rows")[0][2], 17.25);
  EXPECT_TRUE(j.at("rows")[1][2].is_null());
  EXPECT_TRUE(j.at("rows")[2][1].is_null());
  EXPECT_EQ(j.at("rows")[1][1], 1024);
}

TEST(Render, ScriptDrawsSeriesFromTheTablesColumns) {
  const Figure lines{.name = "f", .table = "sample", .x = "n",
                     .panels = {{.title = "it's T",
                                 .series = {{.y = "T (s)", .title = "LM", .style = "lines dt 2",
                                             .where_column = "method", .where_value = "lm c5"}}}},
                     .log_x = 2};
  const std::string script = gnuplot_script(lines, sample(), "s.csv", "f.png");
  EXPECT_NE(script.find("set output 'f.png'"), std::string::npos) << script;
  EXPECT_NE(script.find("set title 'it''s T'"), std::string::npos) << script;
  EXPECT_NE(script.find("set logscale x 2"), std::string::npos) << script;
  EXPECT_NE(script.find("plot 's.csv' using (strcol(1) eq 'lm c5' ? $2 : NaN):3 with lines dt 2 title 'LM'\n"),
            std::string::npos)
      << script;
  const Figure bars{.name = "b", .table = "sample", .x = "method", .panels = {{.series = {{.y = "n"}, {.y = "T (s)"}}}}, .bars = true};
  EXPECT_NE(gnuplot_script(bars, sample(), "s.csv", "b.png")
                .find("plot 's.csv' using 2:xtic(1) title 'n', '' using 3 title 'T (s)'\n"),
            std::string::npos);
  const Figure errors{.name = "e", .table = "sample", .x = "n", .panels = {{.series = {{.y = "T (s)", .error = "n"}}}}};
  EXPECT_NE(gnuplot_script(errors, sample(), "s.csv", "e.png").find("plot 's.csv' using 2:3:2 with yerrorlines title"),
            std::string::npos);
  const Figure labelled{.name = "l", .table = "sample", .x = "method", .x_also = "n",
                        .panels = {{.series = {{.y = "T (s)"}}}}, .bars = true};
  EXPECT_NE(gnuplot_script(labelled, sample(), "s.csv", "l.png")
                .find("using 3:xtic(stringcolumn(1).' '.stringcolumn(2)) title 'T (s)'"),
            std::string::npos);
  Table gaps = sample();
  gaps.missing = "NaN";
  const Figure two{.name = "t", .table = "sample", .x = "n",
                   .panels = {{.title = "a", .series = {{.y = "T (s)"}}}, {.title = "b", .series = {{.y = "n"}}}}};
  const std::string panels = gnuplot_script(two, gaps, "s.csv", "t.png");
  EXPECT_NE(panels.find("set datafile missing 'NaN'\n"), std::string::npos) << panels;
  EXPECT_NE(panels.find("set multiplot layout 1,2\nset title 'a'\nplot 's.csv' using 2:3 with linespoints title "
                        "'T (s)'\nset title 'b'\nplot 's.csv' using 2:2 with linespoints title 'n'\nunset multiplot\n"),
            std::string::npos)
      << panels;
  const Figure unknown{.name = "u", .table = "sample", .x = "P", .panels = {{.series = {{.y = "n"}}}}};
  EXPECT_THROW(gnuplot_script(unknown, sample(), "s.csv", "u.png"), std::logic_error);
}

TEST(Render, WritesTheCsvAndReportsTextJsonAndComparisons) {
  const std::string dir = test::temp_dir("render");
  Table hidden = sample();
  hidden.name = "hidden";
  hidden.written = false;
  hidden.printed = false;
  const Comparison c{{.figure = "Table 1", .quantity = "T", .value = 17, .tolerance = Tolerance::relative(0.1, "r")},
                     17.25};
  const ReproductionResult r = render({.inputs = {{"runs", 2}},
                                       .tables = {sample(), hidden},
                                       .notes = {"T is the makespan."},
                                       .comparisons = {c}},
                                      {.out_dir = dir});
  EXPECT_EQ(r.text, "A sample\n\n" + table_text(sample()) + "\nT is the makespan.\n");
  ASSERT_EQ(r.files, std::vector<std::string>{dir + "/sample.csv"});
  EXPECT_EQ(read(r.files[0]), table_csv(sample()));
  EXPECT_FALSE(std::filesystem::exists(dir + "/hidden.csv"));
  EXPECT_EQ(test::column_of(r.data, "hidden", "n")[1], 1024);  // in the JSON all the same
  EXPECT_EQ(r.data.at("inputs").at("runs"), 2);
  ASSERT_EQ(r.comparisons.size(), 1u);
  EXPECT_EQ(r.data.at("comparisons")[0].at("agrees"), true);
  EXPECT_EQ(r.data.at("comparisons")[0].at("ours"), 17.25);
  std::filesystem::remove_all(dir);
}

TEST(Render, AFigureOfATableWithoutCsvIsRefused) {
  Table t = sample();
  t.written = false;
  EXPECT_THROW(render({.tables = {t}, .figures = {{.name = "f", .table = "sample", .x = "n", .panels = {{.series = {{.y = "n"}}}}}}},
                      {.out_dir = test::temp_dir("render-refused")}),
               std::logic_error);
}

TEST(Render, DrawsThePicture) {
  if (std::system("gnuplot --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "gnuplot is not installed";
  const std::string dir = test::temp_dir("render-png");
  const ReproductionResult r =
      render({.tables = {sample()}, .figures = {{.name = "f", .table = "sample", .x = "n", .panels = {{.series = {{.y = "T (s)"}}}}}}},
             {.out_dir = dir});
  ASSERT_EQ(r.files.size(), 2u);
  EXPECT_GT(std::filesystem::file_size(r.files[1]), 0u);
  std::filesystem::remove_all(dir);
}
