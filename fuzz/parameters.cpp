// name=value parameters (split_assignment, assignments, Parameters::parse): one item per
// line, checked against a table picked by the first byte: a table with every ParamType
// (and inf, auto), or the parameters of a built-in strategy, workload or the cost model.
// A valid value is of its type and within its declared bounds.
#include "contract.hpp"

#include <dlbkit/workloads/builtin_workloads.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/sim/cost_model.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <nlohmann/json.hpp>

#include <cmath>

namespace {

using dlbkit::ParamSpec;
using dlbkit::ParamType;

std::vector<std::vector<ParamSpec>> tables() {
  std::vector<std::vector<ParamSpec>> out = {{
      {.name = "count", .type = ParamType::integer, .default_value = "1", .min = 1, .max = 1e6, .allow_auto = true},
      {.name = "ratio", .type = ParamType::real, .default_value = "0.5", .min = 0, .max = 1},
      {.name = "limit", .type = ParamType::real, .default_value = "inf", .min = 0, .allow_inf = true},
      {.name = "delay", .type = ParamType::duration, .default_value = "1ms", .min = 0, .max = 1e12},
      {.name = "flag", .type = ParamType::boolean, .default_value = "false"},
      {.name = "mode", .type = ParamType::choice, .default_value = "sender", .choices = {"sender", "receiver"}},
      {.name = "tree", .type = ParamType::text, .default_value = "T1"},
  }};
  for (const auto& s : dlbkit::builtin_strategies().all()) out.push_back(s.params);
  for (const auto& w : dlbkit::builtin_workloads().all()) out.push_back(w.params);
  out.push_back(dlbkit::cost_model_params());
  return out;
}

void check(const std::vector<ParamSpec>& specs, const dlbkit::Parameters& p) {
  for (const ParamSpec& s : specs) {
    if (p.is_auto(s.name)) {
      DLBKIT_FUZZ_CHECK(s.allow_auto);
      continue;
    }
    switch (s.type) {
      case ParamType::integer:
      case ParamType::real:
      case ParamType::duration: {
        const double v = s.type == ParamType::duration ? static_cast<double>(p.duration(s.name)) : p.real(s.name);
        DLBKIT_FUZZ_CHECK(!std::isnan(v));
        DLBKIT_FUZZ_CHECK((s.allow_inf && std::isinf(v)) || (v >= s.min && v <= s.max));
        if (s.type == ParamType::integer) DLBKIT_FUZZ_CHECK(std::isinf(v) || static_cast<double>(p.integer(s.name)) == v);
        break;
      }
      case ParamType::boolean: (void)p.boolean(s.name); break;
      case ParamType::choice:
        DLBKIT_FUZZ_CHECK(std::find(s.choices.begin(), s.choices.end(), p.text(s.name)) != s.choices.end());
        break;
      case ParamType::text: break;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::vector<std::vector<ParamSpec>> kTables = tables();
  if (size == 0 || !dlbkit::fuzz::command_line_text(dlbkit::fuzz::text_of(data + 1, size - 1))) return -1;
  const std::vector<ParamSpec>& specs = kTables[data[0] % kTables.size()];
  const std::vector<std::string> items = dlbkit::fuzz::lines_of(dlbkit::fuzz::text_of(data + 1, size - 1));
  dlbkit::fuzz::within_contract([&] {
    const dlbkit::Parameters p = dlbkit::Parameters::parse(specs, dlbkit::assignments(items, "fuzz"), "fuzz");
    check(specs, p);
    (void)p.to_json();
    (void)p.to_string();
  });
  return 0;
}
