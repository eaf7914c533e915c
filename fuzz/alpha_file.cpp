// Per-edge alpha files of the diffusion matrix (DiffusionMatrix::from_edge_file, the
// rounds command's --alphas), on a small network chosen by the first byte.
#include "contract.hpp"

#include <dlbkit/analysis/diffusion_matrix.hpp>

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return -1;
  static const char* const kNetworks[] = {"ring:6", "hypercube:3", "torus:3x4", "complete:5"};
  static dlbkit::fuzz::ScratchFile file;
  const std::string& path = file.write(dlbkit::fuzz::text_of(data + 1, size - 1));
  dlbkit::fuzz::within_contract([&] {
    const auto m = dlbkit::DiffusionMatrix::from_edge_file(dlbkit::parse_topology(kNetworks[data[0] % 4]), path);
    // Constraint (b) of Cyb89 Sec. 2: finite alphas >= 0 and diagonals in [0, 1].
    const dlbkit::Topology& t = m.topology();
    for (dlbkit::NodeId v = 0; v < t.size(); ++v) {
      DLBKIT_FUZZ_CHECK(std::isfinite(m.diagonal(v)) && m.diagonal(v) >= 0 && m.diagonal(v) <= 1);
      for (std::size_t i = 0; i < t.degree(v); ++i) DLBKIT_FUZZ_CHECK(std::isfinite(m.alpha(v, i)) && m.alpha(v, i) >= 0);
    }
  });
  return 0;
}
