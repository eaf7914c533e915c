#include "reproduce/paper_value.hpp"

#include <cmath>
#include <fmt/format.h>
#include <limits>

namespace dlbkit {

bool Tolerance::holds(double paper, double ours) const {
  if (!std::isfinite(ours)) return false;
  switch (kind) {
    case Kind::relative: return std::abs(ours - paper) <= bound * std::abs(paper);
    case Kind::absolute: return std::abs(ours - paper) <= bound;
    case Kind::factor: return paper > 0 && ours > 0 && ours >= paper / bound && ours <= paper * bound;
    case Kind::at_most: return ours <= paper + bound * std::abs(paper);
  }
  return false;
}

std::string Tolerance::text() const {
  switch (kind) {
    case Kind::relative: return bound >= 0.01 ? fmt::format("+-{:g}%", 100 * bound) : fmt::format("+-{:g} rel", bound);
    case Kind::absolute: return fmt::format("+-{:g}", bound);
    case Kind::factor: return fmt::format("x{:g}", bound);
    case Kind::at_most: return bound > 0 ? fmt::format("<= (+{:g})", bound) : "<=";
  }
  return "";
}

std::string to_string(Reading r) {
  switch (r) {
    case Reading::table_cell: return "table cell";
    case Reading::text: return "text";
    case Reading::formula: return "formula";
    case Reading::figure: return "read off figure";
  }
  return "";
}

double Comparison::ratio() const {
  return paper.value == 0 ? std::numeric_limits<double>::quiet_NaN() : ours / paper.value;
}

namespace {

std::string kind_name(Tolerance::Kind k) {
  switch (k) {
    case Tolerance::Kind::relative: return "relative";
    case Tolerance::Kind::absolute: return "absolute";
    case Tolerance::Kind::factor: return "factor";
    case Tolerance::Kind::at_most: return "at_most";
  }
  return "";
}

nlohmann::json finite_or_null(double x) { return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr); }

}  // namespace

nlohmann::json to_json(const Comparison& c) {
  return {{"figure", c.paper.figure},
          {"quantity", c.paper.quantity},
          {"reading", to_string(c.paper.reading)},
          {"paper_value", c.paper.value},
          {"ours", finite_or_null(c.ours)},
          {"ratio", finite_or_null(c.ratio())},
          {"tolerance", {{"kind", kind_name(c.paper.tolerance.kind)},
                         {"bound", c.paper.tolerance.bound},
                         {"text", c.paper.tolerance.text()},
                         {"reason", c.paper.tolerance.reason}}},
          {"agrees", c.agrees()},
          {"explained_in", c.paper.explained_in}};
}

Comparison least_agreeing(const PaperValue& formula, const std::vector<FormulaCase>& cases, const std::string& range) {
  const auto distance = [](const FormulaCase& c) {
    return c.paper == 0 ? std::abs(c.ours) : std::abs(c.ours - c.paper) / std::abs(c.paper);
  };
  const FormulaCase* pick = nullptr;
  for (const FormulaCase& c : cases) {
    if (!formula.tolerance.holds(c.paper, c.ours)) {
      pick = &c;
      break;
    }
    if (!pick || distance(c) > distance(*pick)) pick = &c;
  }
  if (!pick) return {formula, std::numeric_limits<double>::quiet_NaN()};
  PaperValue p = formula;
  p.quantity += fmt::format(", {} (worst of {})", pick->label, range);
  p.value = pick->paper;
  return {p, pick->ours};
}

}  // namespace dlbkit
