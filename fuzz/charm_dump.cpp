// Charm++'s +LBDump files (phases/charm_dump.hpp): any bytes either read as a phase that
// check_phase accepts and that reads back the same once written as vt's LB data, or refused
// with an InputError.
#include "contract.hpp"

#include <dlbkit/phases/charm_dump.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <filesystem>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static dlbkit::fuzz::ScratchFile file;
  static const dlbkit::fuzz::ScratchDir scratch("charm-dump");
  const std::string& out = scratch.path();
  const std::string& path = file.write(dlbkit::fuzz::text_of(data, size));
  dlbkit::fuzz::within_contract([&] {
    const dlbkit::CharmDump dump = dlbkit::read_charm_dump(path);
    dlbkit::check_phase(dump.phase, "fuzzed dump");
    DLBKIT_FUZZ_CHECK(dump.processors.size() == dump.phase.nodes);
    std::filesystem::remove_all(out);  // no rank files of an earlier input with more PEs
    std::filesystem::create_directories(out);
    dlbkit::write_vt_phases({dump.phase}, out + "/run");
    const dlbkit::VtDataSet written = dlbkit::read_vt_data(out + "/run");
    const dlbkit::Phase& again = dlbkit::vt_phase(written, 0).phase;
    DLBKIT_FUZZ_CHECK(again.objects.size() == dump.phase.objects.size());
    DLBKIT_FUZZ_CHECK(again.communications.size() == dump.phase.communications.size());
  });
  return 0;
}
