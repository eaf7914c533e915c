#pragma once
/// \file
/// Confidence intervals from independent replications (AG91 Sec. 6 reports 95 percent
/// intervals): the mean and the half-width t_{0.975, n-1} s / sqrt(n).
///
/// ```
/// std::vector<double> r = {1.02, 0.98, 1.05, 1.01, 0.99};
/// dlbkit::Estimate e = dlbkit::confidence_95(r);   // e.mean = 1.01, e.half_width = 0.034
/// ```
/// Thread-safe: no shared state.

#include <cstddef>
#include <span>

namespace dlbkit {

struct Estimate {
  double mean = 0;
  double half_width = 0;  ///< of the 95% interval; 0 for fewer than two samples
  std::size_t samples = 0;
  double low() const { return mean - half_width; }
  double high() const { return mean + half_width; }
};

/// The 0.975 quantile of Student's t with `df` degrees of freedom (df >= 1).
double student_t_975(std::size_t df);

Estimate confidence_95(std::span<const double> samples);

/// The median (the upper one of an even count); 0 for no samples. For timings on a shared
/// machine, whose long tails would pull a mean.
double median(std::span<const double> samples);

}  // namespace dlbkit
