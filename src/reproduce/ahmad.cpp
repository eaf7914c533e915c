// AG91 reproductions: Tables II and III, Figs 1 and 2 (structure), Table IV, Figs 5, 8, 9,
// 12-17 (open queueing simulations). Apart from Figure 1 (a matrix, kept as text), the
// paper's figures survive only as captions in our copy of the text; where it gives no
// numbers we print the shape it describes.

#include <dlbkit/analysis/hadamard.hpp>
#include <dlbkit/analysis/spheres.hpp>
#include <dlbkit/workloads/builtin_workloads.hpp>
#include "reproduce/ahmad.hpp"
#include "reproduce/render.hpp"
#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/workloads/queueing_metrics.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>
#include <tuple>

namespace dlbkit {

namespace {

std::string spec_of(const std::string& network) {
  // "Q10" -> hypercube:10, "B9" -> bisectional:9, "O6" -> odd:6
  const std::string n = network.substr(1);
  if (network[0] == 'Q') return "hypercube:" + n;
  if (network[0] == 'B') return "bisectional:" + n;
  return "odd:" + n;
}

// ---- Table II -------------------------------------------------------------------------

struct Table2Paper {
  const char* network;
  int N, n, delta, C, r;
  int v[3];  // 0 where the paper prints "-"
  int sphere;
};
// AG91 Table II as printed (OCR'd; B9's v_3 reads "1" where the row has r = 2).
const Table2Paper kTable2Paper[] = {
    {"Q7", 128, 7, 4, 14, 1, {8, 0, 0}, 9},          {"Q8", 256, 8, 4, 16, 2, {8, 28, 0}, 37},
    {"Q9", 512, 9, 5, 16, 2, {9, 36, 0}, 46},        {"Q10", 1024, 10, 5, 16, 3, {10, 45, 120}, 176},
    {"B7", 64, 7, 3, 8, 1, {7, 0, 0}, 8},            {"B9", 256, 9, 4, 8, 2, {9, 36, 1}, 46},
    {"B11", 1024, 11, 5, 12, 3, {11, 55, 165}, 232}, {"O4", 35, 4, 3, 7, 1, {4, 0, 0}, 5},
    {"O6", 462, 6, 5, 11, 3, {6, 30, 75}, 112},
};

// Tables II, III and Fig. 2 are counts of a construction: ours must equal the paper's.
const Tolerance kCountExact = Tolerance::absolute(0, "a count of the construction: exact");
const std::string kStructureDoc = "docs/reproductions/ahmad.md, 'The structure: Tables II and III, Figures 1 and 2'";

// One cell of a structural table or figure beside ours.
Comparison count_cell(std::string figure, std::string quantity, double paper, double ours, std::string doc,
                      Reading reading = Reading::table_cell) {
  return {{.figure = std::move(figure), .quantity = std::move(quantity), .value = paper, .reading = reading,
           .tolerance = kCountExact, .explained_in = std::move(doc)},
          ours};
}

ReproductionResult table2(const ReproductionOptions& options) {
  const char* names[] = {"N", "n", "delta", "|C|", "r", "v_1", "v_2", "v_3", "|S_r(x)|"};
  const char* csv_names[] = {"N", "n", "delta", "C", "r", "v1", "v2", "v3", "sphere"};
  Table table{.name = "ahmad-table2",
              .title = "AG91 Table II: semi-distributed structure, the paper's value beside ours of each quantity (the "
                       "paper's 0: a '-' in its table)",
              .columns = {{.name = "network", .left = true}}};
  for (int i = 0; i < 9; ++i) {
    table.columns.push_back({.name = std::string(csv_names[i]) + "_paper", .label = "paper"});
    table.columns.push_back({.name = csv_names[i], .label = names[i]});
  }
  table.columns.push_back({.name = "differs", .left = true, .written = false});
  table.columns.push_back({.name = "scheduler pair distances (ours)", .left = true, .written = false});
  for (const char* name : {"topology", "rule", "hadamard"})
    table.columns.push_back({.name = name, .printed = false, .written = false});
  Results results;
  for (const Table2Paper& p : kTable2Paper) {
    const Topology t = parse_topology(spec_of(p.network));
    const SchedulerSet c = scheduler_set(t);
    const SphereStructure s = analyze_spheres(t, c);
    int v[3] = {0, 0, 0};
    for (std::size_t i = 1; i < s.valencies.size() && i <= 3; ++i) v[i - 1] = static_cast<int>(s.valencies[i]);
    const int ours[] = {static_cast<int>(s.nodes), s.degree, s.min_distance, static_cast<int>(c.schedulers.size()),
                        s.covering_radius, v[0], v[1], v[2], static_cast<int>(s.sphere_size)};
    const int paper[] = {p.N, p.n, p.delta, p.C, p.r, p.v[0], p.v[1], p.v[2], p.sphere};
    std::vector<Cell> row{p.network};
    std::vector<std::string> differs;
    for (int i = 0; i < 9; ++i) {
      row.emplace_back(std::int64_t{paper[i]});
      row.emplace_back(std::int64_t{ours[i]});
      if (ours[i] != paper[i]) differs.emplace_back(names[i]);
      if (paper[i] != 0)  // "-" in the paper
        results.comparisons.push_back(count_cell("Table II", fmt::format("{} {}", p.network, names[i]), paper[i], ours[i],
                                                 kStructureDoc));
    }
    std::string pairs;
    for (auto [d, count] : s.pair_distances) pairs += fmt::format("{}{} at {}", pairs.empty() ? "" : ", ", count, d);
    row.emplace_back(fmt::format("{}", fmt::join(differs, " ")));
    row.emplace_back(pairs);
    row.emplace_back(t.spec());
    row.emplace_back(c.rule);
    row.emplace_back(c.hadamard_construction);
    table.rows.push_back(std::move(row));
  }
  results.tables = {std::move(table)};
  results.notes = {"(delta: least distance between two schedulers; the paper's Q_n deltas are ceil(n/2), see "
                   "docs/reproductions/ahmad.md)"};
  return render(results, options);
}

// ---- Table III ------------------------------------------------------------------------

// AG91 Table III as printed: Q8, the spheres sharing a node at distance 0, 1, 2 from C, for
// f = 2..8. The distance-0 row counts the spheres other than the scheduler's own.
const int kTable3Paper[3][7] = {
    {0, 0, 14, 14, 14, 14, 15},
    {1, 8, 8, 15, 15, 16, 16},
    {4, 4, 12, 12, 16, 16, 16},
};

// "k" when every node of the row lies in k spheres, else "k x m, ..." (m nodes in k).
std::string sphere_counts(const SharingRow& row) {
  if (row.spheres.size() == 1) return std::to_string(row.spheres.begin()->first);
  std::string s;
  for (auto [k, nodes] : row.spheres) s += fmt::format("{}{} x {}", s.empty() ? "" : ", ", k, nodes);
  return s;
}

ReproductionResult table3(const ReproductionOptions& options) {
  const Topology q8 = parse_topology("hypercube:8");
  const SchedulerSet c = scheduler_set(q8);
  std::vector<std::vector<SharingRow>> columns;  // f = 2..8
  for (int f = 2; f <= 8; ++f) columns.push_back(sharing_distribution(q8, c, f));

  Table table{.name = "ahmad-table3",
              .title = fmt::format("AG91 Table III (Q8, {} schedulers): spheres of radius f that contain a node, by the "
                                   "node's distance from C\n(the paper's count; ours counting every sphere ('k x m': m "
                                   "nodes in k), and without the node's own sphere when it is a scheduler)",
                                   c.schedulers.size()),
              .columns = {{.name = "distance"}, {.name = "nodes"}, {.name = "f"}, {.name = "paper"},
                          {.name = "spheres"}, {.name = "spheres_without_own"}}};
  Results results{.inputs = {{"network", "Q8"}, {"ranges", {2, 3, 4, 5, 6, 7, 8}}}};
  for (std::size_t d = 0; d < 3; ++d) {
    const std::size_t nodes = columns[0][d].nodes;
    bool equal = true, equal_without_own = true;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      const SharingRow& row = columns[i][d];
      const int paper = kTable3Paper[d][i];
      const bool uniform = row.spheres.size() == 1;
      const int k = uniform ? static_cast<int>(row.spheres.begin()->first) : -1;
      // A scheduler lies in its own sphere; the other rows' nodes have no sphere of their own.
      const int others = d == 0 ? k - 1 : k;
      equal = equal && k == paper;
      equal_without_own = equal_without_own && uniform && others == paper;
      table.rows.push_back({static_cast<std::int64_t>(d), static_cast<std::int64_t>(nodes),
                            static_cast<std::int64_t>(i + 2), std::int64_t{paper}, sphere_counts(row),
                            uniform ? Cell{std::int64_t{others}} : Cell{}});
      // The paper's rows leave out the scheduler's own sphere (distance 0).
      results.comparisons.push_back(count_cell(
          "Table III", fmt::format("Q8 spheres at distance {}, f = {}", d, i + 2), paper,
          uniform ? others : std::numeric_limits<double>::quiet_NaN(), "docs/reproductions/ahmad.md, 'Table III'"));
    }
    results.notes.push_back(fmt::format("distance {}: {}", d,
                                        equal                ? "ours equal the paper's at every f"
                                        : equal_without_own ? "the paper's row = ours less the scheduler's own sphere, at every f"
                                                             : "ours differ from the paper's"));
  }
  results.tables = {std::move(table)};
  return render(results, options);
}

// ---- Figure 1 -------------------------------------------------------------------------

// AG91 Figure 1 as printed: M and M^C of order 8 in 0-1 notation, column 0 first. (The
// text's fourth M^C row carries a stray leading 0, dropped here: the row has 8 entries.)
const char* const kFigure1M[8] = {"00000000", "00010111", "00101110", "01011100",
                                  "00111001", "01110010", "01100101", "01001011"};
const char* const kFigure1MC[8] = {"11111111", "11101000", "11010001", "10100011",
                                   "11000110", "10001101", "10011010", "10110100"};

ReproductionResult fig1(const ReproductionOptions& options) {
  const HadamardMatrix h = hadamard(8);
  const std::vector<std::uint64_t> m = zero_one_rows(h), mc = complement_rows(m, 8);
  Table table{.name = "ahmad-fig1",
              .title = fmt::format("AG91 Figure 1: the order-8 Hadamard matrix M in 0-1 notation and its complement "
                                   "M^C (ours: {}, H H^T = 8 I: {})",
                                   h.construction, is_hadamard(h) ? "yes" : "NO"),
              .columns = {{.name = "row"}, {.name = "M_paper", .label = "M paper", .left = true},
                          {.name = "M", .label = "M ours", .left = true}, {.name = "MC_paper", .label = "M^C paper", .left = true},
                          {.name = "MC", .label = "M^C ours", .left = true}, {.name = "match", .left = true, .written = false}}};
  int matching = 0;
  for (std::size_t i = 0; i < 8; ++i) {
    const std::string ours = word_string(m[i], 8), ours_c = word_string(mc[i], 8);
    const bool same = ours == kFigure1M[i] && ours_c == kFigure1MC[i];
    matching += same;
    table.rows.push_back({static_cast<std::int64_t>(i + 1), kFigure1M[i], ours, kFigure1MC[i], ours_c,
                          same ? "match" : "DIFFER"});
  }
  // Sec. 4.3: "For Q8 ... each row of the matrix represents the binary address of the 16 schedulers".
  const Topology q8 = parse_topology("hypercube:8");
  std::vector<std::uint64_t> words = m, scheduler_words = scheduler_set(q8).codewords;
  words.insert(words.end(), mc.begin(), mc.end());
  std::sort(words.begin(), words.end());
  std::sort(scheduler_words.begin(), scheduler_words.end());
  const bool schedulers = words == scheduler_words;
  Results results{.inputs = {{"construction", h.construction}}, .tables = {std::move(table)}};
  results.notes = {fmt::format("{} of 8 rows match the paper's in both matrices; the rows of M and M^C are {} Q8's "
                               "scheduler set C",
                               matching, schedulers ? "exactly" : "NOT")};
  return render(results, options);
}

// ---- Figure 2 -------------------------------------------------------------------------

ReproductionResult fig2(const ReproductionOptions& options) {
  const Topology q8 = parse_topology("hypercube:8");
  const SchedulerSet c = scheduler_set(q8);
  const SphereStructure s = analyze_spheres(q8, c);
  // The scheduler 00000000 (the all-0 row of M) and the nodes of its sphere of radius r.
  const auto x = static_cast<std::uint32_t>(std::find(c.codewords.begin(), c.codewords.end(), 0) - c.codewords.begin());
  if (x == c.codewords.size()) throw std::logic_error("ahmad-fig2: 00000000 is not a scheduler of Q8");
  const NodeId centre = c.schedulers[x];
  const auto membership = sphere_membership(q8, c.schedulers, s.covering_radius);
  std::vector<std::vector<std::string>> by_distance(static_cast<std::size_t>(s.covering_radius) + 1);
  std::vector<std::map<std::size_t, std::size_t>> shared(by_distance.size());  // spheres -> nodes
  for (NodeId v = 0; v < q8.size(); ++v) {
    const auto& in = membership[v];
    if (std::find(in.begin(), in.end(), x) == in.end()) continue;
    const auto d = static_cast<std::size_t>(q8.distance(centre, v));
    by_distance[d].push_back(word_string(v, 8));
    ++shared[d][in.size()];
  }
  // AG91 Sec. 4.3 gives the figure's numbers in the text: r = 2, valencies 1, 8 and 28, 37 nodes.
  const int paper_r = 2;
  const std::size_t paper_v[] = {1, 8, 28}, paper_size = 37;
  std::size_t size = 0;
  for (const auto& nodes : by_distance) size += nodes.size();
  Table summary{.name = "ahmad-fig2-valencies",
                .title = fmt::format("AG91 Figure 2: the sphere of radius r around scheduler {} in Q8 (paper: r = {}, "
                                     "valencies {}, {}, {}, {} nodes; ours: r = {}, {} nodes)",
                                     word_string(c.codewords[x], 8), paper_r, paper_v[0], paper_v[1], paper_v[2],
                                     paper_size, s.covering_radius, size),
                .columns = {{.name = "distance"}, {.name = "valency"}, {.name = "paper"},
                            {.name = "in spheres", .left = true}, {.name = "of"}},
                .written = false};
  Table addresses{.name = "ahmad-fig2", .title = "The sphere's nodes:", .columns = {{.name = "distance"}, {.name = "address", .left = true}}};
  for (std::size_t d = 0; d < by_distance.size(); ++d) {
    auto& nodes = by_distance[d];
    std::sort(nodes.begin(), nodes.end());
    std::string in_spheres;  // "each in k" when all lie in k spheres, else "m in k, ..."
    for (auto [k, count] : shared[d])
      in_spheres += shared[d].size() == 1 ? fmt::format("each in {}", k)
                                          : fmt::format("{}{} in {}", in_spheres.empty() ? "" : ", ", count, k);
    summary.rows.push_back({static_cast<std::int64_t>(d), static_cast<std::int64_t>(nodes.size()),
                            d < 3 ? Cell{static_cast<std::int64_t>(paper_v[d])} : Cell{}, in_spheres,
                            static_cast<std::int64_t>(c.schedulers.size())});
    for (const std::string& a : nodes) addresses.rows.push_back({static_cast<std::int64_t>(d), a});
  }
  Results results{.inputs = {{"scheduler", word_string(c.codewords[x], 8)}},
                  .tables = {std::move(summary), std::move(addresses)}};
  const std::string fig2_doc = "docs/reproductions/ahmad.md, 'Figure 2'";
  results.comparisons.push_back(count_cell("Fig. 2", "Q8 covering radius r", paper_r, s.covering_radius, fig2_doc,
                                           Reading::text));
  for (std::size_t d = 0; d < 3; ++d)
    results.comparisons.push_back(count_cell("Fig. 2", fmt::format("Q8 valency v_{}", d), static_cast<double>(paper_v[d]),
                                             d < by_distance.size() ? static_cast<double>(by_distance[d].size()) : 0,
                                             fig2_doc, Reading::text));
  results.comparisons.push_back(count_cell("Fig. 2", "Q8 sphere size", static_cast<double>(paper_size),
                                           static_cast<double>(size), fig2_doc, Reading::text));
  return render(results, options);
}

// ---- queueing runs -------------------------------------------------------------------

// AG91 Sec. 6.1's thresholds: threshold-1 = 1 and threshold-2 = 2-3 at low and medium
// load; at 0.9: 3 for Q8, 5 for B9 and Q9, 6 for Q10, and threshold-1 = 2 with
// threshold-2 = 4 for B7 and Q7. O6 is not given: 5, as for the networks of its size.
std::map<std::string, std::string> semi_params(const std::string& network, double load) {
  int t1 = 1, t2 = load < 0.7 ? 2 : 3;
  if (load >= 0.85) {
    if (network == "B7" || network == "Q7") t1 = 2, t2 = 4;
    else if (network == "Q8") t2 = 3;
    else if (network == "B9" || network == "Q9" || network == "O6") t2 = 5;
    else t2 = 6;
  }
  return {{"threshold1", std::to_string(t1)}, {"threshold2", std::to_string(t2)}};
}

// A strategy as AG91's figures compare it.
struct Scheme {
  const char* label;
  const char* strategy;
};
// "semi" routes by request: the task travels once, as AG91 Sec. 5.1 counts it ("tasks are
// assumed to originate at schedulers"); "semi/task" ships it to the scheduler first.
const Scheme kColumns[] = {
    {"none", "none"}, {"semi", "semi_distributed"}, {"fully", "fully_distributed"}, {"semi/task", "semi_distributed"}};

QueueingSetup setup_for(const std::string& network, int column, double load, double rate, long long tasks) {
  QueueingSetup s{spec_of(network), kColumns[column].strategy, {}, load, rate, tasks};
  if (column == 1 || column == 3) {
    s.params = semi_params(network, load);
    s.params["routing"] = column == 1 ? "request" : "task";
  }
  return s;
}

// Tasks per run: AG91 used 20,000 to 100,000 "depending upon the size of the network".
long long tasks_for(const std::string& network) {
  const std::size_t n = parse_topology(spec_of(network)).size();
  return n >= 1000 ? 40000 : n >= 400 ? 30000 : 20000;
}

double mm1_response(double load) { return 1.0 / (1.0 - load); }

// Improvement (%) of a strategy over none in each replication (same seeds, so the same
// arrivals), with its interval.
Estimate improvement(const QueueingEstimate& none, const QueueingEstimate& other) {
  std::vector<double> v;
  for (std::size_t r = 0; r < none.responses.size(); ++r)
    v.push_back(100.0 * (none.responses[r] - other.responses[r]) / none.responses[r]);
  return confidence_95(v);
}

// ---- Table IV -------------------------------------------------------------------------

struct Table4Paper {
  const char* network;
  double semi[3], fully[3];  // loads 0.6, 0.8, 0.9
};
const Table4Paper kTable4Paper[] = {
    {"B7", {73.64, 77.80, 72.58}, {71.22, 76.22, 73.22}},  {"Q7", {73.50, 77.71, 72.52}, {71.04, 77.80, 71.94}},
    {"Q8", {73.62, 80.69, 74.42}, {69.08, 73.53, 69.22}},  {"B9", {73.55, 82.74, 75.52}, {71.05, 75.81, 70.47}},
    {"O6", {73.25, 84.54, 75.61}, {70.50, 74.40, 61.57}},  {"Q9", {73.19, 84.93, 79.16}, {71.67, 74.52, 68.10}},
    {"Q10", {72.77, 85.36, 82.04}, {71.49, 72.40, 62.57}},
};
constexpr double kTable4Loads[] = {0.6, 0.8, 0.9};
const Tolerance kImprovementTolerance = Tolerance::absolute(
    5, "percentage points: the paper's simulation gives no interval; ours is +-0.4 to 2 points (95%)");

ReproductionResult table4(const ReproductionOptions& options) {
  std::vector<QueueingSetup> setups;
  for (const auto& p : kTable4Paper)
    for (double load : kTable4Loads)
      for (int c = 0; c < 4; ++c) setups.push_back(setup_for(p.network, c, load, 20, tasks_for(p.network)));
  const auto est = run_queueing(setups, options.runs, options.jobs);

  Table table{.name = "ahmad-table4",
              .title = fmt::format("AG91 Table IV: % improvement of the mean response time over no balancing (ours: mean "
                                   "and 95% CI over {} replications; transfer rate 20, thresholds of Sec. 6.1)",
                                   options.runs),
              .columns = {{.name = "network", .left = true},
                          {.name = "load", .csv_format = "{}"},
                          {.name = "T1/T2", .written = false},
                          {.name = "semi", .format = "{:.2f}", .csv_format = "{:.3f}"},
                          {.name = "semi_ci", .label = "+-", .format = "{:.2f}", .csv_format = "{:.3f}"},
                          {.name = "semi_paper", .label = "paper", .format = "{:.2f}", .csv_format = "{}"},
                          {.name = "fully", .format = "{:.2f}", .csv_format = "{:.3f}"},
                          {.name = "fully_ci", .label = "+-", .format = "{:.2f}", .csv_format = "{:.3f}"},
                          {.name = "fully_paper", .label = "paper", .format = "{:.2f}", .csv_format = "{}"},
                          {.name = "semi_task", .label = "semi/task", .format = "{:.2f}", .csv_format = "{:.3f}"},
                          {.name = "semi_task_ci", .label = "+-", .format = "{:.2f}", .written = false},
                          {.name = "R_none", .label = "R none", .format = "{:.3f}", .csv_format = "{:.4f}"},
                          {.name = "M/M/1", .format = "{:.2f}", .written = false},
                          {.name = "R_semi", .label = "R semi", .format = "{:.3f}", .csv_format = "{:.4f}"},
                          {.name = "R_fully", .label = "R fully", .format = "{:.3f}", .csv_format = "{:.4f}"}}};
  Results results{.inputs = {{"runs", options.runs}}};
  std::size_t i = 0;
  for (const auto& p : kTable4Paper)
    for (int l = 0; l < 3; ++l) {
      const QueueingEstimate &none = est[i], &semi = est[i + 1], &fully = est[i + 2], &semi_task = est[i + 3];
      const auto params = setups[i + 1].params;
      i += 4;
      const Estimate is = improvement(none, semi), iff = improvement(none, fully), it = improvement(none, semi_task);
      const double load = kTable4Loads[l];
      table.rows.push_back({p.network, load, params.at("threshold1") + "/" + params.at("threshold2"), is.mean,
                            is.half_width, p.semi[l], iff.mean, iff.half_width, p.fully[l], it.mean, it.half_width,
                            none.response.mean, mm1_response(load), semi.response.mean, fully.response.mean});
      for (const auto& [strategy, paper, ours] : {std::tuple{"semi", p.semi[l], is.mean}, std::tuple{"fully", p.fully[l], iff.mean}})
        results.comparisons.push_back({{.figure = "Table IV",
                                        .quantity = fmt::format("improvement %, {} {}, load {}", p.network, strategy, load),
                                        .value = paper,
                                        .reading = Reading::table_cell,
                                        .tolerance = kImprovementTolerance,
                                        .explained_in = "docs/reproductions/ahmad.md, 'Table IV'"},
                                       ours});
    }
  results.tables = {std::move(table)};
  results.figures = {{.name = "ahmad-table4",
                      .table = "ahmad-table4",
                      .ylabel = "% improvement of mean response time",
                      .x = "network",
                      .x_also = "load",
                      .panels = {{.title = "AG91 Table IV: improvement over no balancing (%), transfer rate 20",
                                  .series = {{.y = "semi", .title = "semi (dlbkit)"},
                                             {.y = "semi_paper", .title = "semi (paper)"},
                                             {.y = "fully", .title = "fully (dlbkit)"},
                                             {.y = "fully_paper", .title = "fully (paper)"}}}},
                      .bars = true,
                      .y_from_zero = true,
                      .key = "top center horizontal",
                      .width = 900,
                      .height = 500,
                      .enhanced_text = true,
                      .slanted_x_labels = true}};
  results.notes = {"(semi: routing=request, the task travels once; semi/task: routing=task, the task travels to its "
                   "scheduler first. R: mean response time in units of the mean service time; M/M/1: the steady-state "
                   "response time of a node without balancing, 1/(1 - load))"};
  return render(results, options);
}

// ---- Figures: sweeps over load or transfer rate -----------------------------------------

struct SweepPlot {
  std::string name, title, xlabel, ylabel;
  std::vector<std::string> networks;
  std::vector<int> columns;  // into kColumns
  std::vector<double> xs;    // loads, or transfer rates when over_rate
  bool over_rate = false;
  double load = 0.8;  // when over_rate
  enum class Measure { response, utilisation_sd, information_messages, improvement } measure;
  std::string shape;  // what the paper says about the figure
};

double measure_of(const SweepPlot& s, const QueueingEstimate& none, const QueueingEstimate& e, double* ci) {
  Estimate v;
  switch (s.measure) {
    case SweepPlot::Measure::response: v = e.response; break;
    case SweepPlot::Measure::utilisation_sd: v = e.utilisation_sd; break;
    case SweepPlot::Measure::information_messages: v = e.information_messages; break;
    case SweepPlot::Measure::improvement: v = improvement(none, e); break;
  }
  *ci = v.half_width;
  return v.mean;
}

// Adds the sweep's table (a value and its 95% interval per network and strategy, a row per x) and figure.
void add_sweep(const SweepPlot& s, const ReproductionOptions& options, Results& results) {
  // Every point also runs none, for the improvement.
  std::vector<QueueingSetup> setups;
  for (const auto& net : s.networks)
    for (double x : s.xs)
      for (int c = 0; c < 4; ++c) {
        const bool needed = c == 0 || std::find(s.columns.begin(), s.columns.end(), c) != s.columns.end();
        if (!needed) continue;
        const double load = s.over_rate ? s.load : x, rate = s.over_rate ? x : 20.0;
        setups.push_back(setup_for(net, c, load, rate, tasks_for(net)));
      }
  const auto est = run_queueing(setups, options.runs, options.jobs);

  Table table{.name = s.name,
              .title = fmt::format("{} (ours: mean and 95% CI over {} replications)", s.title, options.runs),
              .columns = {{.name = s.over_rate ? "rate" : "load", .csv_format = "{}"}}};
  Figure figure{.name = s.name, .table = s.name, .xlabel = s.xlabel, .ylabel = s.ylabel, .x = table.columns[0].name,
                .panels = {{.title = s.title}}, .y_from_zero = true, .key = "left top", .width = 800, .height = 500,
                .enhanced_text = true};
  if (s.measure == SweepPlot::Measure::information_messages) {
    figure.log_y = 10;
    figure.y_from_zero = false;
    figure.key = "outside right";
  }
  for (const auto& net : s.networks)
    for (int c : s.columns) {
      const std::string name = fmt::format("{} {}", net, kColumns[c].label);
      table.columns.push_back({.name = name, .format = "{:.3f}", .csv_format = "{:.4f}"});
      table.columns.push_back({.name = name + " ci", .label = "+-", .format = "{:.3f}", .csv_format = "{:.4f}"});
      figure.panels[0].series.push_back({.y = name, .error = name + " ci"});
    }
  table.rows.resize(s.xs.size());
  for (std::size_t xi = 0; xi < s.xs.size(); ++xi) table.rows[xi].emplace_back(s.xs[xi]);
  std::size_t i = 0;
  for (std::size_t n = 0; n < s.networks.size(); ++n)
    for (std::size_t xi = 0; xi < s.xs.size(); ++xi) {
      const QueueingEstimate& none = est[i];
      std::size_t j = i + 1;
      for (int c : s.columns) {
        const QueueingEstimate& e = c == 0 ? none : est[j++];
        double ci = 0;
        table.rows[xi].emplace_back(measure_of(s, none, e, &ci));
        table.rows[xi].emplace_back(ci);
      }
      i = j;
    }
  results.tables.push_back(std::move(table));
  results.figures.push_back(std::move(figure));
  results.notes.push_back(fmt::format("{}: paper: {}", s.name, s.shape));
}

ReproductionResult sweep(const SweepPlot& s, const ReproductionOptions& options) {
  Results results{.inputs = {{"runs", options.runs}}};
  add_sweep(s, options, results);
  return render(results, options);
}

const std::vector<double> kLoads = {0.1, 0.3, 0.5, 0.6, 0.7, 0.8, 0.9};

SweepPlot fig5() {
  return {"ahmad-fig5", "AG91 Figs 5-7: mean response time vs load, Q10, B9, O6", "system load lambda/mu",
          "mean response time (service times)", {"Q10", "B9", "O6"}, {0, 1, 2}, kLoads, false, 0,
          SweepPlot::Measure::response,
          "semi below fully below none at every load; semi about 1.0 up to load 0.8 on Q10 (Figs 5-7 are plots only)"};
}

SweepPlot fig8() {
  return {"ahmad-fig8", "AG91 Fig 8: standard deviation of node utilisation vs load, Q10", "system load lambda/mu",
          "std. dev. of node utilisation", {"Q10"}, {0, 1, 2}, kLoads, false, 0, SweepPlot::Measure::utilisation_sd,
          "semi lowest, then fully, none highest; balancing strategies' spread falls as the load rises (plot only)"};
}

// Figs. 9-11: improvement over none vs task transfer rate, (a) at load 0.6 and (b) at 0.9,
// one CSV and figure each. The paper's reading of each panel is the `shape` line.
struct RateFigure {
  int number;
  std::vector<std::string> networks;
  std::string low_shape, high_shape;
};

const RateFigure kRateFigures[] = {
    {9, {"Q7", "Q8", "Q9", "Q10"},
     "semi above fully for all four networks even at slow transfer; fully's gain falls with the size; "
     "Q8 best and Q7 worst under semi (plot only)",
     "semi above fully at every rate; semi's gain grows with the network and with the rate, fully "
     "saturates beyond rate 20 and falls with the network's size (plot only)"},
    {10, {"B7", "B9"},
     "semi consistently better on B9; on B7 semi depends on the transfer rate (plot only)",
     "semi and fully almost identical on B7, substantially different (semi above) on B9 (plot only)"},
    {11, {"O6"},
     "semi above fully (plot only)",
     "semi above fully, and both gain more than at load 0.6 (plot only)"},
};

SweepPlot rate_panel(const RateFigure& f, bool high) {
  const std::string networks = f.networks.size() == 1 ? f.networks[0]
                                                       : f.networks.front() + "-" + f.networks.back();
  return {fmt::format("ahmad-fig{}{}", f.number, high ? 'b' : 'a'),
          fmt::format("AG91 Fig {}({}): improvement over none vs task transfer rate, load {}, {}", f.number,
                      high ? 'b' : 'a', high ? 0.9 : 0.6, networks),
          "task transfer rate (tasks per service time)", "% improvement of mean response time",
          f.networks, {1, 2}, {4, 8, 12, 16, 20, 25, 30}, true, high ? 0.9 : 0.6,
          SweepPlot::Measure::improvement, high ? f.high_shape : f.low_shape};
}

ReproductionResult rate_figure(const RateFigure& f, const ReproductionOptions& options) {
  Results results{.inputs = {{"runs", options.runs}}};
  for (const bool high : {false, true}) add_sweep(rate_panel(f, high), options, results);
  return render(results, options);
}

SweepPlot fig12_17() {
  return {"ahmad-fig12-17", "AG91 Figs 12-18: load-information messages per task vs load", "system load lambda/mu",
          "messages per task", {"B7", "Q7", "Q8", "B9", "Q9", "Q10", "O6"}, {1, 2}, {0.2, 0.5, 0.8, 0.9}, false, 0,
          SweepPlot::Measure::information_messages,
          "semi low at low load, rising with load; fully about twice semi, except O6 and Q10 where sharing costs semi "
          "more; B9 below Q8 (plots only)"};
}

// The scoreboard's reason for the figures of Sec. 6: the text states only their shape.
const char* const kPlotOnly = "no published number: the paper's Figs 5-18 are plots; the text states their shape";

ReproductionInfo sweep_info(SweepPlot (*make)(), std::string description, std::string source, int runs) {
  const SweepPlot s = make();
  return {s.name, std::move(description), std::move(source), {}, runs,
          [make](const ReproductionOptions& o) { return sweep(make(), o); }, {}, kPlotOnly};
}

}  // namespace

std::vector<QueueingEstimate> run_queueing(const std::vector<QueueingSetup>& setups, int replications, unsigned jobs) {
  std::map<std::string, std::unique_ptr<Topology>> topologies;
  for (const auto& s : setups)
    if (!topologies.count(s.topology)) topologies.emplace(s.topology, std::make_unique<Topology>(parse_topology(s.topology)));
  std::vector<StrategyChoice> strategies;
  for (const auto& s : setups) strategies.push_back(builtin_strategies().configure(s.strategy, s.params));
  const auto reps = static_cast<std::size_t>(replications);
  std::vector<std::vector<QueueingMetrics>> metrics(setups.size(), std::vector<QueueingMetrics>(reps));
  // Largest networks first, so that the long runs do not finish last on their own.
  std::vector<std::size_t> order(setups.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return topologies.at(setups[a].topology)->size() * static_cast<std::size_t>(setups[a].tasks) >
           topologies.at(setups[b].topology)->size() * static_cast<std::size_t>(setups[b].tasks);
  });
  parallel_for(setups.size() * reps, jobs, [&](std::size_t k) {
    const std::size_t i = order[k / reps], r = k % reps;
    const QueueingSetup& s = setups[i];
    CostModel cost = make_cost_model("ahmad91");
    cost.per_task = static_cast<SimTime>(std::llround(1e9 / s.transfer_rate));
    auto w = builtin_workloads()
                 .configure("poisson", {{"load", fmt::format("{}", s.load)}, {"tasks", std::to_string(s.tasks)}})
                 .create();
    QueueingObserver observer(static_cast<std::uint64_t>(s.tasks / 10));
    const SimulationResult result = simulate({.topology = topologies.at(s.topology).get(),
                                              .strategy = strategies[i],
                                              .workload = w.get(),
                                              .cost = cost,
                                              .seed = r + 1,
                                              .observers = {&observer}});
    metrics[i][r] = observer.metrics(result);
  });
  std::vector<QueueingEstimate> out(setups.size());
  for (std::size_t i = 0; i < setups.size(); ++i) {
    std::vector<double> response, in_system, little, sd, control, information;
    QueueingEstimate& e = out[i];
    for (const QueueingMetrics& m : metrics[i]) {
      response.push_back(m.mean_response);
      in_system.push_back(m.mean_in_system);
      little.push_back(m.arrival_rate * m.mean_response);
      sd.push_back(m.utilisation_sd);
      control.push_back(m.control_messages_per_task);
      // AG91 Sec. 6.5 counts load information only: the routing of routing=request is not
      // in it (its tasks "originate at schedulers").
      double routing = 0;
      for (std::size_t k = 0; k < m.message_kinds.size(); ++k)
        if (m.message_kinds[k] == "place_request" || m.message_kinds[k] == "place_at" ||
            m.message_kinds[k] == "remote_place")
          routing += m.messages_per_task[k];
      information.push_back(m.control_messages_per_task - routing);
    }
    e.responses = response;
    e.response = confidence_95(response);
    e.mean_in_system = confidence_95(in_system);
    e.little = confidence_95(little);
    e.utilisation_sd = confidence_95(sd);
    e.control_messages = confidence_95(control);
    e.information_messages = confidence_95(information);
  }
  return out;
}

std::vector<ReproductionInfo> ahmad_reproductions() {
  std::vector<ReproductionInfo> list;
  list.push_back({"ahmad-table2", "AG91 Table II: schedulers, covering radius and spheres of nine networks",
                  "AG91 Sec. 4.3, Table II", {}, 1, table2, table2});
  list.push_back({"ahmad-table3", "AG91 Table III: spheres sharing a node of Q8 by its distance from C, ranges 2..8",
                  "AG91 Sec. 4.3, Table III", {}, 1, table3, table3});
  list.push_back({"ahmad-fig1", "AG91 Fig 1: the order-8 Hadamard matrix and its complement in 0-1 notation",
                  "AG91 Sec. 4.2, Figure 1", {}, 1, fig1, {},
                  "no published number: a 0-1 matrix (ahmad-fig1 marks each row that differs)"});
  list.push_back({"ahmad-fig2", "AG91 Fig 2: the sphere of radius 2 around scheduler 00000000 in Q8",
                  "AG91 Sec. 4.3, Figure 2", {}, 1, fig2, fig2});
  list.push_back({"ahmad-table4", "AG91 Table IV: response-time improvement of semi and fully distributed balancing",
                  "AG91 Sec. 6.3, Table IV", {}, 5, table4, table4});
  list.push_back(sweep_info(fig5, "AG91 Figs 5-7: mean response time vs load on Q10, B9, O6", "AG91 Sec. 6.1", 3));
  list.push_back(sweep_info(fig8, "AG91 Fig 8: spread of node utilisation vs load on Q10", "AG91 Sec. 6.2", 3));
  for (const RateFigure& f : kRateFigures) {
    const std::string networks = fmt::format("{}", fmt::join(f.networks, ", "));
    list.push_back({fmt::format("ahmad-fig{}", f.number),
                    fmt::format("AG91 Fig {}: improvement vs task transfer rate at loads 0.6 and 0.9, {}", f.number,
                                networks),
                    "AG91 Sec. 6.4", {}, 3, [&f](const ReproductionOptions& o) { return rate_figure(f, o); }, {},
                    kPlotOnly});
  }
  list.push_back(sweep_info(fig12_17, "AG91 Figs 12-18: load-information messages per task vs load", "AG91 Sec. 6.5", 3));
  return list;
}

}  // namespace dlbkit
