// vt LB data files (phases/vt_data.hpp): any bytes as a one-rank data set, plain or
// brotli-compressed, either read as phases that check_phase accepts and that read back the
// same once written, or refused with an InputError.
#include "contract.hpp"

#include <dlbkit/phases/vt_data.hpp>

#include <fstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The reader opens files: the input goes to this process's own folder.
  static const dlbkit::fuzz::ScratchDir scratch("vt-data");
  const std::string& dir = scratch.path();
  std::ofstream(dir + "/in.0.json", std::ios::binary | std::ios::trunc) << dlbkit::fuzz::text_of(data, size);
  dlbkit::fuzz::within_contract([&] {
    const dlbkit::VtDataSet set = dlbkit::read_vt_data(dir + "/in");
    DLBKIT_FUZZ_CHECK(set.ranks == 1);
    for (const dlbkit::VtPhase& phase : set.phases) {
      dlbkit::check_phase(phase.phase, "fuzzed phase");
      dlbkit::write_vt_data(set, phase.id, phase.phase.node_of, dir + "/out");
      const dlbkit::VtDataSet written = dlbkit::read_vt_data(dir + "/out");
      const dlbkit::VtPhase& again = dlbkit::vt_phase(written, phase.id);
      DLBKIT_FUZZ_CHECK(again.phase.objects.size() == phase.phase.objects.size());
      DLBKIT_FUZZ_CHECK(again.phase.communications.size() == phase.phase.communications.size());
    }
  });
  return 0;
}
