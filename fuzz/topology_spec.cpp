// Topology specs (parse_topology): "hypercube:5", "torus:4x4", "tree:binary:3", ...
// Edge-list files (file:PATH) have a target of their own, edge_list.
#include "contract.hpp"

#include <dlbkit/topology/topology.hpp>

#include <cctype>
#include <optional>

namespace {

// Valid networks up to 2^24 nodes take seconds and gigabytes to build; the limits are the
// generators' and the unit tests check them. The fuzzer skips the specs that name more than
// about 2^16 nodes (or complete graphs of more than 256) and whose numbers all fit in an int
// (a larger one is rejected before any graph is built, so those still run).
bool too_large_to_build(std::string_view spec) {
  const std::string_view family = spec.substr(0, spec.find(':'));
  const bool exponential = family == "hypercube" || family == "tree" || family == "bisectional";
  double product = 1, largest = 0;
  for (std::size_t i = 0; i < spec.size();) {
    if (!std::isdigit(static_cast<unsigned char>(spec[i]))) {
      ++i;
      continue;
    }
    double value = 0;
    for (; i < spec.size() && std::isdigit(static_cast<unsigned char>(spec[i])); ++i) value = value * 10 + (spec[i] - '0');
    if (value > 2147483647.0) return false;
    product *= value;
    largest = std::max(largest, value);
  }
  if (family == "complete") return largest > 256;
  if (family == "odd") return largest > 9;  // C(2n-1, n-1) nodes
  return exponential ? largest > 16 : product > 65536;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string spec(dlbkit::fuzz::text_of(data, size));
  if (!dlbkit::fuzz::command_line_text(spec) || spec.starts_with("file") || too_large_to_build(spec))
    return -1;  // not added to the corpus
  std::optional<dlbkit::Topology> t;
  dlbkit::fuzz::within_contract([&] { t = dlbkit::parse_topology(spec); });
  if (!t) return 0;
  // A valid network: simple and undirected; its canonical spec parses, without an error, to
  // the same network.
  DLBKIT_FUZZ_CHECK(t->size() >= 1);
  std::size_t ends = 0;
  for (dlbkit::NodeId v = 0; v < t->size(); ++v) {
    for (const dlbkit::NodeId u : t->neighbors(v)) {
      DLBKIT_FUZZ_CHECK(u < t->size() && u != v);
      const auto back = t->neighbors(u);
      DLBKIT_FUZZ_CHECK(std::find(back.begin(), back.end(), v) != back.end());
    }
    ends += t->degree(v);
  }
  DLBKIT_FUZZ_CHECK(ends == 2 * t->edge_count());
  const dlbkit::Topology again = dlbkit::parse_topology(t->spec());
  DLBKIT_FUZZ_CHECK(again.spec() == t->spec() && again.size() == t->size() && again.edge_count() == t->edge_count());
  return 0;
}
