#pragma once
/// \file
/// One number a paper publishes, kept by the reproduction that reproduces it: what it is,
/// how closely ours must come to agree and why, and which doc section explains a difference.
/// A reproduction pairs each with the value its own code computed (a Comparison); the
/// fidelity scoreboard (scoreboard.hpp) collects them.
///
/// ```
/// const dlbkit::PaperValue t{.figure = "Table IV", .quantity = "T (s), DEM", .value = 43.7,
///                            .reading = dlbkit::Reading::table_cell,
///                            .tolerance = dlbkit::Tolerance::relative(0.10, "the target for T"),
///                            .explained_in = "docs/reproductions/wlr93.md, 'Table IV: ...'"};
/// bool ok = t.tolerance.holds(t.value, 44.0);  // true
/// ```

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace dlbkit {

/// How closely ours must match the paper's number to agree, and why that much.
struct Tolerance {
  enum class Kind {
    relative,  ///< |ours - paper| <= bound |paper|
    absolute,  ///< |ours - paper| <= bound
    factor,    ///< paper / bound <= ours <= paper x bound (both positive)
    at_most,   ///< the paper states an upper bound: ours <= paper (1 + bound), bound for rounding
  };
  Kind kind = Kind::relative;
  double bound = 0;
  std::string reason;  ///< short: e.g. "read off a figure", "exact closed form"

  static Tolerance relative(double bound, std::string reason) { return {Kind::relative, bound, std::move(reason)}; }
  static Tolerance absolute(double bound, std::string reason) { return {Kind::absolute, bound, std::move(reason)}; }
  static Tolerance factor(double bound, std::string reason) { return {Kind::factor, bound, std::move(reason)}; }
  static Tolerance at_most(double bound, std::string reason) { return {Kind::at_most, bound, std::move(reason)}; }

  /// Whether ours agrees with the paper's value; never for a NaN or infinite ours.
  bool holds(double paper, double ours) const;
  /// "+-10%", "+-0.15", "x2", "<= (+1e-06)"
  std::string text() const;
};

/// Where a paper's number comes from.
enum class Reading {
  table_cell,  ///< a cell of a published table
  text,        ///< stated in the paper's text
  formula,     ///< a closed form the paper gives, evaluated at our case
  figure,      ///< read off a figure (by the docs)
};
std::string to_string(Reading r);

/// One published number of a paper, as the reproduction keeps it.
struct PaperValue {
  std::string figure;    ///< "Table IV", "Fig. 5", "Sec. 3"
  std::string quantity;  ///< what the number is, with its case: "T (s), DEM"
  double value = 0;
  Reading reading = Reading::table_cell;
  Tolerance tolerance;
  std::string explained_in;  ///< the doc file and section title that discuss a difference
};

/// A published number beside the value the reproduction's code computed for it.
struct Comparison {
  PaperValue paper;
  double ours = 0;

  /// ours / paper; NaN when the paper's value is 0.
  double ratio() const;
  bool agrees() const { return paper.tolerance.holds(paper.value, ours); }
};

/// {figure, quantity, reading, paper_value, ours, ratio, tolerance: {kind, bound, text, reason},
/// agrees, explained_in}; a NaN or infinite ours or ratio is null.
nlohmann::json to_json(const Comparison& c);

/// One case of a closed form the paper gives for a whole range (e.g. every dimension d).
struct FormulaCase {
  std::string label;  ///< "d = 7"
  double paper = 0;   ///< the formula at this case
  double ours = 0;
};

/// One row for such a formula: the case where ours agrees least (the first that disagrees,
/// else the one furthest from the formula), named in the quantity as "worst of" the range.
Comparison least_agreeing(const PaperValue& formula, const std::vector<FormulaCase>& cases, const std::string& range);

}  // namespace dlbkit
