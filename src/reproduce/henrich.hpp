#pragma once
/// \file
/// The reproductions of Henrich, "The Liquid Model Load Balancing Method" (Sec. 4-5):
///
/// | name | what |
/// |---|---|
/// | henrich-table3 | Table 3: ring of 8, 16 elements on one processor, LM-C5 and NNA step by step |
/// | henrich-fig5 | Fig. 5: rings P = 8..4096 (NNA and LM-C3..C5 on to 16384), c = 5: shifts to balancing and to sharing of NNA and LM-C0..C5, NNA/LM ratios, fitted growth |
/// | henrich-fig5-large | Fig. 5 on to P = 65536 for NNA and LM-C3..C5 (about 7 minutes) |
/// | henrich-fig6 | Fig. 6: NNA iterations to balance against P for several c, normalised at P = 512 |
/// | henrich-fig7 | Fig. 7: square 2-D tori, worst case (c = 5) and uniform random 0..100, LM-C3..C5 |
/// | henrich-theorem3 | Theorem 3: measured shifts to balance against D K L_diff on 1-, 2- and 3-D tori |
///
/// Each runs at the sizes given by HenrichSizes (the registered ones use the defaults; tests
/// pass small ones).
///
/// ```
/// for (dlbkit::ReproductionInfo& r : dlbkit::henrich_reproductions()) registry.add(std::move(r));
/// auto report = dlbkit::henrich_fig5({.out_dir = "out"}, {.fig5_max_p = 64, .fig5_long_max_p = 128});
/// ```

#include "reproduce/reproduction.hpp"

#include <vector>

namespace dlbkit {

struct HenrichSizes {
  std::size_t fig5_max_p = 4096;      ///< rings 8, 16, ..., this for every method
  std::size_t fig5_long_max_p = 16384;  ///< NNA (default reading) and LM-C3..C5 on to this
  std::size_t fig6_max_p = 1024;      ///< rings 8, 16, ..., this (>= 512: the normalisation point)
  int fig7_max_k = 128;               ///< square tori K x K, K = 4, 8, ..., this
  int theorem3_max_k = 64;            ///< tori of K, K^2, K^3 up to this K per dimension (D = 3: at most 16)
};

std::vector<ReproductionInfo> henrich_reproductions();

ReproductionResult henrich_table3(const ReproductionOptions& options);
ReproductionResult henrich_fig5(const ReproductionOptions& options, const HenrichSizes& sizes);
ReproductionResult henrich_fig6(const ReproductionOptions& options, const HenrichSizes& sizes);
ReproductionResult henrich_fig7(const ReproductionOptions& options, const HenrichSizes& sizes);
ReproductionResult henrich_theorem3(const ReproductionOptions& options, const HenrichSizes& sizes);

}  // namespace dlbkit
