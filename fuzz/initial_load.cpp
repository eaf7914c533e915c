// Initial loads of the round loop (continuous_initial_load, integer_initial_load): the
// first byte picks the node count (1 to 64) and whether the rest is a spec (spike:AMOUNT,
// uniform:MAX) or the contents of a file:PATH load file.
#include "contract.hpp"

#include <dlbkit/rounds/initial_load.hpp>

#include <cmath>

namespace {

template <class Load>
void check(const std::vector<Load>& w, std::size_t nodes) {
  DLBKIT_FUZZ_CHECK(w.size() == nodes);
  for (const Load x : w) DLBKIT_FUZZ_CHECK(std::isfinite(static_cast<double>(x)) && x >= 0);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return -1;
  static dlbkit::fuzz::ScratchFile file;
  const std::size_t nodes = data[0] % 64 + 1;
  const std::string_view rest = dlbkit::fuzz::text_of(data + 1, size - 1);
  std::string spec;
  if (data[0] & 64) {
    spec = "file:" + file.write(rest);
  } else {
    spec = rest;
    // A path is left out: the fuzzer writes the files itself.
    if (!dlbkit::fuzz::command_line_text(spec) || spec.starts_with("file")) return -1;
  }
  dlbkit::fuzz::within_contract([&] { check(dlbkit::continuous_initial_load(spec, nodes, 7), nodes); });
  dlbkit::fuzz::within_contract([&] { check(dlbkit::integer_initial_load(spec, nodes, 7), nodes); });
  return 0;
}
