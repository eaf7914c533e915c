#pragma once
// Reading a reproduction's JSON document (render.hpp): one column of one of its tables.

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

namespace dlbkit::test {

/// The cells of column `column` of table `table`, top to bottom; throws when either is missing.
inline std::vector<nlohmann::json> column_of(const nlohmann::json& document, const std::string& table,
                                             const std::string& column) {
  for (const auto& t : document.at("tables")) {
    if (t.at("name") != table) continue;
    const auto& names = t.at("columns");
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == column) {
        std::vector<nlohmann::json> cells;
        for (const auto& row : t.at("rows")) cells.push_back(row.at(i));
        return cells;
      }
    throw std::out_of_range("table " + table + " has no column " + column);
  }
  throw std::out_of_range("no table " + table);
}

}  // namespace dlbkit::test
