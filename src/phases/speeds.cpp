#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/speeds.hpp>

#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

constexpr const char* kAcceptedSpeeds = "accepted: one speed per node, each a number > 0, comma-separated, e.g. 1,2";

}  // namespace

std::vector<double> parse_speeds(const std::string& text, const std::string& what) {
  std::vector<double> speeds;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    double s = 0;
    if (!parse_number(item, s) || !(s > 0))
      throw InputError(fmt::format("{} '{}': the speed '{}' is not accepted; {}", what, excerpt(text), excerpt(item),
                                   kAcceptedSpeeds));
    speeds.push_back(s);
    if (comma == std::string::npos) return speeds;
    start = comma + 1;
  }
}

void check_speeds(const std::vector<double>& speeds, std::size_t nodes, const std::string& what) {
  if (speeds.size() != nodes)
    throw InputError(fmt::format("{}: {} speeds for {} nodes; {}", what, speeds.size(), nodes, kAcceptedSpeeds));
  for (std::size_t v = 0; v < speeds.size(); ++v)
    if (!std::isfinite(speeds[v]) || !(speeds[v] > 0))
      throw InputError(fmt::format("{}: node {}'s speed is {}; {}", what, v, speeds[v], kAcceptedSpeeds));
}

void set_speeds(Phase& phase, const std::vector<double>& speeds, const std::string& what) {
  check_speeds(speeds, phase.nodes, what);
  phase.node_alpha.clear();
  for (const double s : speeds) phase.node_alpha.push_back(1 / s);
}

std::vector<double> node_speeds(const Phase& phase) {
  std::vector<double> speeds;
  for (const double alpha : phase.node_alpha) speeds.push_back(1 / alpha);
  return speeds;
}

std::vector<double> parse_node_speeds(const std::string& text, std::size_t nodes, const std::string& what) {
  if (!text.starts_with("cycle:")) {
    std::vector<double> speeds = parse_speeds(text, what);
    check_speeds(speeds, nodes, what);
    return speeds;
  }
  const std::vector<double> cycle = parse_speeds(text.substr(6), what);
  if (cycle.size() > nodes)
    throw InputError(fmt::format("{} '{}': a cycle of {} speeds for {} nodes; accepted: cycle:S0,...,Sk-1 with k at "
                                 "most the nodes",
                                 what, excerpt(text), cycle.size(), nodes));
  std::vector<double> speeds(nodes);
  for (std::size_t v = 0; v < nodes; ++v) speeds[v] = cycle[v % cycle.size()];
  return speeds;
}

}  // namespace dlbkit
