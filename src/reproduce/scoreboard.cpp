#include "reproduce/scoreboard.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <map>

namespace dlbkit {

namespace {

// "WLR93 Table IV" -> "WLR93": every reproduction's source starts with the paper's short name.
std::string paper_of(const ReproductionInfo& info) { return info.source.substr(0, info.source.find(' ')); }

std::string number(double x) { return std::isfinite(x) ? fmt::format("{:.4g}", x) : "-"; }

// Index (from 1) of `value` in `list`, appended when new: the footnotes of the table.
std::size_t note(std::vector<std::string>& list, const std::string& value) {
  for (std::size_t i = 0; i < list.size(); ++i)
    if (list[i] == value) return i + 1;
  list.push_back(value);
  return list.size();
}

}  // namespace

Scoreboard run_scoreboard(const std::vector<ReproductionInfo>& reproductions, const ScoreboardOptions& options) {
  Scoreboard board;
  const auto start = std::chrono::steady_clock::now();
  for (const ReproductionInfo& info : reproductions) {
    if (!info.scoreboard_run) {
      board.skipped.push_back({info.name, info.scoreboard_skip.empty() ? "no reason given" : info.scoreboard_skip});
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    const ReproductionResult report =
        info.scoreboard_run({.out_dir = options.out_dir + "/" + info.name, .runs = info.default_runs, .jobs = options.jobs});
    board.seconds.emplace_back(info.name, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    if (report.comparisons.empty())
      board.skipped.push_back({info.name, "ran, but reported no published number"});
    for (const Comparison& c : report.comparisons) board.rows.push_back({info.name, paper_of(info), c});
  }
  board.total_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return board;
}

std::string verdict(const Comparison& c) {
  return c.agrees() ? "agrees" : "differs: " + c.paper.explained_in;
}

std::string scoreboard_text(const Scoreboard& board) {
  std::vector<std::string> docs, reasons;
  std::map<std::string, std::pair<int, int>> agree_of;  // reproduction -> (agrees, rows)
  std::vector<std::vector<std::string>> cells{
      {"paper", "figure", "quantity", "reading", "paper's", "ours", "ratio", "tolerance", "verdict"}};
  for (const ScoreboardRow& r : board.rows) {
    const Comparison& c = r.comparison;
    const Tolerance& t = c.paper.tolerance;
    const std::size_t why = note(reasons, t.text() + ": " + t.reason);
    cells.push_back({r.paper, c.paper.figure, c.paper.quantity, to_string(c.paper.reading), number(c.paper.value),
                     number(c.ours), std::isfinite(c.ratio()) ? fmt::format("{:.3f}", c.ratio()) : "-",
                     fmt::format("{} ({})", t.text(), why),
                     c.agrees() ? "agrees" : fmt::format("differs [{}]", note(docs, c.paper.explained_in))});
    auto& [agrees, rows] = agree_of[r.reproduction];
    agrees += c.agrees();
    ++rows;
  }
  // Text columns left-aligned, numbers (paper, ours, ratio) right-aligned, each as wide as its widest cell.
  std::vector<std::size_t> width(cells[0].size(), 0);
  for (const auto& row : cells)
    for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  std::string out;
  for (const auto& row : cells) {
    std::string line;
    for (std::size_t i = 0; i < row.size(); ++i) {
      const bool number_column = i >= 4 && i <= 6;
      line += number_column ? fmt::format("{:>{}}  ", row[i], width[i]) : fmt::format("{:<{}}  ", row[i], width[i]);
    }
    out += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
  }
  out += "\nWhy each tolerance:\n";
  for (std::size_t i = 0; i < reasons.size(); ++i) out += fmt::format("  ({}) {}\n", i + 1, reasons[i]);
  out += "\nWhere each difference is explained:\n";
  for (std::size_t i = 0; i < docs.size(); ++i) out += fmt::format("  [{}] {}\n", i + 1, docs[i]);
  out += "\nPer reproduction:\n";
  for (const auto& [name, seconds] : board.seconds) {
    const auto it = agree_of.find(name);
    if (it == agree_of.end()) continue;
    out += fmt::format("  {:<22} {:>3} of {:>3} agree  ({:.1f} s)\n", name, it->second.first, it->second.second, seconds);
  }
  out += "\nNot on the board:\n";
  for (const SkippedReproduction& s : board.skipped) out += fmt::format("  {:<26} {}\n", s.name, s.reason);
  out += fmt::format("\n{} published numbers, {} agree; scoreboard took {:.1f} s\n", board.rows.size(),
                     std::count_if(board.rows.begin(), board.rows.end(),
                                   [](const ScoreboardRow& r) { return r.comparison.agrees(); }),
                     board.total_seconds);
  return out;
}

nlohmann::json scoreboard_json(const Scoreboard& board) {
  nlohmann::json rows = nlohmann::json::array(), skipped = nlohmann::json::array(), seconds = nlohmann::json::object();
  for (const ScoreboardRow& r : board.rows) {
    nlohmann::json row = to_json(r.comparison);
    row["reproduction"] = r.reproduction;
    row["paper"] = r.paper;
    row["verdict"] = verdict(r.comparison);
    rows.push_back(std::move(row));
  }
  for (const SkippedReproduction& s : board.skipped) skipped.push_back({{"name", s.name}, {"reason", s.reason}});
  for (const auto& [name, s] : board.seconds) seconds[name] = s;
  return {{"rows", rows}, {"skipped", skipped}, {"seconds", seconds}, {"total_seconds", board.total_seconds}};
}

}  // namespace dlbkit
