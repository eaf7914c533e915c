// Henrich, "The Liquid Model Load Balancing Method": Table 3, Figs. 5-7 and Theorem 3, with the
// round kernels of the Liquid model and NNA (rounds/liquid.hpp, rounds/nna.hpp) and the time to
// sharing and balancing in shifts (rounds/balance_time.hpp). The paper's figures survive only as
// captions and text in our copy, so the numbers printed beside ours are the ones its text gives.

#include "reproduce/henrich.hpp"
#include "reproduce/render.hpp"
#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/rounds/balance_time.hpp>
#include <dlbkit/rounds/initial_load.hpp>
#include <dlbkit/rounds/round_loop.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <optional>

namespace dlbkit {

namespace {

using Loads = std::vector<std::int64_t>;

constexpr std::int64_t kWorstCaseC = 5;  // Sec. 5: L_sum = c P on one processor, c = 5

// A count of shifts or iterations that the method always reaches, as a cell.
Cell count_cell(std::uint64_t x) { return static_cast<std::int64_t>(x); }

// Shifts until balanced (balancing) or until shared (!balancing).
const std::optional<std::uint64_t>& shifts_to(const BalanceResult& r, bool balancing) {
  return balancing ? r.shifts_to_balancing : r.shifts_to_sharing;
}

Loads spike(std::size_t p, std::int64_t c) {
  Loads w(p, 0);
  w[0] = c * static_cast<std::int64_t>(p);
  return w;
}

// The balancing methods compared in Sec. 5.
struct Method {
  std::string name;
  bool lm = true;
  ShiftCondition condition = ShiftCondition::c5;
  NnaTransfer transfer = NnaTransfer::net;
  NnaTime time = NnaTime::sequential;

  bool balances() const { return !lm || condition >= ShiftCondition::c3; }  // C0..C2 only share
  BalanceResult run(const Topology& t, Loads w) const {
    const BalanceOptions o{.max_shifts = std::numeric_limits<std::uint64_t>::max()};
    if (lm) return run_to_balance(LiquidKernel(t, condition), w, o);
    return run_to_balance(NnaKernel(t, transfer, time), w, o);
  }
};

Method lm(ShiftCondition c) { return {.name = "lm-" + to_string(c), .lm = true, .condition = c}; }
Method nna(NnaTransfer tr, NnaTime tm, std::string name) {
  return {.name = std::move(name), .lm = false, .transfer = tr, .time = tm};
}

std::vector<std::size_t> powers_of_two(std::size_t from, std::size_t to) {
  std::vector<std::size_t> p;
  for (std::size_t x = from; x <= to; x *= 2) p.push_back(x);
  return p;
}

// Least-squares slope of log y against log x: the growth exponent.
double loglog_slope(const std::vector<double>& x, const std::vector<double>& y) {
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  const auto n = static_cast<double>(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double lx = std::log(x[i]), ly = std::log(y[i]);
    sx += lx;
    sy += ly;
    sxx += lx * lx;
    sxy += lx * ly;
  }
  return (n * sxy - sx * sy) / (n * sxx - sx * sx);
}

// Least-squares fit y = a x + b x^2 (the paper fits "analytical functions" with linear and
// quadratic parts); returns {a, b}.
std::pair<double, double> fit_linear_quadratic(const std::vector<double>& x, const std::vector<double>& y) {
  double s2 = 0, s3 = 0, s4 = 0, t1 = 0, t2 = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    s2 += x[i] * x[i];
    s3 += x[i] * x[i] * x[i];
    s4 += x[i] * x[i] * x[i] * x[i];
    t1 += x[i] * y[i];
    t2 += x[i] * x[i] * y[i];
  }
  const double det = s2 * s4 - s3 * s3;
  return {(t1 * s4 - t2 * s3) / det, (s2 * t2 - s3 * t1) / det};
}

// ----- henrich-table3 -----

// Table 3 and the text of Sec. 5 on it: LM-C5 shares in 7 shifts and balances in 18; NNA
// balances in "18+6"; LM is "about 25%" faster.
constexpr double kPaperLmSharing = 7, kPaperLmBalancing = 18, kPaperNnaBalancing = 18 + 6, kPaperLmFaster = 25;
const std::string kTable3Doc = "docs/reproductions/henrich.md, 'Table 3: ring of 8, 16 elements on one processor'";
const Tolerance kShiftsExact = Tolerance::absolute(0, "shifts of a deterministic trace: exact");

std::int64_t spread(const Loads& w) {
  const auto [lo, hi] = std::minmax_element(w.begin(), w.end());
  return *hi - *lo;
}

}  // namespace

ReproductionResult henrich_table3(const ReproductionOptions& options) {
  const Topology ring = parse_topology("ring:8");
  Loads a = spike(8, 2), b = a;
  const BalanceResult lm5 = run_to_balance(LiquidKernel(ring, ShiftCondition::c5), a, {.record = true});
  const BalanceResult nn = run_to_balance(NnaKernel(ring), b, {.record = true});
  // The other readings of NNA (rounds/nna.hpp), for the discussion.
  std::vector<std::pair<std::string, BalanceResult>> readings;
  for (const NnaTransfer tr : {NnaTransfer::net, NnaTransfer::gross})
    for (const NnaTime tm : {NnaTime::sequential, NnaTime::simultaneous}) {
      Loads w = spike(8, 2);
      readings.emplace_back(to_string(tr) + "/" + to_string(tm), run_to_balance(NnaKernel(ring, tr, tm), w, {}));
    }

  Results results;
  results.inputs = {{"topology", "ring:8"}, {"init", "spike:16"}};
  Table trace{.name = "henrich-table3",
              .title = "Henrich Table 3: ring of 8 processors, 16 load elements on P0, LM-C5 and NNA (transfer net, "
                       "time\nsequential) until balanced (max - min <= 1). T = shifts; an NNA iteration takes several "
                       "shifts.",
              .columns = {{.name = "method", .left = true}, {.name = "shifts"}}};
  for (int i = 0; i < 8; ++i) trace.columns.push_back({.name = fmt::format("p{}", i)});
  trace.columns.push_back({.name = "max_minus_min"});
  for (const auto& [method, r] : {std::pair{"lm-c5", &lm5}, std::pair{"nna", &nn}})
    for (const BalanceSnapshot& snapshot : r->trace) {
      std::vector<Cell> row{std::string(method), count_cell(snapshot.shifts)};
      for (const std::int64_t x : snapshot.loads) row.push_back(x);
      row.push_back(spread(snapshot.loads));
      trace.rows.push_back(std::move(row));
    }
  const double faster = 1.0 - static_cast<double>(*lm5.shifts_to_balancing) / static_cast<double>(*nn.shifts_to_balancing);
  Table beside{.name = "henrich-table3-beside-paper",
               .columns = {{.name = "quantity", .label = "", .width = 34, .left = true}, {.name = "paper", .width = 8},
                           {.name = "dlbkit", .width = 10}},
               .rows = {{"LM-C5 shifts to sharing", kPaperLmSharing, count_cell(lm5.shifts_to_sharing)},
                        {"LM-C5 shifts to balancing", kPaperLmBalancing, count_cell(lm5.shifts_to_balancing)},
                        {"NNA shifts to balancing", kPaperNnaBalancing, count_cell(nn.shifts_to_balancing)},
                        {"NNA shifts of its first iteration", "> 7", count_cell(nn.trace[1].shifts)},
                        {"LM faster than NNA by (%)", kPaperLmFaster, 100 * faster}},
               .row_formats = {"{}", "{}", "{}", "{}", "{:.0f}"},
               .written = false};
  Table others{.name = "henrich-table3-nna-readings",
               .title = "NNA under the other readings of Sec. 5 (transfer/time):",
               .columns = {{.name = "reading", .left = true}, {.name = "shifts to sharing"},
                           {.name = "shifts to balancing"}, {.name = "iterations"}},
               .written = false};
  for (const auto& [name, r] : readings)
    others.rows.push_back(
        {name, count_cell(r.shifts_to_sharing), count_cell(r.shifts_to_balancing), count_cell(r.steps)});
  results.tables = {std::move(trace), std::move(beside), std::move(others)};
  results.figures = {{.name = "henrich-table3",
                      .table = "henrich-table3",
                      .xlabel = "T (shifts)",
                      .ylabel = "max - min (load elements)",
                      .x = "shifts",
                      .panels = {{.title = "Henrich Table 3: ring of 8, 16 elements on P0: max - min over T",
                                  .series = {{.y = "max_minus_min", .title = "LM-C5", .style = "steps lw 2",
                                              .where_column = "method", .where_value = "lm-c5"},
                                             {.y = "max_minus_min", .title = "NNA (net, sequential)",
                                              .style = "steps lw 2", .where_column = "method", .where_value = "nna"}}}},
                      .y_from_zero = true,
                      .width = 800,
                      .height = 440}};
  const auto shifts = [](const std::optional<std::uint64_t>& x) {
    return x ? static_cast<double>(*x) : std::numeric_limits<double>::quiet_NaN();
  };
  const auto cell = [](std::string quantity, double paper, Reading reading, const Tolerance& t, double ours) {
    return Comparison{{.figure = "Table 3", .quantity = std::move(quantity), .value = paper, .reading = reading,
                       .tolerance = t, .explained_in = kTable3Doc},
                      ours};
  };
  results.comparisons = {
      cell("LM-C5 shifts to sharing", kPaperLmSharing, Reading::table_cell, kShiftsExact, shifts(lm5.shifts_to_sharing)),
      cell("LM-C5 shifts to balancing", kPaperLmBalancing, Reading::table_cell, kShiftsExact,
           shifts(lm5.shifts_to_balancing)),
      cell("NNA shifts to balancing", kPaperNnaBalancing, Reading::text, kShiftsExact, shifts(nn.shifts_to_balancing)),
      cell("LM faster than NNA (%)", kPaperLmFaster, Reading::text,
           Tolerance::absolute(2.5, "the text says 'about 25%'"), 100 * faster)};
  return render(results, options);
}

// ----- henrich-fig5 -----

// Sec. 5 on Fig. 5: NNA needs "about 4 times longer than LM to balance and 23 times longer to
// share" within the paper's range of processor numbers (Sec. 1: up to about two thousand).
constexpr double kPaperNnaOverLmBalancing = 4, kPaperNnaOverLmSharing = 23;
constexpr std::size_t kPaperLargestP = 2048;  // where ours is set beside those factors
const std::string kFig5Doc = "docs/reproductions/henrich.md, 'Fig. 5: rings, worst case c = 5'";
const Tolerance kAboutFactor =
    Tolerance::relative(0.15, "the text says 'about': a rounded factor, no figure values in our copy");

ReproductionResult henrich_fig5(const ReproductionOptions& options, const HenrichSizes& sizes) {
  const std::vector<Method> methods = {
      nna(NnaTransfer::net, NnaTime::sequential, "nna"),
      nna(NnaTransfer::net, NnaTime::simultaneous, "nna-simultaneous"),
      nna(NnaTransfer::gross, NnaTime::sequential, "nna-gross"),
      lm(ShiftCondition::c0), lm(ShiftCondition::c1), lm(ShiftCondition::c2),
      lm(ShiftCondition::c3), lm(ShiftCondition::c4), lm(ShiftCondition::c5)};
  const auto long_run = [](const Method& m) { return m.name == "nna" || (m.lm && m.balances()); };
  const std::vector<std::size_t> ps = powers_of_two(8, std::max(sizes.fig5_max_p, sizes.fig5_long_max_p));
  struct Run {  // one method on one ring
    std::size_t p = 0;
    const Method* method = nullptr;
    BalanceResult r;
  };
  std::vector<Run> runs;
  for (const std::size_t p : ps)
    for (const Method& m : methods)
      if (p <= sizes.fig5_max_p || (long_run(m) && p <= sizes.fig5_long_max_p)) runs.push_back({p, &m, {}});
  // Largest first, so that the long runs do not end up last on one job.
  std::sort(runs.begin(), runs.end(), [](const Run& a, const Run& b) { return a.p > b.p; });
  parallel_for(runs.size(), options.jobs, [&](std::size_t i) {
    Run& c = runs[i];
    c.r = c.method->run(parse_topology("ring:" + std::to_string(c.p)), spike(c.p, kWorstCaseC));
  });
  const auto find = [&](std::size_t p, const std::string& name) -> const BalanceResult* {
    for (const Run& c : runs)
      if (c.p == p && c.method->name == name) return &c.r;
    return nullptr;
  };

  Results results;
  results.inputs = {{"topology", "ring:P"}, {"c", kWorstCaseC}, {"max_p", sizes.fig5_max_p},
                    {"long_max_p", sizes.fig5_long_max_p}};
  const std::string intro = fmt::format(
      "Henrich Fig. 5: rings of P processors, worst case: all c P elements on one processor (c = {}),\n"
      "each method until balanced (max - min <= 1) and shared (every processor >= 1). T in shifts.\n"
      "nna = net transfer, sequential time (the reading that reproduces Table 3); nna-simultaneous and\n"
      "nna-gross are the other readings (rounds/nna.hpp). nna-gross is eq. 5 read literally: it nears the\n"
      "paper's ratios 4 and 23 at small P but gives 39 shifts, not 24, in Table 3; no reading fits both.\n"
      "LM-C0..C2 only share: they stop at a fixed point before balancing (an empty cell).\n\n",
      kWorstCaseC);
  // (a) and (b): a row per P, a column per method, and the ratios of Sec. 5 ("about 4 times", "23 times") for
  // the default reading and for eq. 5 read literally.
  const auto panel = [&](const char* goal, bool balancing) {
    Table t{.name = fmt::format("henrich-fig5-{}", goal),
            .title = fmt::format("{}({}) shifts to {}", balancing ? intro : "", balancing ? 'a' : 'b', goal),
            .columns = {{.name = "P", .width = 6}},
            .written = false};
    for (const Method& m : methods)
      if (!balancing || m.balances()) t.columns.push_back({.name = m.name, .width = 17});
    t.columns.push_back({.name = "NNA/LM-C5", .format = "{:.2f}", .width = 10});
    t.columns.push_back({.name = "gross/C5", .format = "{:.2f}", .width = 10});
    for (const std::size_t p : ps) {
      std::vector<Cell> row{static_cast<std::int64_t>(p)};
      for (const Method& m : methods)
        if (!balancing || m.balances()) {
          const BalanceResult* r = find(p, m.name);
          row.push_back(r ? count_cell(shifts_to(*r, balancing)) : Cell{});
        }
      const BalanceResult* l = find(p, "lm-c5");
      for (const char* name : {"nna", "nna-gross"}) {
        const BalanceResult* n = find(p, name);
        row.push_back(n && l ? Cell{static_cast<double>(*shifts_to(*n, balancing)) /
                                    static_cast<double>(*shifts_to(*l, balancing))}
                             : Cell{});
      }
      t.rows.push_back(std::move(row));
    }
    return t;
  };

  // Growth: log-log slope and a fit T = a P + b P^2 over P >= 64.
  Table growth{.name = "henrich-fig5-growth",
               .title = "Growth over P >= 64 (T = a P + b P^2 by least squares; 'quad. share' = b P^2 / T at the\n"
                        "largest P of the method, max_p):",
               .columns = {{.name = "method", .left = true}, {.name = "time to", .left = true},
                           {.name = "slope", .format = "{:.3f}"}, {.name = "a", .format = "{:.4g}"},
                           {.name = "b", .format = "{:.4g}"}, {.name = "quad. share", .format = "{:.3f}"},
                           {.name = "max_p"}},
               .written = false};
  for (const Method& m : methods)
    for (const bool balancing : {true, false}) {
      if (balancing && !m.balances()) continue;
      std::vector<double> x, y;
      for (const std::size_t p : ps)
        if (const BalanceResult* r = find(p, m.name); r && p >= 64) {
          x.push_back(static_cast<double>(p));
          y.push_back(static_cast<double>(*shifts_to(*r, balancing)));
        }
      if (x.size() < 2) continue;
      const auto [a, b] = fit_linear_quadratic(x, y);
      const double pmax = x.back();
      growth.rows.push_back({m.name, balancing ? "balancing" : "sharing", loglog_slope(x, y), a, b,
                             b * pmax * pmax / (a * pmax + b * pmax * pmax), static_cast<std::int64_t>(pmax)});
    }

  // For the figure: one row per P, one column per method and goal, and the iterations of each method.
  Table all{.name = "henrich-fig5", .columns = {{.name = "p"}}, .printed = false, .missing = "NaN"};
  for (const char* goal : {"balancing", "sharing"})
    for (const Method& m : methods) all.columns.push_back({.name = fmt::format("{}_{}", m.name, goal)});
  for (const Method& m : methods) all.columns.push_back({.name = m.name + "_steps", .written = false});
  for (const std::size_t p : ps) {
    std::vector<Cell> row{static_cast<std::int64_t>(p)};
    for (const bool balancing : {true, false})
      for (const Method& m : methods) {
        const BalanceResult* r = find(p, m.name);
        row.push_back(r ? count_cell(shifts_to(*r, balancing)) : Cell{});
      }
    for (const Method& m : methods) {
      const BalanceResult* r = find(p, m.name);
      row.push_back(r ? count_cell(r->steps) : Cell{});
    }
    all.rows.push_back(std::move(row));
  }
  Figure figure{.name = "henrich-fig5", .table = "henrich-fig5", .xlabel = "P (ring)", .ylabel = "T (shifts)", .x = "p",
                .panels = {{.title = "Henrich Fig. 5 (a): balancing, c = 5"}, {.title = "Henrich Fig. 5 (b): sharing, c = 5"}},
                .log_x = 10, .log_y = 10, .key = "left top", .width = 1200, .height = 520};
  for (const Method& m : methods) {
    if (m.balances()) figure.panels[0].series.push_back({.y = m.name + "_balancing", .title = m.name});
    figure.panels[1].series.push_back({.y = m.name + "_sharing", .title = m.name});
  }
  results.tables = {panel("balancing", true), panel("sharing", false), std::move(growth), std::move(all)};
  results.figures = {std::move(figure)};
  results.notes = {
      fmt::format("Paper (Sec. 5): almost linear growth for every method, small quadratic components only for NNA;\n"
                  "NNA needs about {} times longer than LM to balance and {} times longer to share 'within our range of\n"
                  "processor numbers' (Sec. 1: up to about two thousand); LM shares in T = P - 1 shifts.",
                  kPaperNnaOverLmBalancing, kPaperNnaOverLmSharing)};
  // NNA / LM-C5 at the top of the paper's range, for each NNA reading run that far.
  const BalanceResult* lm5 = find(kPaperLargestP, "lm-c5");
  for (const Method& m : methods) {
    const BalanceResult* n = find(kPaperLargestP, m.name);
    if (m.lm || !n || !lm5) continue;
    for (const bool balancing : {true, false}) {
      const auto& a = shifts_to(*n, balancing);
      const auto& b = shifts_to(*lm5, balancing);
      results.comparisons.push_back(
          {{.figure = "Fig. 5",
            .quantity = fmt::format("{}/LM-C5 {}, P={}", m.name, balancing ? "balancing" : "sharing", kPaperLargestP),
            .value = balancing ? kPaperNnaOverLmBalancing : kPaperNnaOverLmSharing,
            .reading = Reading::text,
            .tolerance = kAboutFactor,
            .explained_in = kFig5Doc},
           a && b ? static_cast<double>(*a) / static_cast<double>(*b) : std::numeric_limits<double>::quiet_NaN()});
    }
  }
  return render(results, options);
}

// ----- henrich-fig6 -----

namespace {

// Continuous NNA (eq. 3 on reals, the paper's "borderline case"): iterations until
// max - min <= 1, from c P on one processor.
std::uint64_t continuous_nna_iterations(std::size_t p, double c) {
  const NnaKernel k(parse_topology("ring:" + std::to_string(p)));
  std::vector<double> w(p, 0.0);
  w[0] = c * static_cast<double>(p);
  return run_rounds(k, w,
                    {.until = {.kind = StopRule::Kind::balanced, .threshold = 1.0},
                     .max_steps = std::numeric_limits<std::uint64_t>::max()})
      .steps;
}

}  // namespace

ReproductionResult henrich_fig6(const ReproductionOptions& options, const HenrichSizes& sizes) {
  const std::vector<std::int64_t> cs = {1, 5, 25, 100};
  const std::vector<std::size_t> ps = powers_of_two(8, std::max<std::size_t>(sizes.fig6_max_p, 512));
  const std::size_t columns = cs.size() + 1;  // the integer c, then continuous with the largest c
  std::vector<std::vector<std::uint64_t>> iterations(ps.size(), std::vector<std::uint64_t>(columns));
  std::vector<std::vector<std::uint64_t>> shifts(ps.size(), std::vector<std::uint64_t>(cs.size()));
  parallel_for(ps.size() * columns, options.jobs, [&](std::size_t task) {
    const std::size_t i = ps.size() - 1 - task / columns, j = task % columns;
    if (j == cs.size()) {
      iterations[i][j] = continuous_nna_iterations(ps[i], static_cast<double>(cs.back()));
      return;
    }
    const BalanceResult r = nna(NnaTransfer::net, NnaTime::sequential, "nna")
                                .run(parse_topology("ring:" + std::to_string(ps[i])), spike(ps[i], cs[j]));
    iterations[i][j] = *r.steps_to_balancing;
    shifts[i][j] = *r.shifts_to_balancing;
  });
  const std::size_t at512 = static_cast<std::size_t>(std::find(ps.begin(), ps.end(), 512) - ps.begin());

  Results results;
  results.inputs = {{"topology", "ring:P"}, {"c", cs}, {"max_p", ps.back()}, {"transfer", "net"}};
  Table table{.name = "henrich-fig6",
              .title = "Henrich Fig. 6: NNA (net transfer) iterations to balance a ring from c P elements on one "
                       "processor,\nnormalised to 1 at P = 512, for several c; 'continuous' = continuous NNA (eq. 3 on "
                       "reals, until max - min\n<= 1) from the largest c: the paper's borderline case.",
              .columns = {{.name = "p"}}};
  const auto name_of = [&](std::size_t j) { return j < cs.size() ? fmt::format("c{}", cs[j]) : std::string("continuous"); };
  for (std::size_t j = 0; j < columns; ++j) {
    table.columns.push_back({.name = name_of(j) + "_normalised", .format = "{:.4f}"});
    table.columns.push_back({.name = name_of(j) + "_iterations"});
  }
  for (std::size_t j = 0; j < cs.size(); ++j)
    table.columns.push_back({.name = name_of(j) + "_shifts", .printed = false, .written = false});
  for (std::size_t i = 0; i < ps.size(); ++i) {
    std::vector<Cell> row{static_cast<std::int64_t>(ps[i])};
    for (std::size_t j = 0; j < columns; ++j) {
      row.push_back(static_cast<double>(iterations[i][j]) / static_cast<double>(iterations[at512][j]));
      row.push_back(count_cell(iterations[i][j]));
    }
    for (std::size_t j = 0; j < cs.size(); ++j) row.push_back(count_cell(shifts[i][j]));
    table.rows.push_back(std::move(row));
  }
  Table slopes{.name = "henrich-fig6-growth",
               .title = "Growth exponents (log-log slope over P >= 64):",
               .columns = {{.name = "iterations of", .left = true}, {.name = "slope", .format = "{:.3f}"}},
               .written = false};
  Figure figure{.name = "henrich-fig6", .table = "henrich-fig6", .xlabel = "P (ring)",
                .ylabel = "NNA iterations / iterations at P = 512", .x = "p",
                .panels = {{.title = "Henrich Fig. 6: NNA iterations to balance, normalised at P = 512"}},
                .log_x = 10, .log_y = 10, .key = "left top", .width = 900, .height = 520};
  for (std::size_t j = 0; j < columns; ++j) {
    std::vector<double> x, y;
    for (std::size_t i = 0; i < ps.size(); ++i)
      if (ps[i] >= 64) {
        x.push_back(static_cast<double>(ps[i]));
        y.push_back(static_cast<double>(iterations[i][j]));
      }
    const std::string label = j < cs.size() ? fmt::format("c = {}", cs[j]) : "continuous";
    slopes.rows.push_back({label, x.size() >= 2 ? loglog_slope(x, y) : NAN});
    figure.panels[0].series.push_back(
        {.y = name_of(j) + "_normalised", .title = j < cs.size() ? label : fmt::format("continuous, c = {}", cs.back())});
  }
  results.tables = {std::move(table), std::move(slopes)};
  results.figures = {std::move(figure)};
  results.notes = {"Paper (Sec. 5): the quadratic portion of the run time grows with the initial load c; continuous "
                   "load\nis the borderline case."};
  return render(results, options);
}

// ----- henrich-fig7 -----

ReproductionResult henrich_fig7(const ReproductionOptions& options, const HenrichSizes& sizes) {
  std::vector<int> ks;
  for (int k = 4; k <= sizes.fig7_max_k; k *= 2) ks.push_back(k);
  const std::vector<ShiftCondition> conditions = {ShiftCondition::c3, ShiftCondition::c4, ShiftCondition::c5};
  const auto runs = static_cast<std::size_t>(std::max(options.runs, 1));
  const std::size_t per_k = conditions.size() * (1 + runs);  // worst case, then random seeds 1..runs
  std::vector<BalanceResult> balance(ks.size() * per_k);
  parallel_for(balance.size(), options.jobs, [&](std::size_t task) {
    const std::size_t i = ks.size() - 1 - task / per_k, rest = task % per_k;
    const std::size_t c = rest / (1 + runs), start = rest % (1 + runs);
    const Topology t = parse_topology(fmt::format("torus:{}x{}", ks[i], ks[i]));
    const Loads w = start == 0 ? spike(t.size(), kWorstCaseC) : integer_initial_load("uniform:100", t.size(), start);
    balance[i * per_k + rest] = lm(conditions[c]).run(t, w);
  });
  const auto at = [&](std::size_t i, std::size_t c, std::size_t start) -> const BalanceResult& {
    return balance[i * per_k + c * (1 + runs) + start];
  };
  // Mean shifts to balancing from the random starts.
  const auto mean_random = [&](std::size_t i, std::size_t c) {
    double sum = 0;
    for (std::size_t s = 1; s <= runs; ++s) sum += static_cast<double>(*at(i, c, s).shifts_to_balancing);
    return sum / static_cast<double>(runs);
  };

  Results results;
  results.inputs = {{"topology", "torus:KxK"}, {"c", kWorstCaseC}, {"random", "uniform:100"}, {"runs", runs},
                    {"max_k", sizes.fig7_max_k}};
  Table table{.name = "henrich-fig7",
              .title = fmt::format("Henrich Fig. 7: LM on square 2-D tori K x K until balanced (max - min <= D = 2) "
                                   "and shared. T in\nshifts (one Definition-1 step = 2 shifts). (a) worst case: c P "
                                   "elements on one processor, c = {}\n(worst_); (b) uniform random 0..100 per "
                                   "processor, mean over seeds 1..{} (random_).",
                                   kWorstCaseC, runs),
              .columns = {{.name = "k"}, {.name = "p"}},
              .missing = "NaN"};
  for (const ShiftCondition c : conditions)
    for (const char* what : {"worst_balancing", "worst_sharing", "random_balancing"})
      table.columns.push_back({.name = fmt::format("{}_{}", to_string(c), what), .format = "{:.1f}"});
  // Every random start's shifts, for the JSON.
  Table random{.name = "henrich-fig7-random",
               .columns = {{.name = "k"}, {.name = "condition"}, {.name = "seed"}, {.name = "shifts_to_balancing"}},
               .printed = false,
               .written = false};
  for (std::size_t i = 0; i < ks.size(); ++i) {
    std::vector<Cell> row{std::int64_t{ks[i]}, std::int64_t{ks[i] * ks[i]}};
    for (std::size_t c = 0; c < conditions.size(); ++c) {
      const BalanceResult& w = at(i, c, 0);
      row.push_back(count_cell(w.shifts_to_balancing));
      row.push_back(count_cell(w.shifts_to_sharing));
      row.push_back(mean_random(i, c));
      for (std::size_t s = 1; s <= runs; ++s)
        random.rows.push_back({std::int64_t{ks[i]}, "lm-" + to_string(conditions[c]), static_cast<std::int64_t>(s),
                               count_cell(at(i, c, s).shifts_to_balancing)});
    }
    table.rows.push_back(std::move(row));
  }
  Table slopes{.name = "henrich-fig7-growth",
               .title = "Growth exponents against P (log-log slope over K >= 8):",
               .columns = {{.name = "method", .left = true}, {.name = "slope", .format = "{:.3f}"}},
               .written = false};
  for (std::size_t c = 0; c < conditions.size(); ++c)
    for (const bool worst : {true, false}) {
      std::vector<double> x, y;
      for (std::size_t i = 0; i < ks.size(); ++i)
        if (ks[i] >= 8) {
          x.push_back(static_cast<double>(ks[i] * ks[i]));
          y.push_back(worst ? static_cast<double>(*at(i, c, 0).shifts_to_balancing) : mean_random(i, c));
        }
      if (x.size() < 2) continue;
      slopes.rows.push_back({fmt::format("lm-{} {}", to_string(conditions[c]), worst ? "(a)" : "(b)"), loglog_slope(x, y)});
    }
  Figure figure{.name = "henrich-fig7", .table = "henrich-fig7", .xlabel = "P = K^2", .ylabel = "T (shifts)", .x = "p",
                .panels = {{.title = "Henrich Fig. 7 (a): worst case, c = 5"},
                           {.title = "Henrich Fig. 7 (b): uniform random 0..100"}},
                .log_x = 10, .log_y = 10, .key = "left top", .width = 1200, .height = 520};
  for (const char* goal : {"balancing", "sharing"})
    for (const ShiftCondition c : conditions)
      figure.panels[0].series.push_back({.y = fmt::format("{}_worst_{}", to_string(c), goal),
                                         .title = fmt::format("lm-{} {}", to_string(c), goal)});
  for (const ShiftCondition c : conditions)
    figure.panels[1].series.push_back({.y = fmt::format("{}_random_balancing", to_string(c)),
                                       .title = fmt::format("lm-{} balancing", to_string(c))});
  results.tables = {std::move(table), std::move(slopes), std::move(random)};
  results.figures = {std::move(figure)};
  results.notes = {"Paper (Sec. 5): in (a) C3..C5 need identical numbers of iterations to balance; both (a) and (b) "
                   "grow\nonly linearly with P."};
  return render(results, options);
}

// ----- henrich-theorem3 -----

ReproductionResult henrich_theorem3(const ReproductionOptions& options, const HenrichSizes& sizes) {
  struct Case {
    int d = 1, k = 0;
    bool worst = true;
    std::uint64_t seed = 0;
    std::int64_t l_diff = 0;
    BalanceResult r;
  };
  const auto runs = static_cast<std::uint64_t>(std::max(options.runs, 1));
  std::vector<Case> cases;
  for (int d = 1; d <= 3; ++d)
    for (int k = 4; k <= (d == 3 ? std::min(sizes.theorem3_max_k, 16) : sizes.theorem3_max_k); k *= 2) {
      cases.push_back({.d = d, .k = k, .worst = true});
      for (std::uint64_t s = 1; s <= runs; ++s) cases.push_back({.d = d, .k = k, .worst = false, .seed = s});
    }
  parallel_for(cases.size(), options.jobs, [&](std::size_t i) {
    Case& c = cases[cases.size() - 1 - i];
    std::string spec = "torus:" + std::to_string(c.k);
    for (int j = 1; j < c.d; ++j) spec += "x" + std::to_string(c.k);
    const Topology t = parse_topology(spec);
    // Theorem 3 assumes L_i > 0: the worst case with one element everywhere and c P more on one
    // processor, and uniform random loads 1..100.
    Loads w(t.size(), 1);
    if (c.worst) {
      w[0] += kWorstCaseC * static_cast<std::int64_t>(t.size());
    } else {
      w = integer_initial_load("uniform:99", t.size(), c.seed);
      for (auto& x : w) ++x;
    }
    c.l_diff = spread(w);
    c.r = lm(ShiftCondition::c5).run(t, w);
  });

  Results results;
  results.inputs = {{"condition", "c5"}, {"runs", runs}, {"max_k", sizes.theorem3_max_k}};
  Table table{.name = "henrich-theorem3",
              .title = fmt::format("Henrich Theorem 3: LM-C5 balances (max - min <= D) a D-dimensional torus K^D with "
                                   "all L_i > 0 in\nT = O(D K L_diff) shifts. Measured T against D K L_diff: worst case "
                                   "= 1 element everywhere plus\nc P = {} P on one processor; random = uniform 1..100, "
                                   "the largest ratio over seeds 1..{}.",
                                   kWorstCaseC, runs),
              .columns = {{.name = "d"}, {.name = "k"}, {.name = "p"}, {.name = "worst_l_diff"},
                          {.name = "worst_shifts"}, {.name = "worst_bound", .format = "{:.0f}"},
                          {.name = "worst_ratio", .format = "{:.4f}"}, {.name = "random_l_diff"},
                          {.name = "random_shifts"}, {.name = "random_ratio", .format = "{:.4f}"}}};
  double worst_ratio = 0;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const Case& w = cases[i];
    if (!w.worst) continue;
    const auto bound = [](const Case& c) { return static_cast<double>(c.d) * c.k * static_cast<double>(c.l_diff); };
    const double ratio = static_cast<double>(*w.r.shifts_to_balancing) / bound(w);
    const Case* random_worst = nullptr;
    double random_ratio = 0;
    for (std::size_t j = i + 1; j < cases.size() && !cases[j].worst; ++j) {
      const double x = static_cast<double>(*cases[j].r.shifts_to_balancing) / bound(cases[j]);
      if (x >= random_ratio) {
        random_ratio = x;
        random_worst = &cases[j];
      }
    }
    worst_ratio = std::max({worst_ratio, ratio, random_ratio});
    table.rows.push_back({std::int64_t{w.d}, std::int64_t{w.k}, static_cast<std::int64_t>(std::pow(w.k, w.d)), w.l_diff,
                          count_cell(w.r.shifts_to_balancing), bound(w), ratio, random_worst->l_diff,
                          count_cell(random_worst->r.shifts_to_balancing), random_ratio});
  }
  Figure figure{.name = "henrich-theorem3", .table = "henrich-theorem3", .xlabel = "K", .ylabel = "T / (D K L_diff)",
                .x = "k", .panels = {{.title = "Henrich Theorem 3: LM-C5 shifts to balance over D K L_diff"}},
                .log_x = 2, .y_from_zero = true, .key = "left top"};
  for (const char* start : {"worst", "random"})
    for (const char* d : {"1", "2", "3"})
      figure.panels[0].series.push_back(
          {.y = fmt::format("{}_ratio", start),
           .title = fmt::format("D = {}, {}", d, start == std::string("worst") ? "worst case" : "random (largest)"),
           .style = start == std::string("worst") ? "linespoints" : "linespoints dt 2",
           .where_column = "d",
           .where_value = d});
  results.tables = {std::move(table)};
  results.figures = {std::move(figure)};
  results.notes = {fmt::format("Largest T / (D K L_diff): {:.4f}. The theorem bounds the order only; a ratio that stays "
                               "bounded\n(here it falls with K and L_diff) is what it predicts.",
                               worst_ratio)};
  return render(results, options);
}

std::vector<ReproductionInfo> henrich_reproductions() {
  const std::string shape_only = "no published number: the paper's text states only the shape (Sec. 4-5)";
  return {
      {.name = "henrich-table3",
       .description = "ring of 8, 16 elements on one processor: LM-C5 and NNA step by step",
       .source = "Henrich Table 3, Sec. 5",
       .default_runs = 1,
       .run = henrich_table3,
       .scoreboard_run = henrich_table3},
      {.name = "henrich-fig5",
       .description = "rings P = 8..4096 (NNA, LM-C3..C5 on to 16384), c = 5: shifts to balancing and sharing, "
                      "NNA/LM ratios, growth",
       .source = "Henrich Fig. 5, Sec. 5",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return henrich_fig5(o, {}); },
       // The paper's factors are for its range, up to about two thousand processors.
       .scoreboard_run =
           [](const ReproductionOptions& o) {
             return henrich_fig5(o, {.fig5_max_p = kPaperLargestP, .fig5_long_max_p = kPaperLargestP});
           }},
      {.name = "henrich-fig5-large",
       .description = "Fig. 5 on to P = 65536 for NNA and LM-C3..C5 (about 7 minutes)",
       .source = "Henrich Fig. 5, Sec. 5",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return henrich_fig5(o, {.fig5_long_max_p = 65536}); },
       .scoreboard_skip = "about 7 minutes; the scoreboard runs henrich-fig5 to P = 2048, the paper's range"},
      {.name = "henrich-fig6",
       .description = "NNA iterations to balance against P for c = 1, 5, 25, 100 and continuous, normalised at P = 512",
       .source = "Henrich Fig. 6, Sec. 5",
       .default_runs = 1,
       .run = [](const ReproductionOptions& o) { return henrich_fig6(o, {}); },
       .scoreboard_skip = shape_only},
      {.name = "henrich-fig7",
       .description = "square 2-D tori K = 4..128: LM-C3..C5, worst case c = 5 and uniform random 0..100",
       .source = "Henrich Fig. 7, Sec. 5",
       .default_runs = 5,
       .run = [](const ReproductionOptions& o) { return henrich_fig7(o, {}); },
       .scoreboard_skip = shape_only},
      {.name = "henrich-theorem3",
       .description = "LM-C5 shifts to balance against D K L_diff on 1-, 2- and 3-D tori",
       .source = "Henrich Theorem 3, Sec. 4",
       .default_runs = 5,
       .run = [](const ReproductionOptions& o) { return henrich_theorem3(o, {}); },
       .scoreboard_skip = shape_only},
  };
}

}  // namespace dlbkit
