#include <dlbkit/core/number.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime_options.hpp>
#include <dlbkit/runtime/detail/command_line.hpp>

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <string_view>

namespace dlbkit {

ObjectRuntimeOptions ObjectRuntimeOptions::parse(int argc, const char* const* argv,
                                                 const std::vector<ProgramOption>& program) {
  constexpr std::string_view kOurs[] = {"--engine", "--strategy", "--param",  "--topology", "--workers", "--seed",
                                        "--every",  "--threshold", "--load-model", "--load-window", "--record", "--timeline",
                                        "--quiet"};
  constexpr std::string_view kFlags[] = {"--quiet"};
  ObjectRuntimeOptions o;
  detail::parse_command_line(argc, argv, program, kOurs, kFlags, [&](std::string_view name, const std::string& value) {
    if (detail::read_runtime_option(name, value, o)) return;
    if (name == "--every") {
      o.every = parse_unsigned(value, "--every", 1'000'000'000);
    } else if (name == "--threshold") {
      double t = 0;
      if (value == "inf") t = std::numeric_limits<double>::infinity();
      else if (!parse_number(value, t) || !(t >= 0))
        throw InputError(fmt::format("--threshold '{}'; accepted: a number >= 0, or inf", value));
      o.threshold = t;
    } else if (name == "--load-model") {
      if (value != "persistence" && value != "linear")
        throw InputError(fmt::format("--load-model '{}'; accepted: persistence, linear", value));
      o.load_model = value;
    } else if (name == "--load-window") {
      o.load_window = parse_unsigned(value, "--load-window", 1000);
      if (o.load_window < 2)
        throw InputError(fmt::format("--load-window '{}'; accepted: an integer from 2 to 1000", value));
    } else if (name == "--record") {
      o.record = value;
    } else if (name == "--timeline") {
      o.timeline = value;
    } else {
      o.quiet = true;
    }
  });
  return o;
}

}  // namespace dlbkit
