#pragma once
/// \file
/// The reproduction cybenko-table2: Cyb89 Table II, the asymptotic variance E||w - w_bar||^2 of
/// diffusion (alpha = 1/(d+1)) and dimension exchange on hypercubes under the stochastic work
/// model of eqs. (12) and (17), in communication models A and B (Sec. 5), measured beside the
/// paper's (1/4) n log n sigma^2, n sigma^2 and 2 n sigma^2.
///
/// ```
/// dlbkit::ReproductionResult r = dlbkit::cybenko_table2_reproduction().run({.out_dir = "out/cybenko-table2"});
/// ```

#include "reproduce/reproduction.hpp"

namespace dlbkit {

ReproductionInfo cybenko_table2_reproduction();

}  // namespace dlbkit
