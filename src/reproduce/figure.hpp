#pragma once
/// \file
/// A figure a reproduction draws, as plain data: series taken from the columns of one of its
/// tables (table.hpp), the axes, log scales and the gnuplot style. render.hpp writes the
/// gnuplot script beside the table's CSV and runs it to a PNG.
///
/// ```
/// dlbkit::Figure f{.name = "wlr93-fig6", .table = "wlr93-fig6", .x = "N",
///                  .panels = {{.title = "speedup vs N", .series = {{.y = "DEM"}, {.y = "RID"}}}}, .log_x = 2};
/// ```

#include <string>
#include <vector>

namespace dlbkit {

/// One line (or one bar of each group) of a figure.
struct Series {
  std::string y;      ///< the column drawn
  std::string title;  ///< the key's entry; empty: the column's name
  std::string style = "linespoints";  ///< gnuplot's `with` for lines: "lines dt 2", "points pt 7", "steps lw 2"
  std::string error;  ///< the column of each point's error bar (the half-width); style then "yerrorlines"
  /// Only the rows whose column `where_column` holds the label `where_value` (a table of several methods).
  std::string where_column, where_value;
};

/// One plot of a figure, with its title; a figure of several panels sets them side by side.
struct Panel {
  std::string title;
  std::vector<Series> series;
};

struct Figure {
  std::string name;   ///< the stem of the PNG and of its gnuplot script
  std::string table;  ///< the name of the table it draws, which must be written as CSV
  std::string xlabel, ylabel;  ///< shared by the panels, as are the scales and the style
  std::string x;  ///< the x column; for bars, the column that labels each group
  std::string x_also;  ///< bars: a second column whose value follows x's in each group's label ("Q7 0.6")
  std::vector<Panel> panels;
  bool bars = false;          ///< clustered bars, a group per row and a bar per series, instead of lines
  int log_x = 0, log_y = 0;   ///< the log scale's base; 0: linear
  bool y_from_zero = false;   ///< the y axis starts at 0
  std::string key = "top right";  ///< where gnuplot sets the key
  int width = 800, height = 480;  ///< pixels
  bool enhanced_text = false;     ///< labels use gnuplot's ^ and _ markup
  bool slanted_x_labels = false;  ///< the x tic labels slanted, for many long group labels
};

}  // namespace dlbkit
