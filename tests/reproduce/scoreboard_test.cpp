#include "../support/temp_path.hpp"

#include "reproduce/paper_value.hpp"
#include "reproduce/reproduction.hpp"
#include "reproduce/scoreboard.hpp"

#include <cmath>
#include <gtest/gtest.h>
#include <limits>
#include <set>
#include <stdexcept>

using namespace dlbkit;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

Comparison made_up(std::string quantity, double paper, Tolerance t, double ours) {
  return {{.figure = "Table 1", .quantity = std::move(quantity), .value = paper, .tolerance = std::move(t),
           .explained_in = "docs/x.md, 'Why " + std::to_string(paper) + "'"},
          ours};
}

// A reproduction that reports fixed comparisons: the scoreboard's verdicts can be checked by hand.
// With a skip reason it is not on the scoreboard.
ReproductionInfo fixed(std::string name, std::vector<Comparison> comparisons, std::string skip = "") {
  const auto run = [comparisons](const ReproductionOptions&) {
    ReproductionResult r;
    r.comparisons = comparisons;
    return r;
  };
  ReproductionInfo info{.name = std::move(name), .description = "fixed numbers", .source = "Test99 Table 1",
                        .default_runs = 1, .run = run, .scoreboard_skip = std::move(skip)};
  if (info.scoreboard_skip.empty()) info.scoreboard_run = run;
  return info;
}

}  // namespace

TEST(Tolerance, EachKindAgreesInsideItsBoundAndNotOutside) {
  const Tolerance rel = Tolerance::relative(0.10, "r"), abs = Tolerance::absolute(0.15, "a");
  const Tolerance fac = Tolerance::factor(2, "f"), most = Tolerance::at_most(1e-6, "m");
  EXPECT_TRUE(rel.holds(40, 44));
  EXPECT_TRUE(rel.holds(40, 36.5));
  EXPECT_FALSE(rel.holds(40, 44.5));
  EXPECT_FALSE(rel.holds(40, 35.5));
  EXPECT_TRUE(abs.holds(0.65, 0.79));
  EXPECT_FALSE(abs.holds(0.65, 0.81));
  EXPECT_TRUE(fac.holds(2820, 1410));
  EXPECT_TRUE(fac.holds(2820, 5640));
  EXPECT_FALSE(fac.holds(2820, 1400));
  EXPECT_FALSE(fac.holds(2820, 5700));
  EXPECT_FALSE(fac.holds(2820, 0));
  EXPECT_TRUE(most.holds(0.1353, 0.111));
  EXPECT_TRUE(most.holds(0.1353, 0.1353));
  EXPECT_FALSE(most.holds(0.1353, 0.136));
  for (const Tolerance& t : {rel, abs, fac, most}) {
    EXPECT_FALSE(t.holds(1, kNaN)) << t.text();
    EXPECT_FALSE(t.holds(1, std::numeric_limits<double>::infinity())) << t.text();
  }
  EXPECT_EQ(rel.text(), "+-10%");
  EXPECT_EQ(abs.text(), "+-0.15");
  EXPECT_EQ(fac.text(), "x2");
}

TEST(Comparison, RatioIsOursOverThePapersAndUndefinedAtZero) {
  EXPECT_DOUBLE_EQ(made_up("q", 40, Tolerance::relative(0.1, ""), 50).ratio(), 1.25);
  EXPECT_TRUE(std::isnan(made_up("q", 0, Tolerance::absolute(1e-12, ""), 1e-16).ratio()));
  EXPECT_TRUE(made_up("q", 0, Tolerance::absolute(1e-12, ""), 1e-16).agrees());
}

TEST(LeastAgreeing, PicksTheFirstCaseThatDisagreesElseTheFurthest) {
  const PaperValue formula{.figure = "Table I", .quantity = "C", .tolerance = Tolerance::relative(0.01, "")};
  const Comparison all_agree =
      least_agreeing(formula, {{"d = 2", 1.0, 1.001}, {"d = 3", 2.0, 1.985}, {"d = 4", 3.0, 3.0}}, "d = 2..4");
  EXPECT_EQ(all_agree.paper.quantity, "C, d = 3 (worst of d = 2..4)");
  EXPECT_DOUBLE_EQ(all_agree.paper.value, 2.0);
  EXPECT_TRUE(all_agree.agrees());
  const Comparison one_differs =
      least_agreeing(formula, {{"d = 2", 1.0, 1.001}, {"d = 3", 2.0, 2.5}, {"d = 4", 3.0, 9.0}}, "d = 2..4");
  EXPECT_EQ(one_differs.paper.quantity, "C, d = 3 (worst of d = 2..4)");
  EXPECT_FALSE(one_differs.agrees());
  EXPECT_FALSE(least_agreeing(formula, {}, "none").agrees());
}

TEST(Scoreboard, VerdictFollowsFromRatioAndTolerance) {
  const std::vector<ReproductionInfo> list = {
      fixed("made-up", {made_up("agrees", 10, Tolerance::relative(0.1, "ten percent"), 10.9),
                        made_up("differs", 10, Tolerance::relative(0.1, "ten percent"), 11.2),
                        made_up("zero", 0, Tolerance::absolute(1e-12, "exact"), 0),
                        made_up("nan", 5, Tolerance::absolute(1, "one"), kNaN)}),
      fixed("slow", {made_up("never run", 1, Tolerance::relative(0.1, ""), 1)}, "takes an hour"),
      fixed("shape-only", {})};
  const Scoreboard board = run_scoreboard(list, {.out_dir = test::temp_dir("scoreboard-fixed")});
  ASSERT_EQ(board.rows.size(), 4u);
  EXPECT_EQ(board.rows[0].paper, "Test99");
  EXPECT_EQ(board.rows[0].reproduction, "made-up");
  EXPECT_EQ(verdict(board.rows[0].comparison), "agrees");
  EXPECT_EQ(verdict(board.rows[1].comparison), "differs: docs/x.md, 'Why 10.000000'");
  EXPECT_EQ(verdict(board.rows[2].comparison), "agrees");
  EXPECT_EQ(verdict(board.rows[3].comparison), "differs: docs/x.md, 'Why 5.000000'");
  ASSERT_EQ(board.skipped.size(), 2u);
  EXPECT_EQ(board.skipped[0].name, "slow");
  EXPECT_EQ(board.skipped[0].reason, "takes an hour");
  EXPECT_EQ(board.skipped[1].name, "shape-only");
  EXPECT_EQ(board.skipped[1].reason, "ran, but reported no published number");
  ASSERT_EQ(board.seconds.size(), 2u);

  const std::string text = scoreboard_text(board);
  EXPECT_NE(text.find("differs [1]"), std::string::npos) << text;
  EXPECT_NE(text.find("[1] docs/x.md, 'Why 10.000000'"), std::string::npos) << text;
  EXPECT_NE(text.find("[2] docs/x.md, 'Why 5.000000'"), std::string::npos) << text;
  EXPECT_NE(text.find("(1) +-10%: ten percent"), std::string::npos) << text;
  EXPECT_NE(text.find("slow"), std::string::npos) << text;
  EXPECT_NE(text.find("takes an hour"), std::string::npos) << text;
  EXPECT_NE(text.find("made-up                  2 of   4 agree"), std::string::npos) << text;
  EXPECT_NE(text.find("4 published numbers, 2 agree"), std::string::npos) << text;

  const nlohmann::json j = scoreboard_json(board);
  ASSERT_EQ(j.at("rows").size(), 4u);
  for (const auto& row : j.at("rows"))
    for (const char* key : {"reproduction", "paper", "figure", "quantity", "reading", "paper_value", "ours", "ratio",
                            "tolerance", "agrees", "verdict", "explained_in"})
      EXPECT_TRUE(row.contains(key)) << key;
  EXPECT_DOUBLE_EQ(j["rows"][0]["ratio"].get<double>(), 1.09);
  EXPECT_TRUE(j["rows"][0]["agrees"].get<bool>());
  EXPECT_EQ(j["rows"][0]["tolerance"]["kind"], "relative");
  EXPECT_DOUBLE_EQ(j["rows"][0]["tolerance"]["bound"].get<double>(), 0.1);
  EXPECT_FALSE(j["rows"][1]["agrees"].get<bool>());
  EXPECT_TRUE(j["rows"][2]["ratio"].is_null());
  EXPECT_TRUE(j["rows"][3]["ours"].is_null());
  EXPECT_EQ(j["skipped"][0]["reason"], "takes an hour");
}

// The real machinery on the cheap reproductions: every row is complete, and Henrich's Table 3
// (a deterministic trace the docs show agreeing) and AG91 Fig. 2 come out as agreeing.
TEST(Scoreboard, CheapReproductionsGiveCompleteRows) {
  const auto& registry = builtin_reproductions();
  const std::vector<ReproductionInfo> list = {registry.find("henrich-table3"), registry.find("ahmad-fig2"),
                                              registry.find("ahmad-fig1")};
  const Scoreboard board = run_scoreboard(list, {.out_dir = test::temp_dir("scoreboard-cheap"), .jobs = 2});
  std::set<std::string> papers;
  for (const ScoreboardRow& r : board.rows) {
    const PaperValue& p = r.comparison.paper;
    papers.insert(r.paper);
    EXPECT_FALSE(p.figure.empty());
    EXPECT_FALSE(p.quantity.empty());
    EXPECT_FALSE(p.tolerance.reason.empty()) << p.quantity;
    EXPECT_EQ(p.explained_in.rfind("docs/reproductions/", 0), 0u) << p.explained_in;
    EXPECT_TRUE(r.comparison.agrees()) << r.reproduction << " " << p.quantity << ": paper " << p.value << ", ours "
                                       << r.comparison.ours;
  }
  EXPECT_EQ(papers, (std::set<std::string>{"Henrich", "AG91"}));
  EXPECT_EQ(board.rows.size(), 4u + 5u);  // Table 3's four numbers, Fig. 2's five
  ASSERT_EQ(board.skipped.size(), 1u);
  EXPECT_EQ(board.skipped[0].name, "ahmad-fig1");
}

// A reproduction is on the board, or says why not: a new one without either would be
// skipped with "no reason given", and this test names it.
TEST(Scoreboard, EveryBuiltinReproductionIsOnTheBoardOrSaysWhyNot) {
  for (const ReproductionInfo& r : builtin_reproductions().all()) {
    EXPECT_NE(r.name, "scoreboard");  // the command's name
    EXPECT_NE(static_cast<bool>(r.scoreboard_run), !r.scoreboard_skip.empty())
        << r.name << ": set scoreboard_run (it has published numbers and takes under a minute) or scoreboard_skip";
  }
  EXPECT_TRUE(builtin_reproductions().find("wlr93-table4").scoreboard_run);
  EXPECT_FALSE(builtin_reproductions().find("henrich-fig5-large").scoreboard_run);
}

TEST(Scoreboard, AReproductionWithNeitherIsSkippedWithoutRunning) {
  const auto must_not_run = [](const ReproductionOptions&) -> ReproductionResult {
    throw std::logic_error("the scoreboard must not run it");
  };
  const ReproductionInfo silent{.name = "silent", .description = "d", .source = "Test99 Fig. 1", .run = must_not_run};
  const Scoreboard board = run_scoreboard({silent}, {.out_dir = test::temp_dir("scoreboard-silent")});
  EXPECT_TRUE(board.rows.empty());
  ASSERT_EQ(board.skipped.size(), 1u);
  EXPECT_EQ(board.skipped[0].reason, "no reason given");
}
