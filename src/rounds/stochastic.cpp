#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/stochastic.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numbers>
#include <tuple>
#include <utility>

namespace dlbkit {

namespace {

constexpr const char* kAcceptedDistributions =
    "normal:MU:SIGMA (SIGMA >= 0), uniform:LO:HI (LO <= HI) or exponential:MEAN (MEAN > 0)";

// Batches for the standard error of the time average; fewer samples than two per batch
// give no error estimate.
constexpr std::uint64_t kBatches = 32;

double parse_field(const std::string& spec, const std::string& field, const char* name) {
  double x = 0;
  if (!parse_number(field, x))
    throw InputError(fmt::format("arrival spec '{}': {} '{}' is not a finite number; accepted: {}", spec, name, field,
                                 kAcceptedDistributions));
  return x;
}

std::vector<std::string> split(const std::string& spec) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (std::size_t colon; (colon = spec.find(':', start)) != std::string::npos; start = colon + 1)
    parts.push_back(spec.substr(start, colon - start));
  parts.push_back(spec.substr(start));
  return parts;
}

// ||w - w_bar||^2 and the mean of w.
std::pair<double, double> deviation(const std::vector<double>& w) {
  double total = 0;
  for (const double x : w) total += x;
  const double mean = total / static_cast<double>(w.size());
  double squares = 0;
  for (const double x : w) squares += (x - mean) * (x - mean);
  return {squares, mean};
}

}  // namespace

ArrivalDistribution ArrivalDistribution::parse(const std::string& spec) {
  const std::vector<std::string> p = split(spec);
  const auto need = [&](std::size_t fields) {
    if (p.size() != fields)
      throw InputError(fmt::format("arrival spec '{}' has {} value(s) after '{}:', {} expected; accepted: {}", spec,
                                   p.size() - 1, p[0], fields - 1, kAcceptedDistributions));
  };
  ArrivalDistribution d;
  if (p[0] == "normal") {
    need(3);
    d = {Kind::normal, parse_field(spec, p[1], "MU"), parse_field(spec, p[2], "SIGMA")};
    if (d.b < 0)
      throw InputError(
          fmt::format("arrival spec '{}': SIGMA {} is negative; accepted: {}", spec, p[2], kAcceptedDistributions));
  } else if (p[0] == "uniform") {
    need(3);
    d = {Kind::uniform, parse_field(spec, p[1], "LO"), parse_field(spec, p[2], "HI")};
    if (d.a > d.b)
      throw InputError(fmt::format("arrival spec '{}': LO {} is above HI {}; accepted: {}", spec, p[1], p[2],
                                   kAcceptedDistributions));
  } else if (p[0] == "exponential") {
    need(2);
    d = {Kind::exponential, parse_field(spec, p[1], "MEAN"), 0};
    if (!(d.a > 0))
      throw InputError(
          fmt::format("arrival spec '{}': MEAN {} is not positive; accepted: {}", spec, p[1], kAcceptedDistributions));
  } else {
    throw InputError(fmt::format("arrival spec '{}' is not accepted; accepted: {}", spec, kAcceptedDistributions));
  }
  // sigma^2 and the loads are doubles: a spread whose square overflows would print inf.
  if (!std::isfinite(d.variance()) || !std::isfinite(d.mean()))
    throw InputError(fmt::format("arrival spec '{}': its variance overflows a double; accepted: {}, with values "
                                 "and spread of magnitude below 1e150",
                                 spec, kAcceptedDistributions));
  return d;
}

std::string ArrivalDistribution::to_string() const {
  switch (kind) {
    case Kind::normal: return fmt::format("normal:{}:{}", a, b);
    case Kind::uniform: return fmt::format("uniform:{}:{}", a, b);
    case Kind::exponential: return fmt::format("exponential:{}", a);
  }
  return {};
}

double ArrivalDistribution::mean() const { return kind == Kind::uniform ? (a + b) / 2 : a; }

double ArrivalDistribution::variance() const {
  switch (kind) {
    case Kind::normal: return b * b;
    case Kind::uniform: return (b - a) * (b - a) / 12;
    case Kind::exponential: return a * a;
  }
  return 0;
}

double ArrivalDistribution::draw(Rng& rng) const {
  switch (kind) {
    case Kind::normal: {
      // Box-Muller; the second variate of the pair is not used.
      const double r = std::sqrt(-2 * std::log(rng.uniform_open()));
      return a + b * r * std::cos(2 * std::numbers::pi * rng.uniform());
    }
    case Kind::uniform: return a == b ? a : rng.uniform(a, b);
    case Kind::exponential: return rng.exponential(1 / a);
  }
  return 0;
}

StochasticResult run_stochastic(const RoundKernel& kernel, std::vector<double>& load, const StochasticOptions& o,
                                std::uint64_t seed) {
  const std::size_t n = load.size();
  if (n != kernel.size() || n == 0)
    throw InputError(fmt::format("the load vector has {} entries for a kernel on {} nodes", n, kernel.size()));
  if (o.warmup >= o.periods)
    throw InputError(fmt::format("warm-up of {} periods leaves nothing to measure in a run of {}; accepted: warm-up "
                                 "below the number of periods",
                                 o.warmup, o.periods));
  if (o.steps_per_period == 0) throw InputError("steps per period 0 is not accepted; accepted: 1 or more");
  if (!(o.work >= 0) || !std::isfinite(o.work))
    throw InputError(fmt::format("work per period {} is not accepted; accepted: a finite number >= 0", o.work));

  StochasticResult r;
  Rng rng(seed);
  std::vector<double> spare(n);
  const auto start = std::chrono::steady_clock::now();
  auto [squares, mean] = deviation(load);
  r.expected_mean_load = mean + static_cast<double>(o.periods) * (o.arrivals.mean() - o.work);
  if (o.trace) r.trace.push_back(squares);

  const std::uint64_t samples = o.periods - o.warmup;
  const std::uint64_t batch = samples / kBatches;
  std::vector<double> batch_sums(batch >= 2 ? kBatches : 0, 0.0);
  double sum = 0;
  for (std::uint64_t t = 0; t < o.periods; ++t) {
    // eq. (12)/(17): s balancing steps, then c units completed and eta(t+1) arrives.
    for (std::uint64_t k = 0; k < o.steps_per_period; ++k, ++r.kernel_steps) {
      kernel.update(r.kernel_steps, load, spare, 0, static_cast<NodeId>(n));
      load.swap(spare);
    }
    for (double& x : load) x += o.arrivals.draw(rng) - o.work;
    std::tie(squares, mean) = deviation(load);
    if (o.trace) r.trace.push_back(squares);
    if (t < o.warmup) continue;
    sum += squares;
    const std::uint64_t index = (t - o.warmup) / std::max<std::uint64_t>(batch, 1);
    if (index < batch_sums.size()) batch_sums[index] += squares;
  }
  r.periods = o.periods;
  r.samples = samples;
  r.variance = sum / static_cast<double>(samples);
  if (!batch_sums.empty()) {
    double m = 0, m2 = 0;
    for (double& s : batch_sums) {
      s /= static_cast<double>(batch);
      m += s / kBatches;
    }
    for (const double s : batch_sums) m2 += (s - m) * (s - m);
    r.variance_stderr = std::sqrt(m2 / (kBatches - 1) / kBatches);
  }
  r.mean_load = mean;
  const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
  r.max_min_difference = *hi - *lo;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

double theorem2_bound(std::size_t nodes, double sigma2, double gamma, std::uint64_t steps_per_period) {
  const double g = std::pow(gamma, static_cast<double>(2 * steps_per_period));
  return g >= 1 ? HUGE_VAL : static_cast<double>(nodes - 1) * sigma2 / (1 - g);
}

double theorem5_bound(std::size_t nodes, double sigma2) { return 2 * static_cast<double>(nodes) * sigma2; }

double hypercube_diffusion_variance(unsigned d, double alpha, std::uint64_t steps_per_period, double sigma2) {
  double total = 0, binomial = 1;  // C(d, k)
  for (unsigned k = 1; k <= d; ++k) {
    binomial = binomial * (d - k + 1) / k;
    const double g = std::pow(1 - 2 * k * alpha, static_cast<double>(2 * steps_per_period));
    if (g >= 1) return HUGE_VAL;
    total += binomial / (1 - g);
  }
  return sigma2 * total;
}

double hypercube_exchange_variance(unsigned d, std::uint64_t steps_per_period, double sigma2) {
  double total = 0;
  for (std::uint64_t m = 0; m < d; m += steps_per_period) total += std::ldexp(1.0, static_cast<int>(d - m)) - 1;
  return sigma2 * total;
}

nlohmann::json to_json(const StochasticResult& r, const StochasticOptions& o) {
  nlohmann::json j = {
      {"arrivals", o.arrivals.to_string()},
      {"mu", o.arrivals.mean()},
      {"sigma2", o.arrivals.variance()},
      {"work", o.work},
      {"periods", r.periods},
      {"warmup", o.warmup},
      {"steps_per_period", o.steps_per_period},
      {"kernel_steps", r.kernel_steps},
      {"samples", r.samples},
      {"variance", r.variance},
      {"variance_stderr", r.variance_stderr},
      {"mean_load", r.mean_load},
      {"expected_mean_load", r.expected_mean_load},
      {"max_min_difference", r.max_min_difference},
      {"seconds", r.seconds},
  };
  if (!r.trace.empty()) j["trace"] = r.trace;
  return j;
}

}  // namespace dlbkit
