// Tardiness instance files (read_tardiness_instance, docs/apps/tardiness.md). A valid
// instance writes back to a file that reads, without an error, as the same instance.
#include "contract.hpp"

#include <dlbkit/apps/tardiness.hpp>

#include <optional>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::optional<dlbkit::TardinessInstance> instance;
  dlbkit::fuzz::within_contract([&] {
    std::istringstream in{std::string(dlbkit::fuzz::text_of(data, size))};
    instance = dlbkit::read_tardiness_instance(in, "fuzz");
  });
  if (!instance) return 0;
  // From here on an InputError breaks the contract: it escapes to libFuzzer.
  DLBKIT_FUZZ_CHECK(instance->jobs() >= 1 && instance->jobs() <= dlbkit::kMaxTardinessJobs);
  DLBKIT_FUZZ_CHECK(instance->due.size() == instance->processing.size());
  std::stringstream copy;
  dlbkit::write_tardiness_instance(copy, *instance);
  DLBKIT_FUZZ_CHECK(dlbkit::read_tardiness_instance(copy, "copy") == *instance);
  DLBKIT_FUZZ_CHECK(instance->tardiness(dlbkit::edd_order(*instance)) >= 0);
  return 0;
}
