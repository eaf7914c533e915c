#pragma once
/// \file
/// The reproductions of Cybenko 1989 (Cyb89) on the hypercube:
///
/// | name | what |
/// |---|---|
/// | cybenko-table1 | Table I: the contraction C of ||w - w_bar|| within 2d communication steps, diffusion under models A and B and dimension exchange, d = 2..16 |
/// | cybenko-hypercube | eq. 15-16: (1 - 2/(d+1))^d against d = 2..20, approaching e^-2 |
///
/// ```
/// for (dlbkit::ReproductionInfo& r : dlbkit::cybenko_reproductions()) registry.add(std::move(r));
/// ```

#include "reproduce/reproduction.hpp"

#include <vector>

namespace dlbkit {

std::vector<ReproductionInfo> cybenko_reproductions();

}  // namespace dlbkit
