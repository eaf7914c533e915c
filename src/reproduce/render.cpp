#include "reproduce/render.hpp"
#include <dlbkit/io/gnuplot.hpp>

#include <dlbkit/io/plot_files.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>

namespace dlbkit {

namespace {

// A number's cell as `format` prints it; the other cells as they are.
std::string cell_text(const Cell& cell, const std::string& format) {
  if (const auto* x = std::get_if<double>(&cell)) return fmt::format(fmt::runtime(format), *x);
  if (const auto* n = std::get_if<std::int64_t>(&cell)) return std::to_string(*n);
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

// The number gnuplot gives the column `name` in the table's CSV (from 1).
std::size_t csv_column(const Table& table, const std::string& name) {
  std::size_t number = 0;
  for (const Column& c : table.columns) {
    number += c.written ? 1 : 0;
    if (c.name == name && c.written) return number;
  }
  throw std::logic_error(fmt::format("table {} writes no column '{}'", table.name, name));
}

const Table& table_named(const Results& results, const std::string& name) {
  for (const Table& t : results.tables)
    if (t.name == name) return t;
  throw std::logic_error(fmt::format("no table '{}' to draw", name));
}

std::string path_in(const ReproductionOptions& options, const std::string& file) {
  return options.out_dir + "/" + file;
}

}  // namespace

std::string table_text(const Table& table) {
  std::vector<std::size_t> shown;  // the printed columns
  for (std::size_t i = 0; i < table.columns.size(); ++i)
    if (table.columns[i].printed) shown.push_back(i);
  std::vector<std::vector<std::string>> lines{{}};
  for (const std::size_t i : shown)
    lines[0].push_back(table.columns[i].label.value_or(table.columns[i].name));
  for (std::size_t r = 0; r < table.rows.size(); ++r) {
    std::vector<std::string>& line = lines.emplace_back();
    for (const std::size_t i : shown)
      line.push_back(cell_text(table.rows[r].at(i), r < table.row_formats.size() ? table.row_formats[r]
                                                                                 : table.columns[i].format));
  }
  // A fitted column is as wide as its widest cell, two spaces after the one before it.
  std::vector<std::size_t> width(shown.size());
  for (std::size_t k = 0; k < shown.size(); ++k) {
    width[k] = static_cast<std::size_t>(table.columns[shown[k]].width);
    if (width[k] == 0)
      for (const auto& line : lines) width[k] = std::max(width[k], line[k].size());
  }
  std::string out;
  for (const auto& line : lines) {
    std::string text;
    for (std::size_t k = 0; k < line.size(); ++k) {
      const Column& c = table.columns[shown[k]];
      if (c.width == 0 && k > 0) text += "  ";
      text += c.left ? fmt::format("{:<{}}", line[k], width[k]) : fmt::format("{:>{}}", line[k], width[k]);
    }
    out += text.substr(0, text.find_last_not_of(' ') + 1) + "\n";
  }
  return out;
}

std::string table_csv(const Table& table) {
  std::vector<std::string> names;
  for (const Column& c : table.columns)
    if (c.written) names.push_back(c.name);
  std::string out = fmt::format("{}\n", fmt::join(names, ","));
  for (const auto& row : table.rows) {
    std::vector<std::string> cells;
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      const Column& c = table.columns[i];
      if (!c.written) continue;
      const std::string text =
          std::holds_alternative<std::monostate>(row.at(i)) ? table.missing : cell_text(row[i], c.csv_format);
      cells.push_back(c.quoted && std::holds_alternative<std::string>(row[i]) ? '"' + text + '"' : text);
    }
    out += fmt::format("{}\n", fmt::join(cells, ","));
  }
  return out;
}

nlohmann::json table_json(const Table& table) {
  nlohmann::json columns = nlohmann::json::array(), rows = nlohmann::json::array();
  for (const Column& c : table.columns) columns.push_back(c.name);
  for (const auto& row : table.rows) {
    nlohmann::json cells = nlohmann::json::array();
    for (const Cell& cell : row) {
      if (const auto* x = std::get_if<double>(&cell))
        cells.push_back(std::isfinite(*x) ? nlohmann::json(*x) : nlohmann::json(nullptr));
      else if (const auto* n = std::get_if<std::int64_t>(&cell))
        cells.push_back(*n);
      else if (const auto* s = std::get_if<std::string>(&cell))
        cells.push_back(*s);
      else
        cells.push_back(nullptr);
    }
    rows.push_back(std::move(cells));
  }
  return {{"name", table.name}, {"title", table.title}, {"columns", columns}, {"rows", rows}};
}

std::string gnuplot_script(const Figure& figure, const Table& table, const std::string& csv, const std::string& png) {
  std::string script = gnuplot_png_header(png, figure.width, figure.height, figure.enhanced_text);
  // The CSV's first line names the columns: gnuplot reads it as such, and each series has its own title.
  script += fmt::format("set key {} autotitle columnhead\nset xlabel {}\nset ylabel {}\n", figure.key,
                        gnuplot_string(figure.xlabel), gnuplot_string(figure.ylabel));
  if (!table.missing.empty()) script += fmt::format("set datafile missing {}\n", gnuplot_string(table.missing));
  if (figure.log_x > 0) script += fmt::format("set logscale x {}\n", figure.log_x);
  if (figure.log_y > 0) script += fmt::format("set logscale y {}\n", figure.log_y);
  if (figure.y_from_zero) script += "set yrange [0:*]\n";
  if (figure.slanted_x_labels) script += "set xtics rotate by -40\n";
  if (figure.bars)
    script += "set style data histograms\nset style histogram clustered gap 1\nset style fill solid 0.8\n";
  if (figure.panels.size() > 1) script += fmt::format("set multiplot layout 1,{}\n", figure.panels.size());
  const std::size_t x = csv_column(table, figure.x);
  const std::string tics = figure.x_also.empty()
                               ? fmt::format("{}", x)
                               : fmt::format("stringcolumn({}).' '.stringcolumn({})", x, csv_column(table, figure.x_also));
  for (const Panel& panel : figure.panels) {
    std::vector<std::string> plots;
    for (const Series& s : panel.series) {
      const std::size_t y = csv_column(table, s.y);
      std::string x_expr = fmt::format("{}", x);
      if (!s.where_column.empty())
        x_expr = fmt::format("(strcol({}) eq {} ? ${} : NaN)", csv_column(table, s.where_column),
                             gnuplot_string(s.where_value), x);
      const std::string source = plots.empty() ? gnuplot_string(csv) : "''";
      const std::string title = gnuplot_string(s.title.empty() ? s.y : s.title);
      if (figure.bars) {
        plots.push_back(fmt::format("{} using {}{} title {}", source, y, plots.empty() ? ":xtic(" + tics + ")" : "", title));
      } else if (!s.error.empty()) {
        plots.push_back(fmt::format("{} using {}:{}:{} with {} title {}", source, x_expr, y, csv_column(table, s.error),
                                    s.style == Series{}.style ? "yerrorlines" : s.style, title));
      } else {
        plots.push_back(fmt::format("{} using {}:{} with {} title {}", source, x_expr, y, s.style, title));
      }
    }
    script += fmt::format("set title {}\nplot {}\n", gnuplot_string(panel.title), fmt::join(plots, ", "));
  }
  if (figure.panels.size() > 1) script += "unset multiplot\n";
  return script;
}

ReproductionResult render(const Results& results, const ReproductionOptions& options) {
  std::error_code ec;
  std::filesystem::create_directories(options.out_dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create directory {}: {}", options.out_dir, ec.message()));
  ReproductionResult report;
  PlotFiles files;  // every file takes its name at the end, or none does
  nlohmann::json tables = nlohmann::json::array();
  for (const Table& t : results.tables) {
    if (t.printed) {
      if (!report.text.empty()) report.text += "\n";
      if (!t.title.empty()) report.text += t.title + "\n\n";
      report.text += table_text(t);
    }
    if (t.written) {
      report.files.push_back(path_in(options, t.name + ".csv"));
      files.add_text(report.files.back(), table_csv(t));
    }
    tables.push_back(table_json(t));
  }
  if (!results.notes.empty()) report.text += "\n";
  for (const std::string& note : results.notes) report.text += note + "\n";
  for (const Figure& f : results.figures) {
    const Table& table = table_named(results, f.table);
    if (!table.written) throw std::logic_error(fmt::format("figure {} draws table {}, which has no CSV", f.name, f.table));
    const std::string png = path_in(options, f.name + ".png");
    const std::string csv = path_in(options, table.name + ".csv");
    files.draw(path_in(options, f.name + ".gp"), png,
               [&](const PlotFiles::Names& name) { return gnuplot_script(f, table, name(csv), name(png)); });
    report.files.push_back(png);
  }
  files.commit();
  nlohmann::json comparisons = nlohmann::json::array();
  for (const Comparison& c : results.comparisons) comparisons.push_back(to_json(c));
  report.data = {{"inputs", results.inputs}, {"tables", tables}, {"notes", results.notes}, {"comparisons", comparisons}};
  report.comparisons = results.comparisons;
  return report;
}

}  // namespace dlbkit
