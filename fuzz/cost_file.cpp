// Cost model files (--cost file:PATH): any bytes either read as a cost model or are refused
// with an InputError, whatever their nesting depth, size or duplicate keys.
#include "contract.hpp"

#include <dlbkit/sim/cost_model.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // The reader opens a path: the input goes through a file of this process's own.
  static const dlbkit::fuzz::ScratchDir scratch("cost-file");
  static const std::string path = scratch.path() + "/cost.json";
  std::ofstream(path, std::ios::binary | std::ios::trunc) << dlbkit::fuzz::text_of(data, size);
  dlbkit::fuzz::within_contract([&] {
    const dlbkit::CostModel m = dlbkit::make_cost_model("file:" + path);
    DLBKIT_FUZZ_CHECK(m.tasks_per_message >= 1);
    (void)m.to_json().dump();
  });
  return 0;
}
