#pragma once
/// \file
/// What a reproduction computes, as data: its tables and figures, the notes printed under
/// them, and every number its paper publishes beside ours. One renderer (render.hpp) turns
/// any of them into the text, CSV, JSON and gnuplot figures, and the fidelity scoreboard reads
/// the same comparisons.

#include "reproduce/figure.hpp"
#include "reproduce/paper_value.hpp"
#include "reproduce/table.hpp"

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlbkit {

struct Results {
  nlohmann::json inputs = nlohmann::json::object();  ///< what the run was given: topology, seeds, cost model
  std::vector<Table> tables;                          ///< printed in this order, then their CSV files
  std::vector<Figure> figures;
  std::vector<std::string> notes;  ///< lines under the tables: definitions, the paper's words where it gives no number
  std::vector<Comparison> comparisons;  ///< each published number beside ours (the scoreboard's rows)
};

}  // namespace dlbkit
