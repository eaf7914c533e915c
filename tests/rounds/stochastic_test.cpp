// The stochastic work model of Cyb89 eqs. (12) and (17): measured variance against Theorems 2
// and 5 and the exact stationary values, mean load, reproducibility, arrival specs, CLI.

#include <dlbkit/error.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>
#include <dlbkit/rounds/dimension_exchange.hpp>
#include <dlbkit/rounds/stochastic.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <sys/wait.h>

using namespace dlbkit;

namespace {

StochasticResult diffusion_run(unsigned d, const std::string& arrivals, double work, std::uint64_t periods,
                               std::uint64_t seed) {
  const Topology cube = parse_topology("hypercube:" + std::to_string(d));
  std::vector<double> w(cube.size(), 0.0);
  return run_stochastic(DiffusionKernel(DiffusionMatrix::uniform(cube, 1.0 / (d + 1))), w,
                        {.arrivals = ArrivalDistribution::parse(arrivals), .work = work, .periods = periods,
                         .warmup = 100},
                        seed);
}

StochasticResult exchange_run(unsigned d, std::uint64_t steps_per_period, std::uint64_t periods) {
  const Topology cube = parse_topology("hypercube:" + std::to_string(d));
  std::vector<double> w(cube.size(), 0.0);
  return run_stochastic(DimensionExchangeKernel::hypercube(cube), w,
                        {.arrivals = ArrivalDistribution::parse("uniform:0:6"), .work = 3, .periods = periods,
                         .warmup = 100, .steps_per_period = steps_per_period},
                        5);
}

std::string error_of(const std::string& spec) {
  try {
    ArrivalDistribution::parse(spec);
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// The theory the tests check against: with gamma = 1 - 2/(d+1), Theorem 2's (n-1) sigma^2 /
// (1 - gamma^2) is the exact stationary value when every nontrivial eigenvalue has modulus
// gamma (the 2-cube: eigenvalues 1/3, 1/3, -1/3) and an upper bound otherwise (the 3-cube:
// 1/2 three times, 0 three times, -1/2: 25/3 exact against 28/3).
TEST(StochasticTheory, ExactValuesAgainstTheBounds) {
  EXPECT_NEAR(hypercube_diffusion_variance(2, 1.0 / 3, 1, 1.0), theorem2_bound(4, 1.0, 1.0 / 3), 1e-12);
  EXPECT_NEAR(theorem2_bound(4, 1.0, 1.0 / 3), 3.375, 1e-12);
  EXPECT_NEAR(hypercube_diffusion_variance(3, 0.25, 1, 1.0), 25.0 / 3, 1e-12);
  EXPECT_NEAR(theorem2_bound(8, 1.0, 0.5), 28.0 / 3, 1e-12);
  EXPECT_NEAR(hypercube_diffusion_variance(3, 0.25, 1, 2.0), 50.0 / 3, 1e-12);  // scales with sigma^2
  EXPECT_TRUE(std::isinf(theorem2_bound(8, 1.0, 1.0)));
  for (unsigned d = 1; d <= 10; ++d) {
    const double n = std::ldexp(1.0, static_cast<int>(d));
    EXPECT_EQ(hypercube_exchange_variance(d, 1, 1.0), 2 * n - d - 2) << d;
    EXPECT_LE(hypercube_exchange_variance(d, 1, 1.0), theorem5_bound(static_cast<std::size_t>(n), 1.0)) << d;
    EXPECT_EQ(hypercube_exchange_variance(d, d, 1.0), n - 1) << d;
    EXPECT_LT(hypercube_diffusion_variance(d, 1.0 / (d + 1), 1, 1.0),
              theorem2_bound(static_cast<std::size_t>(n), 1.0, 1 - 2.0 / (d + 1)) + 1e-9)
        << d;
  }
}

// Standard errors here are about 0.2% of the value, so 4 standard errors and 3% are both
// far inside the gap to a broken kernel and to the bound on the 3-cube (12%).
TEST(Stochastic, DiffusionVarianceMatchesTheorem2) {
  const StochasticResult two = diffusion_run(2, "normal:1:1", 1, 200000, 3);
  const double bound2 = theorem2_bound(4, 1.0, 1.0 / 3);
  EXPECT_EQ(two.samples, 199900u);
  EXPECT_GT(two.variance_stderr, 0);
  EXPECT_LT(two.variance_stderr, 0.01 * bound2);
  EXPECT_NEAR(two.variance, bound2, 4 * two.variance_stderr);  // Theorem 2 exact here
  EXPECT_NEAR(two.variance, bound2, 0.03 * bound2);

  const StochasticResult three = diffusion_run(3, "uniform:0:2", 1, 200000, 4);  // sigma^2 = 1/3
  const double bound3 = theorem2_bound(8, 1.0 / 3, 0.5), exact3 = hypercube_diffusion_variance(3, 0.25, 1, 1.0 / 3);
  EXPECT_LT(three.variance, bound3);
  EXPECT_GT(three.variance, 0.85 * bound3);
  EXPECT_NEAR(three.variance, exact3, 4 * three.variance_stderr);
  EXPECT_NEAR(three.variance, exact3, 0.03 * exact3);
}

TEST(Stochastic, DimensionExchangeStaysBelowTheorem5) {
  for (unsigned d : {3u, 4u}) {
    const double n = std::ldexp(1.0, static_cast<int>(d)), sigma2 = 3;  // uniform:0:6
    const StochasticResult b = exchange_run(d, 1, 100000);              // eq. (17)
    EXPECT_LT(b.variance, theorem5_bound(static_cast<std::size_t>(n), sigma2)) << d;
    EXPECT_NEAR(b.variance, (2 * n - d - 2) * sigma2, 0.03 * (2 * n - d - 2) * sigma2) << d;
    const StochasticResult sweep = exchange_run(d, d, 50000);  // a full sweep per arrival
    EXPECT_EQ(sweep.kernel_steps, 50000u * d);
    EXPECT_NEAR(sweep.variance, (n - 1) * sigma2, 0.03 * (n - 1) * sigma2) << d;
  }
}

TEST(Stochastic, MeanLoadMovesByMuMinusC) {
  // Without randomness the mean moves by exactly mu - c per period (Theorem 2's E(w)).
  for (const auto& [spec, work] : {std::pair{"normal:2:0", 1.0}, {"normal:1:0", 1.0}, {"uniform:0.5:0.5", 1.5}}) {
    const StochasticResult r = diffusion_run(4, spec, work, 1000, 1);
    EXPECT_NEAR(r.mean_load, r.expected_mean_load, 1e-9 * (1 + std::abs(r.expected_mean_load))) << spec;
    EXPECT_NEAR(r.variance, 0, 1e-18) << spec;
  }
  EXPECT_NEAR(diffusion_run(4, "normal:2:0", 1, 1000, 1).expected_mean_load, 1000, 1e-9);
  EXPECT_NEAR(diffusion_run(4, "uniform:0.5:0.5", 1.5, 1000, 1).expected_mean_load, -1000, 1e-9);
  // With sigma = 1 the mean is a random walk with standard deviation sqrt(periods / n) = 7.9.
  const StochasticResult grows = diffusion_run(4, "normal:2:1", 1, 1000, 2);
  EXPECT_NEAR(grows.mean_load, 1000, 40);
  const StochasticResult stays = diffusion_run(4, "exponential:1", 1, 1000, 2);
  EXPECT_NEAR(stays.mean_load, 0, 40);
  EXPECT_EQ(stays.expected_mean_load, 0);
}

TEST(Stochastic, ReproducibleWithASeed) {
  const StochasticResult a = diffusion_run(3, "normal:1:1", 1, 2000, 9), b = diffusion_run(3, "normal:1:1", 1, 2000, 9);
  const StochasticResult c = diffusion_run(3, "normal:1:1", 1, 2000, 10);
  EXPECT_EQ(a.variance, b.variance);
  EXPECT_EQ(a.mean_load, b.mean_load);
  EXPECT_NE(a.variance, c.variance);
}

TEST(Stochastic, TraceRecordsEveryPeriod) {
  const Topology cube = parse_topology("hypercube:2");
  std::vector<double> w{4, 0, 0, 0};
  const StochasticResult r = run_stochastic(
      DiffusionKernel(DiffusionMatrix::uniform(cube, 1.0 / 3)), w,
      {.arrivals = ArrivalDistribution::parse("normal:0:0"), .periods = 3, .warmup = 1, .trace = true}, 1);
  ASSERT_EQ(r.trace.size(), 4u);
  EXPECT_NEAR(r.trace[0], 12, 1e-12);       // ||(3, -1, -1, -1)||^2
  EXPECT_NEAR(r.trace[1], 12.0 / 9, 1e-12);  // one step of M shrinks it by 1/3: gamma^2 = 1/9
  EXPECT_NEAR(r.variance, (r.trace[2] + r.trace[3]) / 2, 1e-15);
}

TEST(ArrivalDistribution, MomentsOfTheDraws) {
  for (const char* spec : {"normal:3:2", "uniform:-1:5", "exponential:2.5"}) {
    const ArrivalDistribution a = ArrivalDistribution::parse(spec);
    EXPECT_EQ(a.to_string(), spec);
    Rng rng(11);
    double sum = 0, squares = 0;
    constexpr int kDraws = 200000;
    for (int i = 0; i < kDraws; ++i) {
      const double x = a.draw(rng);
      sum += x;
      squares += x * x;
    }
    const double mean = sum / kDraws, variance = squares / kDraws - mean * mean;
    EXPECT_NEAR(mean, a.mean(), 0.02 * std::sqrt(a.variance()) + 1e-12) << spec;
    EXPECT_NEAR(variance, a.variance(), 0.03 * a.variance()) << spec;
  }
  EXPECT_EQ(ArrivalDistribution::parse("uniform:-1:5").variance(), 3);
  EXPECT_EQ(ArrivalDistribution::parse("exponential:2.5").variance(), 6.25);
}

TEST(ArrivalDistribution, BadSpecsNameTheValue) {
  EXPECT_NE(error_of("normal:1:-2").find("SIGMA -2"), std::string::npos) << error_of("normal:1:-2");
  EXPECT_NE(error_of("uniform:3:1").find("LO 3 is above HI 1"), std::string::npos) << error_of("uniform:3:1");
  EXPECT_NE(error_of("exponential:0").find("MEAN 0"), std::string::npos) << error_of("exponential:0");
  EXPECT_NE(error_of("normal:x:1").find("MU 'x'"), std::string::npos) << error_of("normal:x:1");
  EXPECT_NE(error_of("normal:1:inf").find("SIGMA 'inf'"), std::string::npos) << error_of("normal:1:inf");
  EXPECT_NE(error_of("normal:1").find("'normal:1'"), std::string::npos) << error_of("normal:1");
  EXPECT_NE(error_of("poisson:3").find("'poisson:3'"), std::string::npos) << error_of("poisson:3");
  EXPECT_NE(error_of("").find("accepted: normal:MU:SIGMA"), std::string::npos) << error_of("");
}

TEST(Stochastic, BadOptionsAreInputErrors) {
  const Topology cube = parse_topology("hypercube:2");
  const DiffusionKernel k(DiffusionMatrix::uniform(cube, 1.0 / 3));
  std::vector<double> w(4, 0.0), short_w(3, 0.0);
  const ArrivalDistribution a = ArrivalDistribution::parse("normal:1:1");
  EXPECT_THROW(run_stochastic(k, w, {.arrivals = a, .periods = 10, .warmup = 10}, 1), InputError);
  EXPECT_THROW(run_stochastic(k, w, {.arrivals = a, .periods = 10, .steps_per_period = 0}, 1), InputError);
  EXPECT_THROW(run_stochastic(k, w, {.arrivals = a, .work = -1, .periods = 10}, 1), InputError);
  EXPECT_THROW(run_stochastic(k, short_w, {.arrivals = a, .periods = 10}, 1), InputError);
}

namespace {

std::pair<int, std::string> cli(const std::string& args) {
  const std::string command = std::string(DLBKIT_CLI) + " " + args + " 2>&1";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return {-1, out};
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) out.append(buffer.data(), n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace

TEST(StochasticCli, ReportsVarianceAndBound) {
  const auto [status, out] = cli(
      "rounds --algorithm dimension-exchange --topology hypercube:3 --init spike:0 --until steps:20000 "
      "--arrivals normal:1:2 --work 1 --warmup 50 --json");
  ASSERT_EQ(status, 0) << out;
  const nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["bound_theorem"], "Theorem 5");
  EXPECT_EQ(j["bound"], 64.0);                        // 2 n sigma^2
  EXPECT_EQ(j["exact_stationary_variance"], 44.0);    // (2n - d - 2) sigma^2
  EXPECT_NEAR(j["variance"].get<double>(), 44.0, 2.0);
  EXPECT_EQ(j["samples"], 19950);
  EXPECT_EQ(j["sigma2"], 4.0);

  const auto [d_status, d_out] = cli(
      "rounds --algorithm diffusion --topology hypercube:2 --init spike:0 --until steps:1000 --arrivals uniform:0:1");
  EXPECT_EQ(d_status, 0) << d_out;
  EXPECT_NE(d_out.find("bound (Theorem 2)"), std::string::npos) << d_out;
}

TEST(StochasticCli, BadInputIsOneLine) {
  for (const auto& [args, needle] :
       {std::pair{"--arrivals normal:1:-3", "SIGMA -3"}, {"--arrivals gauss:1", "'gauss:1'"},
        {"--arrivals normal:1:1 --work -2", "work per period -2"}, {"--arrivals normal:1:1 --work x", "--work 'x'"},
        {"--arrivals normal:1:1 --integer", "--integer"}}) {
    const auto [status, out] =
        cli(std::string("rounds --algorithm diffusion --topology hypercube:2 --init spike --until steps:10 ") + args);
    EXPECT_EQ(status, 2) << args << "\n" << out;
    EXPECT_NE(out.find(needle), std::string::npos) << args << "\n" << out;
    EXPECT_EQ(out.find('\n'), out.size() - 1) << args << "\n" << out;
  }
  const auto [status, out] =
      cli("rounds --algorithm diffusion --topology hypercube:2 --init spike --until eps:0.1 --arrivals normal:1:1");
  EXPECT_EQ(status, 2) << out;
  EXPECT_NE(out.find("steps:N"), std::string::npos) << out;
}

TEST(ArrivalDistribution, ASpreadWhoseSquareOverflowsIsRefused) {
  // exponential:1e308 printed sigma^2 inf with exit 0.
  for (const char* spec : {"exponential:1e308", "normal:0:1e200", "uniform:-1e308:1e308", "uniform:1e308:1.7e308"})
    EXPECT_NE(error_of(spec).find("overflows a double"), std::string::npos) << spec << ": " << error_of(spec);
  EXPECT_EQ(error_of("exponential:1e100"), "no error");
}
