#pragma once
/// \file
/// A table a reproduction computes, as plain data: named columns, rows of cells (our values,
/// the paper's where it publishes them, labels) and how each column prints. render.hpp writes
/// every table the same way: as text, as CSV and in the JSON document.
///
/// ```
/// dlbkit::Table t{.name = "wlr93-table4-speedup",
///                 .columns = {{.name = "strategy", .left = true}, {.name = "dlbkit", .csv_format = "{:.3f}"}},
///                 .rows = {{std::string("DEM"), 1.54}}};
/// ```

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace dlbkit {

/// One cell: empty, a count, a measured or published number, or a label.
using Cell = std::variant<std::monostate, std::int64_t, double, std::string>;

/// A count as a cell; empty where the run did not reach it.
inline Cell count_cell(const std::optional<std::uint64_t>& n) {
  return n ? Cell{static_cast<std::int64_t>(*n)} : Cell{};
}

struct Column {
  std::string name;                   ///< the header in the CSV, the name in the JSON and to figures
  std::optional<std::string> label;   ///< the header in the text, for people; none: the name
  std::string format = "{:.6g}";      ///< how the text prints a number (fmt syntax)
  std::string csv_format = "{:.6g}";  ///< how the CSV writes a number
  int width = 0;        ///< text: the column's width, its gap included; 0: its widest cell, two spaces apart
  bool left = false;    ///< text: aligned left (labels) rather than right (numbers)
  bool quoted = false;  ///< CSV: labels in double quotes (gnuplot's tic labels)
  bool printed = true;  ///< in the text (a topology per size may be too wide for people)
  bool written = true;  ///< in the CSV (a relative error derived for people need not be)
};

struct Table {
  std::string name;   ///< the CSV file's stem (`name`.csv) and the table's name in the JSON and to figures
  std::string title;  ///< text: the line above the table; empty: none
  std::vector<Column> columns;
  std::vector<std::vector<Cell>> rows;
  /// Text only: row i's numbers print with row_formats[i] instead of their columns' format, for
  /// a table whose rows are quantities (Table IV: T, Pi, tasks moved); empty: the columns'.
  std::vector<std::string> row_formats;
  bool printed = true;  ///< in the text (a table of every run may be for the CSV alone)
  bool written = true;  ///< as a CSV file (a table shown only to people may not be)
  std::string missing;  ///< how the CSV writes an empty cell ("NaN": a gap in the figures' lines)
};

}  // namespace dlbkit
