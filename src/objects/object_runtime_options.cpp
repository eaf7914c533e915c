#include <dlbkit/core/number.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime_options.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/runtime/detail/command_line.hpp>

#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <string_view>
#include <vector>

namespace dlbkit {

namespace {

std::vector<double> parse_speeds_or_measured(const std::string& value) {
  try {
    return parse_speeds(value, "--speeds");
  } catch (const InputError& e) {
    throw InputError(std::string(e.what()) + ", or measured");
  }
}

}  // namespace

ObjectRuntimeOptions ObjectRuntimeOptions::parse(int argc, const char* const* argv,
                                                 const std::vector<ProgramOption>& program) {
  const ObjectRuntimeOptions d;
  const std::vector<detail::OurOption> ours = {
      {"--engine", "NAME",
       "auto, threads, mpi or sequential, the last one worker without balancing (default auto: mpi when an MPI "
       "launcher started several processes and the program links dlbkit::mpi, else threads)"},
      {"--strategy", "NAME", fmt::format("a name of `dlbkit list phase-strategies`, or none (default {})", d.strategy)},
      {"--param", "NAME=VALUE", "a parameter of the strategy (repeatable)"},
      {"--topology", "SPEC", "the workers' network, one worker per node (default auto: complete:P)"},
      {"--workers", "N", "threads: the worker count, from 1 to 4096 (default one per core); mpi: not given"},
      {"--seed", "S", fmt::format("the strategy's random stream (default {})", d.seed)},
      {"--every", "K", fmt::format("balance after every K-th phase; 0: only on --threshold (default {})", d.every)},
      {"--threshold", "I",
       fmt::format("balance also after a phase whose imbalance max/mean - 1 exceeds I, a number >= 0, or inf "
                   "(default {})",
                   d.threshold)},
      {"--load-model", "MODEL",
       fmt::format("the loads predicted for the next phase: persistence or linear (default {})", d.load_model)},
      {"--load-window", "N", fmt::format("linear: the phases it fits, from 2 to 1000 (default {})", d.load_window)},
      {"--work-model", "M",
       fmt::format("what the strategy weighs: load, or LBAF's work beta=B,gamma=G,delta=D (default {})", d.work_model)},
      {"--speeds", "S0,S1,...|measured",
       "each worker's speed, a number > 0: a load of 1 takes 1/S on a worker of speed S; or measured: estimated "
       "from the times of objects that moved; with a strategy that weighs speeds (default all 1)"},
      {"--record", "STEM", "vt LB data, STEM.R.json for each worker R, written at finish()"},
      {"--timeline", "FILE", "Chrome trace-event JSON of phases and migrations, written at finish()"},
      {"--quiet", "", "no warnings on stderr"}};
  ObjectRuntimeOptions o;
  detail::parse_command_line(argc, argv, program, ours, [&](std::string_view name, const std::string& value) {
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
    } else if (name == "--work-model") {
      o.work_model = value;
    } else if (name == "--speeds") {
      o.measure_speeds = value == "measured";
      if (o.measure_speeds) o.speeds.clear();
      else o.speeds = parse_speeds_or_measured(value);
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
