#pragma once
/// \file
/// The one renderer of reproductions: the text tables, the CSV files, the JSON document and
/// the gnuplot figures of any Results, so that no reproduction formats its own output.
///
/// ```
/// dlbkit::ReproductionResult report = dlbkit::render(results, options);  // writes options.out_dir/*.csv, *.png
/// std::fputs(report.text.c_str(), stdout);
/// ```

#include "reproduce/reproduction.hpp"
#include "reproduce/results.hpp"

#include <nlohmann/json.hpp>
#include <string>

namespace dlbkit {

/// The table as text: the header, then a line per row, each column as wide as its Column says.
std::string table_text(const Table& table);

/// The table as CSV: the column names, then a line per row.
std::string table_csv(const Table& table);

/// {"name", "title", "columns": [names], "rows": [[cells]]}; an empty cell or a NaN is null.
nlohmann::json table_json(const Table& table);

/// The gnuplot script that draws `figure` from `csv` (the CSV of `table`) to `png`.
std::string gnuplot_script(const Figure& figure, const Table& table, const std::string& csv, const std::string& png);

/// Creates options.out_dir, writes each written table's CSV and each figure's script and PNG
/// there, and returns the report: the text (printed tables with their titles, then the notes),
/// the JSON document ({"inputs", "tables", "notes", "comparisons"}), the files (CSV, then
/// PNG) and the comparisons. Throws when a file cannot be written or gnuplot fails.
ReproductionResult render(const Results& results, const ReproductionOptions& options);

}  // namespace dlbkit
