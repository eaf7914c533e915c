// docs/strategies.md documents each strategy's parameters in tables that say more than the
// registry (where a default comes from in the paper, longer meanings): they are written by
// hand, and this test keeps their names and defaults those of the registry.

#include <dlbkit/strategies/builtin_strategies.hpp>

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace dlbkit;

namespace {

// The cells of a table row "| a | `b` | c |", backticks dropped.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (char c : row.substr(1)) {
    if (c == '|') {
      const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      out.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
      cell.clear();
    } else if (c != '`') {
      cell += c;
    }
  }
  return out;
}

// strategy -> parameter -> the default as the docs write it, from every "| parameter | default
// |" table and every "| strategy | parameter | default |" table ("both": every strategy of the
// section, the ones its heading names).
std::map<std::string, std::map<std::string, std::string>> documented_parameters() {
  std::ifstream in(DLBKIT_TEST_DATA "/../../docs/strategies.md");
  std::map<std::string, std::map<std::string, std::string>> out;
  std::vector<std::string> section;  // strategies of the current section
  int strategy_column = -1, parameter_column = -1;
  for (std::string line; std::getline(in, line);) {
    if (line.starts_with("## ")) {
      section.clear();
      for (const StrategyInfo& info : builtin_strategies().all())
        if (line.find("`" + info.name + "`") != std::string::npos) section.push_back(info.name);
    }
    if (!line.starts_with("|")) {
      parameter_column = -1;
      continue;
    }
    const std::vector<std::string> row = cells(line);
    if (parameter_column < 0) {  // a table's header
      strategy_column = row.size() > 2 && row[0] == "strategy" && row[1] == "parameter" ? 0 : -1;
      parameter_column = row[0] == "parameter" ? 0 : strategy_column == 0 ? 1 : -2;
      if (parameter_column >= 0 && row[parameter_column + 1] != "default") parameter_column = -2;
      continue;
    }
    if (parameter_column < 0 || line.starts_with("|---")) continue;
    const std::string& name = row[parameter_column];
    if (name.empty()) continue;  // a note on the strategy, not a parameter
    const std::string default_value = row[parameter_column + 1].substr(0, row[parameter_column + 1].find(' '));
    if (strategy_column < 0 || row[strategy_column] == "both")
      for (const std::string& s : section) out[s][name] = default_value;
    else
      out[row[strategy_column]][name] = default_value;
  }
  return out;
}

TEST(StrategyDocs, ParameterTablesNameEveryParameterWithItsDefault) {
  const auto documented = documented_parameters();
  ASSERT_FALSE(documented.empty()) << "docs/strategies.md not found or without parameter tables";
  for (const StrategyInfo& info : builtin_strategies().all()) {
    SCOPED_TRACE(info.name);
    std::map<std::string, std::string> registry;
    for (const ParamSpec& spec : info.params) registry[spec.name] = spec.default_value;
    const auto it = documented.find(info.name);
    const std::map<std::string, std::string> docs = it == documented.end() ? decltype(registry){} : it->second;
    EXPECT_EQ(docs, registry);
  }
}

}  // namespace
