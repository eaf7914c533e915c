#include <dlbkit/sim/statistics.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <vector>

namespace dlbkit {

double student_t_975(std::size_t df) {
  assert(df >= 1);
  static constexpr double table[] = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
                                     2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
                                     2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042};
  if (df <= 30) return table[df - 1];
  // Cornish-Fisher expansion around the normal quantile: within 1e-3 beyond 30.
  const double z = 1.959964, v = static_cast<double>(df);
  return z + (z * z * z + z) / (4 * v) + (5 * std::pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * v * v);
}

Estimate confidence_95(std::span<const double> samples) {
  Estimate e;
  e.samples = samples.size();
  if (samples.empty()) return e;
  double sum = 0;
  for (double x : samples) sum += x;
  e.mean = sum / static_cast<double>(samples.size());
  if (samples.size() < 2) return e;
  double sq = 0;
  for (double x : samples) sq += (x - e.mean) * (x - e.mean);
  const double sd = std::sqrt(sq / static_cast<double>(samples.size() - 1));
  e.half_width = student_t_975(samples.size() - 1) * sd / std::sqrt(static_cast<double>(samples.size()));
  return e;
}

double median(std::span<const double> samples) {
  if (samples.empty()) return 0;
  std::vector<double> v(samples.begin(), samples.end());
  const auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace dlbkit
