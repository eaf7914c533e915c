// Edge-list files (docs/topology-files.md) through parse_topology("file:PATH").
#include "contract.hpp"

#include <dlbkit/topology/topology.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static dlbkit::fuzz::ScratchFile file;
  const std::string& path = file.write(dlbkit::fuzz::text_of(data, size));
  dlbkit::fuzz::within_contract([&] {
    const dlbkit::Topology t = dlbkit::parse_topology("file:" + path);
    // A valid network: simple, undirected and connected.
    DLBKIT_FUZZ_CHECK(t.size() >= 1);
    for (dlbkit::NodeId v = 0; v < t.size(); ++v) {
      for (const dlbkit::NodeId u : t.neighbors(v)) {
        DLBKIT_FUZZ_CHECK(u < t.size() && u != v);
        const auto back = t.neighbors(u);
        DLBKIT_FUZZ_CHECK(std::find(back.begin(), back.end(), v) != back.end());
      }
    }
    for (const int d : t.bfs_distances(0)) DLBKIT_FUZZ_CHECK(d >= 0);
  });
  return 0;
}
