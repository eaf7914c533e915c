// Cost-model presets and overrides (make_cost_model, --cost and --cost-param): the first
// line names the preset, every further line is one field=value override.
#include "contract.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <nlohmann/json.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (!dlbkit::fuzz::command_line_text(dlbkit::fuzz::text_of(data, size))) return -1;
  std::vector<std::string> lines = dlbkit::fuzz::lines_of(dlbkit::fuzz::text_of(data, size));
  if (lines.empty()) return -1;
  const std::string preset = lines.front();
  lines.erase(lines.begin());
  dlbkit::fuzz::within_contract([&] {
    const dlbkit::CostModel m = dlbkit::make_cost_model(preset, dlbkit::assignments(lines, "fuzz"));
    // Times are never negative and a task message carries at least one task.
    for (const dlbkit::SimTime t : {m.loop_time, m.poll_interval, m.send_overhead, m.handle_cost, m.latency, m.per_hop, m.per_task})
      DLBKIT_FUZZ_CHECK(t >= 0);
    DLBKIT_FUZZ_CHECK(m.tasks_per_message >= 1);
    (void)m.to_json().dump();
  });
  return 0;
}
