#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/line_reader.hpp>
#include <dlbkit/core/number.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/initial_load.hpp>

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <fstream>

namespace dlbkit {

namespace {

constexpr const char* kAcceptedLoads = "spike, spike:AMOUNT, uniform:MAX or file:PATH";

template <class Load>
Load parse_amount(const std::string& text, const std::string& what) {
  Load x{};
  if (!parse_number(text, x) || !(x >= 0) || !std::isfinite(static_cast<double>(x)))
    throw InputError(fmt::format("{} '{}' is not accepted; accepted: a {} >= 0", what, text,
                                 std::is_integral_v<Load> ? "whole number" : "number"));
  return x;
}

template <class Load>
std::vector<Load> read_file(const std::string& path, std::size_t nodes) {
  std::ifstream in = open_input_file(path, fmt::format("initial load file {}", path), LineReader::kMaxBytes,
                                     "a text file of one load >= 0 per line");
  std::vector<Load> w;
  std::string line;
  LineReader lines(in, path);
  for (int number = 1; lines.next(line); ++number) {
    std::string body = line.substr(0, line.find('#'));
    const auto first = body.find_first_not_of(" \t\r");
    if (first == std::string::npos) continue;
    body = body.substr(first, body.find_last_not_of(" \t\r") - first + 1);
    Load x{};
    if (!parse_number(body, x) || !(x >= 0))
      throw InputError(fmt::format("initial load file {} line {}: '{}' is not accepted; accepted: one {} >= 0 per line",
                                   path, number, line, std::is_integral_v<Load> ? "whole number" : "number"));
    w.push_back(x);
  }
  if (w.size() != nodes)
    throw InputError(fmt::format("initial load file {}: {} loads for {} nodes; accepted: exactly one per node", path,
                                 w.size(), nodes));
  return w;
}

// The largest total load accepted. The engines sum squared deviations from the mean, so
// the total stays far enough from the double range (1.8e308) that those sums are finite;
// integer loads keep their 64-bit sums exact.
template <class Load>
constexpr double kMaxTotal = std::is_integral_v<Load> ? 1e18 : 1e150;

template <class Load>
std::vector<Load> checked_total(std::vector<Load> w, const std::string& spec) {
  double total = 0;
  for (const Load x : w) total += static_cast<double>(x);
  if (!(total <= kMaxTotal<Load>))
    throw InputError(fmt::format("initial load '{}' totals {:.6g}; accepted: loads totalling at most {:g}", spec, total,
                                 kMaxTotal<Load>));
  return w;
}

template <class Load>
std::vector<Load> initial_load(const std::string& spec, std::size_t nodes, std::uint64_t seed) {
  const auto colon = spec.find(':');
  const std::string kind = spec.substr(0, colon);
  const std::string value = colon == std::string::npos ? std::string() : spec.substr(colon + 1);
  if (kind == "spike") {
    std::vector<Load> w(nodes, 0);
    w[0] = colon == std::string::npos ? static_cast<Load>(nodes) : parse_amount<Load>(value, "spike amount");
    return checked_total(std::move(w), spec);
  }
  if (kind == "uniform" && colon != std::string::npos) {
    const Load max = parse_amount<Load>(value, "uniform maximum");
    Rng rng(seed);
    std::vector<Load> w(nodes);
    for (Load& x : w) {
      if constexpr (std::is_integral_v<Load>)
        x = static_cast<Load>(rng.below(static_cast<std::uint64_t>(max) + 1));
      else
        x = max * rng.uniform();
    }
    return checked_total(std::move(w), spec);
  }
  if (kind == "file" && !value.empty()) return checked_total(read_file<Load>(value, nodes), spec);
  throw InputError(fmt::format("initial load '{}' is not accepted; accepted: {}", spec, kAcceptedLoads));
}

}  // namespace

std::vector<double> continuous_initial_load(const std::string& spec, std::size_t nodes, std::uint64_t seed) {
  return initial_load<double>(spec, nodes, seed);
}

std::vector<std::int64_t> integer_initial_load(const std::string& spec, std::size_t nodes, std::uint64_t seed) {
  return initial_load<std::int64_t>(spec, nodes, seed);
}

}  // namespace dlbkit
